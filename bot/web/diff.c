#include "bot/web/diff.h"

#include <string.h>

#include "bot/web/escape.h"

const char web_diff_style[] =
	"pre.diff{background:#fbfbfb;border:1px solid #ddd;padding:0;"
	"white-space:pre;overflow-x:auto;font-size:90%}"
	"pre.diff span{display:block;padding:0 6px}"
	".d-file{background:#e8eef7;font-weight:bold;color:#1a3d6d}"
	".d-meta{color:#666}.d-hunk{background:#f0eaf8;color:#5a3d8a}"
	".d-add{background:#e6f6e6;color:#14591f}"
	".d-del{background:#fbe9e9;color:#8a1c16}"
	".d-stat{color:#444}";

static gboolean starts(const char *line, gsize len, const char *prefix)
{
	gsize n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

/* The line counts of "@@ -a[,b] +c[,d] @@" (b, d default 1), or FALSE. */
static gboolean hunk_counts(const char *line, gsize len, guint64 *old,
			    guint64 *new)
{
	g_autofree char *s = g_strndup(line, MIN(len, 200));
	char *p = s + 2, *e;

	*old = *new = 1;
	while (*p == ' ')
		p++;
	if (*p++ != '-')
		return FALSE;
	g_ascii_strtoull(p, &e, 10);
	if (e == p)
		return FALSE;
	if (*e == ',')
		*old = g_ascii_strtoull(e + 1, &e, 10);
	while (*e == ' ')
		e++;
	if (*e++ != '+')
		return FALSE;
	p = e;
	g_ascii_strtoull(p, &e, 10);
	if (e == p)
		return FALSE;
	if (*e == ',')
		*new = g_ascii_strtoull(e + 1, &e, 10);
	return TRUE;
}

void web_diff_append(GString *out, const char *id, const char *patch, gsize len)
{
	gsize shown = MIN(len, WEB_DIFF_MAX);
	const char *p = patch, *end = patch + shown;
	gboolean in_diff = FALSE;
	guint64 old = 0, new = 0; /* lines left in the hunk */

	g_string_append(out, "<pre class=\"diff\" id=\"");
	web_escape_append(out, id);
	g_string_append(out, "\">");
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		gsize n = nl ? (gsize)(nl - p) : (gsize)(end - p);
		const char *cls = "d-meta";

		if (old || new) {
			/* in a hunk: counted lines, whatever they start with */
			if (n && p[0] == '+' && new) {
				cls = "d-add";
				new --;
			} else if (n && p[0] == '-' && old) {
				cls = "d-del";
				old--;
			} else if ((!n || p[0] == ' ') && old && new) {
				cls = "d-ctx";
				old--;
				new --;
			} else if (n && p[0] == '\\') {
				cls = "d-meta"; /* "\ No newline at end of file" */
			} else {
				old = new = 0; /* malformed: the hunk ends */
			}
		}
		if (!strcmp(cls, "d-meta") && !old && !new &&
		    !(n && p[0] == '\\')) {
			if (starts(p, n, "diff --git "))
				in_diff = TRUE;
			if (starts(p, n, "diff --git ") ||
			    (in_diff &&
			     (starts(p, n, "--- ") || starts(p, n, "+++ "))))
				cls = "d-file";
			else if (in_diff && starts(p, n, "@@ ") &&
				 hunk_counts(p, n, &old, &new))
				cls = "d-hunk";
			else if (!in_diff)
				cls = "d-stat";
		}
		g_string_append_printf(out, "<span class=\"%s\">", cls);
		web_escape_append_len(out, p, n);
		g_string_append(out, "\n</span>");
		p = nl ? nl + 1 : end;
	}
	if (len > shown)
		g_string_append_printf(
			out,
			"<span class=\"d-meta\">(%" G_GSIZE_FORMAT
			" more bytes not shown: see the mbox)"
			"\n</span>",
			len - shown);
	g_string_append(out, "</pre>\n");
}
