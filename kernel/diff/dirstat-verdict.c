/* The arch/arm verdict: Linus' 2011 question, "is this a lot of code
 * removed?", answered in lines per directory. */
#include "kernel/diff/dirstat-verdict.h"

#include <string.h>

#include "kernel/diff/dirstat.h"

static void dir_free(struct dirstat_verdict_dir *d)
{
	g_free(d->path);
	g_free(d);
}

void dirstat_verdict_free(struct dirstat_verdict *v)
{
	if (!v)
		return;
	g_free(v->path);
	g_ptr_array_unref(v->dirs);
	g_free(v);
}

/* Is @file under @prefix ("arch/arm/")? */
static gboolean under(const char *file, const char *prefix)
{
	return file && (!*prefix || g_str_has_prefix(file, prefix));
}

/* The mach-* or plat-* component of @file directly under @prefix, as
 * "prefix/mach-x/", or NULL. */
static char *platform_dir(const char *file, const char *prefix)
{
	const char *rest = file + strlen(prefix);
	const char *slash = strchr(rest, '/');

	if (!slash)
		return NULL;
	if (!g_str_has_prefix(rest, "mach-") &&
	    !g_str_has_prefix(rest, "plat-"))
		return NULL;
	return g_strndup(file, slash + 1 - file);
}

static gint64 abs64(gint64 v)
{
	return v < 0 ? -v : v;
}

static int dir_compare(gconstpointer a_, gconstpointer b_)
{
	const struct dirstat_verdict_dir *a =
		*(const struct dirstat_verdict_dir **)a_;
	const struct dirstat_verdict_dir *b =
		*(const struct dirstat_verdict_dir **)b_;

	if (abs64(a->net) != abs64(b->net))
		return abs64(a->net) > abs64(b->net) ? -1 : 1;
	return strcmp(a->path, b->path);
}

struct dirstat_verdict *dirstat_verdict_compute(GPtrArray *filestats,
						const char *path)
{
	struct dirstat_verdict *v = g_new0(struct dirstat_verdict, 1);
	g_autoptr(GHashTable) dirs = g_hash_table_new(g_str_hash, g_str_equal);
	g_autofree char *prefix = NULL;
	gsize len;

	if (!path)
		path = DIRSTAT_VERDICT_DEFAULT_PATH;
	len = strlen(path);
	while (len && path[len - 1] == '/')
		len--;
	v->path = g_strndup(path, len);
	prefix = len ? g_strconcat(v->path, "/", NULL) : g_strdup("");
	v->dirs = g_ptr_array_new_with_free_func((GDestroyNotify)dir_free);

	for (guint i = 0; i < filestats->len; i++) {
		const struct dirstat_filestat *fs = filestats->pdata[i];
		const char *where = under(fs->path, prefix)	? fs->path :
				    under(fs->old_path, prefix) ? fs->old_path :
								  NULL;
		guint64 added = fs->binary ? 0 : fs->added;
		guint64 deleted = fs->binary ? 0 : fs->deleted;
		g_autofree char *plat = NULL;
		struct dirstat_verdict_dir *d;

		if (!where)
			continue;
		v->files++;
		v->added += added;
		v->deleted += deleted;
		plat = platform_dir(where, prefix);
		if (!plat)
			continue;
		d = g_hash_table_lookup(dirs, plat);
		if (!d) {
			d = g_new0(struct dirstat_verdict_dir, 1);
			d->path = g_steal_pointer(&plat);
			g_ptr_array_add(v->dirs, d);
			g_hash_table_insert(dirs, d->path, d);
		}
		d->added += added;
		d->deleted += deleted;
		d->net = (gint64)d->added - (gint64)d->deleted;
	}
	v->net = (gint64)v->added - (gint64)v->deleted;
	if (!v->files)
		v->kind = DIRSTAT_VERDICT_UNTOUCHED;
	else if (v->net < 0)
		v->kind = DIRSTAT_VERDICT_SHRINKS;
	else if (v->net > 0)
		v->kind = DIRSTAT_VERDICT_GROWS;
	else
		v->kind = DIRSTAT_VERDICT_BALANCED;
	g_ptr_array_sort(v->dirs, dir_compare);
	return v;
}

char *dirstat_verdict_sentence(const struct dirstat_verdict *v)
{
	const char *path = *v->path ? v->path : "the tree";
	guint64 by = (guint64)abs64(v->net);

	switch (v->kind) {
	case DIRSTAT_VERDICT_UNTOUCHED:
		return g_strdup_printf("This series does not touch %s.", path);
	case DIRSTAT_VERDICT_BALANCED:
		return g_strdup_printf(
			"This series touches %s, but its additions and removals balance.",
			path);
	case DIRSTAT_VERDICT_SHRINKS:
	case DIRSTAT_VERDICT_GROWS:
		break;
	}
	return g_strdup_printf(
		"This series %s %s by %" G_GUINT64_FORMAT
		" line%s (+%" G_GUINT64_FORMAT " -%" G_GUINT64_FORMAT ").",
		v->kind == DIRSTAT_VERDICT_SHRINKS ? "shrinks" : "grows", path,
		by, by == 1 ? "" : "s", v->added, v->deleted);
}

char *dirstat_verdict_format(const struct dirstat_verdict *v)
{
	g_autofree char *sentence = dirstat_verdict_sentence(v);
	GString *out = g_string_new(sentence);

	g_string_append_c(out, '\n');
	dirstat_verdict_dirs_append(out, v, 0);
	return g_string_free(out, FALSE);
}

void dirstat_verdict_dirs_append(GString *out, const struct dirstat_verdict *v,
				 int width)
{
	for (guint i = 0; i < v->dirs->len; i++) {
		const struct dirstat_verdict_dir *d = v->dirs->pdata[i];

		g_string_append_printf(out,
				       "  %+*" G_GINT64_FORMAT
				       " (+%" G_GUINT64_FORMAT
				       " -%" G_GUINT64_FORMAT ") %s\n",
				       width, d->net, d->added, d->deleted,
				       d->path);
	}
}

const char *dirstat_verdict_kind_name(enum dirstat_verdict_kind kind)
{
	switch (kind) {
	case DIRSTAT_VERDICT_SHRINKS:
		return "shrinks";
	case DIRSTAT_VERDICT_GROWS:
		return "grows";
	case DIRSTAT_VERDICT_BALANCED:
		return "balanced";
	case DIRSTAT_VERDICT_UNTOUCHED:
		break;
	}
	return "untouched";
}
