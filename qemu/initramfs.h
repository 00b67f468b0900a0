/* The guest's initramfs: /init cross-compiled from qemu/guest/init.c
 * (static, armhf), the test module as /rpm_test.ko, and /dev/console so
 * that init has a console before it mounts devtmpfs. */
#pragma once

#include <glib.h>

/* Cross-compile @init_src into @cache_dir (reused while the source is
 * unchanged) and write the archive with it and @module_ko to @out_path.
 * FALSE with @error when the compiler fails or a file cannot be read or
 * written. */
gboolean initramfs_build(const char *init_src, const char *module_ko,
			 const char *cache_dir, const char *out_path,
			 GError **error);
