/* The guest's initramfs: /init cross-compiled from qemu/guest/init.c
 * (static, for the guest's arch: armhf or aarch64), the test module as
 * /rpm_test.ko, and /dev/console so that init has a console before it
 * mounts devtmpfs. */
#pragma once

#include <glib.h>

#include "kernel/build/arch.h"

/* Cross-compile @init_src with @arch's cross compiler into @cache_dir
 * (reused while the source is unchanged) and write the archive with it
 * and @module_ko to @out_path.  FALSE with @error when the compiler fails or a file cannot be read or
 * written. */
gboolean initramfs_build(const char *init_src, const struct kbuild_arch *arch,
			 const char *module_ko, const char *cache_dir,
			 const char *out_path, GError **error);
