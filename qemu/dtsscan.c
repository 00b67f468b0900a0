/* Device tree sources and drivers' compatibles: see qemu/dtsscan.h. */
#include "qemu/dtsscan.h"

#include <string.h>

#define INCLUDES_MAX 512 /* per file */
#define COMPATIBLES_MAX 65536 /* per file */
#define DEPTH_MAX 1000 /* nested nodes counted */
#define COMPAT_LEN_MAX 128
#define INCLUDE_LEN_MAX 1024

void dtsscan_init(struct dtsscan *out)
{
	out->includes = g_ptr_array_new_with_free_func(g_free);
	out->compatibles = g_ptr_array_new_with_free_func(g_free);
	out->root = g_ptr_array_new_with_free_func(g_free);
}

void dtsscan_clear(struct dtsscan *s)
{
	g_clear_pointer(&s->includes, g_ptr_array_unref);
	g_clear_pointer(&s->compatibles, g_ptr_array_unref);
	g_clear_pointer(&s->root, g_ptr_array_unref);
}

static gboolean word_char(char c)
{
	return g_ascii_isalnum(c) || (c && strchr(",._+-?#@/&:$", c));
}

static gboolean compat_valid(const char *s, gsize len)
{
	if (!len || len > COMPAT_LEN_MAX)
		return FALSE;
	for (gsize i = 0; i < len; i++)
		if (!g_ascii_isgraph(s[i]) || s[i] == '"' || s[i] == '\\')
			return FALSE;
	return TRUE;
}

/* Skip blanks and comments from @p; the new position. */
static const char *skip_blank(const char *p, const char *end)
{
	while (p < end) {
		if (g_ascii_isspace(*p)) {
			p++;
		} else if (*p == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (*p == '/' && p + 1 < end && p[1] == '*') {
			const char *q = g_strstr_len(p + 2, end - p - 2, "*/");

			p = q ? q + 2 : end;
		} else {
			break;
		}
	}
	return p;
}

/* A C string at @p (which is '"'): its content in @s/@len when it has
 * no escapes; the position after it. */
static const char *string_at(const char *p, const char *end, const char **s,
			     gsize *len)
{
	const char *start = ++p;
	gboolean plain = TRUE;

	while (p < end && *p != '"' && *p != '\n') {
		if (*p == '\\' && p + 1 < end) {
			plain = FALSE;
			p++;
		}
		p++;
	}
	*s = plain && p < end && *p == '"' ? start : NULL;
	*len = *s ? (gsize)(p - start) : 0;
	return p < end ? p + 1 : end;
}

static void add_string(GPtrArray *a, const char *s, gsize len, guint max)
{
	if (s && a->len < max && compat_valid(s, len))
		g_ptr_array_add(a, g_strndup(s, len));
}

/* A preprocessor line at @p ('#' first on its line): an #include's
 * argument (with its '"' or '<') into @includes; the position after the
 * line, its backslash-newlines followed. */
static const char *directive(const char *p, const char *end,
			     GPtrArray *includes)
{
	const char *q = p + 1;

	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (end - q > 7 && !strncmp(q, "include", 7)) {
		q += 7;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < end && (*q == '"' || *q == '<')) {
			char close = *q == '"' ? '"' : '>';
			const char *e = q + 1;

			while (e < end && *e != close && *e != '\n')
				e++;
			if (e < end && *e == close && e - q - 1 > 0 &&
			    e - q - 1 < INCLUDE_LEN_MAX &&
			    includes->len < INCLUDES_MAX)
				g_ptr_array_add(includes, g_strndup(q, e - q));
		}
	}
	while (q < end && *q != '\n') {
		if (*q == '\\' && q + 1 < end && q[1] == '\n')
			q++;
		q++;
	}
	return q;
}

/* Whether '#' at @p starts a directive, not a property (#address-cells). */
static gboolean is_directive(const char *p, const char *end)
{
	static const char *const names[] = { "include", "define",  "undef",
					     "if",	"ifdef",   "ifndef",
					     "elif",	"else",	   "endif",
					     "error",	"warning", "pragma",
					     "line",	NULL };
	const char *q = p + 1;
	gsize n = 0;

	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	while (q + n < end && g_ascii_isalpha(q[n]))
		n++;
	if (q + n < end && (q[n] == '-' || q[n] == '_'))
		return FALSE;
	for (guint i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !strncmp(q, names[i], n))
			return TRUE;
	return FALSE;
}

void dtsscan_source(struct dtsscan *f, const char *text, gsize len)
{
	GPtrArray *raw_includes = f->includes;
	const char *p = text, *end = text + len;
	int depth = 0;
	gboolean in_root = FALSE, bol = TRUE;
	const char *last = NULL;
	gsize last_len = 0;

	while (p < end) {
		const char *q = skip_blank(p, end);
		const char *s;
		gsize n;

		if (q != p) {
			bol = bol || memchr(p, '\n', q - p);
			p = q;
			continue;
		}
		if (*p == '#' && bol && is_directive(p, end)) {
			p = directive(p, end, raw_includes);
			continue;
		}
		bol = FALSE;
		if (*p == '"') {
			p = string_at(p, end, &s, &n);
			last = NULL;
		} else if (*p == '{') {
			if (depth == 0)
				in_root = last && last_len == 1 && *last == '/';
			if (depth < DEPTH_MAX)
				depth++;
			last = NULL;
			p++;
		} else if (*p == '}') {
			if (depth > 0)
				depth--;
			last = NULL;
			p++;
		} else if (word_char(*p)) {
			last = p;
			while (p < end && word_char(*p) &&
			       !(*p == '/' && p + 1 < end &&
				 (p[1] == '/' || p[1] == '*')))
				p++;
			last_len = p - last;
			if (last_len == 9 && !strncmp(last, "/include/", 9)) {
				p = skip_blank(p, end);
				if (p < end && *p == '"') {
					const char *at = p;

					p = string_at(p, end, &s, &n);
					if (s && n < INCLUDE_LEN_MAX &&
					    raw_includes->len < INCLUDES_MAX)
						g_ptr_array_add(
							raw_includes,
							g_strndup(at, n + 1));
				}
			} else if (last_len == 10 &&
				   !strncmp(last, "compatible", 10)) {
				gboolean root = depth == 1 && in_root;

				p = skip_blank(p, end);
				if (p >= end || *p != '=')
					continue;
				p++;
				for (;;) {
					p = skip_blank(p, end);
					if (p >= end || *p != '"')
						break;
					p = string_at(p, end, &s, &n);
					add_string(f->compatibles, s, n,
						   COMPATIBLES_MAX);
					if (root)
						add_string(f->root, s, n,
							   COMPATIBLES_MAX);
					p = skip_blank(p, end);
					if (p >= end || *p != ',')
						break;
					p++;
				}
				last = NULL;
			}
		} else {
			last = NULL;
			p++;
		}
	}
}

static gboolean ident_char(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

GPtrArray *dtsscan_driver_compatibles(const char *text, gsize len)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *q = p, *s = NULL;
		gsize n = 0;

		if (*p == '.' && end - p > 11 &&
		    !strncmp(p, ".compatible", 11) &&
		    (p + 11 == end || !ident_char(p[11]))) {
			q = skip_blank(p + 11, end);
			if (q < end && *q == '=') {
				q = skip_blank(q + 1, end);
				if (q < end && *q == '"')
					q = string_at(q, end, &s, &n);
			}
		} else if (*p == '_' && end - p > 9 &&
			   !strncmp(p, "_DECLARE", 8) && p > text &&
			   ident_char(p[-1])) {
			q = p + 8;
			if (end - q > 7 && !strncmp(q, "_DRIVER", 7))
				q += 7;
			q = skip_blank(q, end);
			if (q < end && *q == '(') {
				const char *c = q + 1;

				while (c < end && c - q < 128 && ident_char(*c))
					c++;
				c = skip_blank(c, end);
				if (c < end && *c == ',') {
					c = skip_blank(c + 1, end);
					if (c < end && *c == '"')
						q = string_at(c, end, &s, &n);
				}
			}
		}
		if (s && compat_valid(s, n) && out->len < COMPATIBLES_MAX) {
			char *str = g_strndup(s, n);

			if (g_hash_table_contains(seen, str)) {
				g_free(str);
			} else {
				g_ptr_array_add(out, str);
				g_hash_table_add(seen, str);
			}
		}
		p = q > p ? q : p + 1;
	}
	return out;
}
