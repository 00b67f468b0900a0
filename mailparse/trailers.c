#include "mailparse/trailers.h"

#include <string.h>

void trailer_free(struct trailer *t)
{
	if (!t)
		return;
	g_free(t->name);
	g_free(t->value);
	g_free(t);
}

enum value_form { PERSON, COMMIT, URL };

/* The tags b4 collects from follow-ups (b4's DEFAULT_TRAILER_ORDER and
 * the kernel's submitting-patches.rst). */
static const struct {
	const char *name;
	enum value_form form;
} known[] = {
	{ "Fixes", COMMIT },
	{ "Reported-by", PERSON },
	{ "Suggested-by", PERSON },
	{ "Co-developed-by", PERSON },
	{ "Signed-off-by", PERSON },
	{ "Acked-by", PERSON },
	{ "Reviewed-by", PERSON },
	{ "Tested-by", PERSON },
	{ "Link", URL },
	{ "Closes", URL },
};

static gboolean value_fits(const char *value, enum value_form form)
{
	switch (form) {
	case PERSON: {
		const char *at = strchr(value, '@');

		/* "Name <a@b.c>" or a bare address, and nothing after it */
		if (!at || at == value)
			return FALSE;
		if (strchr(value, '<'))
			return strchr(at, '>') != NULL;
		return !strchr(value, ' ');
	}
	case COMMIT: {
		gsize n = 0;

		while (g_ascii_isxdigit(value[n]))
			n++;
		return n >= 8 && (!value[n] || value[n] == ' ');
	}
	case URL:
		return g_str_has_prefix(value, "http://") ||
		       g_str_has_prefix(value, "https://");
	}
	return FALSE;
}

GPtrArray *trailers_parse(const char *text)
{
	GPtrArray *out =
		g_ptr_array_new_with_free_func((GDestroyNotify)trailer_free);
	g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);

	for (guint i = 0; lines[i]; i++) {
		const char *line = lines[i];
		const char *colon = strchr(line, ':');

		if (!colon || *line == '>' || g_ascii_isspace(*line))
			continue;
		for (gsize k = 0; k < G_N_ELEMENTS(known); k++) {
			gsize n = strlen(known[k].name);
			g_autofree char *value = NULL;

			if ((gsize)(colon - line) != n ||
			    g_ascii_strncasecmp(line, known[k].name, n))
				continue;
			value = g_strstrip(g_strdup(colon + 1));
			if (value_fits(value, known[k].form)) {
				struct trailer *t = g_new(struct trailer, 1);

				t->name = g_strdup(known[k].name);
				t->value = g_steal_pointer(&value);
				g_ptr_array_add(out, t);
			}
			break;
		}
	}
	return out;
}

static char *info_value(const char *line, const char *name)
{
	gsize n = strlen(name);

	if (g_ascii_strncasecmp(line, name, n) || line[n] != ':')
		return NULL;
	return g_strstrip(g_strdup(line + n + 1));
}

void trailers_info_parse(struct trailers_info *out, const char *text)
{
	const char *p = text ? text : "";
	const char *end = p + strlen(p);

	if (!out->prerequisite_patch_ids)
		out->prerequisite_patch_ids =
			g_ptr_array_new_with_free_func(g_free);
	if (!out->prerequisite_message_ids)
		out->prerequisite_message_ids =
			g_ptr_array_new_with_free_func(g_free);
	/* line by line with memchr(): a whole patch goes through here, and
	 * a split by strstr() rescans the rest of the text under ASan */
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		g_autofree char *line = g_strndup(p, (nl ? nl : end) - p);
		char *v;

		p = nl ? nl + 1 : end;
		g_strchomp(line);
		if ((v = info_value(line, "base-commit"))) {
			if (!out->base_commit && *v)
				out->base_commit = v;
			else
				g_free(v);
		} else if ((v = info_value(line, "change-id"))) {
			if (!out->change_id && *v)
				out->change_id = v;
			else
				g_free(v);
		} else if ((v = info_value(line, "Supersedes"))) {
			if (!out->supersedes)
				out->supersedes = v;
			else
				g_free(v);
		} else if ((v = info_value(line, "Based-on"))) {
			if (!out->based_on)
				out->based_on = v;
			else
				g_free(v);
		} else if ((v = info_value(line, "prerequisite-patch-id"))) {
			g_ptr_array_add(out->prerequisite_patch_ids, v);
		} else if ((v = info_value(line, "prerequisite-message-id"))) {
			gsize len = strlen(v);

			if (len > 2 && v[0] == '<' && v[len - 1] == '>') {
				memmove(v, v + 1, len - 2);
				v[len - 2] = '\0';
			}
			g_ptr_array_add(out->prerequisite_message_ids, v);
		}
	}
}

void trailers_info_clear(struct trailers_info *info)
{
	g_clear_pointer(&info->base_commit, g_free);
	g_clear_pointer(&info->change_id, g_free);
	g_clear_pointer(&info->supersedes, g_free);
	g_clear_pointer(&info->based_on, g_free);
	g_clear_pointer(&info->prerequisite_patch_ids, g_ptr_array_unref);
	g_clear_pointer(&info->prerequisite_message_ids, g_ptr_array_unref);
}

/* Does the text (ending in a newline) end with a trailer line? */
static gboolean last_line_is_trailer(const char *text)
{
	gsize len = strlen(text);
	const char *start;
	g_autoptr(GPtrArray) found = NULL;

	if (len < 2)
		return TRUE;
	start = g_strrstr_len(text, len - 1, "\n");
	start = start ? start + 1 : text;
	found = trailers_parse(start);
	return found->len > 0;
}

char *trailers_fold(const char *body, GPtrArray *extra)
{
	const char *sep = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GPtrArray) have = NULL;
	g_autofree char *head = NULL;

	/* git am: the commit message ends at the first "---" line */
	if (g_str_has_prefix(body, "---\n"))
		sep = body;
	else if ((sep = strstr(body, "\n---\n")))
		sep++;
	head = sep ? g_strndup(body, sep - body) : g_strdup(body);
	have = trailers_parse(head);
	g_string_append(out, head);
	while (out->len && out->str[out->len - 1] == '\n')
		g_string_truncate(out, out->len - 1);
	g_string_append_c(out, '\n');
	if (!last_line_is_trailer(out->str))
		g_string_append_c(out, '\n');
	for (guint i = 0; i < extra->len; i++) {
		struct trailer *t = extra->pdata[i];
		struct trailer *c;
		gboolean dup = FALSE;

		for (guint j = 0; j < have->len && !dup; j++) {
			struct trailer *h = have->pdata[j];

			dup = !g_ascii_strcasecmp(h->name, t->name) &&
			      !strcmp(h->value, t->value);
		}
		if (dup)
			continue;
		g_string_append_printf(out, "%s: %s\n", t->name, t->value);
		c = g_new(struct trailer, 1);
		c->name = g_strdup(t->name);
		c->value = g_strdup(t->value);
		g_ptr_array_add(have, c);
	}
	if (sep)
		g_string_append(out, sep);
	return g_string_free(g_steal_pointer(&out), FALSE);
}
