/* Unit tests of kernel/tree/rmtree.c: a tree with files, subdirectories and
 * links is removed; what links point at outside it is left alone. */
#include <glib/gstdio.h>
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

	rmtree(tree);
	g_assert_false(g_file_test(tree, G_FILE_TEST_EXISTS));
	g_assert_true(g_file_test(kept, G_FILE_TEST_IS_REGULAR));

	/* a link given as the path is removed, not its target */
	g_assert_cmpint(symlink(outside, tree), ==, 0);
	rmtree(tree);
	g_assert_false(g_file_test(tree, G_FILE_TEST_IS_SYMLINK));
	g_assert_true(g_file_test(kept, G_FILE_TEST_IS_REGULAR));

	/* a plain file as the path; a path that is not there is no error */
	rmtree(kept);
	g_assert_false(g_file_test(kept, G_FILE_TEST_EXISTS));
	rmtree(kept);

	rmtree(dir);
	g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/rmtree/tree", test_tree);
	return g_test_run();
}
