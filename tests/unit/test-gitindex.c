/* Unit tests of kernel/git/index.c: every entry of index versions 2, 3
 * and 4 compared with `git ls-files -s --debug` of git 2.39, and
 * truncated, corrupted and hostile index files refused without a crash
 * (the suite runs again under ASan+UBSan). */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/tree/rmtree.h"
#include "kernel/git/index.h"
#include "tests/unit/scratch.h"

static char *scratch;
static char *repo_dir;

/* git in @dir with a clean environment and both dates pinned; its stdout
 * (it must succeed) */
static char *git_ok_v(const char *dir, const char *const *args)
{
	g_auto(GStrv) env = scratch_git_environ(scratch, "@1700000000 +0000",
						"@1700000000 +0000");

	return scratch_git_ok((const char *const *)env, dir, args);
}

#define git_ok(dir, ...) git_ok_v(dir, SCRATCH_ARGV(__VA_ARGS__))
#define git_do(dir, ...) g_free(git_ok(dir, __VA_ARGS__))

static char *index_file(void)
{
	return g_build_filename(repo_dir, ".git", "index", NULL);
}

/* The listing `git ls-files -s --debug` prints (builtin/ls-files.c
 * show_ce()), made from our entries; ce_flags in memory are the
 * on-disk flags without the name length, the extended ones above. */
static char *listing(const struct gitindex *index)
{
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; i < index->entries->len; i++) {
		const struct gitindex_entry *e = index->entries->pdata[i];
		guint32 flags = (e->flags & ~0x0fffu) |
				(guint32)e->flags_extended << 16;
		int j;

		g_string_append_printf(s, "%06o ", e->mode);
		for (j = 0; j < GITOID_RAWSZ; j++)
			g_string_append_printf(s, "%02x", e->oid.id[j]);
		g_string_append_printf(s, " %d\t%s\n", (e->flags >> 12) & 3,
				       e->path);
		g_string_append_printf(s, "  ctime: %u:%u\n", e->ctime_sec,
				       e->ctime_nsec);
		g_string_append_printf(s, "  mtime: %u:%u\n", e->mtime_sec,
				       e->mtime_nsec);
		g_string_append_printf(s, "  dev: %u\tino: %u\n", e->dev,
				       e->ino);
		g_string_append_printf(s, "  uid: %u\tgid: %u\n", e->uid,
				       e->gid);
		g_string_append_printf(s, "  size: %u\tflags: %x\n", e->size,
				       flags);
	}
	return g_string_free(s, FALSE);
}

/* A work tree of paths with long shared prefixes, a symlink, an
 * executable, a path longer than 0xfff bytes (only in the index), and
 * a conflict (stages 1 to 3). */
static void build_repo(void)
{
	g_autofree char *blob = NULL;
	g_autoptr(GString) longpath = g_string_new(NULL);
	g_autofree char *cacheinfo = NULL;
	g_autofree char *link = NULL;
	int i, j;

	repo_dir = g_build_filename(scratch, "repo", NULL);
	git_do(scratch, "init", "-q", "-b", "main", repo_dir);
	scratch_write_file(repo_dir, "conflict", "base\n");
	for (i = 0; i < 6; i++)
		for (j = 0; j < 6; j++) {
			g_autofree char *name = g_strdup_printf(
				"drivers/gpu/drm/driver%d/subdirectory-%d/"
				"file-with-a-long-name-%d.c",
				i, j, i * j);
			g_autofree char *text =
				g_strdup_printf("%d %d\n", i, j);

			scratch_write_file(repo_dir, name, text);
		}
	scratch_write_file(repo_dir, "a.c", "a.c\n");
	scratch_write_file(repo_dir, "a-b/c", "c\n");
	scratch_write_file(repo_dir, "a/b", "b\n");
	scratch_write_file(repo_dir, "tool.sh", "#!/bin/sh\n");
	link = g_build_filename(repo_dir, "tool.sh", NULL);
	g_assert_cmpint(g_chmod(link, 0755), ==, 0);
	g_free(link);
	link = g_build_filename(repo_dir, "link", NULL);
	g_assert_cmpint(symlink("a/b", link), ==, 0);
	git_do(repo_dir, "add", "-A");
	git_do(repo_dir, "commit", "-q", "-m", "one");
	blob = git_ok(repo_dir, "hash-object", "-w", "a.c");
	g_strchomp(blob);
	for (i = 0; i < 21; i++)
		g_string_append_printf(longpath, "%0199d/", i);
	g_string_append(longpath, "end");
	cacheinfo = g_strdup_printf("100644,%s,%s", blob, longpath->str);
	git_do(repo_dir, "update-index", "--add", "--cacheinfo", cacheinfo);
	git_do(repo_dir, "commit", "-q", "-m", "long");

	git_do(repo_dir, "checkout", "-q", "-b", "other");
	scratch_write_file(repo_dir, "conflict", "other\n");
	git_do(repo_dir, "commit", "-q", "-a", "-m", "other");
	git_do(repo_dir, "checkout", "-q", "main");
	scratch_write_file(repo_dir, "conflict", "main\n");
	git_do(repo_dir, "commit", "-q", "-a", "-m", "main");
	/* the merge stops on the conflict */
	{
		const char *argv[] = { "git", "-C",    repo_dir, "merge",
				       "-q",  "other", NULL };
		const char *env[] = { "GIT_CONFIG_NOSYSTEM=1",
				      "HOME=/",
				      "GIT_AUTHOR_NAME=a",
				      "GIT_AUTHOR_EMAIL=a@b",
				      "GIT_COMMITTER_NAME=a",
				      "GIT_COMMITTER_EMAIL=a@b",
				      NULL };
		g_auto(GStrv)
			envp = g_environ_setenv(g_strdupv((char **)env), "PATH",
						g_getenv("PATH"), TRUE);
		int status;

		g_assert_true(g_spawn_sync(
			NULL, (char **)argv, envp,
			G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
				G_SPAWN_STDERR_TO_DEV_NULL,
			NULL, NULL, NULL, NULL, &status, NULL));
		g_assert_false(g_spawn_check_wait_status(status, NULL));
	}
}

static struct gitindex *read_index(void)
{
	g_autofree char *file = index_file();
	g_autoptr(GError) error = NULL;
	struct gitindex *index = gitindex_read(file, &error);

	g_assert_no_error(error);
	g_assert_nonnull(index);
	return index;
}

static guint32 index_version(void)
{
	g_autofree char *file = index_file();
	g_autofree char *buf = NULL;
	gsize len;

	g_assert_true(g_file_get_contents(file, &buf, &len, NULL));
	g_assert_cmpuint(len, >=, 8);
	return (guint8)buf[7];
}

static void check_against_git(guint32 version)
{
	g_autoptr(gitindex) index = read_index();
	g_autofree char *want = git_ok(repo_dir, "ls-files", "-s", "--debug");
	g_autofree char *got = listing(index);
	guint i, stage0 = 0;

	g_assert_cmpuint(index_version(), ==, version);
	g_assert_cmpstr(got, ==, want);
	g_assert_cmpuint(index->entries->len, >, 40);
	/* gitindex_find() finds every stage-0 entry, no conflicted one */
	for (i = 0; i < index->entries->len; i++) {
		const struct gitindex_entry *e = index->entries->pdata[i];
		const struct gitindex_entry *found =
			gitindex_find(index, e->path);

		if (e->flags & 0x3000) {
			g_assert_null(found);
		} else {
			g_assert_true(found == e);
			stage0++;
		}
	}
	g_assert_cmpuint(stage0, ==, index->entries->len - 3);
	g_assert_null(gitindex_find(index, "nosuch"));
	g_assert_null(gitindex_find(index, "a/"));
	g_assert_null(gitindex_find(index, "a"));
	g_assert_null(gitindex_find(index, "drivers"));
	g_assert_null(gitindex_find(index, ""));
	g_assert_nonnull(gitindex_find(index, "a.c"));
	g_assert_cmpuint(index->mtime.tv_sec, >, 0);
}

static void test_v2(void)
{
	git_do(repo_dir, "update-index", "--index-version", "2");
	check_against_git(2);
}

/* skip-worktree and intent-to-add need the extended flags: version 3 */
static void test_v3(void)
{
	g_autoptr(gitindex) index = NULL;
	const struct gitindex_entry *e;

	git_do(repo_dir, "update-index", "--index-version", "2");
	git_do(repo_dir, "update-index", "--skip-worktree", "a.c");
	scratch_write_file(repo_dir, "new-file", "new\n");
	git_do(repo_dir, "add", "-N", "new-file");
	git_do(repo_dir, "update-index", "--assume-unchanged", "tool.sh");
	check_against_git(3);
	index = read_index();
	e = gitindex_find(index, "a.c");
	g_assert_cmphex(e->flags_extended, ==, GITINDEX_SKIP_WORKTREE);
	e = gitindex_find(index, "tool.sh");
	g_assert_cmphex(e->flags & GITINDEX_ASSUME_VALID, ==,
			GITINDEX_ASSUME_VALID);
}

static void test_v4(void)
{
	git_do(repo_dir, "update-index", "--index-version", "4");
	check_against_git(4);
}

static void test_missing(void)
{
	g_autofree char *file = g_build_filename(scratch, "none", NULL);
	g_autoptr(GError) error = NULL;

	g_assert_null(gitindex_read(file, &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* an exact-size copy, so that ASan sees any read past the end */
static struct gitindex *read_bytes(const char *buf, gsize len, GError **error)
{
	g_autofree char *copy = g_memdup2(buf, len);

	return gitindex_parse(copy, len, error);
}

static void expect_error(const char *buf, gsize len, int code, const char *what)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(gitindex) index = read_bytes(buf, len, &error);

	g_assert_null(index);
	g_assert_error(error, GITINDEX_ERROR, code);
	if (what && !strstr(error->message, what))
		g_error("'%s' does not say '%s'", error->message, what);
}

static void put_be32(char *p, guint32 v)
{
	p[0] = (char)(v >> 24);
	p[1] = (char)(v >> 16);
	p[2] = (char)(v >> 8);
	p[3] = (char)v;
}

/* The end of the entries: where the first extension starts, or the
 * checksum. */
static gsize entries_end(const char *buf, gsize len)
{
	g_autoptr(gitindex) index = read_bytes(buf, len, NULL);
	gsize end = len - GITOID_RAWSZ;
	gsize p = 12;

	/* walk the extensions backwards is not possible: walk forwards
	 * from the first byte after the entries, found by re-reading
	 * with one extension-sized cut at a time */
	g_assert_nonnull(index);
	for (p = 12; p < end; p++) {
		if (!memcmp(buf + p, "TREE", 4) || !memcmp(buf + p, "REUC", 4))
			return p;
	}
	return end;
}

/* Every truncation inside the entries is an error; later ones cut
 * extensions or the unchecked checksum: no crash.  Bytes flipped at
 * random: an error or an index, never a crash. */
static void truncate_and_flip(const char *buf, gsize len, guint32 seed)
{
	g_autofree char *copy = g_memdup2(buf, len);
	gsize end = entries_end(buf, len), i;
	GRand *rand = g_rand_new_with_seed(seed);

	for (i = 0; i < len; i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(gitindex) index = read_bytes(buf, i, &error);

		if (i < end + GITOID_RAWSZ) {
			if (index)
				g_error("truncated to %zu of %zu (entries "
					"end at %zu): no error",
					i, len, end);
			g_assert_true(error->domain == GITINDEX_ERROR);
		}
	}
	for (i = 0; i < 2000; i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(gitindex) index = NULL;
		int k, flips = g_rand_int_range(rand, 1, 4);

		memcpy(copy, buf, len);
		for (k = 0; k < flips; k++)
			copy[g_rand_int_range(rand, 0, (gint32)len)] =
				(char)g_rand_int_range(rand, 0, 256);
		index = read_bytes(copy, len, &error);
		g_assert_true(index || error);
	}
	g_rand_free(rand);
}

static void test_hostile_v2(void)
{
	g_autofree char *file = index_file();
	g_autofree char *buf = NULL;
	g_autofree char *copy = NULL;
	gsize len;

	git_do(repo_dir, "update-index", "--index-version", "2");
	g_assert_true(g_file_get_contents(file, &buf, &len, NULL));
	truncate_and_flip(buf, len, 2);
	/* no NUL after the first path up to the end of the entries */
	copy = g_memdup2(buf, len);
	memset(copy + 12 + 62, 'x', len - GITOID_RAWSZ - 12 - 62);
	expect_error(copy, len, GITINDEX_ERROR_CORRUPT, NULL);
}

static void test_hostile_v4(void)
{
	g_autofree char *file = index_file();
	g_autofree char *buf = NULL;
	g_autofree char *copy = NULL;
	/* the first entry is the long path: 62 fixed bytes, no extended
	 * flags, a varint 0, the path */
	gsize len, first_name = 12 + 62, second;
	const char *nul;

	git_do(repo_dir, "update-index", "--index-version", "4");
	g_assert_true(g_file_get_contents(file, &buf, &len, NULL));
	truncate_and_flip(buf, len, 4);
	expect_error(buf, 0, GITINDEX_ERROR_CORRUPT, "smaller than expected");

	copy = g_memdup2(buf, len);
	copy[0] = 'X';
	expect_error(copy, len, GITINDEX_ERROR_CORRUPT, "bad signature");
	memcpy(copy, buf, len);
	put_be32(copy + 4, 5);
	expect_error(copy, len, GITINDEX_ERROR_UNSUPPORTED, "version 5");
	memcpy(copy, buf, len);
	put_be32(copy + 8, 0xffffffff);
	expect_error(copy, len, GITINDEX_ERROR_CORRUPT, "more than fit");
	/* one entry fewer than there are: the last is taken for an
	 * extension, with a lowercase (required) signature */
	memcpy(copy, buf, len);
	put_be32(copy + 8, ((guint8)buf[11]) - 1);
	expect_error(copy, len, GITINDEX_ERROR_UNSUPPORTED, "extension");

	/* the second entry strips more than the first name has */
	memcpy(copy, buf, len);
	g_assert_cmpint(copy[first_name], ==, 0);
	nul = memchr(copy + first_name + 1, '\0', len - first_name - 1);
	second = nul + 1 - copy;
	second += copy[second + 60] & 0x40 ? 2 : 0;
	/* varint 16511: more than the 4203 bytes of the long path */
	copy[second + 62] = (char)0xff;
	copy[second + 63] = 0x7f;
	expect_error(copy, len, GITINDEX_ERROR_CORRUPT, "malformed name field");
	/* a varint running off the end */
	memcpy(copy, buf, len);
	memset(copy + second + 62, 0xff, len - second - 62);
	expect_error(copy, len, GITINDEX_ERROR_CORRUPT, NULL);
	/* a name length that does not match the path */
	memcpy(copy, buf, len);
	copy[12 + 61] ^= 0x01;
	expect_error(copy, len, GITINDEX_ERROR_CORRUPT, "does not match");
	/* unknown extended flags */
	memcpy(copy, buf, len);
	copy[12 + 60] |= 0x40;
	expect_error(copy, len, GITINDEX_ERROR_UNSUPPORTED,
		     "unknown index entry format");
	/* an extension longer than the file */
	memcpy(copy, buf, len);
	put_be32(copy + entries_end(buf, len) + 4, 0x7fffffff);
	expect_error(copy, len, GITINDEX_ERROR_CORRUPT,
		     "truncated index "
		     "extension");
}

int main(int argc, char **argv)
{
	int ret;

	g_test_init(&argc, &argv, NULL);
	scratch = scratch_dir_new("armbot-gitindex-XXXXXX");
	build_repo();
	g_test_add_func("/gitindex/v2", test_v2);
	g_test_add_func("/gitindex/v3", test_v3);
	g_test_add_func("/gitindex/v4", test_v4);
	g_test_add_func("/gitindex/missing", test_missing);
	g_test_add_func("/gitindex/hostile-v2", test_hostile_v2);
	g_test_add_func("/gitindex/hostile-v4", test_hostile_v4);
	ret = g_test_run();
	rmtree(scratch, NULL);
	g_free(scratch);
	g_free(repo_dir);
	return ret;
}
