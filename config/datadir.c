#include "config/datadir.h"

#include <errno.h>
#include <glib/gstdio.h>

char *datadir_resolve(const char *option)
{
	const char *env = g_getenv("ARMBOT_DATA_DIR");
	const char *chosen = option;

	if (!chosen || !*chosen)
		chosen = (env && *env) ? env : NULL;
	if (!chosen)
		return g_build_filename(g_get_user_data_dir(), "armbot", NULL);
	return g_canonicalize_filename(chosen, NULL);
}

char *datadir_ensure(const char *data_dir, const char *subdir, GError **error)
{
	g_autofree char *path =
		subdir ? g_build_filename(data_dir, subdir, NULL) :
			 g_strdup(data_dir);

	if (g_mkdir_with_parents(path, 0755) < 0) {
		int saved = errno;

		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(saved),
			    "cannot create '%s': %s", path, g_strerror(saved));
		return NULL;
	}
	return g_steal_pointer(&path);
}

#ifndef ARMBOT_SOURCE_DIR
#define ARMBOT_SOURCE_DIR "."
#endif

const char *datadir_source_dir(void)
{
	const char *env = g_getenv("ARMBOT_SOURCE_DIR");

	return env && *env ? env : ARMBOT_SOURCE_DIR;
}

char *datadir_cache_dir(void)
{
	const char *env = g_getenv("ARMBOT_CACHE_DIR");

	if (env && *env)
		return g_strdup(env);
	return g_build_filename(g_get_user_cache_dir(), "armbot", NULL);
}
