/* Where armbot keeps its state: the store, imported trees, build
 * directories, logs. */
#pragma once

#include <glib.h>

/* The data directory chosen by, in order: @option (--data-dir), the
 * ARMBOT_DATA_DIR environment variable, $XDG_DATA_HOME/armbot.
 * Returns a newly allocated absolute path. */
char *datadir_resolve(const char *option);

/* Create @data_dir/@subdir (and parents) if missing.  Returns the path,
 * newly allocated, or NULL with @error set. */
char *datadir_ensure(const char *data_dir, const char *subdir, GError **error);
