/* Near-copies and drivers in the wrong place (see similar.h). */
#include "kernel/similar/similar.h"

#include <string.h>

#include "kernel/similar/misplaced.h"
#include "kernel/similar/simindex.h"
#include "kernel/similar/simpatch.h"

static void copy_free(gpointer p)
{
	struct similar_copy *c = p;

	g_free(c->path);
	g_free(c->original);
	g_free(c);
}

static gboolean c_source(const char *path)
{
	gsize n = strlen(path);

	return n > 2 && path[n - 2] == '.' &&
	       (path[n - 1] == 'c' || path[n - 1] == 'h');
}

struct similar_findings *similar_find(const struct simindex *index,
				      const char *patch, gsize len,
				      const struct similar_options *opts)
{
	struct similar_findings *f = g_new0(struct similar_findings, 1);
	g_autoptr(GPtrArray) all = simpatch_pieces(patch, len, 1);

	f->copies = g_ptr_array_new_with_free_func(copy_free);
	f->misplaced = misplaced_find(all);
	if (!index)
		return f;
	for (guint i = 0; i < all->len; i++) {
		const struct simpatch_piece *p = all->pdata[i];
		struct simindex_match m;
		struct similar_copy *c;

		if (!c_source(p->path) ||
		    (!p->new_file && p->added < opts->min_lines))
			continue;
		if (!simindex_query(index, p->text->str, p->text->len, p->path,
				    &m))
			continue;
		if (m.percent < opts->threshold) {
			simindex_match_clear(&m);
			continue;
		}
		c = g_new0(struct similar_copy, 1);
		c->path = g_strdup(p->path);
		c->first_line = p->first_line;
		c->last_line = p->last_line;
		c->new_file = p->new_file;
		c->original = g_steal_pointer(&m.path);
		c->orig_first = m.first_line;
		c->orig_last = m.last_line;
		c->percent = m.percent;
		g_ptr_array_add(f->copies, c);
	}
	return f;
}

void similar_findings_free(struct similar_findings *f)
{
	if (!f)
		return;
	g_ptr_array_unref(f->copies);
	g_ptr_array_unref(f->misplaced);
	g_free(f);
}

char *similar_format(const struct similar_findings *f)
{
	GString *s;

	if (!f->copies->len && !f->misplaced->len)
		return NULL;
	s = g_string_new(NULL);
	for (guint i = 0; i < f->copies->len; i++) {
		const struct similar_copy *c = f->copies->pdata[i];

		if (c->new_file)
			g_string_append_printf(s, "%s", c->path);
		else
			g_string_append_printf(s, "%s (lines %u-%u)", c->path,
					       c->first_line, c->last_line);
		g_string_append_printf(s,
				       " is %u%% similar to %s (lines %u-%u)\n",
				       c->percent, c->original, c->orig_first,
				       c->orig_last);
	}
	for (guint i = 0; i < f->misplaced->len; i++) {
		const struct misplaced *m = f->misplaced->pdata[i];

		if (m->folder)
			g_string_append_printf(
				s,
				"%s:%u implements %s: such drivers live in %s\n",
				m->path, m->line, m->what, m->folder);
		else
			g_string_append_printf(
				s,
				"%s:%u is a new board file (MACHINE_START): a device tree would do\n",
				m->path, m->line);
	}
	return g_string_free(s, FALSE);
}
