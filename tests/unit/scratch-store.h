/* A store of its own for a unit test: store.sqlite opened in a new scratch
 * directory (scratch.h), and all of it removed again.  The helpers assert
 * instead of returning an error. */
#pragma once

#include <glib.h>

struct store;

/* A new directory made from @tmpl (a basename with "XXXXXX" in it) with
 * the store "store.sqlite" opened in it: the store; the directory's path
 * in *@dir and, unless @path is NULL, the store's in *@path, both owned
 * by the caller (scratch_store_free() frees them). */
struct store *scratch_store_new(const char *tmpl, char **dir, char **path);

/* Close @st (when not NULL), remove @dir and everything in it, and free
 * @dir and @path (which may be NULL). */
void scratch_store_free(struct store *st, char *dir, char *path);

/* The fixture (g_test_add()'s) of a test that needs a store and nothing
 * else: scratch_store_setup() takes the directory's template as its
 * data, scratch_store_teardown() undoes it. */
struct scratch_store {
	char *dir;
	char *path;
	struct store *st;
};

void scratch_store_setup(struct scratch_store *f, gconstpointer tmpl);
void scratch_store_teardown(struct scratch_store *f, gconstpointer data);
