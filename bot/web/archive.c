#include "bot/web/archive.h"

#include <string.h>

#include "bot/web/escape.h"
#include "mailparse/listid.h"

/* @t with %s replaced by @id and %% by %. */
static char *fill(const char *t, const char *id)
{
	GString *out = g_string_new(NULL);

	for (; *t; t++) {
		if (*t != '%') {
			g_string_append_c(out, *t);
		} else if (t[1] == 's') {
			g_string_append(out, id);
			t++;
		} else if (t[1] == '%') {
			g_string_append_c(out, '%');
			t++;
		} else {
			g_string_append_c(out, '%');
		}
	}
	return g_string_free(out, FALSE);
}

char *web_archive_url(const char *const *templates, const char *address,
		      const char *message_id)
{
	const char *any = NULL, *mine = NULL;
	g_autofree char *bare = NULL;
	g_autofree char *id = NULL;
	gsize len;

	if (!templates || !message_id || !*message_id)
		return NULL;
	for (guint i = 0; templates[i]; i++) {
		const char *sp = strchr(templates[i], ' ');
		gsize n = sp ? (gsize)(sp - templates[i]) : 0;

		if (!sp)
			continue;
		if (n == 1 && templates[i][0] == '*')
			any = any ? any : sp + 1;
		else if (address && strlen(address) == n &&
			 !g_ascii_strncasecmp(templates[i], address, n))
			mine = mine ? mine : sp + 1;
	}
	if (!mine)
		mine = any;
	if (!mine)
		return NULL;
	len = strlen(message_id);
	if (message_id[0] == '<' && len > 2 && message_id[len - 1] == '>')
		bare = g_strndup(message_id + 1, len - 2);
	else
		bare = g_strdup(message_id);
	/* '@' stays as lore writes it; '/' and the rest are encoded */
	id = g_uri_escape_string(bare, "@!$&'()*+,;=:", FALSE);
	return fill(mine, id);
}

void web_archive_list_append(GString *out, const char *list_id)
{
	g_autofree char *address = listid_to_address(list_id);

	g_string_append(out, "<span class=\"list\" title=\"List-Id: ");
	web_escape_append(out, list_id);
	g_string_append(out, "\">");
	web_escape_append(out, address ? address : list_id);
	g_string_append(out, "</span>");
}
