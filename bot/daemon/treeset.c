/* The trees armbot tests on; see bot/daemon/treeset.h. */
#include "bot/daemon/treeset.h"

#include <string.h>

#include "bot/store/trees.h"
#include "bot/daemon/tree-pick.h"
#include "kernel/tree/tree.h"

static gint treefile_cmp(gconstpointer a, gconstpointer b)
{
	const struct treefile *x = *(const struct treefile **)a;
	const struct treefile *y = *(const struct treefile **)b;

	return strcmp(x->name, y->name);
}

struct treeset *treeset_load(const struct armbot_config *config,
			     struct store *st, GPtrArray *errors,
			     GError **error)
{
	g_autoptr(treeset) ts = g_new0(struct treeset, 1);
	g_autoptr(GPtrArray) stored = NULL;

	ts->trees = g_ptr_array_new();
	ts->owned =
		g_ptr_array_new_with_free_func((GDestroyNotify)treefile_free);
	for (guint i = 0; i < config->trees->len; i++)
		g_ptr_array_add(ts->trees, config->trees->pdata[i]);
	if (st) {
		stored = store_trees_list(st, error);
		if (!stored)
			return NULL;
	}
	for (guint i = 0; stored && i < stored->len; i++) {
		const struct store_tree *t = stored->pdata[i];
		g_autofree char *origin =
			g_strdup_printf("the opt-in of %s", t->owner);
		const struct treefile *file = config_tree(config, t->name);
		struct treefile *tf;

		if (!t->active)
			continue;
		if (file) {
			if (errors)
				g_ptr_array_add(
					errors,
					g_strdup_printf(
						"tree %s is registered in "
						"the store and configured "
						"by %s: the file is used",
						t->name, file->origin));
			continue;
		}
		tf = treefile_parse(t->name, origin, t->data, &config->defaults,
				    errors, NULL);
		if (tf)
			g_ptr_array_add(ts->owned, tf);
	}
	for (guint i = 0; i < ts->owned->len; i++)
		g_ptr_array_add(ts->trees, ts->owned->pdata[i]);
	g_ptr_array_sort(ts->trees, treefile_cmp);
	if (!config_tree(config, TREE_DISTRO_NAME))
		ts->distro = treefile_new_distro(&config->defaults);
	return g_steal_pointer(&ts);
}

const struct treefile *treeset_find(const struct treeset *ts, const char *name)
{
	for (guint i = 0; i < ts->trees->len; i++) {
		const struct treefile *tf = ts->trees->pdata[i];

		if (!g_strcmp0(tf->name, name))
			return tf;
	}
	if (ts->distro && !g_strcmp0(ts->distro->name, name))
		return ts->distro;
	return NULL;
}

void treeset_free(struct treeset *ts)
{
	if (!ts)
		return;
	g_clear_pointer(&ts->trees, g_ptr_array_unref);
	g_clear_pointer(&ts->owned, g_ptr_array_unref);
	treefile_free(ts->distro);
	g_free(ts);
}

gboolean treeset_open_store(const char *data_dir, struct store **out,
			    GError **error)
{
	g_autofree char *path =
		g_build_filename(data_dir, "store.sqlite", NULL);

	*out = NULL;
	if (!g_file_test(path, G_FILE_TEST_EXISTS))
		return TRUE;
	*out = store_open(path, error);
	return *out != NULL;
}

gboolean treeset_pick_series(const struct treeset *ts, struct store *st,
			     const struct store_series *s, const char *data_dir,
			     struct tree_pick_result *out, GError **error)
{
	g_autoptr(GPtrArray) msgs =
		g_ptr_array_new_with_free_func((GDestroyNotify)message_free);
	g_autoptr(tree_pick_series) series = NULL;
	g_autoptr(GPtrArray) ids = g_ptr_array_new();

	if (s->cover)
		g_ptr_array_add(ids, s->cover);
	for (guint i = 0; s->patches && i < s->patches->len; i++)
		g_ptr_array_add(ids, s->patches->pdata[i]);
	for (guint i = 0; i < ids->len; i++) {
		g_autoptr(GBytes)
			raw = store_message_raw(st, ids->pdata[i], error);
		struct message *msg;

		if (!raw)
			return FALSE;
		msg = message_parse(raw, error);
		if (!msg) {
			g_prefix_error(error, "<%s>: ", (char *)ids->pdata[i]);
			return FALSE;
		}
		g_ptr_array_add(msgs, msg);
	}
	series = tree_pick_series_new(msgs);
	tree_pick(series, ts->trees, ts->distro,
		  data_dir ? tree_pick_has_commit_in_data_dir : NULL,
		  (gpointer)data_dir, out);
	return TRUE;
}
