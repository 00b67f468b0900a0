/* Unit tests of kernel/tree/rmtree.c: a tree with files, subdirectories and
 * links is removed; what links point at outside it is left alone; what
 * cannot be removed is named. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/tree/rmtree.h"
#include "tests/unit/scratch.h"

static void test_tree(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-rmtree-XXXXXX");
	g_autofree char *tree = g_build_filename(dir, "tree", NULL);
	g_autofree char *outside = g_build_filename(dir, "outside", NULL);
	g_autofree char *kept = g_build_filename(outside, "kept", NULL);
	g_autofree char *dir_link = g_build_filename(tree, "a/dir-link", NULL);
	g_autofree char *file_link = g_build_filename(tree, "file-link", NULL);
	g_autofree char *dangling =
		g_build_filename(tree, "a/b/dangling", NULL);
	g_autofree char *empty = g_build_filename(tree, "empty", NULL);
	g_autofree char *ro = g_build_filename(tree, "a/b/file", NULL);
	g_autoptr(GError) error = NULL;

	scratch_write_file(tree, "a/b/c/deep", "deep\n");
	scratch_write_file(tree, "a/b/file", "file\n");
	scratch_write_file(tree, "top", "top\n");
	scratch_write_file(outside, "kept", "kept\n");
	g_assert_cmpint(g_mkdir(empty, 0755), ==, 0);
	g_assert_cmpint(symlink(outside, dir_link), ==, 0);
	g_assert_cmpint(symlink(kept, file_link), ==, 0);
	g_assert_cmpint(symlink("nowhere", dangling), ==, 0);
	/* a read-only file in a writable directory goes (unlink() needs
	 * the directory's permission, not the file's) */
	g_assert_cmpint(g_chmod(ro, 0444), ==, 0);

	g_assert_true(rmtree(tree, &error));
	g_assert_no_error(error);
	g_assert_false(g_file_test(tree, G_FILE_TEST_EXISTS));
	g_assert_true(g_file_test(kept, G_FILE_TEST_IS_REGULAR));

	/* a link given as the path is removed, not its target */
	g_assert_cmpint(symlink(outside, tree), ==, 0);
	g_assert_true(rmtree(tree, &error));
	g_assert_false(g_file_test(tree, G_FILE_TEST_IS_SYMLINK));
	g_assert_true(g_file_test(kept, G_FILE_TEST_IS_REGULAR));

	/* a plain file as the path; a path that is not there is no error */
	g_assert_true(rmtree(kept, &error));
	g_assert_false(g_file_test(kept, G_FILE_TEST_EXISTS));
	g_assert_true(rmtree(kept, &error));
	g_assert_no_error(error);

	g_assert_true(rmtree(dir, &error));
	g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
}

/* A path rmtree() cannot remove comes back in the error, and the rest
 * still goes. */
static void test_errors(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-rmtree-XXXXXX");
	g_autofree char *locked = g_build_filename(dir, "locked", NULL);
	g_autofree char *inner = g_build_filename(locked, "inner", NULL);
	g_autofree char *other = g_build_filename(dir, "other", NULL);
	g_autofree char *want = NULL;
	g_autofree char *longname = NULL;
	g_autoptr(GError) error = NULL;
	char name[300];

	/* a name longer than NAME_MAX: the walk cannot even start */
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	longname = g_build_filename(dir, name, NULL);
	g_assert_false(rmtree(longname, &error));
	want = g_strdup_printf("cannot remove '%s': File name too long",
			       longname);
	g_assert_cmpstr(error->message, ==, want);
	g_clear_error(&error);
	g_clear_pointer(&want, g_free);

	/* a directory that may not be written to keeps what is in it (not
	 * for root, whom permissions do not stop) */
	if (geteuid() != 0) {
		scratch_write_file(locked, "inner", "x\n");
		scratch_write_file(other, "file", "x\n");
		g_assert_cmpint(g_chmod(locked, 0555), ==, 0);
		g_assert_false(rmtree(dir, &error));
		want = g_strdup_printf("cannot remove '%s': Permission denied",
				       inner);
		g_assert_cmpstr(error->message, ==, want);
		g_assert_true(g_file_test(inner, G_FILE_TEST_EXISTS));
		g_assert_false(g_file_test(other, G_FILE_TEST_EXISTS));
		g_clear_error(&error);
		g_assert_cmpint(g_chmod(locked, 0755), ==, 0);
	}
	g_assert_true(rmtree(dir, &error));
	g_assert_no_error(error);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/rmtree/tree", test_tree);
	g_test_add_func("/rmtree/errors", test_errors);
	return g_test_run();
}
