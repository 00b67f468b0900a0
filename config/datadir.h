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

/* armbot's own files (qemu/guest/rpm-test, qemu/initramfs, qemu/virt.config):
 * $ARMBOT_SOURCE_DIR, else the source tree it was built from. */
const char *datadir_source_dir(void);

/* Caches that may be dropped at any time (ccache, test fixtures):
 * $ARMBOT_CACHE_DIR, else $XDG_CACHE_HOME/armbot.  Newly allocated. */
char *datadir_cache_dir(void);
