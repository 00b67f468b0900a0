#include "bot/web/feed.h"

#include <string.h>

#include "bot/store/web.h"
#include "bot/web/escape.h"

static void append_time(GString *out, gint64 t)
{
	g_autoptr(GDateTime) d = g_date_time_new_from_unix_utc(t);
	/* RFC 4287 3.3: an RFC 3339 date-time */
	g_autofree char *s = d ? g_date_time_format(d, "%Y-%m-%dT%H:%M:%SZ") :
				 g_strdup("1970-01-01T00:00:00Z");

	g_string_append(out, s);
}

/* The reply's body: what follows the header (RFC 5322 2.1: the first
 * empty line). */
static void append_body(GString *out, GBytes *raw)
{
	gsize len;
	const char *data = raw ? g_bytes_get_data(raw, &len) : NULL;
	const char *body;

	if (!data)
		return;
	body = g_strstr_len(data, len, "\r\n\r\n");
	if (body) {
		body += 4;
	} else if ((body = g_strstr_len(data, len, "\n\n"))) {
		body += 2;
	} else {
		body = data;
	}
	web_escape_append_len(out, body, len - (body - data));
}

guint web_feed_atom(struct store *st, const char *base_url, GString *out,
		    GError **error)
{
	g_autoptr(GPtrArray) reports = store_web_reports(st, 50, error);
	gint64 updated = 0;

	if (!reports)
		return 0;
	for (guint i = 0; i < reports->len; i++) {
		const struct store_web_report *r = reports->pdata[i];

		updated = MAX(updated, r->sent ? r->sent : r->created);
	}
	if (!updated)
		updated = g_get_real_time() / G_USEC_PER_SEC;
	g_string_append(out, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
			     "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
			     "<title>armbot reports</title>\n<id>");
	web_escape_append(out, base_url);
	g_string_append(out, "/feed.atom</id>\n<link rel=\"self\" href=\"");
	web_escape_append(out, base_url);
	g_string_append(out, "/feed.atom\"/>\n<link href=\"");
	web_escape_append(out, base_url);
	g_string_append(out, "/\"/>\n<updated>");
	append_time(out, updated);
	g_string_append(out, "</updated>\n<author><name>armbot</name>"
			     "</author>\n<generator>armbot</generator>\n");
	for (guint i = 0; i < reports->len; i++) {
		const struct store_web_report *r = reports->pdata[i];
		/* RFC 2392: a Message-ID as a URI, a stable entry id */
		g_autofree char *mid = g_uri_escape_string(
			r->message_id ? r->message_id : "", NULL, FALSE);

		g_string_append(out, "<entry>\n<title>");
		web_escape_append(out, r->subject);
		g_string_append(out, "</title>\n<id>mid:");
		web_escape_append(out, mid);
		g_string_append(out, "</id>\n<link href=\"");
		web_escape_append(out, base_url);
		g_string_append_printf(out,
				       "/series/%" G_GINT64_FORMAT "\"/>\n",
				       r->series_id);
		g_string_append(out, "<updated>");
		append_time(out, r->sent ? r->sent : r->created);
		g_string_append(out, "</updated>\n<author><name>");
		web_escape_append(out, r->author);
		g_string_append(out, "</name></author>\n<category term=\"");
		web_escape_append(out, r->tree);
		g_string_append(out, "\"/>\n<summary>");
		web_escape_append(out, r->verdict ? r->verdict : r->state);
		g_string_append(out, "</summary>\n<content type=\"text\">");
		append_body(out, r->raw);
		g_string_append(out, "</content>\n</entry>\n");
	}
	g_string_append(out, "</feed>\n");
	return 200;
}
