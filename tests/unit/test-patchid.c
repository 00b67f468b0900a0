/* Unit tests of kernel/patch/patchid.c: ids git 2.39.5 prints for hand-made
 * patches (`printf ... | git patch-id --stable`), what the ids are for
 * (whitespace and file order do not matter), streams, hostile input
 * (no crash, feeding in pieces changes nothing, the line limit), and the
 * commit path on a scratch repository checked against the text of `git
 * format-patch`.  The thousands of comparisons with git are in
 * tests/conformance/patchid*.t. */
#include "kernel/patch/patchid.h"

#include <string.h>

#include "kernel/tree/rmtree.h"
#include "kernel/tree/tree.h"
#include "tests/unit/scratch.h"
#include "kernel/git/libgit2.h"

#define P1                                                   \
	"diff --git a/drivers/soc/pm.c b/drivers/soc/pm.c\n" \
	"index 1234567..89abcde 100644\n"                    \
	"--- a/drivers/soc/pm.c\n"                           \
	"+++ b/drivers/soc/pm.c\n"                           \
	"@@ -1,3 +1,3 @@ static int a(void)\n"               \
	" {\n"                                               \
	"-\treturn 0;\n"                                     \
	"+\treturn -EINVAL;\n"                               \
	" }\n"
#define P2                                                   \
	"diff --git a/arch/arm/Kconfig b/arch/arm/Kconfig\n" \
	"index 1111111..2222222 100644\n"                    \
	"--- a/arch/arm/Kconfig\n"                           \
	"+++ b/arch/arm/Kconfig\n"                           \
	"@@ -10 +10 @@\n"                                    \
	"-\tselect FOO\n"                                    \
	"+\tselect BAR\n"

static char *hex(const struct gitoid *oid)
{
	char buf[GITOID_HEXSZ + 1];

	return (gitoid_to_hex(oid, buf), g_strdup(buf));
}

/* The id of @text in @mode, as hex; "none" when there is none. */
static char *id_of(const char *text, enum patchid_mode mode)
{
	struct gitoid id;

	if (!patchid_text(text, strlen(text), mode, &id))
		return g_strdup("none");
	return hex(&id);
}

static void check_id(const char *text, enum patchid_mode mode, const char *want)
{
	g_autofree char *got = id_of(text, mode);

	g_assert_cmpstr(got, ==, want);
}

static void test_known_ids(void)
{
	/* printf ... | git patch-id --stable, --unstable, --verbatim */
	check_id(P1, PATCHID_STABLE,
		 "eb36cd44085fad3d6ffdc0d31ad1c28859a3d683");
	check_id(P1, PATCHID_UNSTABLE,
		 "eb36cd44085fad3d6ffdc0d31ad1c28859a3d683");
	check_id(P1, PATCHID_VERBATIM,
		 "30d432ce876d2e2f393e798ba0991ae30e321f8d");
	check_id(P1 P2, PATCHID_STABLE,
		 "780b30858c2f8db61396bcd201c647ca9b6029aa");
	check_id(P1 P2, PATCHID_UNSTABLE,
		 "ef31dbbc970230d5f63e5438f609c4cb14fcd495");
	check_id(P2 P1, PATCHID_UNSTABLE,
		 "9321b1e94a93b54fd4820df79a065dbf612e97c0");
	check_id(P1 P2, PATCHID_VERBATIM,
		 "fc4a66ab6e81d7346f5427463bed3f36a86647fc");
}

static void test_whitespace(void)
{
	/* tabs become spaces, blanks at the ends of lines, CRLF, a changed
	 * hunk header and index line: all ignored by --stable */
	const char *other =
		"diff --git  a/drivers/soc/pm.c b/drivers/soc/pm.c\r\n"
		"index 0000000..fffffff 100755\n"
		"--- a/drivers/soc/pm.c\t\n"
		"+++ b/drivers/soc/pm.c\n"
		"@@ -100,3 +200,3 @@ int other_function(void)\n"
		" {   \n"
		"-        return 0 ;\n"
		"+ \treturn\t-EINVAL;\r\n"
		" }\n";
	g_autofree char *a = id_of(P1, PATCHID_STABLE);
	g_autofree char *b = id_of(other, PATCHID_STABLE);
	g_autofree char *va = id_of(P1, PATCHID_VERBATIM);
	g_autofree char *vb = id_of(other, PATCHID_VERBATIM);

	g_assert_cmpstr(a, ==, b);
	g_assert_cmpstr(va, !=, vb);
	/* git drops every blank, even one inside a word; \v and \f are no
	 * blanks to git */
	check_id(
		"diff --git a/drivers/soc/pm.c b/drivers/soc/pm.c\n"
		"--- a/drivers/soc/pm.c\n+++ b/drivers/soc/pm.c\n"
		"@@ -1,3 +1,3 @@\n {\n-\tret urn 0;\n+\treturn -EIN VAL;\n }\n",
		PATCHID_STABLE, a);
	g_free(b);
	b = id_of(
		"diff --git a/drivers/soc/pm.c b/drivers/soc/pm.c\n"
		"--- a/drivers/soc/pm.c\n+++ b/drivers/soc/pm.c\n"
		"@@ -1,3 +1,3 @@\n {\n-\treturn\v0;\n+\treturn -EINVAL;\n }\n",
		PATCHID_STABLE);
	g_assert_cmpstr(a, !=, b);
}

static void test_file_order(void)
{
	g_autofree char *s12 = id_of(P1 P2, PATCHID_STABLE);
	g_autofree char *s21 = id_of(P2 P1, PATCHID_STABLE);
	g_autofree char *u12 = id_of(P1 P2, PATCHID_UNSTABLE);
	g_autofree char *u21 = id_of(P2 P1, PATCHID_UNSTABLE);
	g_autofree char *v12 = id_of(P1 P2, PATCHID_VERBATIM);
	g_autofree char *v21 = id_of(P2 P1, PATCHID_VERBATIM);

	g_assert_cmpstr(s12, ==, s21);
	g_assert_cmpstr(v12, ==, v21);
	g_assert_cmpstr(u12, !=, u21);
}

static void test_no_patch(void)
{
	static const char *const texts[] = {
		"",
		"\n",
		"Subject: [PATCH] no diff\n\nJust words.\n-- \n2.39.5\n",
		/* a plain diff -u: git patch-id wants "diff " first */
		"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
		"commit 0123456789abcdef0123456789abcdef01234567\n",
		"\\ No newline at end of file\n",
		"\0\0\0diff --git a/x b/x\n",
	};

	for (gsize i = 0; i < G_N_ELEMENTS(texts); i++) {
		struct gitoid id;
		gsize len = i == G_N_ELEMENTS(texts) - 1 ? 22 :
							   strlen(texts[i]);

		g_assert_false(
			patchid_text(texts[i], len, PATCHID_STABLE, &id));
	}
}

static void test_stream(void)
{
	/* printf ... | git patch-id --stable */
	const char *text =
		"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 "
		"00:00:00 2001\n"
		"Subject: [PATCH] x\n\n---\n" P1 "-- \n2.39.5\n\n"
		"commit 89ABCDEF0123456789abcdef0123456789abcdef\n\n"
		"    msg\n\n" P2;
	g_autoptr(GArray)
		r = patchid_stream(text, strlen(text), PATCHID_STABLE);
	g_autofree char *id0 = NULL, *c0 = NULL, *id1 = NULL, *c1 = NULL;

	g_assert_cmpuint(r->len, ==, 2);
	id0 = hex(&g_array_index(r, struct patchid_result, 0).patch_id);
	c0 = hex(&g_array_index(r, struct patchid_result, 0).commit);
	id1 = hex(&g_array_index(r, struct patchid_result, 1).patch_id);
	c1 = hex(&g_array_index(r, struct patchid_result, 1).commit);
	g_assert_cmpstr(id0, ==, "eb36cd44085fad3d6ffdc0d31ad1c28859a3d683");
	g_assert_cmpstr(c0, ==, "0123456789abcdef0123456789abcdef01234567");
	g_assert_cmpstr(id1, ==, "8dd4624084d0df78a498fbfee6f4844142bd5226");
	/* git prints the id in lower case */
	g_assert_cmpstr(c1, ==, "89abcdef0123456789abcdef0123456789abcdef");
}

static void test_stream_split(void)
{
	/* a line that cannot be in a diff ends the patch; what follows
	 * is another one, with no commit id */
	const char *text = P1 "trailing words\n" P2;
	g_autoptr(GArray)
		r = patchid_stream(text, strlen(text), PATCHID_STABLE);
	g_autoptr(GArray) r2 = patchid_stream(P2, strlen(P2), PATCHID_STABLE);

	g_assert_cmpuint(r->len, ==, 2);
	g_assert_true(gitoid_is_zero(
		&g_array_index(r, struct patchid_result, 1).commit));
	g_assert_true(gitoid_equal(
		&g_array_index(r, struct patchid_result, 1).patch_id,
		&g_array_index(r2, struct patchid_result, 0).patch_id));
}

/* @text through a parser in pieces of @piece bytes (0: random sizes) */
static GArray *fed(const char *text, gsize len, enum patchid_mode mode,
		   gsize piece, GRand *rand)
{
	g_autoptr(patchid_parser) p = patchid_parser_new(mode);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct patchid_result));
	g_autoptr(GError) error = NULL;

	for (gsize at = 0; at < len;) {
		gsize n = piece ? piece : (gsize)g_rand_int_range(rand, 1, 300);

		n = MIN(n, len - at);
		g_assert_true(
			patchid_parser_feed(p, text + at, n, out, &error));
		g_assert_no_error(error);
		at += n;
	}
	patchid_parser_finish(p, out);
	return out;
}

static void assert_same_results(GArray *a, GArray *b)
{
	g_assert_cmpuint(a->len, ==, b->len);
	g_assert_cmpmem(a->data, a->len * sizeof(struct patchid_result),
			b->data, b->len * sizeof(struct patchid_result));
}

/* Lines git's parser treats specially, to build hostile input from. */
static const char *const specials[] = {
	"commit 0123456789abcdef0123456789abcdef01234567",
	"From 89abcdef0123456789abcdef0123456789abcdef Mon",
	"0123456789abcdef0123456789abcdef0123456g",
	"diff --git a/x b/x",
	"diff ",
	"index 12..34",
	"index ..",
	"index ",
	"index abc..",
	"GIT binary patch",
	"Binary files a/x and b/x differ",
	"--- a/x",
	"+++ b/x",
	"@@ -1 +1 @@",
	"@@ -1,99999999999999999999 +1,-5 @@",
	"@@ -2147483647,2147483647 +0,4294967296 @@",
	"@@ -",
	"@@ -1, 3 +1,\t2 @@",
	"\\ No newline at end of file",
	"\\ ",
	"-",
	"+",
	" ",
	"",
	"-- ",
	"new file mode 100644",
	"similarity index 99%",
};

static void test_hostile(void)
{
	g_autoptr(GRand) rand = g_rand_new_with_seed(20230101);

	for (int round = 0; round < 400; round++) {
		g_autoptr(GString) t = g_string_new(NULL);
		int lines = g_rand_int_range(rand, 0, 80);
		enum patchid_mode mode = g_rand_int_range(rand, 0, 3);

		for (int i = 0; i < lines; i++) {
			int kind = g_rand_int_range(rand, 0, 4);

			if (kind == 0) {
				/* random bytes, NUL and CR included */
				int n = g_rand_int_range(rand, 0, 60);

				for (int j = 0; j < n; j++)
					g_string_append_c(
						t, (char)g_rand_int_range(
							   rand, 0, 256));
			} else {
				g_string_append(
					t, specials[g_rand_int_range(
						   rand, 0,
						   G_N_ELEMENTS(specials))]);
				if (kind == 1)
					g_string_append_len(t, "\0\r\v", 3);
			}
			if (g_rand_int_range(rand, 0, 20))
				g_string_append_c(t, '\n');
		}
		{
			g_autoptr(GArray)
				whole = patchid_stream(t->str, t->len, mode);
			g_autoptr(GArray)
				ones = fed(t->str, t->len, mode, 1, NULL);
			g_autoptr(GArray)
				pieces = fed(t->str, t->len, mode, 0, rand);

			/* one id per patch at most, and a patch needs a
			 * line of its own */
			g_assert_cmpuint(whole->len, <=, lines + 1);
			assert_same_results(whole, ones);
			assert_same_results(whole, pieces);
		}
	}
}

static void test_line_limit(void)
{
	g_autoptr(patchid_parser) p = patchid_parser_new(PATCHID_STABLE);
	g_autoptr(GArray)
		out = g_array_new(FALSE, FALSE, sizeof(struct patchid_result));
	g_autoptr(GError) error = NULL;
	gsize chunk = 1 << 20;
	g_autofree char *a = g_malloc(chunk);
	gsize fed_bytes = 0;
	gboolean ok = TRUE;

	memset(a, '+', chunk);
	g_assert_true(patchid_parser_feed(p, P1, strlen(P1), out, &error));
	while (ok && fed_bytes <= PATCHID_LINE_MAX) {
		ok = patchid_parser_feed(p, a, chunk, out, &error);
		fed_bytes += chunk;
	}
	g_assert_false(ok);
	g_assert_nonnull(error);
	g_assert_nonnull(strstr(error->message, "line too long"));
	g_clear_error(&error);
	/* the parser stays failed */
	g_assert_false(patchid_parser_feed(p, "\n", 1, out, &error));
	g_assert_nonnull(error);
	patchid_parser_finish(p, out);
	g_assert_cmpuint(out->len, ==, 0);
}

/* ---- commits ---- */

static char *scratch;
static int tick = 1700000000;

static char *git_v(const char *dir, const char *const *args)
{
	g_autofree char *date = g_strdup_printf("@%d +0000", tick);
	g_auto(GStrv) env = scratch_git_environ(scratch, date, date);

	return scratch_git_ok((const char *const *)env, dir, args);
}

#define git_ok(dir, ...) git_v(dir, SCRATCH_ARGV(__VA_ARGS__))
#define git_do(dir, ...) g_free(git_ok(dir, __VA_ARGS__))

static void commit_all(const char *dir, const char *msg)
{
	tick++;
	git_do(dir, "add", "-A");
	git_do(dir, "commit", "-q", "--allow-empty", "-m", msg);
}

static void test_commits(void)
{
	g_autofree char *dir = g_build_filename(scratch, "repo", NULL);
	g_autoptr(git_repository) repo = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *revs = NULL;
	g_auto(GStrv) ids = NULL;
	g_autoptr(GArray)
		oids = g_array_new(FALSE, FALSE, sizeof(struct gitoid));
	g_autoptr(GArray) list = NULL;
	g_autoptr(GArray) range = NULL;
	guint with_id = 0;

	git_do(scratch, "init", "-q", "-b", "main", dir);
	scratch_write_file(dir, "a.c", "int a;\nint b;\nint c;\n");
	scratch_write_file(dir, "drivers/old.c", "1\n2\n3\n4\n5\n6\n7\n8\n");
	commit_all(dir, "root");
	scratch_write_file(dir, "a.c", "int a;\nint B;\nint c;\n");
	commit_all(dir, "edit");
	git_do(dir, "mv", "drivers/old.c", "drivers/new.c");
	scratch_write_file(dir, "drivers/new.c", "1\n2\n3\n4\n5\n6\n7\nX\n");
	commit_all(dir, "rename with an edit");
	scratch_write_file(dir, "b.bin", "bin\1\0ary");
	commit_all(dir, "binary");
	commit_all(dir, "empty");
	git_do(dir, "checkout", "-q", "-b", "side", "HEAD~2");
	scratch_write_file(dir, "side.c", "side\n");
	commit_all(dir, "side");
	git_do(dir, "checkout", "-q", "main");
	tick++;
	git_do(dir, "merge", "-q", "--no-ff", "-m", "merge", "side");

	libgit2_init();
	g_assert_cmpint(git_repository_open(&repo, dir), ==, 0);
	revs = git_ok(dir, "rev-list", "--reverse", "HEAD");
	ids = g_strsplit(g_strstrip(revs), "\n", -1);
	g_assert_cmpuint(g_strv_length(ids), ==, 7);
	for (guint i = 0; ids[i]; i++) {
		g_autofree char *mail =
			git_ok(dir, "format-patch", "--stdout", "-1", ids[i]);
		struct gitoid commit, id, want;
		gboolean found = TRUE;
		gboolean merge = i == 6;
		gboolean empty = i == 4;

		g_assert_true(gitoid_from_hex(&commit, ids[i]));
		g_array_append_val(oids, commit);
		g_assert_true(patchid_commit(repo, &commit, PATCHID_STABLE, &id,
					     &found, &error));
		g_assert_no_error(error);
		if (merge || empty) {
			/* merges and empty commits have none */
			g_assert_false(found);
			continue;
		}
		g_assert_true(found);
		with_id++;
		g_assert_true(patchid_text(mail, strlen(mail), PATCHID_STABLE,
					   &want));
		g_assert_true(gitoid_equal(&id, &want));
	}
	list = patchid_commits(repo, (const struct gitoid *)(void *)oids->data,
			       oids->len, PATCHID_STABLE, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(list->len, ==, with_id);
	range = patchid_range(repo, "HEAD~3..HEAD", PATCHID_STABLE, &error);
	g_assert_no_error(error);
	/* binary, empty (none), side, merge (none): newest first */
	g_assert_cmpuint(range->len, ==, 2);
	g_assert_true(gitoid_equal(
		&g_array_index(range, struct patchid_result, 0).commit,
		&g_array_index(oids, struct gitoid, 5)));

	/* errors: no such commit, not a range */
	{
		struct gitoid missing;
		struct gitoid id;
		gboolean found;

		gitoid_from_hex(&missing,
				"0123456789abcdef0123456789abcdef01234567");
		g_assert_false(patchid_commit(repo, &missing, PATCHID_STABLE,
					      &id, &found, &error));
		g_assert_nonnull(error);
		g_assert_nonnull(strstr(error->message, "0123456789abcdef"));
		g_clear_error(&error);
		g_assert_null(
			patchid_range(repo, "HEAD", PATCHID_STABLE, &error));
		g_assert_nonnull(error);
		g_clear_error(&error);
		g_assert_null(patchid_range(repo, "nope..HEAD", PATCHID_STABLE,
					    &error));
		g_assert_nonnull(error);
	}
}

int main(int argc, char **argv)
{
	int ret;

	g_test_init(&argc, &argv, NULL);
	scratch = scratch_dir_new("armbot-patchid-XXXXXX");
	g_test_add_func("/patchid/known-ids", test_known_ids);
	g_test_add_func("/patchid/whitespace", test_whitespace);
	g_test_add_func("/patchid/file-order", test_file_order);
	g_test_add_func("/patchid/no-patch", test_no_patch);
	g_test_add_func("/patchid/stream", test_stream);
	g_test_add_func("/patchid/stream-split", test_stream_split);
	g_test_add_func("/patchid/hostile", test_hostile);
	g_test_add_func("/patchid/line-limit", test_line_limit);
	g_test_add_func("/patchid/commits", test_commits);
	ret = g_test_run();
	rmtree(scratch, NULL);
	g_free(scratch);
	return ret;
}
