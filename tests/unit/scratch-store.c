/* A store of its own for a unit test; see scratch-store.h. */
#include "tests/unit/scratch-store.h"

#include "bot/store/store.h"
#include "kernel/tree/rmtree.h"
#include "tests/unit/scratch.h"

struct store *scratch_store_new(const char *tmpl, char **dir, char **path)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *file = NULL;
	struct store *st;

	*dir = scratch_dir_new(tmpl);
	file = g_build_filename(*dir, "store.sqlite", NULL);
	st = store_open(file, &error);
	g_assert_no_error(error);
	if (path)
		*path = g_steal_pointer(&file);
	return st;
}

void scratch_store_free(struct store *st, char *dir, char *path)
{
	g_autoptr(GError) error = NULL;

	if (st)
		store_free(st);
	g_assert_true(rmtree(dir, &error));
	g_assert_no_error(error);
	g_free(dir);
	g_free(path);
}

void scratch_store_setup(struct scratch_store *f, gconstpointer tmpl)
{
	f->st = scratch_store_new(tmpl, &f->dir, &f->path);
}

void scratch_store_teardown(struct scratch_store *f, gconstpointer data)
{
	scratch_store_free(f->st, f->dir, f->path);
}
