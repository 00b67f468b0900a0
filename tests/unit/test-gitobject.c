/* Unit tests of kernel/git/object.c: trees, commits and tags made by real
 * git parsed and compared with what git says of them (ls-tree, log,
 * for-each-ref); modes canonicalised as git's canon_mode(); malformed
 * objects are errors. */
#include <glib/gstdio.h>
#include <string.h>

#include "kernel/tree/rmtree.h"
#include "kernel/git/object.h"
#include "tests/unit/scratch.h"

/* The standard output of the shell script @script run in @dir with
 * git's environment pinned (the author date fixed, the committer date
 * now unless the script sets it); NUL-terminated, owned by the caller. */
static char *sh(const char *dir, const char *script, gsize *len)
{
	g_auto(GStrv) env = scratch_git_environ(dir, "1600000000 +0100", NULL);

	return scratch_sh((const char *const *)env, dir, script, len);
}

static GBytes *read_object(gitodb *odb, const char *hex, enum gitobj_type want)
{
	g_autoptr(GError) error = NULL;
	struct gitoid oid;
	enum gitobj_type type;
	GBytes *data;

	g_assert_true(gitoid_from_hex(&oid, hex));
	data = gitodb_read(odb, &oid, &type, &error);
	g_assert_no_error(error);
	g_assert_cmpint(type, ==, want);
	return data;
}

/* Assert that @oid is @want in hex, as git prints it. */
static void assert_oid(const struct gitoid *oid, const char *want)
{
	char hex[GITOID_HEXSZ + 1];

	gitoid_to_hex(oid, hex);
	g_assert_cmpstr(hex, ==, want);
}

/* Run @script in @dir, where it makes the repository r; the lines of its
 * stdout, of which there must be @n (with the empty one after the last
 * newline), owned by the caller; the object database of r in *@odb. */
static char **repo_lines(const char *dir, const char *script, guint n,
			 gitodb **odb)
{
	g_autofree char *objects =
		g_build_filename(dir, "r/.git/objects", NULL);
	g_autofree char *out = sh(dir, script, NULL);
	g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
	g_autoptr(GError) error = NULL;

	g_assert_cmpuint(g_strv_length(lines), ==, n);
	*odb = gitodb_open(objects, &error);
	g_assert_no_error(error);
	return g_steal_pointer(&lines);
}

/* Every tree of a repository with files, an executable, a symlink, a
 * subdirectory, a submodule and names git sorts specially, against
 * `git ls-tree -z`. */
static void test_tree_real(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-gitobject-XXXXXX");
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = NULL;
	g_auto(GStrv) tree_ids = NULL;
	guint entries = 0;

	tree_ids = repo_lines(
		dir,
		"git init -q r && cd r\n"
		"mkdir -p foo sub/deeper && echo a > foo/bar\n"
		"echo b > foo.c && echo c > foo0 && echo d > 'a b'\n"
		"printf '\\303\\251t\\303\\251' > \"$(printf 'caf\\303\\251')\"\n"
		"echo x > sub/deeper/x && echo '#!/bin/sh' > run.sh\n"
		"chmod +x run.sh && ln -s foo/bar link\n"
		"git add . && git update-index --add --cacheinfo "
		"160000,1234567890123456789012345678901234567890,module\n"
		"git commit -q -m one\n"
		"git rev-list --objects HEAD | cut -c1-40 | "
		"git cat-file --batch-check='%(objecttype) %(objectname)' |"
		" sed -n 's/^tree //p'\n",
		4 + 1, &odb);
	for (guint t = 0; tree_ids[t] && *tree_ids[t]; t++) {
		g_autofree char *script = g_strdup_printf(
			"cd r && git ls-tree -z %s", tree_ids[t]);
		gsize len;
		g_autofree char *want = sh(dir, script, &len);
		g_autoptr(GBytes)
			tree = read_object(odb, tree_ids[t], GITOBJ_TREE);
		g_autoptr(GString) got = g_string_new(NULL);
		struct gittree_iter it;
		struct gittree_entry e;

		gittree_iter_init(&it, tree);
		while (gittree_iter_next(&it, &e, &error)) {
			char hex[GITOID_HEXSZ + 1];

			gitoid_to_hex(e.oid, hex);
			g_string_append_printf(
				got, "%06o %s %s\t", e.mode,
				e.mode == GITMODE_TREE	 ? "tree" :
				e.mode == GITMODE_COMMIT ? "commit" :
							   "blob",
				hex);
			g_string_append_len(got, e.name, (gssize)e.name_len);
			g_string_append_c(got, '\0');
			entries++;
		}
		g_assert_no_error(error);
		g_assert_cmpmem(got->str, got->len, want, len);
	}
	/* root 9, foo 1, sub 1, sub/deeper 1 */
	g_assert_cmpuint(entries, ==, 9 + 1 + 1 + 1);
	rmtree(dir, NULL);
}

static GBytes *tree_bytes(const char *mode, const char *name)
{
	GByteArray *b = g_byte_array_new();
	guint8 id[GITOID_RAWSZ];

	for (guint i = 0; i < GITOID_RAWSZ; i++)
		id[i] = (guint8)(0xa0 + i);
	g_byte_array_append(b, (const guint8 *)mode, (guint)strlen(mode));
	g_byte_array_append(b, (const guint8 *)" ", 1);
	g_byte_array_append(b, (const guint8 *)name, (guint)strlen(name) + 1);
	g_byte_array_append(b, id, sizeof(id));
	return g_byte_array_free_to_bytes(b);
}

/* git's canon_mode(): the file type decides, a regular file keeps only
 * its owner's exec bit, anything unknown is a gitlink. */
static void test_tree_modes(void)
{
	static const struct {
		const char *mode;
		guint32 want;
	} cases[] = {
		{ "100644", GITMODE_BLOB },
		{ "100664", GITMODE_BLOB },
		{ "100600", GITMODE_BLOB },
		{ "100755", GITMODE_BLOB_EXECUTABLE },
		{ "100775", GITMODE_BLOB_EXECUTABLE },
		{ "100100", GITMODE_BLOB_EXECUTABLE },
		{ "40000", GITMODE_TREE },
		{ "040000", GITMODE_TREE },
		{ "40755", GITMODE_TREE },
		{ "120000", GITMODE_LINK },
		{ "120777", GITMODE_LINK },
		{ "160000", GITMODE_COMMIT },
		{ "644", GITMODE_COMMIT },
		{ "0100644", GITMODE_BLOB },
		{ "0", GITMODE_COMMIT },
	};

	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		g_autoptr(GBytes) tree = tree_bytes(cases[c].mode, "name");
		g_autoptr(GError) error = NULL;
		struct gittree_iter it;
		struct gittree_entry e;

		gittree_iter_init(&it, tree);
		g_assert_true(gittree_iter_next(&it, &e, &error));
		g_assert_cmphex(e.mode, ==, cases[c].want);
		g_assert_cmpmem(e.name, e.name_len, "name", 4);
		g_assert_cmphex(e.oid->id[0], ==, 0xa0);
		g_assert_cmphex(e.oid->id[19], ==, 0xa0 + 19);
		g_assert_false(gittree_iter_next(&it, &e, &error));
		g_assert_no_error(error);
	}
}

static void test_tree_malformed(void)
{
	static const struct {
		const char *data;
		gsize len;
		guint good; /* entries before the error */
	} cases[] = {
		{ " 100644 a\0aaaaaaaaaaaaaaaaaaaa", 30, 0 },
		{ "100648 a\0aaaaaaaaaaaaaaaaaaaa", 29, 0 },
		{ "10064a a\0aaaaaaaaaaaaaaaaaaaa", 29, 0 },
		{ "100644 \0aaaaaaaaaaaaaaaaaaaa", 28, 0 },
		{ "100644 a", 8, 0 },
		{ "100644", 6, 0 },
		{ "100644 a\0aaaaaaaaaaaaaaaaaaa", 28, 0 },
		{ "100644 a\0aaaaaaaaaaaaaaaaaaaa100644 b\0aaa", 41, 1 },
		{ "100644 a\0aaaaaaaaaaaaaaaaaaaa1", 30, 1 },
		{ "10064400000000000 a\0aaaaaaaaaaaaaaaaaaaa", 40, 0 },
	};

	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		/* a copy of exactly the bytes: no NUL after them */
		g_autoptr(GBytes)
			tree = g_bytes_new(cases[c].data, cases[c].len);
		g_autoptr(GError) error = NULL;
		struct gittree_iter it;
		struct gittree_entry e;
		guint good = 0;

		gittree_iter_init(&it, tree);
		while (gittree_iter_next(&it, &e, &error))
			good++;
		g_assert_cmpuint(good, ==, cases[c].good);
		g_assert_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT);
		g_test_message("case %u: %s", c, error->message);
		g_clear_error(&error);
		/* and it stays at the end */
		g_assert_false(gittree_iter_next(&it, &e, &error));
		g_assert_no_error(error);
	}
	{
		g_autoptr(GBytes) empty = g_bytes_new(NULL, 0);
		g_autoptr(GError) error = NULL;
		struct gittree_iter it;
		struct gittree_entry e;

		gittree_iter_init(&it, empty);
		g_assert_false(gittree_iter_next(&it, &e, &error));
		g_assert_no_error(error);
	}
}

/* Root, ordinary and merge commits with their dates, against `git log`. */
static void test_commit_real(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-gitobject-XXXXXX");
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = NULL;
	g_auto(GStrv) lines = NULL;
	guint merges = 0, roots = 0;

	lines = repo_lines(
		dir,
		"git init -q -b main r && cd r\n"
		"c() { GIT_COMMITTER_DATE=\"$1\" git commit -q "
		"--allow-empty -m \"$1\"; }\n"
		"c '1700000000 +0100'\n"
		"git checkout -q -b side\n"
		"c '1700000500 -0730'\n"
		"git checkout -q -\n"
		"c '1600000000 +0000'\n"
		"GIT_COMMITTER_DATE='1800000000 +1400' git merge -q "
		"--no-ff -m merge side\n"
		"git checkout -q --orphan other && c '@12345 +0000'\n"
		"git merge -q --allow-unrelated-histories -m m2 "
		"--no-ff main\n"
		"git log --all --format='%H %T %ct %P'\n",
		6 + 1, &odb);
	for (guint i = 0; lines[i] && *lines[i]; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
		g_autoptr(GBytes) data = read_object(odb, f[0], GITOBJ_COMMIT);
		struct gitcommit commit;
		guint n = g_strv_length(f);

		g_assert_true(gitcommit_parse(&commit, data, &error));
		g_assert_no_error(error);
		assert_oid(&commit.tree, f[1]);
		g_assert_cmpint(commit.committer_time, ==,
				g_ascii_strtoll(f[2], NULL, 10));
		/* "%P" is empty for a root: a trailing empty field */
		g_assert_cmpuint(commit.parents->len, ==,
				 *f[n - 1] ? n - 3 : 0);
		for (guint p = 0; p < commit.parents->len; p++)
			assert_oid(&g_array_index(commit.parents, struct gitoid,
						  p),
				   f[3 + p]);
		merges += commit.parents->len == 2;
		roots += commit.parents->len == 0;
		gitcommit_clear(&commit);
		g_assert_null(commit.parents);
	}
	g_assert_cmpuint(merges, ==, 2);
	g_assert_cmpuint(roots, ==, 2);
	rmtree(dir, NULL);
}

#define HEX_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define HEX_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static void test_commit_parse(void)
{
	static const struct {
		const char *text;
		gboolean ok;
		guint parents;
		gint64 time;
	} cases[] = {
		{ "", FALSE, 0, 0 },
		{ "tree " HEX_A, FALSE, 0, 0 },
		{ "tree " HEX_A "\n", FALSE, 0, 0 }, /* git: size must exceed */
		{ "tree " HEX_A "\nx", TRUE, 0, 0 },
		{ "tree " HEX_A "x\n", FALSE, 0, 0 },
		{ "tree aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaag\nauthor",
		  FALSE, 0, 0 },
		{ "tree AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nx", TRUE, 0,
		  0 },
		{ "tree " HEX_A "\nparent " HEX_B "\nparent " HEX_A
		  "\nauthor A <a> 1 +0000\ncommitter C <c> 17 +0000\n\nmsg\n",
		  TRUE, 2, 17 },
		{ "tree " HEX_A "\nparent bbbb\nauthor A <a> 1 +0000\n"
		  "committer C <c> 1 +0000\n",
		  FALSE, 0, 0 },
		{ "tree " HEX_A "\nparent " HEX_B "xauthor A <a> 1 +0000\n",
		  FALSE, 0, 0 },
		/* a parent line that ends the buffer is not a parent, nor
		 * is one too short to be (git) */
		{ "tree " HEX_A "\nparent bbbb\nauthor A <a> 1 +0000\n", TRUE,
		  0, 0 },
		{ "tree " HEX_A "\nparent " HEX_B, TRUE, 0, 0 },
		/* the date after the last '>' of the committer line */
		{ "tree " HEX_A "\nauthor A <a> 1 +0000\n"
		  "committer C <c> D <d>   1700000000 +0100\n",
		  TRUE, 0, 1700000000 },
		{ "tree " HEX_A "\nauthor A <a> 1 +0000\n"
		  "committer C <c> -5 +0100\n",
		  TRUE, 0, -5 },
		/* no committer, no '>', no newline: no date (git: 0) */
		{ "tree " HEX_A "\nauthor A <a> 1 +0000\n", TRUE, 0, 0 },
		{ "tree " HEX_A "\nauthor A <a> 1 +0000\ncommitter C c 5 +0\n",
		  TRUE, 0, 0 },
		{ "tree " HEX_A "\nauthor A <a> 1 +0000\ncommitter C <c> 5",
		  TRUE, 0, 0 },
		{ "tree " HEX_A "\ncommitter C <c> 5 +0000\n", TRUE, 0, 0 },
	};

	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		g_autoptr(GBytes) data =
			g_bytes_new(cases[c].text, strlen(cases[c].text));
		g_autoptr(GError) error = NULL;
		struct gitcommit commit;
		gboolean ok = gitcommit_parse(&commit, data, &error);

		g_test_message("case %u", c);
		g_assert_cmpint(ok, ==, cases[c].ok);
		if (!ok) {
			g_assert_error(error, GITODB_ERROR,
				       GITODB_ERROR_CORRUPT);
			g_assert_null(commit.parents);
			continue;
		}
		g_assert_cmphex(commit.tree.id[0], ==, 0xaa);
		g_assert_cmpuint(commit.parents->len, ==, cases[c].parents);
		g_assert_cmpint(commit.committer_time, ==, cases[c].time);
		gitcommit_clear(&commit);
	}
}

/* Tags of a commit, a tree, a blob and a tag, against for-each-ref's
 * %(object) and %(type) (the tag's own fields). */
static void test_tag_real(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-gitobject-XXXXXX");
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = NULL;
	g_auto(GStrv) lines = NULL;

	lines = repo_lines(dir,
			   "git init -q r && cd r\n"
			   "echo a > f && git add f && git commit -q -m one\n"
			   "git tag -a -m c tc HEAD\n"
			   "git tag -a -m t tt HEAD^{tree}\n"
			   "git tag -a -m b tb HEAD:f\n"
			   "git tag -a -m tag ttag tc\n"
			   "git for-each-ref --format='%(objectname) %(object) "
			   "%(type)' refs/tags\n",
			   4 + 1, &odb);
	for (guint i = 0; lines[i] && *lines[i]; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
		g_autoptr(GBytes) data = read_object(odb, f[0], GITOBJ_TAG);
		struct gitoid target;
		enum gitobj_type type = GITOBJ_NONE;

		g_assert_true(gittag_parse(&target, &type, data, &error));
		g_assert_no_error(error);
		assert_oid(&target, f[1]);
		g_assert_cmpstr(gitobj_type_name(type), ==, f[2]);
	}
	rmtree(dir, NULL);
}

static void test_tag_parse(void)
{
	static const struct {
		const char *text;
		enum gitobj_type type; /* GITOBJ_NONE: an error */
	} cases[] = {
		{ "object " HEX_A "\ntype commit\ntag v1\ntagger T <t> 1 +0\n",
		  GITOBJ_COMMIT },
		{ "object " HEX_A "\ntype blob\ntag v1\ntagger T <t> 1 +0\n",
		  GITOBJ_BLOB },
		{ "object " HEX_A "\ntype tag\ntag v1\ntagger T <t> 1 +0000\n",
		  GITOBJ_TAG },
		{ "object " HEX_A "\ntype tree\n\n\n\n\n\n\n\n\n\n\n\n",
		  GITOBJ_TREE },
		{ "object " HEX_A "\ntype tree\n", GITOBJ_NONE }, /* short */
		{ "", GITOBJ_NONE },
		{ "objekt " HEX_A "\ntype commit\ntag v1\ntagger T <t> 1 +0\n",
		  GITOBJ_NONE },
		{ "object " HEX_A "x\ntype commit\ntag v1\ntagger T <t> 1 +0\n",
		  GITOBJ_NONE },
		{ "object aaaa\ntype commit\ntag v1\ntagger T <t> 1 +0\n12345678901234567890",
		  GITOBJ_NONE },
		{ "object " HEX_A "\ntipe commit\ntag v1\ntagger T <t> 1 +0\n",
		  GITOBJ_NONE },
		{ "object " HEX_A "\ntype commitx\ntag v1\ntagger T <t> 1 +0\n",
		  GITOBJ_NONE },
		{ "object " HEX_A "\ntype commit tag v1 tagger T <t> 1 +0000",
		  GITOBJ_NONE },
	};

	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		g_autoptr(GBytes) data =
			g_bytes_new(cases[c].text, strlen(cases[c].text));
		g_autoptr(GError) error = NULL;
		struct gitoid target;
		enum gitobj_type type = GITOBJ_NONE;
		gboolean ok = gittag_parse(&target, &type, data, &error);

		g_test_message("case %u", c);
		if (cases[c].type == GITOBJ_NONE) {
			g_assert_false(ok);
			g_assert_error(error, GITODB_ERROR,
				       GITODB_ERROR_CORRUPT);
			continue;
		}
		g_assert_true(ok);
		g_assert_cmpint(type, ==, cases[c].type);
		g_assert_cmphex(target.id[19], ==, 0xaa);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/gitobject/tree-real", test_tree_real);
	g_test_add_func("/gitobject/tree-modes", test_tree_modes);
	g_test_add_func("/gitobject/tree-malformed", test_tree_malformed);
	g_test_add_func("/gitobject/commit-real", test_commit_real);
	g_test_add_func("/gitobject/commit-parse", test_commit_parse);
	g_test_add_func("/gitobject/tag-real", test_tag_real);
	g_test_add_func("/gitobject/tag-parse", test_tag_parse);
	return g_test_run();
}
