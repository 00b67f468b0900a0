/* Threading headers with libetpan; see mailparse/msgid.h. */
#include "mailparse/msgid.h"

#include <libetpan/libetpan.h>
#include <string.h>

/* The ids of a Message-ID, In-Reply-To or References value (RFC 5322
 * 3.6.4 msg-id, with libetpan's tolerance for junk between ids).  Only
 * these values go to libetpan: its whole-header parser leaks memory on
 * some malformed fields (an unterminated Return-Path, say). */
static void parse_ids(const char *value, gsize len, GPtrArray *out)
{
	clist *ids = NULL;
	size_t idx = 0;

	if (mailimf_msg_id_list_parse(value, len, &idx, &ids) !=
	    MAILIMF_NO_ERROR)
		return;
	for (clistiter *it = clist_begin(ids); it; it = clist_next(it)) {
		g_ptr_array_add(out, g_strdup(clist_content(it)));
		mailimf_msg_id_free(clist_content(it));
	}
	clist_free(ids);
}

/* Is @field (folded lines joined) the header @name?  Then its value. */
static const char *header_value(const GString *field, const char *name)
{
	gsize n = strlen(name);

	if (field->len <= n || g_ascii_strncasecmp(field->str, name, n) ||
	    field->str[n] != ':')
		return NULL;
	return field->str + n + 1;
}

static void take_field(const GString *field, struct msgid_headers *out)
{
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);
	const char *v;

	if ((v = header_value(field, "Message-ID"))) {
		parse_ids(v, field->str + field->len - v, ids);
		g_free(out->message_id);
		out->message_id = ids->len ? g_strdup(ids->pdata[0]) : NULL;
	} else if ((v = header_value(field, "In-Reply-To"))) {
		parse_ids(v, field->str + field->len - v, ids);
		g_free(out->in_reply_to);
		out->in_reply_to = ids->len ? g_strdup(ids->pdata[0]) : NULL;
	} else if ((v = header_value(field, "References"))) {
		parse_ids(v, field->str + field->len - v, ids);
		g_ptr_array_set_size(out->references, 0);
		for (guint i = 0; i < ids->len; i++)
			g_ptr_array_add(out->references,
					g_strdup(ids->pdata[i]));
	}
}

void msgid_headers_parse(GBytes *raw, struct msgid_headers *out)
{
	g_autoptr(GString) field = g_string_new(NULL);
	gsize len = 0;
	const char *buf = raw ? g_bytes_get_data(raw, &len) : NULL;
	gsize pos = 0;

	memset(out, 0, sizeof(*out));
	out->references = g_ptr_array_new_with_free_func(g_free);
	if (!buf)
		return;
	/* as git mailinfo: leading whitespace skipped, an mbox "From "
	 * line is no header */
	while (pos < len && g_ascii_isspace(buf[pos]))
		pos++;
	if (len - pos >= 5 && !memcmp(buf + pos, "From ", 5)) {
		const char *nl = memchr(buf + pos, '\n', len - pos);

		pos = nl ? (gsize)(nl - buf + 1) : len;
	}
	/* RFC 5322 2.2.3: a line starting with a blank continues the field;
	 * the header ends at the first empty line */
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		gsize end = nl ? (gsize)(nl - buf) : len;
		gsize n = end - pos;

		if (n && buf[end - 1] == '\r')
			n--;
		if (!n)
			break;
		if (buf[pos] == ' ' || buf[pos] == '\t') {
			g_string_append_len(field, buf + pos, n);
		} else {
			take_field(field, out);
			g_string_truncate(field, 0);
			g_string_append_len(field, buf + pos, n);
		}
		pos = nl ? end + 1 : len;
	}
	take_field(field, out);
}
void msgid_headers_clear(struct msgid_headers *h)
{
	g_clear_pointer(&h->message_id, g_free);
	g_clear_pointer(&h->in_reply_to, g_free);
	g_clear_pointer(&h->references, g_ptr_array_unref);
}
