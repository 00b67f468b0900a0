/* What a build directory's build read (see kernel/build/builddeps.h). */
#include "kernel/build/builddeps.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* fixdep's .cmd files are a few KB to a few hundred (an object with every
 * header of the kernel); anything larger is not one of them */
#define CMD_FILE_MAX (8u << 20)
/* the directories of a build dir are a few thousand deep at most */
#define WALK_DEPTH_MAX 64
/* what separates the words of a .cmd file (make's syntax) */
#define WORD_DELIMITERS " \t\n\\:="

struct reads {
	const char *src_prefix; /* "@src_dir/" */
	GHashTable *files; /* tree-relative paths named by .cmd files */
	char *error; /* the first thing that could not be read */
};

/* Every word of @text that names a file of the tree (@src_prefix PATH):
 * fixdep's source_X := FILE and deps_X := FILE \ ... lines, and the
 * compiler's command line, which names the source too. */
static void add_words(struct reads *r, char *text)
{
	size_t plen = strlen(r->src_prefix);
	char *save = NULL;

	for (char *w = strtok_r(text, WORD_DELIMITERS, &save); w;
	     w = strtok_r(NULL, WORD_DELIMITERS, &save)) {
		const char *rel;

		if (strncmp(w, r->src_prefix, plen) != 0)
			continue;
		rel = w + plen;
		while (*rel == '/')
			rel++;
		if (*rel)
			g_hash_table_add(r->files, g_strdup(rel));
	}
}

/* The build dir is written by trusted builds only, and none runs while
 * it is read: the entry walk() found regular is read by its path. */
static gboolean read_cmd(struct reads *r, const struct stat *st,
			 const char *where, const char *name)
{
	g_autofree char *path = g_build_filename(where, name, NULL);
	g_autofree char *text = NULL;

	if ((guint64)st->st_size > CMD_FILE_MAX ||
	    !g_file_get_contents(path, &text, NULL, NULL)) {
		r->error = g_strdup_printf("cannot read '%s'", path);
		return FALSE;
	}
	add_words(r, text);
	return TRUE;
}

/* Read the .cmd files under @dirfd (the build dir's @where), not
 * following symlinks. */
static gboolean walk(struct reads *r, int dirfd, const char *where, guint depth)
{
	DIR *d;
	struct dirent *e;
	gboolean ok = TRUE;

	if (depth > WALK_DEPTH_MAX) {
		r->error = g_strdup_printf("'%s' is too deep", where);
		close(dirfd);
		return FALSE;
	}
	d = fdopendir(dirfd);
	if (!d) {
		r->error = g_strdup_printf("cannot list '%s'", where);
		close(dirfd);
		return FALSE;
	}
	while (ok && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			g_autofree char *sub =
				g_build_filename(where, e->d_name, NULL);
			int fd = openat(dirfd, e->d_name,
					O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						O_CLOEXEC);

			if (fd < 0) {
				r->error = g_strdup_printf("cannot open '%s'",
							   sub);
				ok = FALSE;
			} else {
				ok = walk(r, fd, sub, depth + 1);
			}
		} else if (S_ISREG(st.st_mode) && e->d_name[0] == '.' &&
			   g_str_has_suffix(e->d_name, ".cmd")) {
			ok = read_cmd(r, &st, where, e->d_name);
		}
	}
	closedir(d);
	return ok;
}

/* Read by every build whatever its config: the rules of builddeps.h
 * that need no look into the build dir. */
static const char *always_read(const char *path)
{
	g_autofree char *base = g_path_get_basename(path);
	g_auto(GStrv) parts = g_strsplit(path, "/", 4);
	guint n = g_strv_length(parts);

	if (g_str_has_prefix(base, "Kconfig"))
		return "Kconfig is read whole";
	if (g_str_has_prefix(base, "Makefile") ||
	    g_str_has_prefix(base, "Kbuild") || g_str_has_suffix(base, ".mk"))
		return "a Makefile";
	if (n < 2)
		return "at the top of the tree";
	if (!strcmp(parts[0], "scripts") || !strcmp(parts[0], "include") ||
	    !strcmp(parts[0], "usr") || !strcmp(parts[0], "tools"))
		return "under a directory every build reads";
	if (n >= 3 && !strcmp(parts[0], "arch") &&
	    (!strcmp(parts[2], "include") || !strcmp(parts[2], "tools")))
		return "the arch's headers or tools";
	return NULL;
}

/* A file kbuild reads only through commands whose reads fixdep records
 * (compiles, includes, cpp of device trees), so that a .cmd file names it
 * when it was read: sources and headers in C, assembly and DTS. */
static gboolean fixdep_recorded(const char *path)
{
	static const char *const ext[] = { ".c", ".h", ".S", ".dts", ".dtsi" };

	for (guint i = 0; i < G_N_ELEMENTS(ext); i++)
		if (g_str_has_suffix(path, ext[i]))
			return TRUE;
	return FALSE;
}

/* Whether @dir's Makefile or Kbuild (in the tree at @src_dir) lists files
 * by $(wildcard ...): a new file there is then built without a change to
 * the Makefile (arch/loongarch/boot/dts/ takes every *.dts).  One that
 * cannot be read counts as globbing. */
static gboolean globbed(const char *src_dir, const char *dir)
{
	static const char *const names[] = { "Makefile", "Kbuild" };

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *path =
			g_build_filename(src_dir, dir, names[i], NULL);
		g_autofree char *text = NULL;
		gsize len = 0;
		struct stat st;

		if (lstat(path, &st) != 0) {
			if (errno == ENOENT)
				continue;
			return TRUE;
		}
		if (!S_ISREG(st.st_mode) ||
		    (guint64)st.st_size > CMD_FILE_MAX ||
		    !g_file_get_contents(path, &text, &len, NULL) ||
		    strstr(text, "wildcard"))
			return TRUE;
	}
	return FALSE;
}

gboolean builddeps_reads_any(const char *build_dir, const char *src_dir,
			     const char *const *paths, guint n, char **why)
{
	g_autofree char *prefix = g_strconcat(src_dir, "/", NULL);
	g_autoptr(GHashTable) files =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	struct reads r = { prefix, files, NULL };
	int fd;

	for (guint i = 0; i < n; i++) {
		const char *rule = always_read(paths[i]);

		if (rule) {
			if (why)
				*why = g_strdup_printf("%s: %s", paths[i],
						       rule);
			return TRUE;
		}
	}
	for (guint i = 0; i < n; i++) {
		g_autofree char *dir = g_path_get_dirname(paths[i]);
		g_autofree char *in_build =
			g_build_filename(build_dir, dir, NULL);
		struct stat st;

		if (lstat(in_build, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		if (fixdep_recorded(paths[i]) && !globbed(src_dir, dir))
			continue;
		if (why)
			*why = g_strdup_printf("%s: the build went into %s/",
					       paths[i], dir);
		return TRUE;
	}
	/* a tree path that the .cmd files' words cannot hold whole would
	 * match none of them: everything would look unread */
	if (strpbrk(src_dir, WORD_DELIMITERS)) {
		if (why)
			*why = g_strdup_printf("the tree's path '%s' cannot be "
					       "told apart in .cmd files",
					       src_dir);
		return TRUE;
	}
	fd = open(build_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !walk(&r, fd, build_dir, 0)) {
		if (why)
			*why = r.error ? g_steal_pointer(&r.error) :
					 g_strdup_printf("cannot open '%s'",
							 build_dir);
		g_free(r.error);
		return TRUE;
	}
	/* a build that names no file of the tree saw it at another path */
	if (!g_hash_table_size(files)) {
		if (why)
			*why = g_strdup_printf("no .cmd file of '%s' names a "
					       "file of '%s'",
					       build_dir, src_dir);
		return TRUE;
	}
	for (guint i = 0; i < n; i++) {
		if (g_hash_table_contains(files, paths[i])) {
			if (why)
				*why = g_strdup_printf(
					"%s: the build compiled or included it",
					paths[i]);
			return TRUE;
		}
	}
	return FALSE;
}
