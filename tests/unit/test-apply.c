/* Unit tests of kernel/patch/apply.c and the helpers of kernel/patch/am.c.
 * Expected values come from git 2.39. */
#include <glib/gstdio.h>
#include <string.h>

#include "kernel/patch/am.h"
#include "kernel/patch/apply.h"
#include "kernel/git/libgit2.h"

static void test_stripspace(void)
{
	g_autofree char *a = am_stripspace("\n\nSubject  \n\n\n\nbody \t\n\n");
	g_autofree char *b = am_ident_clean(" \"A. U. Thor\" <");

	g_assert_cmpstr(a, ==, "Subject\n\nbody\n");
	g_assert_cmpstr(b, ==, "A. U. Thor");
}

/* A scratch repository with one file; applies @patch to its tree. */
static void apply_text(const char *file, const char *patch,
		       struct apply_result *r, char **result)
{
	g_autofree char *dir = g_dir_make_tmp("armbot-apply-XXXXXX", NULL);
	git_repository *repo = NULL;
	git_treebuilder *tb = NULL;
	struct gitoid blob, tree_id;
	git_tree *tree = NULL, *out = NULL;
	git_tree_entry *te = NULL;
	git_blob *b = NULL;
	struct apply_options opts = APPLY_OPTIONS_INIT;
	g_autoptr(GError) error = NULL;
	g_autofree char *rm = NULL;

	g_assert_cmpint(git_repository_init(&repo, dir, 1), ==, 0);
	g_assert_cmpint(git_blob_create_from_buffer(libgit2_oid(&blob), repo,
						    file, strlen(file)),
			==, 0);
	g_assert_cmpint(git_treebuilder_new(&tb, repo, NULL), ==, 0);
	g_assert_cmpint(git_treebuilder_insert(NULL, tb, "f.c",
					       libgit2_oid(&blob),
					       GIT_FILEMODE_BLOB),
			==, 0);
	g_assert_cmpint(git_treebuilder_write(libgit2_oid(&tree_id), tb), ==,
			0);
	g_assert_cmpint(git_tree_lookup(&tree, repo, libgit2_oid(&tree_id)), ==,
			0);
	opts.max_patch_size = 4096;
	g_assert_true(apply_to_tree(r, repo, tree, patch, strlen(patch), &opts,
				    &error));
	*result = NULL;
	if (r->applied) {
		g_assert_cmpint(git_tree_lookup(&out, repo,
						libgit2_oid(&r->tree)),
				==, 0);
		g_assert_cmpint(git_tree_entry_bypath(&te, out, "f.c"), ==, 0);
		g_assert_cmpint(git_blob_lookup(&b, repo,
						git_tree_entry_id(te)),
				==, 0);
		*result =
			g_strndup(git_blob_rawcontent(b), git_blob_rawsize(b));
	}
	git_blob_free(b);
	git_tree_entry_free(te);
	git_tree_free(out);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_repository_free(repo);
	rm = g_strdup_printf("rm -rf '%s'", dir);
	g_assert_true(g_spawn_command_line_sync(rm, NULL, NULL, NULL, NULL));
}

/* What applying a patch must give: applied or not; where applied, the
 * file f.c after it (unless NULL); where not, the path and the exact reason
 * (unless NULL) and words the reason holds. */
struct apply_expect {
	gboolean applied;
	const char *out;
	const char *path;
	const char *reason;
	const char *has[2];
};

/* Apply @patch to a tree with f.c holding @file and check the result
 * against @e; a failure always has a reason. */
static void check_apply(const char *file, const char *patch,
			const struct apply_expect *e)
{
	struct apply_result r;
	g_autofree char *out = NULL;

	apply_text(file, patch, &r, &out);
	g_assert_cmpint(r.applied, ==, e->applied);
	if (e->applied && e->out)
		g_assert_cmpstr(out, ==, e->out);
	if (!e->applied)
		g_assert_nonnull(r.reason);
	if (e->path)
		g_assert_cmpstr(r.path, ==, e->path);
	if (e->reason)
		g_assert_cmpstr(r.reason, ==, e->reason);
	for (guint i = 0; i < G_N_ELEMENTS(e->has) && e->has[i]; i++)
		g_assert_nonnull(strstr(r.reason, e->has[i]));
	apply_result_clear(&r);
}

static const struct apply_case {
	const char *name;
	const char *file;
	const char *patch;
	struct apply_expect expect;
} apply_cases[] = {
	/* the hunk names line 2 but its context is at line 4 */
	{ "/apply/offset",
	  "x\ny\na\nb\nc\nd\ne\n",
	  "--- a/f.c\n+++ b/f.c\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n",
	  { .applied = TRUE, .out = "x\ny\na\nb\nC\nd\ne\n" } },
	{ "/apply/no-fuzz",
	  "a\nb\nc\nd\n",
	  "--- a/f.c\n+++ b/f.c\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n D\n",
	  { .path = "f.c",
	    .has = { "@@ -2,3 +2,3 @@",
		     "expected \"D\" at line 4, found \"d\"" } } },
	{ "/apply/no-newline",
	  "a\nb",
	  "--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,2 @@\n a\n-b\n"
	  "\\ No newline at end of file\n+B\n",
	  { .applied = TRUE, .out = "a\nB\n" } },
};

static void test_apply_case(gconstpointer data)
{
	const struct apply_case *c = data;

	check_apply(c->file, c->patch, &c->expect);
}

static void test_limits(void)
{
	g_autofree char *big = g_strnfill(5000, '+');

	check_apply("a\n", big,
		    &(struct apply_expect){ .has = { "patch too large" } });
	check_apply("a\n", "no diff here\n",
		    &(struct apply_expect){
			    .reason = "no valid patches in input" });
}

/* Sizes in a "GIT binary patch" are untrusted: before the bound,
 * "literal 1099511627776" made g_malloc abort the process. */
static void test_binary_sizes(void)
{
	static const struct {
		const char *hunk;
		const char *reason;
	} cases[] = {
		{ "literal 1099511627776\nHc$@<O00001\n\n",
		  "binary hunk of 1099511627776 bytes exceeds the limit of "
		  "67108864" },
		{ "delta 1099511627776\nHc$@<O00001\n\n",
		  "binary hunk of 1099511627776 bytes exceeds the limit of "
		  "67108864" },
		/* more than 11 deflated bytes can make */
		{ "literal 60000000\nHc$@<O00001\n\n", "corrupt binary patch" },
		/* a delta of "a\n" to a result of 2^40 bytes */
		{ "delta 10\nOc${Nu009N2#3TR{NCRj9\n\n", NULL },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *patch = g_strconcat(
			"diff --git a/f.c b/f.c\n"
			"index 78981922613b2afb6025042ff6bd878ac1994e85.."
			"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 100644\n"
			"GIT binary patch\n",
			cases[i].hunk, NULL);

		check_apply(
			"a\n", patch,
			&(struct apply_expect){ .has = { cases[i].reason } });
	}
}

#define LINK_DIFF(path, target)                                    \
	"diff --git a/" path " b/" path "\nnew file mode 120000\n" \
	"--- /dev/null\n+++ b/" path "\n@@ -0,0 +1 @@\n+" target   \
	"\n\\ No newline at end of file\n"

/* Each link is harmless read alone; B leads above the tree through L. */
static void test_symlink_chain(void)
{
	const char *patch =
		LINK_DIFF("a/b/c/d/e/f/g/h/L", "../../../../../../../..")
			LINK_DIFF("a/b/c/d/e/f/g/h/B", "L/../../../etc/passwd");
	const char *inside =
		LINK_DIFF("a/b/c/d/e/f/g/h/L", "../../../../../../../..")
			LINK_DIFF("a/b/c/d/e/f/g/h/B", "L/a/../f.c");

	check_apply("a\n", patch,
		    &(struct apply_expect){
			    .path = "a/b/c/d/e/f/g/h/B",
			    .reason = "symbolic link 'a/b/c/d/e/f/g/h/B' "
				      "leads outside the tree" });
	check_apply("a\n", inside, &(struct apply_expect){ .applied = TRUE });
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	libgit2_init();
	g_test_add_func("/apply/stripspace", test_stripspace);
	for (guint i = 0; i < G_N_ELEMENTS(apply_cases); i++)
		g_test_add_data_func(apply_cases[i].name, &apply_cases[i],
				     test_apply_case);
	g_test_add_func("/apply/limits", test_limits);
	g_test_add_func("/apply/binary-sizes", test_binary_sizes);
	g_test_add_func("/apply/symlink-chain", test_symlink_chain);
	return g_test_run();
}
