/* The boot of a tree's commit, kept by its inputs (see qemu/bootcache.h). */
#include "qemu/bootcache.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

/* changes when what a kept boot means changes (the build's make line,
 * the way a console is read) */
#define BOOTCACHE_VERSION "armbot bootcache 1"
/* a console longer than this is not one armbot kept */
#define BOOTCACHE_MAX_CONSOLE (8u << 20)
#define BOOTCACHE_MAX_WHERE 4096u
/* an input file larger than this is not a fragment, module or init */
#define BOOTCACHE_MAX_INPUT (4u << 20)

static gboolean add_file(GChecksum *sum, const char *label, const char *path,
			 GError **error)
{
	g_autofree char *data = NULL;
	GStatBuf st;
	gsize len;

	if (g_stat(path, &st) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot read '%s': %s", path, g_strerror(errno));
		return FALSE;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > BOOTCACHE_MAX_INPUT) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "'%s' is not a regular file of at most %u MiB",
			    path, BOOTCACHE_MAX_INPUT >> 20);
		return FALSE;
	}
	if (!g_file_get_contents(path, &data, &len, error))
		return FALSE;
	g_checksum_update(sum, (const guchar *)label, strlen(label) + 1);
	g_checksum_update(sum, (const guchar *)&len, sizeof(len));
	g_checksum_update(sum, (const guchar *)data, len);
	return TRUE;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of @dir, by name. */
static gboolean add_dir(GChecksum *sum, const char *dir, GError **error)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, error);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *entry;

	if (!d)
		return FALSE;
	while ((entry = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(entry));
	g_ptr_array_sort(names, by_name);
	for (guint i = 0; i < names->len; i++) {
		g_autofree char *path =
			g_build_filename(dir, names->pdata[i], NULL);

		if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
			continue;
		if (!add_file(sum, names->pdata[i], path, error))
			return FALSE;
	}
	return TRUE;
}

/* A tool by where PATH finds it, its size and mtime ("-" when absent:
 * the build or the boot then fails, and is not kept). */
static void add_tool(GChecksum *sum, const char *name)
{
	g_autofree char *path = name ? g_find_program_in_path(name) : NULL;
	g_autofree char *word = NULL;
	GStatBuf st;

	if (path && g_stat(path, &st) == 0)
		word = g_strdup_printf("%s %s %lld %lld", name, path,
				       (long long)st.st_size,
				       (long long)st.st_mtime);
	else
		word = g_strdup_printf("%s -", name ? name : "");
	g_checksum_update(sum, (const guchar *)word, strlen(word) + 1);
}

static void add_text(GChecksum *sum, const char *text)
{
	if (!text)
		text = "";
	g_checksum_update(sum, (const guchar *)text, strlen(text) + 1);
}

char *bootcache_key(const struct bootcache_inputs *in, GError **error)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);

	if (!in->fragment || !in->init_src || !in->module_dir) {
		g_set_error_literal(error, G_IO_ERROR,
				    G_IO_ERROR_INVALID_ARGUMENT,
				    "a boot without a config fragment, init "
				    "or module is not kept");
		return NULL;
	}
	add_text(sum, BOOTCACHE_VERSION);
	add_text(sum, in->commit_hex);
	add_text(sum, in->board ? in->board : "virt");
	add_text(sum, in->runner ? in->runner : "local");
	add_text(sum, in->arch->name);
	add_tool(sum, in->arch->cc);
	add_tool(sum, in->arch->qemu);
	if (!add_file(sum, "fragment", in->fragment, error) ||
	    !add_file(sum, "init", in->init_src, error) ||
	    !add_dir(sum, in->module_dir, error))
		return NULL;
	return g_strdup(g_checksum_get_string(sum));
}

/* @dir/@key@suffix, read whole when it is a regular file of at most @max
 * bytes; FALSE without @error when it does not exist. */
static gboolean read_entry(const char *dir, const char *key, const char *suffix,
			   gsize max, char **data, gsize *len, GError **error)
{
	g_autofree char *name = g_strconcat(key, suffix, NULL);
	g_autofree char *path = g_build_filename(dir, name, NULL);
	GStatBuf st;

	*data = NULL;
	if (g_lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return FALSE;
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot read '%s': %s", path, g_strerror(errno));
		return FALSE;
	}
	if (!S_ISREG(st.st_mode) || (guint64)st.st_size > max) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "'%s' is not a regular file of at most %zu bytes",
			    path, (size_t)max);
		return FALSE;
	}
	return g_file_get_contents(path, data, len, error);
}

gboolean bootcache_lookup(const char *dir, const char *key,
			  GString **console_out, char **where_out,
			  GError **error)
{
	g_autofree char *console = NULL;
	g_autofree char *where = NULL;
	gsize len = 0, wlen = 0;

	*console_out = NULL;
	*where_out = NULL;
	if (!read_entry(dir, key, ".console", BOOTCACHE_MAX_CONSOLE, &console,
			&len, error))
		return FALSE;
	if (!read_entry(dir, key, ".where", BOOTCACHE_MAX_WHERE, &where, &wlen,
			error) &&
	    error && *error)
		return FALSE;
	*console_out = g_string_new_len(console, len);
	if (where && wlen && !memchr(where, '\0', wlen))
		*where_out = g_strndup(where, wlen);
	return TRUE;
}

struct entry {
	gint64 mtime;
	char *key;
};

static gint by_age(gconstpointer a, gconstpointer b)
{
	const struct entry *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void remove_entry(const char *dir, const char *key)
{
	static const char *const suffixes[] = { ".console", ".where" };

	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++) {
		g_autofree char *name = g_strconcat(key, suffixes[i], NULL);
		g_autofree char *path = g_build_filename(dir, name, NULL);

		g_unlink(path);
	}
}

/* Drop the oldest entries of @dir beyond BOOTCACHE_MAX (by the console
 * file's mtime). */
static void prune(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GArray)
		entries = g_array_new(FALSE, FALSE, sizeof(struct entry));
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		struct entry e;
		GStatBuf st;

		if (!g_str_has_suffix(name, ".console") ||
		    g_lstat(path, &st) != 0)
			continue;
		e.mtime = (gint64)st.st_mtime;
		e.key = g_strndup(name, strlen(name) - strlen(".console"));
		g_array_append_val(entries, e);
	}
	g_array_sort(entries, by_age);
	for (guint i = 0; i < entries->len; i++) {
		struct entry *e = &g_array_index(entries, struct entry, i);

		if (entries->len - i > BOOTCACHE_MAX)
			remove_entry(dir, e->key);
		g_free(e->key);
	}
}

gboolean bootcache_store(const char *dir, const char *key, const char *console,
			 const char *where, GError **error)
{
	g_autofree char *cname = g_strconcat(key, ".console", NULL);
	g_autofree char *wname = g_strconcat(key, ".where", NULL);
	g_autofree char *cpath = g_build_filename(dir, cname, NULL);
	g_autofree char *wpath = g_build_filename(dir, wname, NULL);

	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", dir, g_strerror(errno));
		return FALSE;
	}
	/* where first: a console without it reads as a local boot, never
	 * the reverse */
	if (where) {
		if (!g_file_set_contents(wpath, where, -1, error))
			return FALSE;
	} else {
		g_unlink(wpath);
	}
	if (!g_file_set_contents(cpath, console, -1, error))
		return FALSE;
	prune(dir);
	return TRUE;
}
