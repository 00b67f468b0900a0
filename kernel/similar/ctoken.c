/* Kernel C tokens, normalised (see ctoken.h). */
#include "kernel/similar/ctoken.h"

#include <string.h>

static const char *const keywords[] = {
	"auto",	  "break",    "case",	 "char",
	"const",  "continue", "default", "do",
	"double", "else",     "enum",	 "extern",
	"float",  "for",      "goto",	 "if",
	"inline", "int",      "long",	 "register",
	"return", "short",    "signed",	 "sizeof",
	"static", "struct",   "switch",	 "typedef",
	"union",  "unsigned", "void",	 "volatile",
	"while",  "bool",     "true",	 "false",
	"NULL",	  "__init",   "__iomem", "u8",
	"u16",	  "u32",      "u64",	 "__maybe_unused",
};

/* boilerplate statements: the call and everything to its ';' */
static gboolean boilerplate_call(const char *p, gsize n)
{
	return (n > 7 && !memcmp(p, "MODULE_", 7)) ||
	       (n >= 13 && !memcmp(p, "EXPORT_SYMBOL", 13));
}

static gboolean is_ident_start(char c)
{
	return g_ascii_isalpha(c) || c == '_';
}

static gboolean is_ident(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

static const char *const ops3[] = { "<<=", ">>=", "...", NULL };
static const char *const ops2[] = {
	"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##", NULL
};

struct token_out {
	const char *cls; /* static, or NULL when @buf holds it */
	gsize cls_len;
	guint32 line;
	gboolean word; /* an identifier or keyword */
};

struct scanner {
	const char *p, *end;
	guint32 line;
	gboolean line_start; /* only whitespace since the last newline */
};

/* Skip whitespace, comments and preprocessor lines (with their
 * continuations); FALSE at the end. */
static gboolean skip_space(struct scanner *s)
{
	while (s->p < s->end) {
		char c = *s->p;

		if (c == '\n') {
			s->line++;
			s->line_start = TRUE;
			s->p++;
		} else if (g_ascii_isspace(c)) {
			s->p++;
		} else if (c == '/' && s->p + 1 < s->end && s->p[1] == '/') {
			while (s->p < s->end && *s->p != '\n')
				s->p++;
		} else if (c == '/' && s->p + 1 < s->end && s->p[1] == '*') {
			s->p += 2;
			while (s->p < s->end &&
			       !(*s->p == '*' && s->p + 1 < s->end &&
				 s->p[1] == '/')) {
				if (*s->p == '\n')
					s->line++;
				s->p++;
			}
			s->p = MIN(s->p + 2, s->end);
		} else if (c == '#' && s->line_start) {
			/* a directive to its unescaped end of line */
			while (s->p < s->end && *s->p != '\n') {
				if (*s->p == '\\' && s->p + 1 < s->end &&
				    s->p[1] == '\n') {
					s->line++;
					s->p++;
				}
				s->p++;
			}
		} else {
			return TRUE;
		}
	}
	return FALSE;
}

/* The next token: its class in @t, its text in [*start, s->p). */
static gboolean next_token(struct scanner *s, struct token_out *t,
			   const char **start)
{
	const char *p;

	if (!skip_space(s))
		return FALSE;
	s->line_start = FALSE;
	p = s->p;
	*start = p;
	t->line = s->line;
	t->word = FALSE;
	if (is_ident_start(*p)) {
		while (p < s->end && is_ident(*p))
			p++;
		/* L"..." and u8'...' are literals */
		if (p < s->end && (*p == '"' || *p == '\'') && p - s->p <= 2) {
			s->p = p;
			goto quoted;
		}
		t->cls = "I";
		t->cls_len = 1;
		t->word = TRUE;
		for (guint i = 0; i < G_N_ELEMENTS(keywords); i++)
			if (strlen(keywords[i]) == (gsize)(p - s->p) &&
			    !memcmp(keywords[i], s->p, p - s->p)) {
				t->cls = keywords[i];
				t->cls_len = p - s->p;
			}
		s->p = p;
		return TRUE;
	}
	if (g_ascii_isdigit(*p) ||
	    (*p == '.' && p + 1 < s->end && g_ascii_isdigit(p[1]))) {
		while (p < s->end && (is_ident(*p) || *p == '.' ||
				      ((*p == '+' || *p == '-') &&
				       (p[-1] == 'e' || p[-1] == 'E' ||
					p[-1] == 'p' || p[-1] == 'P'))))
			p++;
		s->p = p;
		t->cls = "L";
		t->cls_len = 1;
		return TRUE;
	}
	if (*p == '"' || *p == '\'') {
quoted:;
		char q = *s->p;

		p = s->p + 1;
		while (p < s->end && *p != q && *p != '\n') {
			if (*p == '\\' && p + 1 < s->end) {
				if (p[1] == '\n')
					s->line++;
				p++;
			}
			p++;
		}
		s->p = MIN(p + 1, s->end);
		t->cls = "L";
		t->cls_len = 1;
		return TRUE;
	}
	for (guint i = 0; ops3[i]; i++)
		if (s->end - p >= 3 && !memcmp(p, ops3[i], 3)) {
			s->p += 3;
			t->cls = ops3[i];
			t->cls_len = 3;
			return TRUE;
		}
	for (guint i = 0; ops2[i]; i++)
		if (s->end - p >= 2 && !memcmp(p, ops2[i], 2)) {
			s->p += 2;
			t->cls = ops2[i];
			t->cls_len = 2;
			return TRUE;
		}
	s->p++;
	t->cls = p;
	t->cls_len = 1;
	return TRUE;
}

static guint32 hash_class(const char *p, gsize n)
{
	guint32 h = 2166136261u; /* FNV-1a */

	for (gsize i = 0; i < n; i++)
		h = (h ^ (guint8)p[i]) * 16777619u;
	return h;
}

/* The scan shared by both entry points: tokens as ctoken, and their
 * classes appended to @describe when not NULL. */
static GArray *scan(const char *text, gsize len, GString *describe)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct ctoken));
	GArray *cls = g_array_new(FALSE, FALSE, sizeof(struct token_out));
	struct scanner s = { text, text + len, 1, TRUE };
	struct token_out t;
	const char *start;
	gsize stmt_start = 0; /* first token of the statement at depth 0 */
	int depth = 0;
	enum { KEEP, SKIP_STATEMENT } state = KEEP;
	int skip_depth = 0;
	gboolean prev_struct = FALSE;

	while (next_token(&s, &t, &start)) {
		gboolean open = t.cls_len == 1 && *t.cls == '{';
		gboolean close = t.cls_len == 1 && *t.cls == '}';
		gboolean semi = t.cls_len == 1 && *t.cls == ';';

		if (state == SKIP_STATEMENT) {
			if (open)
				skip_depth++;
			else if (close && skip_depth > 0)
				skip_depth--;
			else if (semi && skip_depth == 0)
				state = KEEP;
			if (state == KEEP)
				stmt_start = cls->len;
			continue;
		}
		if (t.word) {
			/* an identifier (or keyword): is it boilerplate? */
			gsize n = s.p - start;

			if (depth == 0 && boilerplate_call(start, n)) {
				g_array_set_size(cls, stmt_start);
				state = SKIP_STATEMENT;
				skip_depth = 0;
				continue;
			}
			if (depth == 0 && prev_struct && n == 12 &&
			    !memcmp(start, "of_device_id", 12)) {
				/* the table from its statement's start */
				g_array_set_size(cls, stmt_start);
				state = SKIP_STATEMENT;
				skip_depth = 0;
				prev_struct = FALSE;
				continue;
			}
			prev_struct = n == 6 && !memcmp(start, "struct", 6);
		} else {
			prev_struct = FALSE;
		}
		g_array_append_val(cls, t);
		if (open)
			depth++;
		else if (close && depth > 0)
			depth--;
		if (depth == 0 && (semi || close))
			stmt_start = cls->len;
	}
	for (guint i = 0; i < cls->len; i++) {
		const struct token_out *o =
			&g_array_index(cls, struct token_out, i);
		struct ctoken tok = { hash_class(o->cls, o->cls_len), o->line };

		g_array_append_val(out, tok);
		if (describe) {
			if (i)
				g_string_append_c(describe, ' ');
			g_string_append_len(describe, o->cls, o->cls_len);
		}
	}
	g_array_unref(cls);
	return out;
}

GArray *ctoken_scan(const char *text, gsize len)
{
	return scan(text, len, NULL);
}

char *ctoken_describe(const char *text, gsize len)
{
	GString *s = g_string_new(NULL);

	g_array_unref(scan(text, len, s));
	return g_string_free(s, FALSE);
}
