/* The added code of a patch (see simpatch.h). */
#include "kernel/similar/simpatch.h"

#include <stdlib.h>
#include <string.h>

static void piece_free(gpointer p)
{
	struct simpatch_piece *x = p;

	g_free(x->path);
	g_string_free(x->text, TRUE);
	g_free(x);
}

/* "+++ b/path" (or "+++ path"): the path, up to a tab */
static char *plus_path(const char *line, gsize n)
{
	const char *p = line + 4, *end = line + n, *tab;

	if (end - p >= 2 && p[0] == 'b' && p[1] == '/')
		p += 2;
	tab = memchr(p, '\t', end - p);
	if (tab)
		end = tab;
	if (end - p == 9 && !memcmp(p, "/dev/null", 9))
		return NULL;
	return g_strndup(p, end - p);
}

/* "@@ -a,b +c,d @@": c */
static gboolean hunk_start(const char *line, gsize n, guint32 *start)
{
	const char *plus = memchr(line, '+', n);
	char *end;
	unsigned long v;

	if (!plus || plus + 1 >= line + n || !g_ascii_isdigit(plus[1]))
		return FALSE;
	v = strtoul(plus + 1, &end, 10);
	if (v > G_MAXUINT32 || end > line + n)
		return FALSE;
	*start = v;
	return TRUE;
}

struct state {
	GPtrArray *out;
	guint min_lines;
	char *path;
	gboolean new_file, in_hunk;
	guint32 new_line; /* of the next new-side line */
	struct simpatch_piece *cur;
};

static void flush(struct state *s)
{
	struct simpatch_piece *p = s->cur;

	s->cur = NULL;
	if (!p)
		return;
	if (p->added && (p->new_file || p->added >= s->min_lines))
		g_ptr_array_add(s->out, p);
	else
		piece_free(p);
}

static struct simpatch_piece *piece(struct state *s)
{
	if (!s->cur) {
		s->cur = g_new0(struct simpatch_piece, 1);
		s->cur->path = g_strdup(s->path);
		s->cur->new_file = s->new_file;
		s->cur->text = g_string_new(NULL);
	}
	return s->cur;
}

GPtrArray *simpatch_pieces(const char *patch, gsize len, guint min_lines)
{
	struct state s = { 0 };
	const char *p = patch, *end = patch + len;

	s.out = g_ptr_array_new_with_free_func(piece_free);
	s.min_lines = min_lines;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		gsize n = (nl ? nl : end) - p;
		const char *line = p;

		p = nl ? nl + 1 : end;
		if (n && line[n - 1] == '\r')
			n--;
		if (n >= 11 && !memcmp(line, "diff --git ", 11)) {
			flush(&s);
			g_clear_pointer(&s.path, g_free);
			s.new_file = s.in_hunk = FALSE;
		} else if (!s.in_hunk && n >= 13 &&
			   !memcmp(line, "new file mode", 13)) {
			s.new_file = TRUE;
		} else if (!s.in_hunk && n >= 4 && !memcmp(line, "--- ", 4)) {
			flush(&s);
			if (n == 14 && !memcmp(line + 4, "/dev/null", 9))
				s.new_file = TRUE;
		} else if (n >= 4 && !memcmp(line, "+++ ", 4) &&
			   (!s.in_hunk || !s.path)) {
			g_free(s.path);
			s.path = plus_path(line, n);
			s.in_hunk = FALSE;
		} else if (n >= 3 && !memcmp(line, "@@ ", 3) && s.path) {
			if (!s.new_file)
				flush(&s);
			s.in_hunk = hunk_start(line, n, &s.new_line);
		} else if (s.in_hunk && n && line[0] == '+') {
			struct simpatch_piece *x = piece(&s);

			if (!x->added)
				x->first_line = s.new_line;
			x->last_line = s.new_line;
			x->added++;
			g_string_append_len(x->text, line + 1, n - 1);
			g_string_append_c(x->text, '\n');
			s.new_line++;
		} else if (s.in_hunk && (!n || line[0] == ' ')) {
			s.new_line++;
		} else if (s.in_hunk && (line[0] == '-' || line[0] == '\\')) {
			/* a removed line, "\ No newline at end of file" */
		} else if (s.in_hunk) {
			/* the end of the diff (a signature, the next mail) */
			flush(&s);
			s.in_hunk = FALSE;
			g_clear_pointer(&s.path, g_free);
		}
	}
	flush(&s);
	g_free(s.path);
	return s.out;
}
