/* Unit tests of qemu/bootcache.c: the key of a kept boot changes with
 * every input it depends on (a wrong reuse would report a base's result
 * that was never booted), an entry reads back as it was kept, entries that
 * are not armbot's are errors and not crashes, and the oldest go beyond
 * BOOTCACHE_MAX. */
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/build/arch.h"
#include "kernel/tree/rmtree.h"
#include "qemu/bootcache.h"
#include "tests/unit/scratch.h"

struct fixture {
	char *dir;
	char *fragment, *init, *module;
	struct bootcache_inputs in;
};

static void setup(struct fixture *f, gconstpointer data)
{
	f->dir = scratch_dir_new("armbot-bootcache-XXXXXX");
	scratch_write_file(f->dir, "virt.config", "CONFIG_PM=y\n");
	scratch_write_file(f->dir, "init.c", "int main(void) { return 0; }\n");
	scratch_write_file(f->dir, "rpm-test/rpm_test.c", "/* suite */\n");
	scratch_write_file(f->dir, "rpm-test/Kbuild", "obj-m += rpm_test.o\n");
	f->fragment = g_build_filename(f->dir, "virt.config", NULL);
	f->init = g_build_filename(f->dir, "init.c", NULL);
	f->module = g_build_filename(f->dir, "rpm-test", NULL);
	f->in.commit_hex = "0123456789abcdef0123456789abcdef01234567";
	f->in.fragment = f->fragment;
	f->in.init_src = f->init;
	f->in.module_dir = f->module;
	f->in.arch = kbuild_arch_find("arm");
}

static void teardown(struct fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(rmtree(f->dir, &error));
	g_free(f->dir);
	g_free(f->fragment);
	g_free(f->init);
	g_free(f->module);
}

static char *key_of(const struct bootcache_inputs *in)
{
	g_autoptr(GError) error = NULL;
	char *key = bootcache_key(in, &error);

	g_assert_no_error(error);
	g_assert_nonnull(key);
	g_assert_cmpuint(strlen(key), ==, 64);
	return key;
}

/* Every input moves the key; the same inputs give the same key. */
static void test_key(struct fixture *f, gconstpointer data)
{
	g_autofree char *k0 = key_of(&f->in);
	g_autofree char *again = key_of(&f->in);
	g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *extra = g_build_filename(f->module, "extra.h", NULL);
	struct bootcache_inputs in;

	g_assert_cmpstr(k0, ==, again);
	g_ptr_array_add(keys, g_strdup(k0));

	in = f->in;
	in.commit_hex = "1123456789abcdef0123456789abcdef01234567";
	g_ptr_array_add(keys, key_of(&in));
	in = f->in;
	in.board = "sabrelite sabrelite imx6q-sabrelite.dtb ttymxc0 0 ";
	g_ptr_array_add(keys, key_of(&in));
	in = f->in;
	in.runner = "lava http://127.0.0.1:1/";
	g_ptr_array_add(keys, key_of(&in));
	in = f->in;
	in.arch = kbuild_arch_find("arm64");
	g_ptr_array_add(keys, key_of(&in));
	/* the files' contents, one at a time, then back */
	scratch_write_file(f->dir, "virt.config", "CONFIG_PM=n\n");
	g_ptr_array_add(keys, key_of(&f->in));
	scratch_write_file(f->dir, "virt.config", "CONFIG_PM=y\n");
	scratch_write_file(f->dir, "init.c", "int main(void) { return 1; }\n");
	g_ptr_array_add(keys, key_of(&f->in));
	scratch_write_file(f->dir, "init.c", "int main(void) { return 0; }\n");
	scratch_write_file(f->dir, "rpm-test/rpm_test.c", "/* suite 2 */\n");
	g_ptr_array_add(keys, key_of(&f->in));
	scratch_write_file(f->dir, "rpm-test/rpm_test.c", "/* suite */\n");
	/* a file the module gains */
	scratch_write_file(f->dir, "rpm-test/extra.h", "#define X 1\n");
	g_ptr_array_add(keys, key_of(&f->in));
	g_assert_cmpint(g_unlink(extra), ==, 0);
	/* the same bytes moved from one file to another are not the same
	 * module */
	scratch_write_file(f->dir, "rpm-test/Kbuild", "");
	scratch_write_file(f->dir, "rpm-test/rpm_test.c",
			   "obj-m += rpm_test.o\n/* suite */\n");
	g_ptr_array_add(keys, key_of(&f->in));
	scratch_write_file(f->dir, "rpm-test/Kbuild", "obj-m += rpm_test.o\n");
	scratch_write_file(f->dir, "rpm-test/rpm_test.c", "/* suite */\n");

	for (guint i = 0; i < keys->len; i++)
		for (guint j = i + 1; j < keys->len; j++)
			g_assert_cmpstr(keys->pdata[i], !=, keys->pdata[j]);
	/* all back as they were: the first key again */
	g_free(again);
	again = key_of(&f->in);
	g_assert_cmpstr(k0, ==, again);
}

/* A missing input is an error, and no key. */
static void test_key_missing_input(struct fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	struct bootcache_inputs in = f->in;
	char *key;

	in.fragment = "/nonexistent/virt.config";
	key = bootcache_key(&in, &error);
	g_assert_null(key);
	g_assert_nonnull(error);
	g_clear_error(&error);
	in = f->in;
	in.module_dir = NULL;
	key = bootcache_key(&in, &error);
	g_assert_null(key);
	g_assert_nonnull(error);
}

static void test_store_lookup(struct fixture *f, gconstpointer data)
{
	g_autofree char *kept = g_build_filename(f->dir, "kept", NULL);
	g_autofree char *key = key_of(&f->in);
	g_autoptr(GError) error = NULL;
	GString *console = NULL;
	char *where = NULL;

	g_assert_false(bootcache_lookup(kept, key, &console, &where, &error));
	g_assert_no_error(error);
	g_assert_null(console);
	g_assert_true(bootcache_store(
		kept, key, "[    0.5] armbot-init: done\n", NULL, &error));
	g_assert_no_error(error);
	g_assert_true(bootcache_lookup(kept, key, &console, &where, &error));
	g_assert_cmpstr(console->str, ==, "[    0.5] armbot-init: done\n");
	g_assert_null(where);
	g_string_free(console, TRUE);
	/* kept again with where it booted */
	g_assert_true(bootcache_store(kept, key, "c2\n",
				      "booted on LAVA job 3, device qemu-01",
				      &error));
	g_assert_true(bootcache_lookup(kept, key, &console, &where, &error));
	g_assert_cmpstr(console->str, ==, "c2\n");
	g_assert_cmpstr(where, ==, "booted on LAVA job 3, device qemu-01");
	g_string_free(console, TRUE);
	g_free(where);
	/* and again as a local boot: the where goes */
	g_assert_true(bootcache_store(kept, key, "c3\n", NULL, &error));
	g_assert_true(bootcache_lookup(kept, key, &console, &where, &error));
	g_assert_null(where);
	g_string_free(console, TRUE);
}

/* An entry that is a link or a directory, or too large, is an error. */
static void test_bad_entries(struct fixture *f, gconstpointer data)
{
	g_autofree char *kept = g_build_filename(f->dir, "kept", NULL);
	g_autofree char *link = g_build_filename(kept, "aa.console", NULL);
	g_autofree char *big = g_build_filename(kept, "bb.console", NULL);
	g_autofree char *dir = g_build_filename(kept, "cc.console", NULL);
	g_autofree char *secret = g_build_filename(f->dir, "secret", NULL);
	g_autoptr(GError) error = NULL;
	GString *console = NULL;
	char *where = NULL;
	int fd;

	scratch_write_file(f->dir, "secret", "secret\n");
	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_cmpint(symlink(secret, link), ==, 0);
	fd = g_open(big, O_WRONLY | O_CREAT, 0644);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(ftruncate(fd, (64 << 20) + 1), ==, 0);
	close(fd);
	for (guint i = 0; i < 3; i++) {
		static const char *const keys[] = { "aa", "bb", "cc" };

		g_assert_false(bootcache_lookup(kept, keys[i], &console, &where,
						&error));
		g_assert_nonnull(error);
		g_assert_null(console);
		g_clear_error(&error);
	}
}

/* Beyond BOOTCACHE_MAX entries the oldest go. */
static void test_prune(struct fixture *f, gconstpointer data)
{
	g_autofree char *kept = g_build_filename(f->dir, "kept", NULL);
	g_autoptr(GError) error = NULL;
	guint n = 0;
	g_autoptr(GDir) d = NULL;

	for (guint i = 0; i < BOOTCACHE_MAX + 3; i++) {
		g_autofree char *key = g_strdup_printf("%064x", i);
		g_autofree char *name = g_strconcat(key, ".console", NULL);
		g_autofree char *path = g_build_filename(kept, name, NULL);

		g_assert_true(bootcache_store(kept, key, "c\n", "w", &error));
		g_assert_no_error(error);
		/* each older than the next */
		{
			struct timespec ts[2] = { { 1000 + i, 0 },
						  { 1000 + i, 0 } };

			g_assert_cmpint(utimensat(AT_FDCWD, path, ts, 0), ==,
					0);
		}
	}
	d = g_dir_open(kept, 0, &error);
	g_assert_no_error(error);
	while (g_dir_read_name(d))
		n++;
	/* a .console and a .where each; the three oldest went (both
	 * files) at the three last stores: 0, 1 and 2 */
	g_assert_cmpuint(n, ==, 2 * BOOTCACHE_MAX);
	for (guint i = 0; i < 4; i++) {
		g_autofree char *key = g_strdup_printf("%064x", i);
		GString *console = NULL;
		char *where = NULL;
		gboolean there =
			bootcache_lookup(kept, key, &console, &where, &error);

		g_assert_no_error(error);
		g_assert_cmpint(there, ==, i == 3);
		if (console)
			g_string_free(console, TRUE);
		g_free(where);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/bootcache/key", struct fixture, NULL, setup, test_key,
		   teardown);
	g_test_add("/bootcache/key-missing-input", struct fixture, NULL, setup,
		   test_key_missing_input, teardown);
	g_test_add("/bootcache/store-lookup", struct fixture, NULL, setup,
		   test_store_lookup, teardown);
	g_test_add("/bootcache/bad-entries", struct fixture, NULL, setup,
		   test_bad_entries, teardown);
	g_test_add("/bootcache/prune", struct fixture, NULL, setup, test_prune,
		   teardown);
	return g_test_run();
}
