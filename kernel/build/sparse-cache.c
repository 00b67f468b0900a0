/* The sparse check's results per (commit, config, object) at a base and
 * per (tree, config, object) at a series' commits; see
 * kernel/build/sparse-cache.h. */
#include "kernel/build/sparse-cache.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#define FORMAT_BASE "armbot sparse-base 1"
#define FORMAT_SERIES "armbot sparse-series 1"
#define ENTRY_MAX (16 << 20) /* bytes of one entry */
#define CONFIG_MAX (8 << 20) /* bytes of a .config */

struct sparse_cache {
	char *dir; /* DATA/sparse-base/TREE or DATA/sparse-series/TREE */
	char *prefix; /* the key's parts but the object */
};

/* "PATH SIZE MTIME" of @tool in $PATH: a new compiler or sparse is a new
 * key */
static void tool_identity(GString *key, const char *tool)
{
	g_autofree char *path = g_find_program_in_path(tool);
	struct stat sb;

	if (path && stat(path, &sb) == 0)
		g_string_append_printf(key, "%s %lld %lld\n", path,
				       (long long)sb.st_size,
				       (long long)sb.st_mtime);
	else
		g_string_append_printf(key, "%s missing\n", tool);
}

/* The cache in DATA/@subdir/TREE whose keys start with @format and @id */
static struct sparse_cache *
cache_open(const char *data_dir, const char *subdir, const char *format,
	   const char *tree_name, const struct gitoid *id,
	   const char *config_name, const char *build_dir)
{
	g_autofree char *config_path =
		g_build_filename(build_dir, ".config", NULL);
	g_autofree char *config = NULL;
	g_autofree char *config_sum = NULL;
	GString *key;
	struct sparse_cache *sc;
	gsize len;
	struct stat sb;

	if (stat(config_path, &sb) != 0 || sb.st_size > CONFIG_MAX ||
	    !g_file_get_contents(config_path, &config, &len, NULL))
		return NULL;
	config_sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
						 (const guchar *)config, len);
	key = g_string_new(format);
	g_string_append_printf(key, "\n%s\n%s\n%s\n", gitoid_hex(id),
			       config_name, config_sum);
	tool_identity(key, "arm-linux-gnueabihf-gcc");
	tool_identity(key, "sparse");
	sc = g_new0(struct sparse_cache, 1);
	sc->dir = g_build_filename(data_dir, subdir, tree_name, NULL);
	sc->prefix = g_string_free(key, FALSE);
	return sc;
}

struct sparse_cache *sparse_cache_open(const char *data_dir,
				       const char *tree_name,
				       const struct gitoid *base,
				       const char *config_name,
				       const char *build_dir)
{
	return cache_open(data_dir, "sparse-base", FORMAT_BASE, tree_name, base,
			  config_name, build_dir);
}

struct sparse_cache *sparse_cache_open_series(const char *data_dir,
					      const char *tree_name,
					      const struct gitoid *root_tree,
					      const char *config_name,
					      const char *build_dir)
{
	return cache_open(data_dir, "sparse-series", FORMAT_SERIES, tree_name,
			  root_tree, config_name, build_dir);
}

void sparse_cache_free(struct sparse_cache *sc)
{
	if (!sc)
		return;
	g_free(sc->dir);
	g_free(sc->prefix);
	g_free(sc);
}

static char *entry_path(struct sparse_cache *sc, const char *object)
{
	g_autofree char *key = g_strconcat(sc->prefix, object, NULL);
	g_autofree char *sum =
		g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	char sub[3] = { sum[0], sum[1], 0 };

	return g_build_filename(sc->dir, sub, sum, NULL);
}

/* An entry: the key's text, a NUL, the compiler's output, a NUL, sparse's
 * output, a NUL (the outputs are text: no NUL in them).  The key is
 * compared in full: a hash collision is a miss. */
gboolean sparse_cache_get(struct sparse_cache *sc, const char *object,
			  char **gcc, char **sparse)
{
	g_autofree char *path = entry_path(sc, object);
	g_autofree char *key = g_strconcat(sc->prefix, object, NULL);
	g_autofree char *data = NULL;
	const char *p, *end, *a, *b;
	gsize len;
	struct stat sb;

	if (stat(path, &sb) != 0 || sb.st_size > ENTRY_MAX ||
	    !g_file_get_contents(path, &data, &len, NULL))
		return FALSE;
	end = data + len;
	p = memchr(data, 0, len);
	if (!p || strcmp(data, key))
		return FALSE;
	a = p + 1;
	p = memchr(a, 0, end - a);
	if (!p)
		return FALSE;
	b = p + 1;
	p = memchr(b, 0, end - b);
	if (!p || p + 1 != end)
		return FALSE;
	*gcc = g_strdup(a);
	*sparse = g_strdup(b);
	return TRUE;
}

void sparse_cache_put(struct sparse_cache *sc, const char *object,
		      const char *gcc, const char *sparse)
{
	g_autofree char *path = entry_path(sc, object);
	g_autofree char *dir = g_path_get_dirname(path);
	g_autofree char *key = g_strconcat(sc->prefix, object, NULL);
	g_autoptr(GString) data = g_string_new(key);

	g_string_append_len(data, "", 1);
	g_string_append(data, gcc);
	g_string_append_len(data, "", 1);
	g_string_append(data, sparse);
	g_string_append_len(data, "", 1);
	if (data->len > ENTRY_MAX || g_mkdir_with_parents(dir, 0755) != 0)
		return;
	/* g_file_set_contents() writes a temporary file and renames it */
	if (!g_file_set_contents(path, data->str, data->len, NULL))
		g_unlink(path);
}
