/* Unit tests of kernel/tree*.c: names, the tree file, dpkg's status file,
 * the tarball import checked against libgit2's own tree builder, and
 * checkout state. */
#include <archive.h>
#include <archive_entry.h>
#include <glib/gstdio.h>
#include <string.h>

#include "kernel/tree/checkout.h"
#include "kernel/tree/fetch.h"
#include "kernel/tree/import.h"
#include "kernel/tree/rmtree.h"
#include "kernel/tree/tree.h"
#include "tests/unit/scratch.h"
#include "kernel/git/libgit2.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_treebuilder, git_treebuilder_free)

static void test_name_valid(void)
{
	g_assert_true(tree_name_valid("distro-6.1"));
	g_assert_true(tree_name_valid("arm_soc.next"));
	g_assert_false(tree_name_valid(""));
	g_assert_false(tree_name_valid(NULL));
	g_assert_false(tree_name_valid(".hidden"));
	g_assert_false(tree_name_valid("a/b"));
	g_assert_false(tree_name_valid(".."));
	g_assert_false(tree_name_valid("a b"));
}

static void test_package_version(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-tree-XXXXXX");
	g_autofree char *status = g_build_filename(dir, "status", NULL);
	g_autoptr(GError) error = NULL;
	g_autofree char *v = NULL;
	g_autofree char *removed = NULL;

	g_assert_true(g_file_set_contents(status,
					  "Package: linux-source-6.1\n"
					  "Status: install ok installed\n"
					  "Priority: optional\n"
					  "Version: 6.1.192-3\n"
					  "\n"
					  "Package: gone\n"
					  "Status: deinstall ok config-files\n"
					  "Version: 1.0\n",
					  -1, NULL));
	g_setenv("ARMBOT_DPKG_STATUS", status, TRUE);
	v = tree_package_version("linux-source-6.1", &error);
	g_assert_no_error(error);
	g_assert_cmpstr(v, ==, "6.1.192-3");
	removed = tree_package_version("gone", &error);
	g_assert_null(removed);
	g_assert_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND);
	g_unsetenv("ARMBOT_DPKG_STATUS");
	g_unlink(status);
	g_rmdir(dir);
}

struct sample {
	const char *path;
	const char *content; /* a symlink's target */
	unsigned mode; /* 0120777 for a symlink, 040755 for a dir */
};

/* The sample tarball: git's tree order puts "foo.c" < "foo/" < "foo0". */
static const struct sample samples[] = {
	{ "top/", NULL, 040755 },
	{ "top/foo0", "zero\n", 0100644 },
	{ "top/foo/", NULL, 040755 },
	{ "top/foo/bar", "bar\n", 0100600 },
	{ "top/foo.c", "int x;\n", 0100664 },
	{ "top/run.sh", "#!/bin/sh\n", 0100755 },
	{ "top/link", "foo/bar", 0120777 },
	{ "top/empty/", NULL, 040755 },
	{ "top/.gitignore", "*\n", 0100644 },
};

static void write_sample_tarball(const char *path)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();

	archive_write_set_format_pax_restricted(a);
	archive_write_add_filter_gzip(a);
	g_assert_cmpint(archive_write_open_filename(a, path), ==, ARCHIVE_OK);
	for (guint i = 0; i < G_N_ELEMENTS(samples); i++) {
		const struct sample *s = &samples[i];

		archive_entry_clear(e);
		archive_entry_set_pathname(e, s->path);
		archive_entry_set_mode(e, s->mode);
		if ((s->mode & 0170000) == 0120000) {
			archive_entry_set_symlink(e, s->content);
			archive_entry_set_size(e, 0);
		} else if (s->content) {
			archive_entry_set_size(e, strlen(s->content));
		}
		g_assert_cmpint(archive_write_header(a, e), ==, ARCHIVE_OK);
		if (s->content && (s->mode & 0170000) == 0100000)
			g_assert_cmpint(archive_write_data(a, s->content,
							   strlen(s->content)),
					==, (la_ssize_t)strlen(s->content));
	}
	archive_entry_free(e);
	g_assert_cmpint(archive_write_close(a), ==, ARCHIVE_OK);
	archive_write_free(a);
}

static void blob(git_repository *repo, git_treebuilder *tb, const char *name,
		 const char *content, git_filemode_t mode)
{
	struct gitoid id;

	g_assert_cmpint(git_blob_create_from_buffer(libgit2_oid(&id), repo,
						    content, strlen(content)),
			==, 0);
	g_assert_cmpint(git_treebuilder_insert(NULL, tb, name, libgit2_oid(&id),
					       mode),
			==, 0);
}

/* The same tree built with libgit2's git_treebuilder. */
static void expected_tree(git_repository *repo, struct gitoid *out)
{
	g_autoptr(git_treebuilder) sub = NULL;
	g_autoptr(git_treebuilder) root = NULL;
	struct gitoid sub_id;

	g_assert_cmpint(git_treebuilder_new(&sub, repo, NULL), ==, 0);
	blob(repo, sub, "bar", "bar\n", GIT_FILEMODE_BLOB);
	g_assert_cmpint(git_treebuilder_write(libgit2_oid(&sub_id), sub), ==,
			0);
	g_assert_cmpint(git_treebuilder_new(&root, repo, NULL), ==, 0);
	blob(repo, root, "foo0", "zero\n", GIT_FILEMODE_BLOB);
	blob(repo, root, "foo.c", "int x;\n", GIT_FILEMODE_BLOB);
	blob(repo, root, "run.sh", "#!/bin/sh\n", GIT_FILEMODE_BLOB_EXECUTABLE);
	blob(repo, root, "link", "foo/bar", GIT_FILEMODE_LINK);
	blob(repo, root, ".gitignore", "*\n", GIT_FILEMODE_BLOB);
	g_assert_cmpint(git_treebuilder_insert(NULL, root, "foo",
					       libgit2_oid(&sub_id),
					       GIT_FILEMODE_TREE),
			==, 0);
	g_assert_cmpint(git_treebuilder_write(libgit2_oid(out), root), ==, 0);
}

static void test_import(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-tree-XXXXXX");
	g_autofree char *tarball = g_build_filename(dir, "s.tar.gz", NULL);
	g_autofree char *data = g_build_filename(dir, "data", NULL);
	g_autofree char *scratch = g_build_filename(dir, "scratch.git", NULL);
	g_autofree char *co = g_build_filename(dir, "co", NULL);
	g_autofree char *co_bar = g_build_filename(co, "foo", "bar", NULL);
	g_autofree char *co_link = g_build_filename(co, "link", NULL);
	g_autofree char *target = NULL;
	g_autofree char *bar = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(git_repository) oracle = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(kernel_tree) again = NULL;
	g_auto(GStrv) names = NULL;
	struct tree_import_result result;
	struct tree_checkout_stats stats;
	struct gitoid want, got, head, current;

	write_sample_tarball(tarball);
	libgit2_init();
	g_assert_cmpint(git_repository_init(&oracle, scratch, 1), ==, 0);
	expected_tree(oracle, &want);

	g_assert_true(tree_import_tarball_tree_id(tarball, &got, &error));
	g_assert_no_error(error);
	g_assert_true(gitoid_equal(&want, &got));

	tree = tree_import_distro(data, tarball, "1.2-3", &result, &error);
	g_assert_no_error(error);
	g_assert_nonnull(tree);
	g_assert_true(gitoid_equal(&want, &result.tree));
	g_assert_cmpuint(result.files, ==, 6);
	/* 6 blobs, 2 trees */
	g_assert_cmpuint(result.objects_written, ==, 8);
	g_assert_false(result.unchanged);
	g_assert_true(tree_head(tree, &head, &error));
	g_assert_true(gitoid_equal(&head, &result.commit));
	g_assert_true(tree_has_commit(tree, &head));
	g_assert_true(tree_resolve(tree, "debian/1.2-3", &got, &error));
	g_assert_true(gitoid_equal(&head, &got));
	g_assert_false(tree_resolve(tree, "nope", &got, &error));
	g_assert_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND);
	g_clear_error(&error);

	/* the key file round-trips, keeping keys it does not know */
	again = tree_open(data, TREE_DISTRO_NAME, &error);
	g_assert_no_error(error);
	g_assert_cmpint(again->kind, ==, TREE_KIND_DISTRO);
	g_assert_cmpstr(again->version, ==, "1.2-3");
	g_assert_cmpstr(again->head_branch, ==, "distro");
	g_assert_cmpstr(again->url, ==, tarball);
	names = tree_list(data, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(g_strv_length(names), ==, 1);
	g_assert_cmpstr(names[0], ==, TREE_DISTRO_NAME);

	/* again: unchanged */
	g_assert_true(tree_import_tarball(tree->repo, tarball, "1.2-3",
					  "distro", "debian/", &result,
					  &error));
	g_assert_true(result.unchanged);
	g_assert_true(gitoid_equal(&head, &result.commit));

	g_assert_false(tree_checkout_current(co, &current, &error));
	g_assert_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND);
	g_clear_error(&error);
	g_assert_true(tree_checkout(tree, NULL, co, &stats, &error));
	g_assert_no_error(error);
	g_assert_true(stats.full);
	g_assert_cmpuint(stats.written, ==, 6);
	g_assert_true(g_file_get_contents(co_bar, &bar, NULL, NULL));
	g_assert_cmpstr(bar, ==, "bar\n");
	target = g_file_read_link(co_link, &error);
	g_assert_cmpstr(target, ==, "foo/bar");
	g_assert_true(g_file_test(co_bar, G_FILE_TEST_IS_REGULAR));
	g_assert_true(tree_checkout_current(co, &current, &error));
	g_assert_true(gitoid_equal(&current, &head));
	g_assert_true(tree_checkout(tree, "distro", co, &stats, &error));
	g_assert_false(stats.full);
	g_assert_cmpuint(stats.written + stats.removed, ==, 0);
	rmtree(dir, NULL);
}

static void test_open_missing(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-tree-XXXXXX");
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = tree_open(dir, "nothing", &error);
	g_auto(GStrv) names = NULL;

	g_assert_null(tree);
	g_assert_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND);
	g_clear_error(&error);
	g_assert_null(tree_open(dir, "../x", &error));
	g_assert_error(error, TREE_ERROR, TREE_ERROR_INVALID);
	g_clear_error(&error);
	names = tree_list(dir, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(g_strv_length(names), ==, 0);
	g_rmdir(dir);
}

struct progress_calls {
	guint calls, done;
	struct lg2fetch_stats last;
};

static void count_progress(const struct lg2fetch_stats *s, gpointer data)
{
	struct progress_calls *c = data;

	c->calls++;
	c->done += s->done;
	c->last = *s;
}

/* A cancelled fetch leaves no tree; progress reports come at most once
 * per interval, and once when every object is in; the heads. */
static void test_fetch_progress(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-tree-XXXXXX");
	g_auto(GStrv) env = scratch_git_environ(dir, "@1700000000 +0000", NULL);
	g_autofree char *up = g_build_filename(dir, "up", NULL);
	g_autofree char *data = g_build_filename(dir, "data", NULL);
	g_autofree char *t = g_build_filename(data, "trees", "t", NULL);
	g_autofree char *out = NULL;
	g_autoptr(GCancellable) cancel = g_cancellable_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(GPtrArray) heads = NULL;
	struct tree_fetch_options opts = TREE_FETCH_OPTIONS_INIT;
	struct lg2fetch_stats stats;
	struct progress_calls c = { 0 };
	struct gitoid main_id;

	g_free(scratch_sh((const char *const *)env, dir,
			  "git init -q -b main up && cd up &&"
			  " for i in 1 2 3; do echo $i > f$i; git add f$i;"
			  " git commit -q -m $i; done && git branch side HEAD~1",
			  NULL));
	out = scratch_git_ok((const char *const *)env, up,
			     SCRATCH_ARGV("rev-parse", "main"));
	g_assert_true(gitoid_from_hexn(&main_id, out, GITOID_HEXSZ));

	g_cancellable_cancel(cancel);
	opts.cancellable = cancel;
	tree = tree_add(data, "t", up, NULL, &opts, &stats, &error);
	g_assert_null(tree);
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_assert_false(g_file_test(t, G_FILE_TEST_EXISTS));
	g_clear_error(&error);

	opts.cancellable = NULL;
	opts.progress = count_progress;
	opts.user_data = &c;
	opts.progress_interval = 3600 * G_TIME_SPAN_SECOND;
	tree = tree_add(data, "t", up, NULL, &opts, &stats, &error);
	g_assert_no_error(error);
	g_assert_nonnull(tree);
	/* within the hour: only the final report */
	g_assert_cmpuint(c.calls, ==, 1);
	g_assert_cmpuint(c.done, ==, 1);
	/* 3 commits, 3 trees, 3 blobs */
	g_assert_cmpuint(stats.total_objects, ==, 9);
	g_assert_cmpuint(stats.received_objects, ==, 9);
	g_assert_cmpuint(c.last.received_objects, ==, 9);
	g_assert_cmpuint(stats.received_bytes, >, 0);
	g_assert_true(stats.done);

	heads = tree_heads(tree, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(heads->len, ==, 2);
	g_assert_cmpstr(((struct tree_head *)heads->pdata[0])->branch, ==,
			"main");
	g_assert_true(gitoid_equal(
		&((struct tree_head *)heads->pdata[0])->commit, &main_id));
	g_assert_cmpstr(((struct tree_head *)heads->pdata[1])->branch, ==,
			"side");

	/* nothing new: no object, still a final report */
	c.calls = c.done = 0;
	g_assert_true(tree_update(tree, &opts, &stats, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(stats.received_objects, ==, 0);
	g_assert_cmpuint(c.calls, <=, 1);
	rmtree(dir, NULL);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tree/name-valid", test_name_valid);
	g_test_add_func("/tree/package-version", test_package_version);
	g_test_add_func("/tree/import", test_import);
	g_test_add_func("/tree/open-missing", test_open_missing);
	g_test_add_func("/tree/fetch-progress", test_fetch_progress);
	return g_test_run();
}
