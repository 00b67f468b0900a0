/* The series' copy of a build dir (see buildcopy.h). */
#include "kernel/build/buildcopy.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kernel/tree/rmtree.h"

#define MANIFEST_MAGIC "armbot-buildcopy 1"

/* What is recorded of one file or symlink. */
struct entry_stat {
	guint32 mode; /* type and permissions */
	guint64 ino;
	guint64 size;
	gint64 mtime_ns;
	gint64 ctime_ns;
};

/* One entry of the manifest: the original as it was copied, the copy as
 * the sync left it. */
struct manifest_entry {
	struct entry_stat orig;
	struct entry_stat copy;
};

struct sync {
	const char *orig;
	const char *copy;
	GHashTable *old; /* relative path -> struct manifest_entry */
	GHashTable *now; /* the manifest this sync writes */
	gint64 max_ctime_ns; /* of what it recorded */
	struct buildcopy_stats *stats;
};

static void stat_record(const struct stat *st, struct entry_stat *out)
{
	out->mode = st->st_mode;
	out->ino = st->st_ino;
	out->size = st->st_size;
	out->mtime_ns = st->st_mtim.tv_sec * G_GINT64_CONSTANT(1000000000) +
			st->st_mtim.tv_nsec;
	out->ctime_ns = st->st_ctim.tv_sec * G_GINT64_CONSTANT(1000000000) +
			st->st_ctim.tv_nsec;
}

static gboolean stat_equal(const struct entry_stat *a,
			   const struct entry_stat *b)
{
	return a->mode == b->mode && a->ino == b->ino && a->size == b->size &&
	       a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

static gboolean errno_error(GError **error, const char *what, const char *path)
{
	int e = errno;

	g_set_error(error, G_IO_ERROR, g_io_error_from_errno(e),
		    "cannot %s '%s': %s", what, path, g_strerror(e));
	return FALSE;
}

/* ---- the manifest ---- */

static GHashTable *manifest_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static gboolean parse_stat(char ***f, struct entry_stat *out)
{
	char *end;
	guint64 v[5];

	for (int i = 0; i < 5; i++) {
		if (!**f)
			return FALSE;
		v[i] = g_ascii_strtoull(**f, &end, 10);
		if (end == **f || *end)
			return FALSE;
		(*f)++;
	}
	out->mode = (guint32)v[0];
	out->ino = v[1];
	out->size = v[2];
	out->mtime_ns = (gint64)v[3];
	out->ctime_ns = (gint64)v[4];
	return TRUE;
}

/* The manifest of @path if it is one of @s's (same original, same copy);
 * otherwise an empty one: nothing is vouched for. */
static GHashTable *manifest_load(const struct sync *s, const char *path)
{
	GHashTable *m = manifest_new();
	g_autofree char *text = NULL;
	g_autofree char *header = NULL;
	g_autofree char *orig = g_strescape(s->orig, NULL);
	g_autofree char *copy = g_strescape(s->copy, NULL);
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return m;
	lines = g_strsplit(text, "\n", -1);
	header = g_strdup_printf(MANIFEST_MAGIC "\t%s\t%s", orig, copy);
	if (!lines[0] || strcmp(lines[0], header))
		return m;
	for (guint i = 1; lines[i]; i++) {
		char *tab = strchr(lines[i], '\t');
		struct manifest_entry e;
		g_auto(GStrv) fields = NULL;
		char **f;

		if (!tab)
			continue;
		*tab = '\0';
		fields = g_strsplit(lines[i], " ", -1);
		f = fields;
		if (!parse_stat(&f, &e.orig) || !parse_stat(&f, &e.copy) || *f)
			continue;
		g_hash_table_replace(m, g_strcompress(tab + 1),
				     g_memdup2(&e, sizeof(e)));
	}
	return m;
}

static void append_stat(GString *out, const struct entry_stat *st)
{
	g_string_append_printf(out,
			       "%u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
			       " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
			       st->mode, st->ino, st->size, st->mtime_ns,
			       st->ctime_ns);
}

static gboolean manifest_save(const struct sync *s, const char *path,
			      GError **error)
{
	g_autoptr(GString) out = g_string_new(MANIFEST_MAGIC "\t");
	g_autofree char *orig = g_strescape(s->orig, NULL);
	g_autofree char *copy = g_strescape(s->copy, NULL);
	GHashTableIter it;
	gpointer key, value;

	g_string_append_printf(out, "%s\t%s\n", orig, copy);
	g_hash_table_iter_init(&it, s->now);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		const struct manifest_entry *e = value;
		g_autofree char *rel = g_strescape(key, NULL);

		append_stat(out, &e->orig);
		g_string_append_c(out, ' ');
		append_stat(out, &e->copy);
		g_string_append_printf(out, "\t%s\n", rel);
	}
	return g_file_set_contents(path, out->str, out->len, error);
}

/* ---- copying ---- */

/* Copy the regular file @from to the new file @to: content, permissions
 * (without set-id bits), mtime. */
static gboolean copy_file(const char *from, const char *to, GError **error)
{
	char buf[65536];
	struct stat st;
	struct timespec times[2];
	int in, out;
	ssize_t n = 0;
	gboolean ok = FALSE;

	in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0)
		return errno_error(error, "open", from);
	if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(in);
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot copy '%s': not a regular file", from);
		return FALSE;
	}
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		   0600);
	if (out < 0) {
		close(in);
		return errno_error(error, "create", to);
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		char *p = buf;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			errno_error(error, "read", from);
			goto done;
		}
		while (n > 0) {
			ssize_t w = write(out, p, n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				errno_error(error, "write", to);
				goto done;
			}
			p += w;
			n -= w;
		}
	}
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	/* kbuild decides by the mtimes: they must be the original's */
	if (fchmod(out, st.st_mode & 0777) != 0 || futimens(out, times) != 0) {
		errno_error(error, "set the times of", to);
		goto done;
	}
	ok = TRUE;
done:
	close(in);
	if (close(out) != 0 && ok)
		ok = errno_error(error, "write", to);
	return ok;
}

static gboolean copy_entry(const char *from, const char *to,
			   const struct stat *st, GError **error)
{
	if (S_ISLNK(st->st_mode)) {
		g_autofree char *target = g_file_read_link(from, error);

		if (!target)
			return FALSE;
		if (symlink(target, to) != 0)
			return errno_error(error, "create", to);
		return TRUE;
	}
	return copy_file(from, to, error);
}

/* ---- the walk ---- */

/* The entries of directory @path by name, lstat()ed; empty when @path
 * does not exist. */
static GHashTable *list_dir(const char *path, GError **error)
{
	GHashTable *names =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autoptr(GDir) dir = NULL;
	g_autoptr(GError) local = NULL;
	const char *name;

	dir = g_dir_open(path, 0, &local);
	if (!dir) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return names;
		g_propagate_error(error, g_steal_pointer(&local));
		g_hash_table_unref(names);
		return NULL;
	}
	while ((name = g_dir_read_name(dir))) {
		g_autofree char *child = g_build_filename(path, name, NULL);
		struct stat st;

		if (lstat(child, &st) != 0)
			continue;
		g_hash_table_replace(names, g_strdup(name),
				     g_memdup2(&st, sizeof(st)));
	}
	return names;
}

/* A real directory at @path (not a link), writable by us while we sync:
 * whatever else is there goes.  We own everything in the copy (the build
 * writes as our uid), so a mode it set is ours to change. */
static gboolean make_dir(const char *path, GError **error)
{
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode) &&
	    !rmtree(path, error))
		return FALSE;
	if (g_mkdir(path, 0700) != 0 && errno != EEXIST)
		return errno_error(error, "create", path);
	if (g_chmod(path, 0700) != 0)
		return errno_error(error, "change the mode of", path);
	return TRUE;
}

static void record(struct sync *s, const char *rel, const struct stat *orig,
		   const struct stat *copy)
{
	struct manifest_entry *e = g_new0(struct manifest_entry, 1);

	stat_record(orig, &e->orig);
	stat_record(copy, &e->copy);
	s->max_ctime_ns = MAX(s->max_ctime_ns, e->copy.ctime_ns);
	g_hash_table_replace(s->now, g_strdup(rel), e);
}

/* Whether the manifest vouches for the copy's @rel (@copy_st) as a copy
 * of the original's (@orig_st) as it is now. */
static gboolean vouched(struct sync *s, const char *rel,
			const struct stat *orig_st, const struct stat *copy_st)
{
	const struct manifest_entry *e = g_hash_table_lookup(s->old, rel);
	struct entry_stat o, c;

	if (!e)
		return FALSE;
	stat_record(orig_st, &o);
	stat_record(copy_st, &c);
	return stat_equal(&e->orig, &o) && stat_equal(&e->copy, &c);
}

/* Sync the directory @rel ("" for the top) of the copy with the
 * original's, whose mode is @mode. */
static gboolean sync_dir(struct sync *s, const char *rel, guint mode,
			 GError **error)
{
	g_autofree char *orig_dir = g_build_filename(s->orig, rel, NULL);
	g_autofree char *copy_dir = g_build_filename(s->copy, rel, NULL);
	g_autoptr(GHashTable) orig = NULL;
	g_autoptr(GHashTable) copy = NULL;
	g_autoptr(GHashTable) kept = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTableIter it;
	gpointer key, value;

	if (!make_dir(copy_dir, error))
		return FALSE;
	orig = list_dir(orig_dir, error);
	copy = orig ? list_dir(copy_dir, error) : NULL;
	if (!copy)
		return FALSE;
	/* what the copy has that the manifest cannot vouch for goes */
	g_hash_table_iter_init(&it, copy);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		const struct stat *c = value;
		const struct stat *o = g_hash_table_lookup(orig, key);
		g_autofree char *path = g_build_filename(copy_dir, key, NULL);
		g_autofree char *child =
			*rel ? g_build_filename(rel, key, NULL) : g_strdup(key);

		if (o && S_ISDIR(o->st_mode) && S_ISDIR(c->st_mode))
			continue;
		if (o && !S_ISDIR(o->st_mode) &&
		    (o->st_mode & S_IFMT) == (c->st_mode & S_IFMT) &&
		    vouched(s, child, o, c)) {
			g_hash_table_add(kept, key);
			record(s, child, o, c);
			continue;
		}
		if (!rmtree(path, error))
			return FALSE;
		s->stats->removed++;
	}
	/* what the original has that the copy now lacks is copied */
	g_hash_table_iter_init(&it, orig);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		const struct stat *o = value;
		g_autofree char *from = g_build_filename(orig_dir, key, NULL);
		g_autofree char *to = g_build_filename(copy_dir, key, NULL);
		g_autofree char *child =
			*rel ? g_build_filename(rel, key, NULL) : g_strdup(key);
		struct stat c;

		s->stats->entries++;
		if (S_ISDIR(o->st_mode)) {
			if (!sync_dir(s, child, o->st_mode & 0777, error))
				return FALSE;
			continue;
		}
		if (!S_ISREG(o->st_mode) && !S_ISLNK(o->st_mode))
			continue; /* a FIFO or socket a build left: not data */
		if (g_hash_table_contains(kept, key))
			continue;
		if (!copy_entry(from, to, o, error))
			return FALSE;
		if (lstat(to, &c) != 0)
			return errno_error(error, "stat", to);
		record(s, child, o, &c);
		s->stats->copied++;
	}
	if (g_chmod(copy_dir, mode) != 0)
		return errno_error(error, "change the mode of", copy_dir);
	return TRUE;
}

/* Until the coarse clock, which stamps inode changes, is past
 * @ctime_ns: from then on, any change of a file recorded has a later
 * ctime.  A file system that keeps whole seconds (its ctimes end in
 * .000000000) needs the next second. */
static void wait_past(gint64 ctime_ns)
{
	const gint64 second = G_GINT64_CONSTANT(1000000000);
	gint64 until = ctime_ns % second ? ctime_ns : ctime_ns + second - 1;

	for (int i = 0; i < 2000; i++) {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (now.tv_sec * second + now.tv_nsec > until)
			return;
		g_usleep(1000);
	}
}

gboolean buildcopy_sync(const char *orig, const char *copy,
			const char *manifest, struct buildcopy_stats *out,
			GError **error)
{
	struct buildcopy_stats stats = { 0 };
	struct sync s = { 0 };
	gint64 t0 = g_get_monotonic_time();
	struct stat st;
	guint mode = 0755;
	gboolean ok;

	s.orig = orig;
	s.copy = copy;
	s.stats = &stats;
	s.old = manifest_load(&s, manifest);
	s.now = manifest_new();
	/* a sync that fails half way leaves a copy the old manifest no
	 * longer describes */
	g_unlink(manifest);
	if (lstat(orig, &st) == 0 && S_ISDIR(st.st_mode))
		mode = st.st_mode & 0777;
	ok = sync_dir(&s, "", mode, error);
	if (ok) {
		wait_past(s.max_ctime_ns);
		ok = manifest_save(&s, manifest, error);
	}
	if (!ok)
		g_prefix_error(error, "cannot copy the build dir '%s': ", orig);
	g_hash_table_unref(s.old);
	g_hash_table_unref(s.now);
	stats.seconds = (g_get_monotonic_time() - t0) / 1e6;
	if (out)
		*out = stats;
	return ok;
}
