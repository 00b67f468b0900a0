/* Unit tests of kernel/git/odb.c: every object of repositories made by
 * real git (loose, packs with long OFS_DELTA and REF_DELTA chains,
 * several packs, alternates) read and compared with `git cat-file
 * --batch` and --batch-check; prefixes; packs made by hand to feed the
 * reader hostile entries, deltas and indexes, each of which must be an
 * error (the suite also runs under ASan and UBSan). */
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kernel/tree/rmtree.h"
#include "kernel/git/odb.h"
#include "tests/unit/scratch.h"

/* Is @oid in the database (readable to its header)? */
static gboolean has_object(struct gitodb *odb, const struct gitoid *oid)
{
	return gitodb_read_header(odb, oid, NULL, NULL, NULL);
}

/* pack entry types of deltas (git's cache.h) */
#define PACK_OFS_DELTA_T 6
#define PACK_REF_DELTA_T 7

/* The standard output of the shell script @script run in @dir with git's
 * environment pinned (both dates fixed), as text: up to its first NUL,
 * with the NUL.  Owned by the caller. */
static GBytes *sh(const char *dir, const char *script)
{
	g_auto(GStrv) env = scratch_git_environ(dir, "1700000000 +0100",
						"1700000100 +0100");
	g_autofree char *out =
		scratch_sh((const char *const *)env, dir, script, NULL);

	/* text only: sh_binary() is for output that may hold NULs */
	return g_bytes_new(out, strlen(out) + 1);
}

/* The output of @script, which may hold any byte. */
static GBytes *sh_binary(const char *dir, const char *script)
{
	g_auto(GStrv) env = scratch_git_environ(dir, "1700000000 +0100",
						"1700000100 +0100");
	gsize len = 0;
	char *out = scratch_sh((const char *const *)env, dir, script, &len);

	return g_bytes_new_take(out, len);
}

static enum gitobj_type type_from_name(const char *name)
{
	for (int t = GITOBJ_COMMIT; t <= GITOBJ_TAG; t++)
		if (strcmp(gitobj_type_name(t), name) == 0)
			return t;
	return GITOBJ_NONE;
}

/* Compare every object `git cat-file --batch-all-objects` lists in
 * @repo (alternates included) with gitodb_read() and
 * gitodb_read_header() on @objects; returns how many there were and
 * counts them by type into @by_type (may be NULL). */
static guint compare_with_git(const char *scratch, const char *repo,
			      const char *objects, guint by_type[5])
{
	g_autofree char *script = g_strdup_printf(
		"git -C '%s' cat-file --batch-all-objects --batch", repo);
	g_autofree char *check_script = g_strdup_printf(
		"git -C '%s' cat-file --batch-all-objects --batch-check", repo);
	g_autoptr(GBytes) all = sh_binary(scratch, script);
	g_autoptr(GBytes) checks = sh(scratch, check_script);
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = gitodb_open(objects, &error);
	gsize len;
	const char *p = g_bytes_get_data(all, &len), *end = p + len;
	g_auto(GStrv) lines = g_strsplit(
		(const char *)g_bytes_get_data(checks, NULL), "\n", -1);
	guint n = 0;

	g_assert_no_error(error);
	g_assert_nonnull(odb);
	while (p < end) {
		const char *nl = memchr(p, '\n', (gsize)(end - p));
		g_autofree char *line = g_strndup(p, (gsize)(nl - p));
		g_auto(GStrv) f = g_strsplit(line, " ", -1);
		g_autoptr(GBytes) data = NULL;
		struct gitoid oid;
		enum gitobj_type type = GITOBJ_NONE;
		gsize size = 0, hsize = 0;

		g_assert_cmpuint(g_strv_length(f), ==, 3);
		g_assert_true(gitoid_from_hex(&oid, f[0]));
		size = g_ascii_strtoull(f[2], NULL, 10);
		p = nl + 1;
		data = gitodb_read(odb, &oid, &type, &error);
		g_assert_no_error(error);
		g_assert_cmpstr(gitobj_type_name(type), ==, f[1]);
		g_assert_cmpuint(g_bytes_get_size(data), ==, size);
		g_assert_true(size == 0 || memcmp(g_bytes_get_data(data, NULL),
						  p, size) == 0);
		p += size + 1;
		/* --batch-check lists the same objects in the same order */
		g_assert_cmpstr(lines[n], ==, line);
		type = GITOBJ_NONE;
		g_assert_true(
			gitodb_read_header(odb, &oid, &type, &hsize, &error));
		g_assert_no_error(error);
		g_assert_cmpint(type, ==, type_from_name(f[1]));
		g_assert_cmpuint(hsize, ==, size);
		g_assert_true(has_object(odb, &oid));
		if (by_type)
			by_type[type]++;
		n++;
	}
	g_assert_cmpstr(lines[n], ==, "");
	return n;
}

/* How many entries of each pack type (1-7) the packs of @objects hold,
 * from the offsets `git show-index` lists. */
static void count_pack_types(const char *scratch, const char *objects,
			     guint counts[8])
{
	g_autofree char *pack_dir = g_build_filename(objects, "pack", NULL);
	g_autoptr(GDir) dir = g_dir_open(pack_dir, 0, NULL);
	const char *name;

	memset(counts, 0, 8 * sizeof(guint));
	g_assert_nonnull(dir);
	while ((name = g_dir_read_name(dir))) {
		g_autofree char *idx = NULL, *pack = NULL, *script = NULL;
		g_autofree char *data = NULL;
		g_autoptr(GBytes) out = NULL;
		g_auto(GStrv) lines = NULL;
		gsize len;

		if (!g_str_has_suffix(name, ".idx"))
			continue;
		idx = g_build_filename(pack_dir, name, NULL);
		pack = g_strdup_printf("%.*s.pack", (int)strlen(idx) - 4, idx);
		script = g_strdup_printf("git show-index < '%s'", idx);
		out = sh(scratch, script);
		g_assert_true(g_file_get_contents(pack, &data, &len, NULL));
		lines = g_strsplit(g_bytes_get_data(out, NULL), "\n", -1);
		for (guint i = 0; lines[i] && *lines[i]; i++) {
			guint64 off = g_ascii_strtoull(lines[i], NULL, 10);

			g_assert_cmpuint(off, <, len);
			counts[((guint8)data[off] >> 4) & 7]++;
		}
	}
}

/* a repository with @n versions of a 300-line file, one commit each */
/* 60 commits of a 300-line file changed a line at a time (the versions
 * make one long delta chain), a second file, two annotated tags */
static const char *history_script =
	"git init -q r && cd r\n"
	"seq 1 300 > f\n"
	"i=0\n"
	"while [ $i -lt 60 ]; do\n"
	"  sed -i \"s/^$((i * 5 + 1))\\$/line $i changed/\" f\n"
	"  echo \"version $i\" >> f\n"
	"  seq $i 40 > g\n"
	"  git add f g && git commit -q -m \"v$i\"\n"
	"  i=$((i + 1))\n"
	"done\n"
	"git tag -a -m 'a tag' v1 HEAD~3\n"
	"git tag -a -m 'a tag of a tag' v1-again v1\n";

/* A scratch directory with the path of a repository "r" in it (which the
 * test makes) and of its object database; removed after the test. */
struct repo_fixture {
	char *dir;
	char *repo;
	char *objects;
};

static void repo_setup(struct repo_fixture *fx, gconstpointer data)
{
	fx->dir = scratch_dir_new("armbot-gitodb-XXXXXX");
	fx->repo = g_build_filename(fx->dir, "r", NULL);
	fx->objects = g_build_filename(fx->repo, ".git/objects", NULL);
}

static void repo_teardown(struct repo_fixture *fx, gconstpointer data)
{
	rmtree(fx->dir, NULL);
	g_free(fx->dir);
	g_free(fx->repo);
	g_free(fx->objects);
}

#define REPO_TEST(path, fn)                                         \
	g_test_add(path, struct repo_fixture, NULL, repo_setup, fn, \
		   repo_teardown)

static void test_hex(void)
{
	struct gitoid a, b;
	char hex[GITOID_HEXSZ + 1];

	g_assert_true(gitoid_from_hex(
		&a, "0123456789abcdefABCDEF0123456789abcdef01"));
	gitoid_to_hex(&a, hex);
	g_assert_cmpstr(hex, ==, "0123456789abcdefabcdef0123456789abcdef01");
	g_assert_true(gitoid_from_hex(&b, hex));
	g_assert_true(gitoid_equal(&a, &b));
	b.id[19] ^= 1;
	g_assert_false(gitoid_equal(&a, &b));
	g_assert_false(
		gitoid_from_hex(&a, "0123456789abcdefabcdef0123456789abcdef0"));
	g_assert_false(gitoid_from_hex(
		&a, "0123456789abcdefabcdef0123456789abcdef012"));
	g_assert_false(gitoid_from_hex(
		&a, "0123456789abcdefabcdef0123456789abcdef0g"));
	g_assert_false(gitoid_from_hex(&a, ""));

	/* a short id, zero-padded as git_oid_fromstrn() does */
	g_assert_true(gitoid_from_hexn(&a, "abcDEF1x", 7));
	g_assert_cmpstr(gitoid_hex(&a), ==,
			"abcdef1000000000000000000000000000000000");
	g_assert_true(gitoid_from_hexn(&b, "", 0));
	g_assert_true(gitoid_is_zero(&b));
	g_assert_false(gitoid_is_zero(&a));
	g_assert_cmpint(gitoid_cmp(&b, &a), <, 0);
	g_assert_cmpint(gitoid_cmp(&a, &b), >, 0);
	g_assert_cmpint(gitoid_cmp(&a, &a), ==, 0);
	g_assert_false(gitoid_from_hexn(&a, "abcdeg", 6));
	g_assert_false(gitoid_from_hexn(
		&a, "0123456789abcdefabcdef0123456789abcdef012", 41));
	/* four buffers in turn: two ids in one printf are both right */
	g_assert_true(gitoid_from_hexn(&a, "01", 2));
	g_assert_true(gitoid_from_hexn(&b, "02", 2));
	{
		g_autofree char *two = g_strdup_printf(
			"%.2s %.2s", gitoid_hex(&a), gitoid_hex(&b));

		g_assert_cmpstr(two, ==, "01 02");
	}
	g_assert_cmpstr(gitobj_type_name(GITOBJ_COMMIT), ==, "commit");
	g_assert_cmpstr(gitobj_type_name(GITOBJ_TREE), ==, "tree");
	g_assert_cmpstr(gitobj_type_name(GITOBJ_BLOB), ==, "blob");
	g_assert_cmpstr(gitobj_type_name(GITOBJ_TAG), ==, "tag");
}

static void test_loose(struct repo_fixture *fx, gconstpointer nodata)
{
	const char *dir = fx->dir, *repo = fx->repo, *objects = fx->objects;
	guint by_type[5] = { 0 };
	guint counts[8];
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = NULL;
	struct gitoid missing;

	g_bytes_unref(sh(dir, "git init -q r && cd r\n"
			      "printf 'a\\0b' > bin && : > empty\n"
			      "echo x > f && ln -s f link && chmod +x bin\n"
			      "git add . && git commit -q -m one\n"
			      "echo y >> f && git commit -q -a -m two\n"
			      "git tag -a -m t t1\n"));
	g_assert_cmpuint(compare_with_git(dir, repo, objects, by_type), ==, 10);
	g_assert_cmpuint(by_type[GITOBJ_COMMIT], ==, 2);
	g_assert_cmpuint(by_type[GITOBJ_TREE], ==, 2);
	g_assert_cmpuint(by_type[GITOBJ_BLOB], ==, 5);
	g_assert_cmpuint(by_type[GITOBJ_TAG], ==, 1);
	count_pack_types(dir, objects, counts);
	for (guint i = 0; i < 8; i++)
		g_assert_cmpuint(counts[i], ==, 0);

	odb = gitodb_open(objects, &error);
	g_assert_no_error(error);
	g_assert_true(gitoid_from_hex(
		&missing, "0123456789abcdefabcdef0123456789abcdef01"));
	g_assert_false(has_object(odb, &missing));
	g_assert_null(gitodb_read(odb, &missing, NULL, &error));
	g_assert_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND);
	g_assert_cmpstr(error->message, ==,
			"object 0123456789abcdefabcdef0123456789abcdef01 "
			"not found");
	g_clear_error(&error);
	g_assert_false(gitodb_read_header(odb, &missing, NULL, NULL, &error));
	g_assert_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND);
	g_clear_error(&error);
	g_assert_null(gitodb_open("/nonexistent/objects", &error));
	g_assert_error(error, GITODB_ERROR, GITODB_ERROR_IO);
}

static void test_ofs_delta_chains(struct repo_fixture *fx, gconstpointer nodata)
{
	const char *dir = fx->dir, *repo = fx->repo, *objects = fx->objects;
	g_autoptr(GBytes) chains = NULL;
	guint counts[8];
	guint n;

	g_bytes_unref(sh(dir, history_script));
	g_bytes_unref(sh(repo, "git repack -adfq --depth=50 --window=50 && "
			       "git prune-packed && git count-objects -v | "
			       "grep -q '^count: 0$'"));
	count_pack_types(dir, objects, counts);
	g_assert_cmpuint(counts[6], >, 60); /* OFS_DELTA */
	g_assert_cmpuint(counts[7], ==, 0);
	/* the fixture has the long chains it is meant to have */
	chains = sh(repo, "git verify-pack -v .git/objects/pack/*.idx | "
			  "sed -n 's/^chain length = \\([0-9]*\\):.*/\\1/p' | "
			  "sort -n | tail -1");
	g_assert_cmpint(atoi(g_bytes_get_data(chains, NULL)), >=, 40);
	/* 60 commits, trees and versions of f, 42 of g, 2 tags */
	n = compare_with_git(dir, repo, objects, NULL);
	g_assert_cmpuint(n, ==, 60 * 3 + 42 + 2);
}

static void test_ref_delta(struct repo_fixture *fx, gconstpointer nodata)
{
	const char *dir = fx->dir, *repo = fx->repo, *objects = fx->objects;
	guint counts[8];

	g_bytes_unref(sh(dir, history_script));
	g_bytes_unref(sh(repo, "git -c repack.useDeltaBaseOffset=false "
			       "repack -adfq --depth=50 --window=50"));
	count_pack_types(dir, objects, counts);
	g_assert_cmpuint(counts[7], >, 60); /* REF_DELTA */
	g_assert_cmpuint(counts[6], ==, 0);
	g_assert_cmpuint(compare_with_git(dir, repo, objects, NULL), >, 200);
}

/* Two packs, loose objects beside them, and a pack made after the
 * database was opened (found by the rescan). */
static void test_several_packs(struct repo_fixture *fx, gconstpointer nodata)
{
	const char *dir = fx->dir, *repo = fx->repo, *objects = fx->objects;
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = NULL;
	g_autoptr(GBytes) head = NULL;
	g_autoptr(GBytes) data = NULL;
	g_autoptr(GBytes) packs = NULL;
	struct gitoid oid;
	enum gitobj_type type;
	g_autofree char *hex = NULL;

	g_bytes_unref(sh(dir, history_script));
	g_bytes_unref(sh(repo, "git repack -adq\n"
			       "for i in 1 2 3; do echo $i >> h; git add h\n"
			       "  git commit -q -m h$i; done\n"
			       "git repack -dq\n"
			       "echo loose > l && git add l && "
			       "git commit -q -m loose\n"));
	packs = sh(repo, "ls .git/objects/pack/*.idx | wc -l");
	g_assert_cmpint(atoi(g_bytes_get_data(packs, NULL)), ==, 2);
	g_assert_cmpuint(compare_with_git(dir, repo, objects, NULL), >, 200);

	/* a commit packed after the database scanned its packs, the old
	 * packs replaced by one new one */
	odb = gitodb_open(objects, &error);
	g_assert_no_error(error);
	head = sh(repo, "git rev-parse HEAD");
	hex = g_strndup(g_bytes_get_data(head, NULL), GITOID_HEXSZ);
	g_assert_true(gitoid_from_hex(&oid, hex));
	g_assert_true(has_object(odb, &oid));
	g_bytes_unref(head);
	head = sh(repo, "echo new > n && git add n && git commit -q -m new\n"
			"git repack -adq && git prune-packed\n"
			"git rev-parse HEAD");
	g_free(hex);
	hex = g_strndup(g_bytes_get_data(head, NULL), GITOID_HEXSZ);
	g_assert_true(gitoid_from_hex(&oid, hex));
	data = gitodb_read(odb, &oid, &type, &error);
	g_assert_no_error(error);
	g_assert_cmpint(type, ==, GITOBJ_COMMIT);
	g_assert_true(g_str_has_prefix(g_bytes_get_data(data, NULL), "tree "));
}

static void test_alternates(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-gitodb-XXXXXX");
	g_autofree char *b = g_build_filename(dir, "b", NULL);
	g_autofree char *c = g_build_filename(dir, "c", NULL);
	g_autofree char *b_objects = g_build_filename(b, ".git/objects", NULL);
	g_autofree char *c_objects = g_build_filename(c, ".git/objects", NULL);
	g_autofree char *alt =
		g_build_filename(c_objects, "info/alternates", NULL);
	g_autoptr(GBytes) own = NULL;
	guint all, again;

	/* r (packed) <- b (loose, alternate by absolute path) <- c */
	g_bytes_unref(sh(dir, history_script));
	g_bytes_unref(sh(dir, "git -C r repack -adq\n"
			      "git clone -q --shared r b\n"
			      "echo b > b/bfile && git -C b add bfile\n"
			      "git -C b commit -q -m b\n"
			      "git clone -q --shared b c\n"
			      "echo c > c/cfile && git -C c add cfile\n"
			      "git -C c commit -q -m c\n"));
	all = compare_with_git(dir, c, c_objects, NULL);
	g_assert_cmpuint(all, >, 200);
	own = sh(c, "git count-objects -v | sed -n 's/^count: //p'");
	g_assert_cmpint(atoi(g_bytes_get_data(own, NULL)), ==, 3);
	g_assert_cmpuint(compare_with_git(dir, b, b_objects, NULL), ==,
			 all - 3);

	/* a relative path, a comment, a blank line, the same directory
	 * twice, a missing one and a C-quoted one: the objects are the
	 * same */
	g_assert_true(g_file_set_contents(alt,
					  "# the shared clone\n"
					  "\n"
					  "../../../b/.git/objects\n"
					  "/nonexistent/objects\n"
					  "\"../../../b/.git/\\157bjects\"\n"
					  "../../../b/.git/objects/\n",
					  -1, NULL));
	g_assert_cmpuint(compare_with_git(dir, c, c_objects, NULL), ==, all);
	/* a quoted relative path only */
	g_assert_true(g_file_set_contents(
		alt, "\"../../../b/.git/\\157bjects\"\n", -1, NULL));
	again = compare_with_git(dir, c, c_objects, NULL);
	g_assert_cmpuint(again, ==, all);
	rmtree(dir, NULL);
}

/* Alternates nested deeper than git's limit of 5 are ignored, as git
 * ignores them ("nesting too deep"). */
static void test_alternates_depth(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-gitodb-XXXXXX");
	g_autoptr(GBytes) counts = NULL;
	g_autoptr(GError) error = NULL;
	guint found = 0;
	g_auto(GStrv) ids = NULL;

	/* o0 <- o1 <- ... <- o7, one blob each, o7 the one opened */
	counts = sh(dir,
		    "i=0\n"
		    "while [ $i -le 7 ]; do\n"
		    "  git init -q --bare o$i\n"
		    "  echo $i | git -C o$i hash-object -w --stdin\n"
		    "  if [ $i -gt 0 ]; then echo ../../o$((i - 1))/objects"
		    " > o$i/objects/info/alternates; fi\n"
		    "  i=$((i + 1))\n"
		    "done\n");
	ids = g_strsplit(g_bytes_get_data(counts, NULL), "\n", -1);
	{
		g_autofree char *objects =
			g_build_filename(dir, "o7/objects", NULL);
		g_autoptr(gitodb) odb = gitodb_open(objects, &error);

		g_assert_no_error(error);
		for (guint i = 0; i <= 7; i++) {
			struct gitoid oid;

			g_assert_true(gitoid_from_hex(&oid, ids[i]));
			if (has_object(odb, &oid))
				found |= 1u << i;
		}
	}
	/* git reads o7 (depth 0) and o6..o1 at depths 1..6: the file of
	 * the alternate at depth 6 (o1) is not read, so o0 is not there */
	{
		g_autofree char *script = g_strdup_printf(
			"for id in %s %s; do git -C o7 cat-file -e $id "
			"2>/dev/null && echo y || echo n; done",
			ids[0], ids[1]);
		g_autoptr(GBytes) git = sh(dir, script);

		g_assert_cmpstr(g_bytes_get_data(git, NULL), ==, "n\ny\n");
	}
	g_assert_cmpuint(found, ==, 0xfe);
	rmtree(dir, NULL);
}

/* ---- prefixes ---- */

static guint count_prefix(char **ids, const char *prefix)
{
	guint n = 0;

	for (guint i = 0; ids[i] && *ids[i]; i++)
		n += g_ascii_strncasecmp(ids[i], prefix, strlen(prefix)) == 0;
	return n;
}

static void test_prefix(struct repo_fixture *fx, gconstpointer nodata)
{
	const char *dir = fx->dir, *repo = fx->repo, *objects = fx->objects;
	g_autoptr(GBytes) ids_out = NULL;
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) ids = NULL;
	g_autofree char *dup4 = NULL;
	char unused[5] = "";
	guint ambiguous_seen = 0;

	/* 1500 blobs: two of them share their first 4 hex digits (the
	 * chance that none do is below 1e-7) */
	ids_out = sh(dir, "git init -q r && cd r\n"
			  "mkdir b && for i in $(seq 1 1500); do "
			  "echo \"blob $i\" > b/$i; done\n"
			  "ls b | sed 's|^|b/|' | "
			  "git hash-object -w --stdin-paths\n");
	ids = g_strsplit(g_bytes_get_data(ids_out, NULL), "\n", -1);
	g_assert_cmpuint(g_strv_length(ids), ==, 1501);
	for (guint i = 0; ids[i] && *ids[i] && !dup4; i++) {
		g_autofree char *p4 = g_strndup(ids[i], 4);

		if (count_prefix(ids, p4) > 1)
			dup4 = g_steal_pointer(&p4);
	}
	g_assert_nonnull(dup4);
	for (guint v = 0; v < 0x10000 && !*unused; v++) {
		char p[5];

		g_snprintf(p, sizeof(p), "%04x", v);
		if (!count_prefix(ids, p))
			memcpy(unused, p, 5);
	}
	g_assert_cmpstr(unused, !=, "");

	/* loose, then packed */
	for (guint round = 0; round < 2; round++) {
		g_autoptr(gitodb) odb = gitodb_open(objects, &error);
		g_autofree char *msg = g_strdup_printf(
			"short object ID %s is ambiguous", dup4);
		struct gitoid oid, want;

		g_assert_no_error(error);
		g_assert_false(gitodb_resolve_prefix(odb, dup4, &oid, &error));
		g_assert_error(error, GITODB_ERROR, GITODB_ERROR_AMBIGUOUS);
		g_assert_cmpstr(error->message, ==, msg);
		g_clear_error(&error);
		/* every length of every 50th id and of those sharing
		 * dup4, in either case: unique
		 * exactly when one id of the list has that prefix */
		for (guint i = 0; ids[i] && *ids[i]; i++) {
			if (i % 50 && strncmp(ids[i], dup4, 4) != 0)
				continue;
			g_assert_true(gitoid_from_hex(&want, ids[i]));
			for (guint len = 4; len <= GITOID_HEXSZ; len++) {
				g_autofree char *p = g_strndup(ids[i], len);

				if (len & 1) {
					char *up = g_ascii_strup(p, -1);

					g_free(p);
					p = up;
				}
				if (count_prefix(ids, p) > 1) {
					g_assert_false(gitodb_resolve_prefix(
						odb, p, &oid, &error));
					g_assert_error(error, GITODB_ERROR,
						       GITODB_ERROR_AMBIGUOUS);
					g_clear_error(&error);
					ambiguous_seen++;
					continue;
				}
				g_assert_true(gitodb_resolve_prefix(
					odb, p, &oid, &error));
				g_assert_no_error(error);
				g_assert_true(gitoid_equal(&oid, &want));
			}
		}
		g_assert_false(
			gitodb_resolve_prefix(odb, unused, &oid, &error));
		g_assert_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND);
		g_clear_error(&error);
		g_assert_false(gitodb_resolve_prefix(odb, "abc", &oid, &error));
		g_assert_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND);
		g_clear_error(&error);
		g_assert_false(
			gitodb_resolve_prefix(odb, "abcx", &oid, &error));
		g_assert_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND);
		g_clear_error(&error);
		if (round == 0)
			g_bytes_unref(
				sh(repo,
				   "git cat-file --batch-all-objects "
				   "--batch-check='%(objectname)' | "
				   "git pack-objects -q .git/objects/pack/"
				   "pack >/dev/null && git prune-packed && "
				   "test -z \"$(find .git/objects/?? -type f "
				   "2>/dev/null)\""));
	}
	/* 1500 ids have many shared 4- and 5-digit prefixes */
	g_assert_cmpuint(ambiguous_seen, >, 0);
	/* git agrees: ambiguous at 4 digits */
	{
		g_autofree char *script =
			g_strdup_printf("git cat-file -t %s 2>&1 || :", dup4);
		g_autoptr(GBytes) git = sh(repo, script);

		g_assert_nonnull(
			strstr(g_bytes_get_data(git, NULL), "is ambiguous"));
	}
}

/* ---- hostile loose objects ---- */

static void write_loose(const char *objects, const char *hex, const void *raw,
			gsize len, gboolean compress)
{
	g_autofree char *d = g_strdup_printf("%s/%.2s", objects, hex);
	g_autofree char *path = g_strdup_printf("%s/%s", d, hex + 2);
	uLongf zlen = compressBound(len);
	g_autofree guint8 *z = g_malloc(zlen);

	g_mkdir_with_parents(d, 0755);
	if (compress)
		g_assert_cmpint(compress2(z, &zlen, raw, len, 6), ==, Z_OK);
	else
		memcpy(z, raw, zlen = len);
	g_assert_true(g_file_set_contents(path, (char *)z, (gssize)zlen, NULL));
}

static void expect_corrupt(gitodb *odb, const char *hex, const char *what)
{
	g_autoptr(GError) error = NULL;
	struct gitoid oid;
	enum gitobj_type type;
	gsize size;
	GBytes *data;

	g_assert_true(gitoid_from_hex(&oid, hex));
	data = gitodb_read(odb, &oid, &type, &error);
	if (data)
		g_error("%s: read did not fail", what);
	g_assert_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT);
	g_assert_nonnull(strstr(error->message, hex));
	g_test_message("%s: %s", what, error->message);
	g_clear_error(&error);
	/* a header that is itself intact may be read */
	if (gitodb_read_header(odb, &oid, &type, &size, &error))
		return;
	g_assert_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT);
}

static void test_hostile_loose(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-gitodb-XXXXXX");
	g_autofree char *objects = g_build_filename(dir, "objects", NULL);
	static const char trailing[] = "blob 3\0abc";
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = NULL;
	uLongf zlen = 64;
	guint8 z[64 + 4];
	struct gitoid oid;
	enum gitobj_type type;
	gsize size;
	GBytes *good;

	g_mkdir_with_parents(objects, 0755);
	odb = gitodb_open(objects, &error);
	g_assert_no_error(error);

	write_loose(objects, "1000000000000000000000000000000000000001",
		    "blob 10\0abcde", 13, TRUE);
	expect_corrupt(odb, "1000000000000000000000000000000000000001",
		       "size in header larger");
	write_loose(objects, "1000000000000000000000000000000000000002",
		    "blob 2\0abcde", 12, TRUE);
	expect_corrupt(odb, "1000000000000000000000000000000000000002",
		       "size in header smaller");
	write_loose(objects, "1000000000000000000000000000000000000003",
		    "blobx 5\0abcde", 13, TRUE);
	expect_corrupt(odb, "1000000000000000000000000000000000000003",
		       "unknown type");
	write_loose(objects, "1000000000000000000000000000000000000004",
		    "blob 5a\0abcde", 13, TRUE);
	expect_corrupt(odb, "1000000000000000000000000000000000000004",
		       "size not a number");
	write_loose(objects, "1000000000000000000000000000000000000005",
		    "blob \0abcde", 11, TRUE);
	expect_corrupt(odb, "1000000000000000000000000000000000000005",
		       "no size");
	write_loose(objects, "1000000000000000000000000000000000000006",
		    "blob 99999999999999999999999\0a", 30, TRUE);
	expect_corrupt(odb, "1000000000000000000000000000000000000006",
		       "size overflows");
	write_loose(objects, "1000000000000000000000000000000000000007",
		    "blob 1099511627776\0a", 21, TRUE);
	expect_corrupt(odb, "1000000000000000000000000000000000000007",
		       "huge size");
	write_loose(objects, "1000000000000000000000000000000000000008",
		    "not zlib at all", 15, FALSE);
	expect_corrupt(odb, "1000000000000000000000000000000000000008",
		       "not zlib");
	write_loose(objects, "1000000000000000000000000000000000000009",
		    "blob 5", 6, TRUE);
	expect_corrupt(odb, "1000000000000000000000000000000000000009",
		       "no NUL");
	/* a truncated stream: the header intact, the content cut */
	{
		g_autofree char *big = g_strnfill(5000, 'q');
		g_autofree char *raw = g_strdup_printf("blob 5000%c%s", 0, big);
		uLongf blen = compressBound(5010);
		g_autofree guint8 *bz = g_malloc(blen);

		/* random-ish content so that the stream is long */
		for (guint i = 0; i < 5000; i++)
			raw[10 + i] = (char)(' ' + (i * 7919 % 90));
		g_assert_cmpint(compress2(bz, &blen, (guint8 *)raw, 5010, 6),
				==, Z_OK);
		write_loose(objects, "100000000000000000000000000000000000000a",
			    bz, blen / 2, FALSE);
		expect_corrupt(odb, "100000000000000000000000000000000000000a",
			       "truncated");
		g_assert_true(gitoid_from_hex(
			&oid, "100000000000000000000000000000000000000a"));
		g_assert_true(
			gitodb_read_header(odb, &oid, &type, &size, &error));
		g_assert_cmpuint(size, ==, 5000);
	}
	/* garbage after the zlib stream (git: "garbage at end of loose
	 * object") */
	g_assert_cmpint(compress2(z, &zlen, (const guint8 *)trailing, 10, 6),
			==, Z_OK);
	memcpy(z + zlen, "junk", 4);
	write_loose(objects, "100000000000000000000000000000000000000b", z,
		    zlen + 4, FALSE);
	expect_corrupt(odb, "100000000000000000000000000000000000000b",
		       "garbage after the stream");
	/* an empty file */
	write_loose(objects, "100000000000000000000000000000000000000c", "", 0,
		    FALSE);
	expect_corrupt(odb, "100000000000000000000000000000000000000c",
		       "empty file");
	/* and a good one among them */
	write_loose(objects, "100000000000000000000000000000000000000d",
		    trailing, 10, TRUE);
	g_assert_true(gitoid_from_hex(
		&oid, "100000000000000000000000000000000000000d"));
	good = gitodb_read(odb, &oid, &type, &error);
	g_assert_no_error(error);
	g_assert_cmpint(type, ==, GITOBJ_BLOB);
	g_assert_cmpmem(g_bytes_get_data(good, NULL), g_bytes_get_size(good),
			"abc", 3);
	g_bytes_unref(good);
	rmtree(dir, NULL);
}

/* ---- packs made by hand ---- */

struct handpack {
	GByteArray *pack;
	GArray *ids; /* struct gitoid */
	GArray *offsets; /* guint64 */
};

static void hp_init(struct handpack *hp)
{
	static const guint8 header[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2 };

	hp->pack = g_byte_array_new();
	g_byte_array_append(hp->pack, header, sizeof(header));
	hp->ids = g_array_new(FALSE, FALSE, sizeof(struct gitoid));
	hp->offsets = g_array_new(FALSE, FALSE, sizeof(guint64));
}

static void hp_clear(struct handpack *hp)
{
	g_byte_array_unref(hp->pack);
	g_array_unref(hp->ids);
	g_array_unref(hp->offsets);
}

static struct gitoid hp_id(guint n)
{
	struct gitoid oid = { { 0 } };

	oid.id[0] = (guint8)n;
	oid.id[19] = 0x5a;
	return oid;
}

static void put(GByteArray *b, const void *p, gsize n)
{
	g_byte_array_append(b, p, (guint)n);
}

/* git's encoding of a pack entry header: type and a size varint */
static void hp_header(GByteArray *b, int type, guint64 size)
{
	guint8 c = (guint8)(type << 4 | (size & 15));

	size >>= 4;
	while (size) {
		c |= 0x80;
		put(b, &c, 1);
		c = size & 0x7f;
		size >>= 7;
	}
	put(b, &c, 1);
}

/* git's OFS_DELTA distance encoding */
static void hp_ofs(GByteArray *b, guint64 dist)
{
	guint8 buf[16];
	guint pos = sizeof(buf) - 1;

	buf[pos] = dist & 127;
	while (dist >>= 7)
		buf[--pos] = 128 | (--dist & 127);
	put(b, buf + pos, sizeof(buf) - pos);
}

static void hp_deflate(GByteArray *b, const void *data, gsize len)
{
	uLongf zlen = compressBound(len);
	g_autofree guint8 *z = g_malloc(zlen);

	g_assert_cmpint(compress2(z, &zlen, data, len, 6), ==, Z_OK);
	put(b, z, zlen);
}

/* Add an entry with id @n: @type and @size in its header, then @extra
 * (an OFS distance or a REF id), then @data deflated.  Its offset. */
static guint64 hp_add(struct handpack *hp, guint n, int type, guint64 size,
		      const GByteArray *extra, const void *data, gsize len)
{
	struct gitoid oid = hp_id(n);
	guint64 off = hp->pack->len;

	hp_header(hp->pack, type, size);
	if (extra)
		put(hp->pack, extra->data, extra->len);
	hp_deflate(hp->pack, data, len);
	g_array_append_val(hp->ids, oid);
	g_array_append_val(hp->offsets, off);
	return off;
}

static gint cmp_index(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct gitoid *ids = data;

	return memcmp(ids[*(const guint *)a].id, ids[*(const guint *)b].id,
		      GITOID_RAWSZ);
}

static void be32(GByteArray *b, guint32 v)
{
	guint32 be = GUINT32_TO_BE(v);

	put(b, &be, 4);
}

static void sha1(GByteArray *b, guint8 out[20])
{
	g_autoptr(GChecksum) c = g_checksum_new(G_CHECKSUM_SHA1);
	gsize len = 20;

	g_checksum_update(c, b->data, b->len);
	g_checksum_get_digest(c, out, &len);
}

/* Write the pack and its version 2 index into @objects/pack.  With
 * @large every offset goes through the 8-byte table; @idx_edit may
 * change the index before it is written. */
static void hp_write(struct handpack *hp, const char *objects, gboolean large,
		     void (*idx_edit)(GByteArray *idx))
{
	g_autoptr(GByteArray) idx = g_byte_array_new();
	g_autoptr(GArray) order = g_array_new(FALSE, FALSE, sizeof(guint));
	const struct gitoid *ids = (const struct gitoid *)hp->ids->data;
	guint8 pack_sum[20], idx_sum[20];
	g_autofree char *dir = g_build_filename(objects, "pack", NULL);
	g_autofree char *pack_path = NULL, *idx_path = NULL;
	char hex[GITOID_HEXSZ + 1];
	guint32 n = hp->ids->len;

	hp->pack->data[8] = (guint8)(n >> 24);
	hp->pack->data[9] = (guint8)(n >> 16);
	hp->pack->data[10] = (guint8)(n >> 8);
	hp->pack->data[11] = (guint8)n;
	sha1(hp->pack, pack_sum);
	put(hp->pack, pack_sum, 20);

	for (guint i = 0; i < n; i++)
		g_array_append_val(order, i);
	g_array_sort_with_data(order, cmp_index, (gpointer)ids);
	put(idx, "\377tOc", 4);
	be32(idx, 2);
	for (guint f = 0; f < 256; f++) {
		guint32 count = 0;

		for (guint i = 0; i < n; i++)
			count += ids[i].id[0] <= f;
		be32(idx, count);
	}
	for (guint i = 0; i < n; i++)
		put(idx, ids[g_array_index(order, guint, i)].id, 20);
	for (guint i = 0; i < n; i++)
		be32(idx, 0); /* CRCs: not read */
	/* large: all but the first entry of the pack (git allows no
	 * more) through the 8-byte table */
	for (guint i = 0, k = 0; i < n; i++) {
		guint64 off = g_array_index(hp->offsets, guint64,
					    g_array_index(order, guint, i));

		be32(idx,
		     large && off != 12 ? 0x80000000u | k++ : (guint32)off);
	}
	for (guint i = 0; large && i < n; i++) {
		guint64 off = g_array_index(hp->offsets, guint64,
					    g_array_index(order, guint, i));

		if (off == 12)
			continue;
		be32(idx, (guint32)(off >> 32));
		be32(idx, (guint32)off);
	}
	put(idx, pack_sum, 20);
	if (idx_edit)
		idx_edit(idx);
	sha1(idx, idx_sum);
	put(idx, idx_sum, 20);

	memcpy(hex, "", 1);
	for (guint i = 0; i < 20; i++)
		g_snprintf(hex + 2 * i, 3, "%02x", pack_sum[i]);
	g_mkdir_with_parents(dir, 0755);
	pack_path = g_strdup_printf("%s/pack-%s.pack", dir, hex);
	idx_path = g_strdup_printf("%s/pack-%s.idx", dir, hex);
	g_assert_true(g_file_set_contents(pack_path, (char *)hp->pack->data,
					  hp->pack->len, NULL));
	g_assert_true(g_file_set_contents(idx_path, (char *)idx->data, idx->len,
					  NULL));
}

/* delta ops */
static void d_varint(GByteArray *d, guint64 v)
{
	do {
		guint8 c = v & 0x7f;

		v >>= 7;
		if (v)
			c |= 0x80;
		put(d, &c, 1);
	} while (v);
}

static void d_copy(GByteArray *d, guint32 off, guint32 size)
{
	guint8 ops[8], cmd = 0x80;
	guint n = 1;

	for (guint i = 0; i < 4; i++)
		if ((off >> (8 * i)) & 0xff) {
			cmd |= 1u << i;
			ops[n++] = (off >> (8 * i)) & 0xff;
		}
	for (guint i = 0; i < 3; i++)
		if ((size >> (8 * i)) & 0xff) {
			cmd |= 0x10u << i;
			ops[n++] = (size >> (8 * i)) & 0xff;
		}
	ops[0] = cmd;
	put(d, ops, n);
}

static void d_insert(GByteArray *d, const char *s)
{
	guint8 n = (guint8)strlen(s);

	put(d, &n, 1);
	put(d, s, n);
}

static GBytes *read_id(gitodb *odb, guint n, enum gitobj_type *type,
		       GError **error)
{
	struct gitoid oid = hp_id(n);

	return gitodb_read(odb, &oid, type, error);
}

static void expect_hp_corrupt(gitodb *odb, guint n, const char *what)
{
	struct gitoid oid = hp_id(n);
	char hex[GITOID_HEXSZ + 1];

	gitoid_to_hex(&oid, hex);
	expect_corrupt(odb, hex, what);
}

#define BASE_LEN 70000

/* Deltas as git writes them, and the size-0 copy that means 0x10000,
 * through 31-bit and through 8-byte offsets. */
static void test_handmade_deltas(void)
{
	for (guint large = 0; large < 2; large++) {
		g_autofree char *dir = scratch_dir_new("armbot-gitodb-XXXXXX");
		g_autofree guint8 *base = g_malloc(BASE_LEN);
		g_autoptr(GByteArray) d = g_byte_array_new();
		g_autoptr(GByteArray) extra = g_byte_array_new();
		g_autoptr(GByteArray) want = g_byte_array_new();
		g_autoptr(GError) error = NULL;
		g_autoptr(gitodb) odb = NULL;
		g_autoptr(GBytes) got = NULL;
		g_autoptr(GBytes) got2 = NULL;
		struct handpack hp;
		struct gitoid oid;
		enum gitobj_type type = GITOBJ_NONE;
		gsize size = 0;
		guint64 base_off, d1_off;

		for (guint i = 0; i < BASE_LEN; i++)
			base[i] = (guint8)(i * 31 + i / 251);
		hp_init(&hp);
		base_off = hp_add(&hp, 0x10, GITOBJ_BLOB, BASE_LEN, NULL, base,
				  BASE_LEN);
		/* 0x20: OFS_DELTA on 0x10: 0x10000 bytes (size 0), an
		 * insert, 10 bytes from offset 65536 */
		d_varint(d, BASE_LEN);
		d_varint(d, 0x10000 + 3 + 10);
		d_copy(d, 0, 0);
		d_insert(d, "xyz");
		d_copy(d, 65536, 10);
		put(want, base, 0x10000);
		put(want, "xyz", 3);
		put(want, base + 65536, 10);
		d1_off = hp.pack->len;
		hp_ofs(extra, d1_off - base_off);
		hp_add(&hp, 0x20, PACK_OFS_DELTA_T, d->len, extra, d->data,
		       d->len);
		/* 0x30: REF_DELTA on 0x20 (same pack) */
		g_byte_array_set_size(d, 0);
		g_byte_array_set_size(extra, 0);
		d_varint(d, want->len);
		d_varint(d, 5);
		d_insert(d, "ab");
		d_copy(d, 0x10000, 3);
		oid = hp_id(0x20);
		put(extra, oid.id, 20);
		hp_add(&hp, 0x30, PACK_REF_DELTA_T, d->len, extra, d->data,
		       d->len);
		hp_write(&hp, dir, large, NULL);
		hp_clear(&hp);

		odb = gitodb_open(dir, &error);
		g_assert_no_error(error);
		/* twice: the second time the bases come from the cache */
		for (guint round = 0; round < 2; round++) {
			g_autoptr(GBytes)
				b1 = read_id(odb, 0x30, &type, &error);

			g_assert_no_error(error);
			g_assert_cmpint(type, ==, GITOBJ_BLOB);
			g_assert_cmpmem(g_bytes_get_data(b1, NULL),
					g_bytes_get_size(b1), "abxyz", 5);
		}
		got = read_id(odb, 0x20, &type, &error);
		g_assert_no_error(error);
		g_assert_cmpmem(g_bytes_get_data(got, NULL),
				g_bytes_get_size(got), want->data, want->len);
		got2 = read_id(odb, 0x10, &type, &error);
		g_assert_no_error(error);
		g_assert_cmpmem(g_bytes_get_data(got2, NULL),
				g_bytes_get_size(got2), base, BASE_LEN);
		oid = hp_id(0x30);
		g_assert_true(
			gitodb_read_header(odb, &oid, &type, &size, &error));
		g_assert_cmpint(type, ==, GITOBJ_BLOB);
		g_assert_cmpuint(size, ==, 5);
		oid = hp_id(0x20);
		g_assert_true(gitodb_read_header(odb, &oid, NULL, &size, NULL));
		g_assert_cmpuint(size, ==, want->len);
		rmtree(dir, NULL);
	}
}

static void test_hostile_pack(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-gitodb-XXXXXX");
	g_autoptr(GByteArray) d = g_byte_array_new();
	g_autoptr(GByteArray) extra = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = NULL;
	g_autoptr(GBytes) ok = NULL;
	struct handpack hp;
	struct gitoid oid;
	enum gitobj_type type;
	guint64 base_off, off;
	static const char base[] = "0123456789";

	hp_init(&hp);
	base_off = hp_add(&hp, 0x01, GITOBJ_BLOB, 10, NULL, base, 10);

#define DELTA_ON_BASE(n, build)                                          \
	do {                                                             \
		g_byte_array_set_size(d, 0);                             \
		g_byte_array_set_size(extra, 0);                         \
		build;                                                   \
		hp_ofs(extra, hp.pack->len - base_off);                  \
		hp_add(&hp, n, PACK_OFS_DELTA_T, d->len, extra, d->data, \
		       d->len);                                          \
	} while (0)

	/* 0x02: a copy beyond the end of the base */
	DELTA_ON_BASE(0x02, (d_varint(d, 10), d_varint(d, 5), d_copy(d, 8, 5)));
	/* 0x03: a copy whose offset wraps around 32 bits */
	DELTA_ON_BASE(0x03, (d_varint(d, 10), d_varint(d, 5),
			     d_copy(d, 0xffffffffu, 5)));
	/* 0x04: the source size is not the base's */
	DELTA_ON_BASE(0x04,
		      (d_varint(d, 11), d_varint(d, 1), d_insert(d, "x")));
	/* 0x05: opcode 0 */
	DELTA_ON_BASE(0x05, (d_varint(d, 10), d_varint(d, 1),
			     g_byte_array_append(d, (const guint8 *)"\0", 1)));
	/* 0x06: more output than announced */
	DELTA_ON_BASE(0x06,
		      (d_varint(d, 10), d_varint(d, 2), d_insert(d, "xyz")));
	/* 0x07: less output than announced */
	DELTA_ON_BASE(0x07,
		      (d_varint(d, 10), d_varint(d, 9), d_insert(d, "xyz")));
	/* 0x08: an insert longer than the delta */
	DELTA_ON_BASE(0x08,
		      (d_varint(d, 10), d_varint(d, 100),
		       g_byte_array_append(d, (const guint8 *)"\x64zz", 3)));
	/* 0x09: a result size no delta of this length can make */
	DELTA_ON_BASE(0x09, (d_varint(d, 10),
			     d_varint(d, G_GUINT64_CONSTANT(1) << 50),
			     d_copy(d, 0, 10)));
	/* 0x0a: a copy op cut short */
	DELTA_ON_BASE(0x0a,
		      (d_varint(d, 10), d_varint(d, 5),
		       g_byte_array_append(d, (const guint8 *)"\x91", 1)));
	/* 0x0b: a truncated size varint */
	DELTA_ON_BASE(0x0b,
		      (g_byte_array_append(d, (const guint8 *)"\x8a", 1)));
	/* 0x0c: a REF_DELTA on itself */
	g_byte_array_set_size(extra, 0);
	oid = hp_id(0x0c);
	put(extra, oid.id, 20);
	g_byte_array_set_size(d, 0);
	d_varint(d, 1);
	d_varint(d, 1);
	d_insert(d, "x");
	hp_add(&hp, 0x0c, PACK_REF_DELTA_T, d->len, extra, d->data, d->len);
	/* 0x0d: a REF_DELTA on an object that is nowhere */
	g_byte_array_set_size(extra, 0);
	oid = hp_id(0xee);
	put(extra, oid.id, 20);
	hp_add(&hp, 0x0d, PACK_REF_DELTA_T, d->len, extra, d->data, d->len);
	/* 0x0e: an OFS_DELTA pointing before the pack's start */
	g_byte_array_set_size(extra, 0);
	hp_ofs(extra, hp.pack->len + 100);
	hp_add(&hp, 0x0e, PACK_OFS_DELTA_T, d->len, extra, d->data, d->len);
	/* 0x0f: a blob whose header claims 1 TiB */
	hp_add(&hp, 0x0f, GITOBJ_BLOB, G_GUINT64_CONSTANT(1) << 40, NULL, base,
	       10);
	/* 0x10: the header size smaller than the data */
	hp_add(&hp, 0x10, GITOBJ_BLOB, 5, NULL, base, 10);
	/* 0x11: the reserved type 5 */
	hp_add(&hp, 0x11, 5, 10, NULL, base, 10);
	/* 0x12: data that is not zlib */
	off = hp.pack->len;
	hp_add(&hp, 0x12, GITOBJ_BLOB, 10, NULL, base, 10);
	hp.pack->data[off + 1] = 0;
	hp.pack->data[off + 2] = 0;
	/* 0x13: a corrupted byte inside the deflated data of a longer
	 * blob (found by zlib or by its adler32) */
	{
		g_autofree char *text = g_strnfill(3000, 'a');

		for (guint i = 0; i < 3000; i++)
			text[i] = (char)('a' + i * i % 26);
		off = hp.pack->len;
		hp_add(&hp, 0x13, GITOBJ_BLOB, 3000, NULL, text, 3000);
		hp.pack->data[hp.pack->len - 30] ^= 0x55;
	}
	/* 0x14: an OFS_DELTA whose distance overflows */
	g_byte_array_set_size(extra, 0);
	for (guint i = 0; i < 12; i++)
		g_byte_array_append(extra, (const guint8 *)"\xff", 1);
	g_byte_array_append(extra, (const guint8 *)"\x01", 1);
	hp_add(&hp, 0x14, PACK_OFS_DELTA_T, d->len, extra, d->data, d->len);
	/* 0x15: a size varint that does not end before the pack does */
	off = hp.pack->len;
	{
		struct gitoid id15 = hp_id(0x15);
		static const guint8 endless[] = { 0xb5, 0xff, 0xff, 0xff,
						  0xff, 0xff, 0xff, 0xff,
						  0xff, 0xff, 0xff, 0xff };

		put(hp.pack, endless, sizeof(endless));
		g_array_append_val(hp.ids, id15);
		g_array_append_val(hp.offsets, off);
	}
	/* 0x16: an OFS_DELTA chain 0x16 -> 0x02 (bad), read through */
	g_byte_array_set_size(extra, 0);
	g_byte_array_set_size(d, 0);
	d_varint(d, 5);
	d_varint(d, 1);
	d_insert(d, "x");
	hp_ofs(extra, hp.pack->len - g_array_index(hp.offsets, guint64, 1));
	hp_add(&hp, 0x16, PACK_OFS_DELTA_T, d->len, extra, d->data, d->len);
	hp_write(&hp, dir, FALSE, NULL);
	hp_clear(&hp);

	odb = gitodb_open(dir, &error);
	g_assert_no_error(error);
	ok = read_id(odb, 0x01, &type, &error);
	g_assert_no_error(error);
	g_assert_cmpmem(g_bytes_get_data(ok, NULL), g_bytes_get_size(ok), base,
			10);
	expect_hp_corrupt(odb, 0x02, "copy beyond the base");
	expect_hp_corrupt(odb, 0x03, "copy offset wraps");
	expect_hp_corrupt(odb, 0x04, "source size");
	expect_hp_corrupt(odb, 0x05, "opcode 0");
	expect_hp_corrupt(odb, 0x06, "more output");
	expect_hp_corrupt(odb, 0x07, "less output");
	expect_hp_corrupt(odb, 0x08, "long insert");
	expect_hp_corrupt(odb, 0x09, "huge result");
	expect_hp_corrupt(odb, 0x0a, "copy op cut short");
	expect_hp_corrupt(odb, 0x0b, "truncated varint");
	expect_hp_corrupt(odb, 0x0c, "delta on itself");
	expect_hp_corrupt(odb, 0x0d, "missing base");
	expect_hp_corrupt(odb, 0x0e, "base before the pack");
	expect_hp_corrupt(odb, 0x0f, "1 TiB blob");
	expect_hp_corrupt(odb, 0x10, "size smaller than data");
	expect_hp_corrupt(odb, 0x11, "type 5");
	expect_hp_corrupt(odb, 0x12, "not zlib");
	expect_hp_corrupt(odb, 0x13, "corrupted data");
	expect_hp_corrupt(odb, 0x14, "distance overflow");
	expect_hp_corrupt(odb, 0x15, "endless size");
	expect_hp_corrupt(odb, 0x16, "chain through a bad delta");
	/* the good one still reads after all that */
	g_bytes_unref(ok);
	ok = read_id(odb, 0x01, &type, &error);
	g_assert_no_error(error);
	rmtree(dir, NULL);
}

/* index edits */
static void idx_truncate(GByteArray *idx)
{
	g_byte_array_set_size(idx, 100);
}

static void idx_drop_8(GByteArray *idx)
{
	g_byte_array_remove_range(idx, 8 + 1024, 8);
}

static void idx_non_monotonic(GByteArray *idx)
{
	/* fanout[0x7f] beyond fanout[0x80] */
	idx->data[8 + 4 * 0x7f + 3] = 0xff;
	idx->data[8 + 4 * 0x7f + 2] = 0xff;
}

static void idx_version_3(GByteArray *idx)
{
	idx->data[7] = 3;
}

static void idx_bad_large_offset(GByteArray *idx)
{
	/* 2 objects: the second 4-byte offset names entry 5 of a table of
	 * 2 */
	gsize off32 = 8 + 1024 + 2 * (20 + 4) + 4;

	idx->data[off32 + 3] = 5;
}

static void idx_offset_past_end(GByteArray *idx)
{
	gsize off32 = 8 + 1024 + 2 * (20 + 4) + 4;

	idx->data[off32] = 0x7f;
}

static void idx_pack_checksum(GByteArray *idx)
{
	idx->data[idx->len - 1] ^= 1;
}

static void test_hostile_index(void)
{
	static const struct {
		void (*edit)(GByteArray *idx);
		gboolean large;
		const char *what;
		gboolean open_fails; /* the index is refused: not found */
	} cases[] = {
		{ idx_truncate, FALSE, "truncated index", TRUE },
		{ idx_drop_8, FALSE, "index 8 bytes short", TRUE },
		{ idx_non_monotonic, FALSE, "non-monotonic fanout", TRUE },
		{ idx_version_3, FALSE, "index version 3", TRUE },
		{ idx_bad_large_offset, TRUE, "bad large offset", FALSE },
		{ idx_offset_past_end, FALSE, "offset past the pack", FALSE },
		{ idx_pack_checksum, FALSE, "pack checksum mismatch", FALSE },
	};
	static const char blob[] = "hello";

	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		g_autofree char *dir = scratch_dir_new("armbot-gitodb-XXXXXX");
		g_autoptr(GError) error = NULL;
		g_autoptr(gitodb) odb = NULL;
		struct handpack hp;
		struct gitoid oid = hp_id(0x80);
		GBytes *data;

		hp_init(&hp);
		hp_add(&hp, 0x40, GITOBJ_BLOB, 5, NULL, blob, 5);
		hp_add(&hp, 0x80, GITOBJ_BLOB, 5, NULL, blob, 5);
		hp_write(&hp, dir, cases[c].large, cases[c].edit);
		hp_clear(&hp);
		odb = gitodb_open(dir, &error);
		g_assert_no_error(error);
		data = gitodb_read(odb, &oid, NULL, &error);
		if (data)
			g_error("%s: read did not fail", cases[c].what);
		g_test_message("%s: %s", cases[c].what, error->message);
		if (cases[c].open_fails) {
			g_assert_error(error, GITODB_ERROR,
				       GITODB_ERROR_NOT_FOUND);
			g_assert_nonnull(strstr(error->message, ".idx"));
		} else {
			g_assert_error(error, GITODB_ERROR,
				       GITODB_ERROR_CORRUPT);
		}
		g_clear_error(&error);
		g_assert_false(
			gitodb_read_header(odb, &oid, NULL, NULL, &error));
		g_clear_error(&error);
		rmtree(dir, NULL);
	}
}

/* A real pack with bytes zeroed in its middle: the objects there are
 * errors, every other one reads as git read it before; then the pack
 * cut short: it no longer matches its index. */
static void test_corrupt_pack(struct repo_fixture *fx, gconstpointer nodata)
{
	const char *dir = fx->dir, *repo = fx->repo, *objects = fx->objects;
	g_autoptr(GBytes) ids = NULL;
	g_autoptr(GHashTable) before = g_hash_table_new_full(
		g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_bytes_unref);
	g_auto(GStrv) lines = NULL;
	guint failed = 0, read = 0;

	g_bytes_unref(sh(dir, history_script));
	ids = sh(repo, "git repack -adfq --depth=50 && git prune-packed\n"
		       "git cat-file --batch-all-objects "
		       "--batch-check='%(objectname)'\n");
	lines = g_strsplit(g_bytes_get_data(ids, NULL), "\n", -1);
	{
		g_autoptr(gitodb) odb = gitodb_open(objects, NULL);

		for (guint i = 0; lines[i] && *lines[i]; i++) {
			struct gitoid oid;

			g_assert_true(gitoid_from_hex(&oid, lines[i]));
			g_hash_table_insert(before, g_strdup(lines[i]),
					    gitodb_read(odb, &oid, NULL, NULL));
		}
	}
	g_bytes_unref(sh(repo, "p=$(ls .git/objects/pack/*.pack)\n"
			       "chmod u+w $p\n"
			       "dd if=/dev/zero of=$p bs=1 count=200 "
			       "seek=$(($(stat -c %s $p) / 2)) conv=notrunc "
			       "2>/dev/null\n"));
	for (guint pass = 0; pass < 2; pass++) {
		g_autoptr(gitodb) odb = gitodb_open(objects, NULL);

		failed = read = 0;
		for (guint i = 0; lines[i] && *lines[i]; i++) {
			g_autoptr(GError) error = NULL;
			g_autoptr(GBytes) data = NULL;
			struct gitoid oid;

			g_assert_true(gitoid_from_hex(&oid, lines[i]));
			data = gitodb_read(odb, &oid, NULL, &error);
			if (data) {
				g_assert_true(g_bytes_equal(
					data,
					g_hash_table_lookup(before, lines[i])));
				read++;
				continue;
			}
			g_assert_error(error, GITODB_ERROR,
				       GITODB_ERROR_CORRUPT);
			failed++;
		}
		g_test_message("pass %u: %u read, %u failed", pass, read,
			       failed);
		if (pass == 0) {
			g_assert_cmpuint(failed, >, 0);
			g_assert_cmpuint(read, >, 100);
			g_bytes_unref(sh(repo,
					 "p=$(ls .git/objects/pack/*.pack)\n"
					 "truncate -s $(($(stat -c %s $p) / 2))"
					 " $p\n"));
		}
	}
	g_assert_cmpuint(read, ==, 0);
	g_assert_cmpuint(failed, ==, 60 * 3 + 42 + 2);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/gitodb/hex", test_hex);
	REPO_TEST("/gitodb/loose", test_loose);
	REPO_TEST("/gitodb/ofs-delta-chains", test_ofs_delta_chains);
	REPO_TEST("/gitodb/ref-delta", test_ref_delta);
	REPO_TEST("/gitodb/several-packs", test_several_packs);
	g_test_add_func("/gitodb/alternates", test_alternates);
	g_test_add_func("/gitodb/alternates-depth", test_alternates_depth);
	REPO_TEST("/gitodb/prefix", test_prefix);
	g_test_add_func("/gitodb/hostile-loose", test_hostile_loose);
	g_test_add_func("/gitodb/handmade-deltas", test_handmade_deltas);
	g_test_add_func("/gitodb/hostile-pack", test_hostile_pack);
	g_test_add_func("/gitodb/hostile-index", test_hostile_index);
	REPO_TEST("/gitodb/corrupt-pack", test_corrupt_pack);
	return g_test_run();
}
