/* Unit tests for the tree updates of bot/store/trees.c: what is followed,
 * attempts that fail and succeed, when the next one is due, and the
 * migration of a store made before tree_updates existed. */
#include <string.h>

#include "bot/store/db.h"
#include "bot/store/store.h"
#include "bot/store/trees.h"
#include "scratch.h"
#include "tests/unit/scratch-store.h"

static struct store_tree_update *get(struct scratch_store *f, const char *tree)
{
	g_autoptr(GError) error = NULL;
	struct store_tree_update *u = NULL;

	g_assert_true(store_tree_update_get(f->st, tree, &u, &error));
	g_assert_no_error(error);
	return u;
}

static void attempt(struct scratch_store *f, const char *tree, gint64 at,
		    const char *fail, const char *head)
{
	g_autoptr(GError) error = NULL;
	struct store_tree_update u = { 0 };

	u.tree = (char *)tree;
	u.attempted = at;
	u.succeeded = at + 3;
	u.error = (char *)fail;
	u.head_branch = "master";
	u.head = (char *)head;
	u.seconds = 2.5;
	u.objects = fail ? 7 : 42;
	u.bytes = fail ? 700 : 4200;
	g_assert_true(store_tree_update_record(f->st, &u, &error));
	g_assert_no_error(error);
}

#define HEAD1 "1111111111111111111111111111111111111111"
#define HEAD2 "2222222222222222222222222222222222222222"

/* A success, failures that keep its head and count up, a success that
 * clears the error. */
static void test_attempts(struct scratch_store *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(store_tree_update) u = NULL;
	g_autoptr(GPtrArray) all = NULL;

	g_assert_null(get(f, "next"));
	g_assert_true(store_tree_update_follow(
		f->st, "next", "https://e.org/next.git", "master", 2, &error));
	g_assert_no_error(error);
	u = get(f, "next");
	g_assert_cmpstr(u->url, ==, "https://e.org/next.git");
	g_assert_cmpstr(u->branches, ==, "master");
	g_assert_cmpint(u->interval, ==, 2);
	g_assert_cmpint(u->attempted, ==, 0);
	g_assert_cmpint(u->succeeded, ==, 0);
	g_assert_null(u->error);
	g_assert_null(u->head);
	/* never tried: due at once */
	g_assert_cmpint(store_tree_update_next(u), ==, 0);
	g_clear_pointer(&u, store_tree_update_free);

	attempt(f, "next", 1000, NULL, HEAD1);
	u = get(f, "next");
	g_assert_cmpint(u->attempted, ==, 1000);
	g_assert_cmpint(u->succeeded, ==, 1003);
	g_assert_null(u->error);
	g_assert_cmpuint(u->failures, ==, 0);
	g_assert_cmpstr(u->head_branch, ==, "master");
	g_assert_cmpstr(u->head, ==, HEAD1);
	g_assert_cmpfloat(u->seconds, ==, 2.5);
	g_assert_cmpint(u->objects, ==, 42);
	g_assert_cmpint(u->bytes, ==, 4200);
	/* the url and interval stay when an attempt does not name them */
	g_assert_cmpstr(u->url, ==, "https://e.org/next.git");
	g_assert_cmpint(u->interval, ==, 2);
	g_assert_cmpint(store_tree_update_next(u), ==, 1002);
	g_clear_pointer(&u, store_tree_update_free);

	attempt(f, "next", 2000, "cannot fetch: gone", HEAD2);
	attempt(f, "next", 3000, "cannot fetch: still gone", NULL);
	u = get(f, "next");
	g_assert_cmpint(u->attempted, ==, 3000);
	g_assert_cmpint(u->succeeded, ==, 1003);
	g_assert_cmpstr(u->error, ==, "cannot fetch: still gone");
	g_assert_cmpuint(u->failures, ==, 2);
	/* a failure never moves the recorded head */
	g_assert_cmpstr(u->head, ==, HEAD1);
	g_assert_cmpint(u->objects, ==, 7);
	/* tried again one interval after the failed attempt began */
	g_assert_cmpint(store_tree_update_next(u), ==, 3002);
	g_clear_pointer(&u, store_tree_update_free);

	attempt(f, "next", 4000, NULL, HEAD2);
	u = get(f, "next");
	g_assert_null(u->error);
	g_assert_cmpuint(u->failures, ==, 0);
	g_assert_cmpint(u->succeeded, ==, 4003);
	g_assert_cmpstr(u->head, ==, HEAD2);
	g_clear_pointer(&u, store_tree_update_free);

	/* a first attempt that fails makes the row */
	attempt(f, "adding", 5000, "no such repository", NULL);
	all = store_tree_updates_list(f->st, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(all->len, ==, 2);
	u = g_ptr_array_steal_index(all, 0);
	g_assert_cmpstr(u->tree, ==, "adding");
	g_assert_cmpuint(u->failures, ==, 1);
	g_assert_cmpint(u->succeeded, ==, 0);
	g_assert_null(u->head);
	g_assert_null(u->url);
	/* no daemon follows it: nothing is due */
	g_assert_cmpint(u->interval, ==, -1);
	g_assert_cmpint(store_tree_update_next(u), ==, -1);
}

/* Followed by a running daemon, or not; on demand only. */
static void test_follow(struct scratch_store *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(store_tree_update) a = NULL;
	g_autoptr(store_tree_update) b = NULL;

	g_assert_true(store_tree_update_follow(f->st, "a", "/srv/a.git", "",
					       3600, &error));
	g_assert_true(store_tree_update_follow(f->st, "b", "/srv/b.git", "x;y",
					       0, &error));
	g_assert_no_error(error);
	attempt(f, "a", 1000, NULL, HEAD1);
	b = get(f, "b");
	g_assert_cmpint(b->interval, ==, 0);
	g_assert_cmpint(store_tree_update_next(b), ==, -1);
	g_clear_pointer(&b, store_tree_update_free);

	g_assert_true(store_tree_updates_unfollow(f->st, "b", &error));
	a = get(f, "a");
	b = get(f, "b");
	g_assert_cmpint(a->interval, ==, 3600);
	g_assert_cmpint(store_tree_update_next(a), ==, 4600);
	g_assert_cmpint(b->interval, ==, -1);
	g_clear_pointer(&a, store_tree_update_free);

	g_assert_true(store_tree_updates_unfollow(f->st, NULL, &error));
	g_assert_no_error(error);
	a = get(f, "a");
	g_assert_cmpint(a->interval, ==, -1);
	g_assert_cmpint(store_tree_update_next(a), ==, -1);
	/* following again keeps the attempts */
	g_clear_pointer(&a, store_tree_update_free);
	g_assert_true(store_tree_update_follow(f->st, "a", "/srv/a2.git", "z",
					       60, &error));
	a = get(f, "a");
	g_assert_cmpstr(a->url, ==, "/srv/a2.git");
	g_assert_cmpstr(a->head, ==, HEAD1);
	g_assert_cmpint(store_tree_update_next(a), ==, 1060);
	g_clear_pointer(&a, store_tree_update_free);
	/* no url or branches given (the distro tree): the recorded ones
	 * stay */
	g_assert_true(
		store_tree_update_follow(f->st, "a", NULL, NULL, 0, &error));
	a = get(f, "a");
	g_assert_cmpstr(a->url, ==, "/srv/a2.git");
	g_assert_cmpstr(a->branches, ==, "z");
	g_assert_cmpint(a->interval, ==, 0);
}

/* A store of the part "trees" at version 1 (no tree_updates, no indexes
 * for the opt-in rate limits) is migrated, its trees kept. */
static void test_migration(struct scratch_store *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(store_tree) t = NULL;
	g_autoptr(GPtrArray) all = NULL;
	struct store_tree put = { "omap", "[tree]\nurl=x\n",
				  TRUE,	  "tony@atomide.com",
				  1,	  1 };

	g_assert_true(store_tree_put(f->st, &put, &error));
	g_assert_cmpint(sqlite3_exec(store_db(f->st),
				     "DROP TABLE tree_updates;"
				     " DROP INDEX optin_requests_sender;"
				     " DROP INDEX optin_requests_created;"
				     " UPDATE store_parts SET version = 1"
				     " WHERE name = 'trees';",
				     NULL, NULL, NULL),
			==, SQLITE_OK);
	store_free(f->st);
	f->st = store_open(f->path, &error);
	g_assert_no_error(error);
	attempt(f, "omap", 1000, NULL, HEAD1);
	g_assert_true(store_tree_get(f->st, "omap", &t, &error));
	g_assert_nonnull(t);
	g_assert_cmpstr(t->owner, ==, "tony@atomide.com");
	all = store_trees_list(f->st, &error);
	g_assert_cmpuint(all->len, ==, 1);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/store-trees/attempts", struct scratch_store,
		   "armbot-store-trees-XXXXXX", scratch_store_setup,
		   test_attempts, scratch_store_teardown);
	g_test_add("/store-trees/follow", struct scratch_store,
		   "armbot-store-trees-XXXXXX", scratch_store_setup,
		   test_follow, scratch_store_teardown);
	g_test_add("/store-trees/migration", struct scratch_store,
		   "armbot-store-trees-XXXXXX", scratch_store_setup,
		   test_migration, scratch_store_teardown);
	return g_test_run();
}
