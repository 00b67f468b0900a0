/* Unit tests of kernel/git/repo.c against real git: discovery, the
 * revision syntax (`git rev-parse --verify -q`), merge bases (`git
 * merge-base`) and ranges (`git rev-list --topo-order --reverse`) on a
 * scratch repository with tags, packed and loose refs, symbolic refs,
 * merges, a criss-cross merge, clock skew, a linked worktree and a bare
 * clone. */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/tree/rmtree.h"
#include "kernel/git/object.h"
#include "kernel/git/repo.h"
#include "tests/unit/scratch.h"

static char *scratch;
static char *repo_dir; /* the main repository's work tree */
static int tick = 1700000000;

/* git's environment with the current tick as both dates */
static char **tick_environ(void)
{
	g_autofree char *date = g_strdup_printf("@%d +0000", tick);

	return scratch_git_environ(scratch, date, date);
}

static void chomp(char *s)
{
	gsize len = strlen(s);

	if (len && s[len - 1] == '\n')
		s[len - 1] = '\0';
}

/* git in @dir with a clean environment and the current tick as both
 * dates; the exit status, stdout without its last newline in *@out */
static int git_v(const char *dir, char **out, const char *const *args)
{
	g_auto(GStrv) env = tick_environ();
	gboolean ok = scratch_git((const char *const *)env, dir, out, args);

	if (out)
		chomp(*out);
	return ok ? 0 : 1;
}

#define git_status(dir, out, ...) git_v(dir, out, SCRATCH_ARGV(__VA_ARGS__))

/* git that must succeed; its stdout without its last newline */
static char *git_ok_v(const char *dir, const char *const *args)
{
	g_auto(GStrv) env = tick_environ();
	char *out = scratch_git_ok((const char *const *)env, dir, args);

	chomp(out);
	return out;
}

#define git_ok(dir, ...) git_ok_v(dir, SCRATCH_ARGV(__VA_ARGS__))
#define git_do(dir, ...) g_free(git_ok(dir, __VA_ARGS__))

/* a commit of a file change, one second after the last */
static void commit(const char *dir, const char *msg)
{
	g_autofree char *text = g_strdup_printf("%s\n", msg);

	tick++;
	scratch_write_file(dir, "file", text);
	git_do(dir, "add", "file");
	git_do(dir, "commit", "-q", "-m", msg);
}

static void merge(const char *dir, const char *branch, const char *msg)
{
	tick++;
	git_do(dir, "merge", "-q", "--no-ff", "-s", "ours", "-m", msg, branch);
}

static char *rev(const char *dir, const char *spec)
{
	return git_ok(dir, "rev-parse", "--verify", "-q", spec);
}

static char *hex_of(const struct gitoid *oid)
{
	char hex[GITOID_HEXSZ + 1];

	gitoid_to_hex(oid, hex);
	return g_strdup(hex);
}

/* The main repository:
 *
 *   A - B - C - M - D - O          main (O: octopus of D, o1, o2)
 *        \     /                   v1 = annotated tag of B
 *         S1-S2                    side (packed at S2, loose at S3)
 *
 *   D - P1 - X2 - X3               x   (X2 = merge of P1 and Q1)
 *     \    ><                      criss-cross
 *      Q1 - Y2 - Y3                y   (Y2 = merge of Q1 and P1)
 *
 *   and "skew": commits dated before their parents. */
static void build_repo(void)
{
	/* NAME -> TARGET: an alias, one that points nowhere, a chain of
	 * five, a loop */
	static const char *const symrefs[][2] = {
		{ "refs/remotes/origin/HEAD", "refs/remotes/origin/main" },
		{ "refs/heads/alias", "refs/heads/main" },
		{ "refs/heads/dangling", "refs/heads/nothing" },
		{ "refs/heads/chain1", "refs/heads/chain2" },
		{ "refs/heads/chain2", "refs/heads/chain3" },
		{ "refs/heads/chain3", "refs/heads/chain4" },
		{ "refs/heads/chain4", "refs/heads/chain5" },
		{ "refs/heads/chain5", "refs/heads/main" },
		{ "refs/heads/loop1", "refs/heads/loop2" },
		{ "refs/heads/loop2", "refs/heads/loop1" },
	};
	g_autofree char *c = NULL;
	g_autofree char *b = NULL;
	g_autofree char *short_b = NULL;
	g_autofree char *tree = NULL;
	g_autofree char *blob = NULL;
	g_autofree char *root = NULL;
	int i;

	repo_dir = g_build_filename(scratch, "repo", NULL);
	git_do(scratch, "init", "-q", "-b", "main", repo_dir);
	commit(repo_dir, "A");
	root = rev(repo_dir, "HEAD");
	commit(repo_dir, "B");
	b = rev(repo_dir, "HEAD");
	tick++;
	git_do(repo_dir, "tag", "-a", "-m", "version one", "v1");
	git_do(repo_dir, "checkout", "-q", "-b", "side");
	commit(repo_dir, "S1");
	commit(repo_dir, "S2");
	git_do(repo_dir, "checkout", "-q", "main");
	commit(repo_dir, "C");
	c = rev(repo_dir, "HEAD");
	git_do(repo_dir, "tag", "lw");
	merge(repo_dir, "side", "M");
	commit(repo_dir, "D");
	/* an octopus */
	git_do(repo_dir, "branch", "o1");
	git_do(repo_dir, "branch", "o2");
	git_do(repo_dir, "checkout", "-q", "o1");
	commit(repo_dir, "o1");
	git_do(repo_dir, "checkout", "-q", "o2");
	commit(repo_dir, "o2");
	git_do(repo_dir, "checkout", "-q", "main");
	tick++;
	git_do(repo_dir, "merge", "-q", "-s", "ours", "-m", "O", "o1", "o2");

	/* the criss-cross, some of it at one and the same second */
	git_do(repo_dir, "branch", "x", "HEAD~1");
	git_do(repo_dir, "branch", "y", "HEAD~1");
	git_do(repo_dir, "checkout", "-q", "x");
	commit(repo_dir, "P1");
	git_do(repo_dir, "checkout", "-q", "y");
	tick--;
	commit(repo_dir, "Q1");
	git_do(repo_dir, "checkout", "-q", "x");
	merge(repo_dir, "y~0", "X2");
	git_do(repo_dir, "checkout", "-q", "y");
	merge(repo_dir, "x~1", "Y2");
	commit(repo_dir, "Y3");
	git_do(repo_dir, "checkout", "-q", "x");
	tick--;
	commit(repo_dir, "X3");

	/* a flat criss-cross: all at one second, so that only the order
	 * git meets commits in decides between equal dates */
	git_do(repo_dir, "checkout", "-q", "-b", "fx", "main~1");
	git_do(repo_dir, "branch", "fy");
	for (i = 0; i < 3; i++) {
		g_autofree char *msg = g_strdup_printf("fx%d", i);
		g_autofree char *ymsg = g_strdup_printf("fy%d", i);

		git_do(repo_dir, "checkout", "-q", "fx");
		commit(repo_dir, msg);
		tick--;
		git_do(repo_dir, "checkout", "-q", "fy");
		commit(repo_dir, ymsg);
		tick--;
	}
	git_do(repo_dir, "checkout", "-q", "fx");
	merge(repo_dir, "fy~1", "fx merge");
	tick--;
	git_do(repo_dir, "checkout", "-q", "fy");
	merge(repo_dir, "fx~2", "fy merge");
	tick--;
	commit(repo_dir, "fy3");
	tick--;
	git_do(repo_dir, "checkout", "-q", "fx");
	commit(repo_dir, "fx3");

	/* clock skew: each child older than its parent */
	git_do(repo_dir, "checkout", "-q", "-b", "skew", "main~2");
	for (i = 0; i < 8; i++) {
		g_autofree char *msg = g_strdup_printf("skew%d", i);

		tick -= 1000;
		commit(repo_dir, msg);
		if (i == 3)
			merge(repo_dir, "o1", "skew merge");
	}
	tick += 10000;
	git_do(repo_dir, "checkout", "-q", "--orphan", "lonely");
	commit(repo_dir, "L1");
	commit(repo_dir, "L2");
	git_do(repo_dir, "checkout", "-q", "main");

	/* tags of tags, trees and blobs */
	tree = rev(repo_dir, "HEAD^{tree}");
	blob = rev(repo_dir, "HEAD:file");
	git_do(repo_dir, "tag", "-a", "-m", "outer", "v1-outer", "v1");
	git_do(repo_dir, "tag", "-a", "-m", "a tree", "treetag", tree);
	git_do(repo_dir, "tag", "-a", "-m", "a blob", "blobtag", blob);
	git_do(repo_dir, "tag", "blobtag-lw", blob);

	/* ambiguity: a tag and a branch both "v1"; a branch named like
	 * a short and a full id of B pointing elsewhere */
	git_do(repo_dir, "branch", "v1", "side");
	short_b = g_strndup(b, 7);
	git_do(repo_dir, "branch", short_b, c);
	git_do(repo_dir, "update-ref", "refs/heads/dup-full", c);
	git_do(repo_dir, "update-ref", "refs/top", c);

	/* remote-tracking refs and symbolic refs */
	git_do(repo_dir, "update-ref", "refs/remotes/origin/main", c);
	for (i = 0; i < (int)G_N_ELEMENTS(symrefs); i++)
		git_do(repo_dir, "symbolic-ref", symrefs[i][0], symrefs[i][1]);
	scratch_write_file(repo_dir, ".git/refs/heads/missing-object",
			   "0123456789012345678901234567890123456789\n");

	/* everything packed, then side moves on loosely */
	git_do(repo_dir, "pack-refs", "--all");
	git_do(repo_dir, "checkout", "-q", "side");
	commit(repo_dir, "S3");
	git_do(repo_dir, "checkout", "-q", "main");
	scratch_write_file(repo_dir, "sub/dir/f", "x\n");

	/* a linked worktree on x; refs/bisect/ is its own */
	{
		g_autofree char *wt = g_build_filename(scratch, "wt", NULL);

		git_do(repo_dir, "worktree", "add", "-q", wt, "x");
		git_do(wt, "update-ref", "refs/bisect/bad", "HEAD~1");
		git_do(repo_dir, "update-ref", "refs/bisect/bad", root);
	}
	git_do(scratch, "clone", "-q", "--bare", repo_dir, "bare.git");
}

/* the revisions compared with `git rev-parse --verify -q` */
static const char *const specs[] = {
	"HEAD",
	"@",
	"main",
	"side",
	"x",
	"y",
	"skew",
	"lonely",
	"refs/heads/main",
	"heads/main",
	"refs/heads/side",
	"tags/v1",
	"v1",
	"refs/tags/v1",
	"heads/v1",
	"v1^{}",
	"v1^{commit}",
	"v1^{tree}",
	"v1^{tag}",
	"v1^{object}",
	"v1^{blob}",
	"v1-outer",
	"v1-outer^{}",
	"v1-outer^{tag}",
	"v1-outer^{commit}",
	"v1-outer~0",
	"v1-outer^0",
	"v1-outer~1",
	"treetag",
	"treetag^{}",
	"treetag^{tree}",
	"treetag^{commit}",
	"treetag~1",
	"blobtag",
	"blobtag^{}",
	"blobtag^{blob}",
	"blobtag^{tree}",
	"blobtag-lw",
	"blobtag-lw^{}",
	"blobtag-lw^0",
	"lw",
	"lw^{tag}",
	"lw^{}",
	"HEAD~",
	"HEAD~0",
	"HEAD~1",
	"HEAD~2",
	"HEAD~3",
	"HEAD~4",
	"HEAD~5",
	"HEAD~6",
	"HEAD~100",
	"HEAD^",
	"HEAD^0",
	"HEAD^1",
	"HEAD^2",
	"HEAD^3",
	"HEAD^4",
	"HEAD^^",
	"HEAD~~",
	"HEAD^^2",
	"HEAD^^^2",
	"HEAD~2^2",
	"HEAD~2^2~1",
	"HEAD~2^2~2",
	"HEAD~2^2^",
	"HEAD~2^2^^",
	"HEAD^2~1",
	"HEAD~1^{tree}",
	"HEAD^{tree}~1",
	"HEAD^{tree}^{tree}",
	"HEAD^{}^{}",
	"HEAD^{commit}",
	"HEAD^{commit}^{commit}",
	"HEAD^{object}",
	"HEAD^{}~1",
	"HEAD^{commit}}",
	"HEAD^{foo}",
	"HEAD^{",
	"HEAD^}",
	"HEAD~-1",
	"HEAD~1a",
	"HEAD~2147483647",
	"HEAD~2147483648",
	"HEAD^99999999999999999999",
	"HEAD^02",
	"HEAD~01",
	"~1",
	"^1",
	"^",
	"~",
	"@~1",
	"@^2",
	"@^{tree}",
	"@@",
	"HEAD@",
	"x^2",
	"x^3",
	"y^2",
	"x~1^2^",
	"origin/main",
	"origin",
	"remotes/origin/main",
	"remotes/origin/HEAD",
	"refs/remotes/origin",
	"alias",
	"heads/alias",
	"dangling",
	"chain1",
	"chain2",
	"chain5",
	"loop1",
	"missing-object",
	"top",
	"refs/top",
	"dup-full",
	"nosuch",
	"",
	".",
	"/",
	"main/",
	"/main",
	"./main",
	"main/.",
	"refs//heads/main",
	"refs/heads/../heads/main",
	"refs/heads/main.lock",
	"main.lock",
	"main..side",
	"main...side",
	"ORIG_HEAD",
	"FETCH_HEAD",
	"config",
	"objects",
	"index",
	"logs",
	"refs",
	"refs/heads",
	"HEAD ",
	" HEAD",
	"head",
	"Main",
	"refs/bisect/bad",
	"bisect/bad",
	"0123456789012345678901234567890123456789",
	"0123456789012345678901234567890123456789^{}",
	"01234567",
	"0123",
	"012",
	"ffffffffff",
	"v1-2-gdeadbeef",
	"x-g",
	/* filled in by test_revparse: ids, short ids, describe names */
};

static void check_spec(struct gitrepo *repo, const char *dir, const char *spec)
{
	g_autofree char *want = NULL;
	g_autoptr(GError) error = NULL;
	struct gitoid oid;
	gboolean ok;
	int status;

	status = git_status(dir, &want, "rev-parse", "--verify", "-q", spec);
	ok = gitrepo_revparse(repo, spec, &oid, &error);
	if (status) {
		if (ok) {
			g_autofree char *got = hex_of(&oid);

			g_error("'%s' in %s: git fails, gitrepo gives %s", spec,
				dir, got);
		}
		g_assert_nonnull(error);
		if (error->domain != GITREPO_ERROR)
			g_error("'%s': %s", spec, error->message);
		g_assert_nonnull(strstr(error->message, "bad revision '"));
	} else {
		g_autofree char *got = NULL;

		if (!ok)
			g_error("'%s' in %s: git gives %s, gitrepo fails: %s",
				spec, dir, want, error->message);
		got = hex_of(&oid);
		if (strcmp(got, want))
			g_error("'%s' in %s: git gives %s, gitrepo %s", spec,
				dir, want, got);
	}
}

/* specs made from the ids of the repository */
static GPtrArray *id_specs(const char *dir)
{
	GPtrArray *list = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *b = rev(dir, "v1^{}");
	g_autofree char *c = rev(dir, "lw");
	g_autofree char *tag = rev(dir, "v1");
	g_autofree char *tree = rev(dir, "main^{tree}");

	g_ptr_array_add(list, g_strdup(b));
	g_ptr_array_add(list, g_ascii_strup(b, -1));
	g_ptr_array_add(list, g_strndup(b, 4));
	g_ptr_array_add(list, g_strndup(b, 7)); /* a branch too */
	g_ptr_array_add(list, g_strndup(b, 8));
	g_ptr_array_add(list, g_strdup_printf("%.7s^{}", b));
	g_ptr_array_add(list, g_strdup_printf("%.7s~1", b));
	g_ptr_array_add(list, g_strdup_printf("%.9s~1", b));
	g_ptr_array_add(list, g_strndup(c, 12));
	g_ptr_array_add(list, g_strdup_printf("%.10s^{tree}", c));
	g_ptr_array_add(list, g_strdup(tag));
	g_ptr_array_add(list, g_strdup_printf("%s^{}", tag));
	g_ptr_array_add(list, g_strdup_printf("%.6s", tag));
	g_ptr_array_add(list, g_strdup(tree));
	g_ptr_array_add(list, g_strdup_printf("%.5s", tree));
	g_ptr_array_add(list, g_strdup_printf("%s^{commit}", tree));
	g_ptr_array_add(list, g_strdup_printf("%s~1", tree));
	g_ptr_array_add(list, g_strdup_printf("v1-2-g%.7s", c));
	g_ptr_array_add(list, g_strdup_printf("anything-g%.8s", c));
	g_ptr_array_add(list, g_strdup_printf("v1-2-g%.7s~1", c));
	g_ptr_array_add(list, g_strdup_printf("v1-2-g%.7s", tree));
	g_ptr_array_add(list, g_strdup_printf("v1-g%.3s", c));
	g_ptr_array_add(list, g_strdup_printf("%.39s", c));
	g_ptr_array_add(list, g_strdup_printf("%sa", c));
	return list;
}

static void check_all_specs(const char *dir)
{
	g_autoptr(gitrepo) repo = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) ids = id_specs(dir);
	gsize i;

	repo = gitrepo_open(dir, &error);
	g_assert_no_error(error);
	for (i = 0; i < G_N_ELEMENTS(specs); i++)
		check_spec(repo, dir, specs[i]);
	for (i = 0; i < ids->len; i++)
		check_spec(repo, dir, ids->pdata[i]);
}

static void test_revparse(void)
{
	g_autofree char *wt = g_build_filename(scratch, "wt", NULL);
	g_autofree char *bare = g_build_filename(scratch, "bare.git", NULL);
	g_autofree char *sub = g_build_filename(repo_dir, "sub", "dir", NULL);

	check_all_specs(repo_dir);
	check_all_specs(wt);
	check_all_specs(bare);
	check_all_specs(sub);
}

/* The main repository, opened: it must open. */
static gitrepo *open_repo(void)
{
	g_autoptr(GError) error = NULL;
	gitrepo *repo = gitrepo_open(repo_dir, &error);

	g_assert_no_error(error);
	return repo;
}

static void test_revparse_unsupported(void)
{
	static const char *const unsupported[] = {
		"HEAD:file",
		":file",
		":0:file",
		":/S1",
		"HEAD^{/S1}",
		"HEAD@{0}",
		"@{1}",
		"main@{u}",
		"@{-1}",
		"main@{upstream}",
		"HEAD@{yesterday}",
	};
	g_autoptr(gitrepo) repo = open_repo();
	g_autoptr(GError) error = NULL;
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(unsupported); i++) {
		struct gitoid oid;

		g_assert_false(
			gitrepo_revparse(repo, unsupported[i], &oid, &error));
		g_assert_error(error, GITREPO_ERROR, GITREPO_ERROR_UNSUPPORTED);
		g_assert_nonnull(strstr(error->message, unsupported[i]));
		g_clear_error(&error);
	}
}

static void test_revparse_errors(void)
{
	g_autoptr(gitrepo) repo = open_repo();
	g_autoptr(GError) error = NULL;
	struct gitoid oid;

	g_assert_false(gitrepo_revparse(repo, "nosuch", &oid, &error));
	g_assert_error(error, GITREPO_ERROR, GITREPO_ERROR_BAD_REVISION);
	g_assert_cmpstr(error->message, ==,
			"bad revision 'nosuch': unknown revision 'nosuch'");
	g_clear_error(&error);
	g_assert_false(gitrepo_revparse(repo, "main~100", &oid, &error));
	g_assert_cmpstr(error->message, ==,
			"bad revision 'main~100': 'main' has no ancestor 100");
	g_clear_error(&error);
	g_assert_false(gitrepo_revparse(repo, "v1^{blob}", &oid, &error));
	g_assert_nonnull(strstr(error->message, "expected blob type, but "
						"the object dereferences to "
						"tree type"));
}

static const char *const pairs[][2] = {
	{ "main", "side" },
	{ "side", "main" },
	{ "x", "y" },
	{ "y", "x" },
	{ "x~1", "y~1" },
	{ "y~1", "x~1" },
	{ "main", "x" },
	{ "x", "main" },
	{ "skew", "main" },
	{ "main", "skew" },
	{ "skew", "side" },
	{ "side", "skew" },
	{ "skew~6", "x" },
	{ "v1", "main" },
	{ "main", "v1" },
	{ "lw", "side" },
	{ "main", "main" },
	{ "main~1", "main" },
	{ "main", "main~1" },
	{ "main^2", "main^3" },
	{ "o1", "x" },
	{ "lonely", "main" },
	{ "main", "lonely" },
	{ "side~1", "v1-outer" },
	{ "x~1^2", "y~1^2" },
	{ "fx", "fy" },
	{ "fy", "fx" },
	{ "fx~1", "fy~1" },
	{ "fy~1", "fx~1" },
	{ "fx~2", "fy" },
	{ "fy", "fx~1^2" },
	{ "main", "fx" },
	{ "fx", "main" },
	{ "fy~2", "fx" },
	{ "skew", "fx" },
	{ "skew~5", "skew~4^2" },
	{ "skew~4^2", "skew~3" },
};

static void test_merge_base(void)
{
	g_autoptr(gitrepo) repo = open_repo();
	g_autoptr(GError) error = NULL;
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(pairs); i++) {
		g_autofree char *want = NULL;
		struct gitoid a, b, base;
		int status;
		gboolean ok;

		status = git_status(repo_dir, &want, "merge-base", pairs[i][0],
				    pairs[i][1]);
		g_assert_true(gitrepo_revparse(repo, pairs[i][0], &a, NULL));
		g_assert_true(gitrepo_revparse(repo, pairs[i][1], &b, NULL));
		ok = gitrepo_merge_base(repo, &a, &b, &base, &error);
		if (status) {
			g_assert_false(ok);
			g_assert_error(error, GITREPO_ERROR,
				       GITREPO_ERROR_NO_MERGE_BASE);
			g_clear_error(&error);
		} else {
			g_autofree char *got = NULL;

			g_assert_no_error(error);
			got = hex_of(&base);
			if (strcmp(got, want))
				g_error("merge-base %s %s: git %s, gitrepo %s",
					pairs[i][0], pairs[i][1], want, got);
		}
	}
}

/* two merge bases: git prints the newer, on a tie the one it met first */
static void test_merge_base_criss_cross(void)
{
	static const char *const cc[][2] = { { "x", "y" }, { "fx", "fy" } };
	g_autoptr(gitrepo) repo = gitrepo_open(repo_dir, NULL);
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(cc); i++) {
		g_autofree char *all = git_ok(repo_dir, "merge-base", "--all",
					      cc[i][0], cc[i][1]);
		g_autofree char *got = NULL;
		struct gitoid a, b, base;

		/* the scenario holds: two bases */
		g_assert_nonnull(strchr(all, '\n'));
		g_assert_true(gitrepo_revparse(repo, cc[i][0], &a, NULL));
		g_assert_true(gitrepo_revparse(repo, cc[i][1], &b, NULL));
		g_assert_true(gitrepo_merge_base(repo, &a, &b, &base, NULL));
		got = hex_of(&base);
		g_assert_true(g_str_has_prefix(all, got));
		g_assert_cmpuint(all[GITOID_HEXSZ], ==, '\n');
	}
}

static void check_ranges(struct gitrepo *repo, const char *dir)
{
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(pairs); i++) {
		g_autofree char *range =
			g_strdup_printf("%s..%s", pairs[i][0], pairs[i][1]);
		g_autofree char *want = git_ok(dir, "rev-list", "--topo-order",
					       "--reverse", range);
		g_autoptr(GString) got = g_string_new(NULL);
		g_autoptr(GArray) list = NULL;
		g_autoptr(GError) error = NULL;
		struct gitoid a, b;
		guint j;

		g_assert_true(gitrepo_revparse(repo, pairs[i][0], &a, NULL));
		g_assert_true(gitrepo_revparse(repo, pairs[i][1], &b, NULL));
		list = gitrepo_range(repo, &a, &b, &error);
		g_assert_no_error(error);
		for (j = 0; j < list->len; j++) {
			g_autofree char *hex =
				hex_of(&g_array_index(list, struct gitoid, j));

			if (j)
				g_string_append_c(got, '\n');
			g_string_append(got, hex);
		}
		if (strcmp(got->str, want))
			g_error("rev-list %s in %s:\ngit:\n%s\ngitrepo:\n%s",
				range, dir, want, got->str);
	}
}

static void test_range(void)
{
	g_autoptr(gitrepo) repo = open_repo();
	g_autoptr(GError) error = NULL;
	g_autofree char *copy = g_build_filename(scratch, "graph", NULL);

	check_ranges(repo, repo_dir);

	/* with a commit-graph git walks --topo-order incrementally */
	git_do(scratch, "clone", "-q", "--mirror", repo_dir, copy);
	git_do(copy, "commit-graph", "write", "--reachable");
	check_ranges(repo, copy);
	rmtree(copy, NULL);
}

static char *real(const char *path)
{
	char *r = realpath(path, NULL);
	char *copy = g_strdup(r);

	free(r);
	return copy;
}

/* gitrepo_open(@dir) fails with @code; the error's message holds @what
 * unless NULL. */
static void assert_open_fails(const char *dir, int code, const char *what)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(gitrepo) repo = gitrepo_open(dir, &error);

	g_assert_null(repo);
	g_assert_error(error, GITREPO_ERROR, code);
	if (what)
		g_assert_nonnull(strstr(error->message, what));
}

/* gitrepo_open() against `git rev-parse` for the directories */
static void check_open(const char *dir)
{
	g_autoptr(gitrepo) repo = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *git_dir = NULL;
	g_autofree char *common = NULL;
	g_autofree char *top = NULL;
	g_autofree char *bare = NULL;
	g_autofree char *inside = NULL;
	int no_top;

	repo = gitrepo_open(dir, &error);
	g_assert_no_error(error);
	git_dir = git_ok(dir, "rev-parse", "--absolute-git-dir");
	common = git_ok(dir, "rev-parse", "--path-format=absolute",
			"--git-common-dir");
	no_top = git_status(dir, &top, "rev-parse", "--show-toplevel");
	bare = git_ok(dir, "rev-parse", "--is-bare-repository");
	inside = git_ok(dir, "rev-parse", "--is-inside-git-dir");
	g_assert_cmpstr(repo->git_dir, ==, git_dir);
	g_free(git_dir);
	git_dir = real(common);
	g_assert_cmpstr(repo->common_dir, ==, git_dir);
	if (!strcmp(bare, "true") || no_top) {
		g_assert_null(repo->work_tree);
	} else {
		g_autofree char *slash = g_strconcat(top, "/", NULL);

		g_assert_cmpstr(repo->work_tree, ==, slash);
	}
}

static void test_open(void)
{
	g_autofree char *wt = g_build_filename(scratch, "wt", NULL);
	g_autofree char *wt_sub = g_build_filename(scratch, "wt", "sub", NULL);
	g_autofree char *bare = g_build_filename(scratch, "bare.git", NULL);
	g_autofree char *bare_refs =
		g_build_filename(scratch, "bare.git", "refs", "heads", NULL);
	g_autofree char *sub = g_build_filename(repo_dir, "sub", "dir", NULL);
	g_autofree char *dot_git = g_build_filename(repo_dir, ".git", NULL);
	g_autofree char *dot_git_refs =
		g_build_filename(repo_dir, ".git", "refs", NULL);

	g_assert_cmpint(g_mkdir_with_parents(wt_sub, 0755), ==, 0);
	check_open(repo_dir);
	check_open(sub);
	check_open(wt);
	check_open(wt_sub);
	check_open(bare);
	check_open(bare_refs);
	check_open(dot_git);
	check_open(dot_git_refs);
}

static void test_open_variants(void)
{
	g_autofree char *dir = g_build_filename(scratch, "variants", NULL);
	g_autofree char *plain = g_build_filename(dir, "plain", NULL);
	g_autofree char *gitfile = g_build_filename(dir, "gitfile", NULL);
	g_autofree char *gitfile_sub = g_build_filename(gitfile, "a", NULL);
	g_autofree char *badfile = g_build_filename(dir, "badfile", NULL);
	g_autofree char *sha256 = g_build_filename(dir, "sha256", NULL);
	g_autofree char *corebare = g_build_filename(dir, "corebare", NULL);
	g_autofree char *worktree = g_build_filename(dir, "cfgworktree", NULL);
	g_autofree char *elsewhere = g_build_filename(dir, "elsewhere", NULL);

	g_assert_cmpint(g_mkdir_with_parents(plain, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(gitfile_sub, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(badfile, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(elsewhere, 0755), ==, 0);

	/* no repository at all */
	assert_open_fails(plain, GITREPO_ERROR_NOT_A_REPOSITORY, NULL);

	/* a relative "gitdir:" file */
	git_do(dir, "init", "-q", "--bare", "real.git");
	scratch_write_file(gitfile, ".git", "gitdir: ../real.git\n");
	check_open(gitfile_sub);

	/* a gitfile that points nowhere: an error, as git's */
	scratch_write_file(badfile, ".git", "gitdir: ../nowhere\n");
	g_assert_cmpint(git_status(badfile, NULL, "rev-parse", "--git-dir"), !=,
			0);
	assert_open_fails(badfile, GITREPO_ERROR_NOT_A_REPOSITORY, NULL);
	scratch_write_file(badfile, ".git", "nonsense\n");
	assert_open_fails(badfile, GITREPO_ERROR_NOT_A_REPOSITORY, NULL);

	/* SHA-256 is refused */
	git_do(dir, "init", "-q", "--object-format=sha256", sha256);
	assert_open_fails(sha256, GITREPO_ERROR_UNSUPPORTED, "sha256");

	/* core.bare = true in a .git directory: no work tree */
	git_do(dir, "init", "-q", corebare);
	git_do(corebare, "config", "core.bare", "true");
	check_open(corebare);

	/* core.worktree */
	git_do(dir, "init", "-q", worktree);
	git_do(worktree, "config", "core.worktree", "../../elsewhere");
	check_open(worktree);

	/* config syntax git accepts: comments, quotes, continuation,
	 * subsections, a key without value, and case */
	git_do(dir, "init", "-q", "cfg");
	{
		g_autofree char *cfg = g_build_filename(dir, "cfg", NULL);

		scratch_write_file(cfg, ".git/config",
				   "# comment\n"
				   "[core]\n"
				   "\trepositoryformatversion = 1 ; comment\n"
				   "\tBare = \"fal\\\n"
				   "se\" # x\n"
				   "[remote \"o\\\"r\"]\n"
				   "\turl = \"a;b#c\"\n"
				   "\tmirror\n"
				   "[Extensions]\n"
				   "\tobjectFormat = sha1\n");
		check_open(cfg);
		scratch_write_file(
			cfg, ".git/config",
			"[extensions]\n\tobjectformat = \"sha256\"\n");
		assert_open_fails(cfg, GITREPO_ERROR_UNSUPPORTED, NULL);
		scratch_write_file(cfg, ".git/config",
				   "[core\n\tbare = false\n");
		assert_open_fails(cfg, GITREPO_ERROR_CORRUPT, NULL);
		scratch_write_file(cfg, ".git/config",
				   "[core]\n\tbare = \"x\n");
		assert_open_fails(cfg, GITREPO_ERROR_CORRUPT, NULL);
	}
	rmtree(dir, NULL);
}

/* packed-refs read as git reads it, and refused when malformed */
static void test_packed_refs(void)
{
	g_autofree char *dir = g_build_filename(scratch, "packed", NULL);
	g_autofree char *file =
		g_build_filename(dir, ".git", "packed-refs", NULL);
	g_autofree char *head = NULL;
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	struct gitoid oid;

	git_do(scratch, "init", "-q", "-b", "main", dir);
	commit(dir, "one");
	head = rev(dir, "HEAD");
	git_do(dir, "tag", "-a", "-m", "t", "t1");
	git_do(dir, "pack-refs", "--all");
	/* unsorted, without the header, peeled lines: still found */
	text = g_strdup_printf("%s refs/tags/zz\n"
			       "%s refs/heads/main\n"
			       "%s refs/heads/aa\n"
			       "^%s\n",
			       head, head, head, head);
	scratch_write_file(dir, ".git/packed-refs", text);
	{
		g_autoptr(gitrepo) repo = gitrepo_open(dir, &error);
		g_autofree char *got = NULL;

		g_assert_no_error(error);
		g_assert_true(gitrepo_revparse(repo, "zz", &oid, &error));
		got = hex_of(&oid);
		g_assert_cmpstr(got, ==, head);
		g_assert_true(gitrepo_revparse(repo, "aa", &oid, &error));
		g_assert_true(gitrepo_revparse(repo, "main", &oid, &error));
		g_assert_false(gitrepo_revparse(repo, "t1", &oid, &error));
		g_clear_error(&error);
	}
	/* an unterminated last line, a bad line: errors (git dies) */
	g_free(text);
	text = g_strdup_printf("%s refs/heads/main", head);
	scratch_write_file(dir, ".git/packed-refs", text);
	{
		g_autoptr(gitrepo) repo = gitrepo_open(dir, &error);

		g_assert_no_error(error);
		g_assert_false(gitrepo_revparse(repo, "main", &oid, &error));
		g_assert_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT);
		g_clear_error(&error);
		/* the same error again, from the cache */
		g_assert_false(gitrepo_revparse(repo, "main", &oid, &error));
		g_assert_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT);
		g_clear_error(&error);
	}
	g_assert_cmpint(git_status(dir, NULL, "rev-parse", "main"), !=, 0);
	scratch_write_file(dir, ".git/packed-refs",
			   "# pack-refs with: peeled\n"
			   "garbage refs/heads/main\n");
	{
		g_autoptr(gitrepo) repo = gitrepo_open(dir, &error);

		g_assert_false(gitrepo_revparse(repo, "main", &oid, &error));
		g_assert_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT);
		g_clear_error(&error);
	}
	g_assert_cmpint(git_status(dir, NULL, "rev-parse", "main"), !=, 0);
	rmtree(dir, NULL);
}

static void test_peel_commit(void)
{
	g_autoptr(gitrepo) repo = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *tree = rev(repo_dir, "v1-outer^{tree}");
	g_autofree char *parent = rev(repo_dir, "main~1");
	g_autofree char *got = NULL;
	struct gitoid oid, out;
	struct gitcommit c;

	repo = gitrepo_open(repo_dir, &error);
	g_assert_true(gitrepo_revparse(repo, "v1-outer", &oid, &error));
	g_assert_true(gitrepo_peel(repo, &oid, GITOBJ_TREE, &out, &error));
	got = hex_of(&out);
	g_assert_cmpstr(got, ==, tree);
	g_assert_false(gitrepo_peel(repo, &out, GITOBJ_COMMIT, &out, &error));
	g_assert_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT);
	g_clear_error(&error);
	g_assert_true(gitrepo_revparse(repo, "main", &oid, &error));
	g_assert_true(gitrepo_commit(repo, &oid, &c, &error));
	g_assert_cmpuint(c.parents->len, ==, 3);
	g_free(got);
	got = hex_of(&g_array_index(c.parents, struct gitoid, 0));
	g_assert_cmpstr(got, ==, parent);
	gitcommit_clear(&c);
	g_assert_false(gitrepo_commit(repo, &out, &c, &error));
	g_assert_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT);
}

/* git check-ref-format --allow-onelevel (git 2.39) on each name */
static void test_refname_valid(void)
{
	static const char *const good[] = {
		"refs/heads/master",
		"refs/heads/for-next",
		"HEAD",
		"refs/heads/a.b",
		"refs/heads/@",
		"refs/tags/v6.1-rc1",
		"refs/heads/a@b",
		"refs/heads/\xc3\xa9",
	};
	static const char *const bad[] = {
		"refs/heads/bad..name",
		"refs/heads/a@{b",
		"@",
		"refs/heads/.hidden",
		"refs/heads/x.lock",
		"refs/heads/x.",
		"refs/heads/a b",
		"refs/heads/a~1",
		"refs/heads/a^",
		"refs/heads/a:b",
		"refs/heads/a?",
		"refs/heads/a[",
		"refs/heads/a*",
		"refs/heads/a\\b",
		"refs/heads/",
		"refs//heads",
		"/refs/heads/a",
		"refs/heads/a\x7f",
		"",
	};

	for (guint i = 0; i < G_N_ELEMENTS(good); i++)
		g_assert_true(gitrepo_refname_valid(good[i]));
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_false(gitrepo_refname_valid(bad[i]));
}

int main(int argc, char **argv)
{
	int ret;

	g_test_init(&argc, &argv, NULL);
	scratch = scratch_dir_new("armbot-gitrepo-XXXXXX");
	build_repo();
	g_test_add_func("/gitrepo/open", test_open);
	g_test_add_func("/gitrepo/refname-valid", test_refname_valid);
	g_test_add_func("/gitrepo/open-variants", test_open_variants);
	g_test_add_func("/gitrepo/revparse", test_revparse);
	g_test_add_func("/gitrepo/revparse-unsupported",
			test_revparse_unsupported);
	g_test_add_func("/gitrepo/revparse-errors", test_revparse_errors);
	g_test_add_func("/gitrepo/packed-refs", test_packed_refs);
	g_test_add_func("/gitrepo/peel-commit", test_peel_commit);
	g_test_add_func("/gitrepo/merge-base", test_merge_base);
	g_test_add_func("/gitrepo/merge-base-criss-cross",
			test_merge_base_criss_cross);
	g_test_add_func("/gitrepo/range", test_range);
	ret = g_test_run();
	rmtree(scratch, NULL);
	g_free(scratch);
	g_free(repo_dir);
	return ret;
}
