/* Building the initramfs.  The init binary is cached under its arch and
 * the SHA-256 of its source, so only a changed init.c (or a new arch) runs
 * the cross compiler. */
#include "qemu/initramfs.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "kernel/build/runner.h"
#include "qemu/cpio.h"

static char *build_init(const char *init_src, const struct kbuild_arch *arch,
			const char *cache_dir, GError **error)
{
	g_autofree char *src = NULL;
	g_autofree char *hash = NULL;
	g_autofree char *name = NULL;
	g_autofree char *bin = NULL;
	g_autofree char *tmp = NULL;
	g_auto(GStrv) env = runner_env_new(NULL);
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	gsize len;

	if (!g_file_get_contents(init_src, &src, &len, error))
		return NULL;
	hash = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
					   (const guchar *)src, len);
	name = g_strdup_printf("init-%s-%.16s", arch->name, hash);
	bin = g_build_filename(cache_dir, name, NULL);
	if (g_file_test(bin, G_FILE_TEST_IS_REGULAR))
		return g_steal_pointer(&bin);
	if (g_mkdir_with_parents(cache_dir, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", cache_dir,
			    g_strerror(errno));
		return NULL;
	}
	tmp = g_strconcat(bin, ".tmp", NULL);
	{
		const char *argv[] = { arch->cc,  "-static", "-O2", "-Wall",
				       "-Wextra", "-Werror", "-o",  tmp,
				       init_src,  NULL };

		o.env = (const char *const *)env;
		o.timeout_ms = 120000;
		o.merge_stderr = TRUE;
		if (!runner_run(argv, &o, &r, error))
			return NULL;
	}
	if (!runner_result_ok(&r)) {
		g_autofree char *how = runner_result_describe(&r);

		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot compile '%s' (%s): %s", init_src, how,
			    r.output->str);
		runner_result_clear(&r);
		g_unlink(tmp);
		return NULL;
	}
	runner_result_clear(&r);
	if (g_rename(tmp, bin) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot rename '%s': %s", tmp, g_strerror(errno));
		return NULL;
	}
	return g_steal_pointer(&bin);
}

gboolean initramfs_build(const char *init_src, const struct kbuild_arch *arch,
			 const char *module_ko, const char *cache_dir,
			 const char *out_path, GError **error)
{
	g_autofree char *init_bin =
		build_init(init_src, arch, cache_dir, error);
	g_autofree char *init = NULL;
	g_autofree char *ko = NULL;
	g_autoptr(GBytes) archive = NULL;
	gsize init_len, ko_len;
	struct cpio *c;

	if (!init_bin)
		return FALSE;
	if (!g_file_get_contents(init_bin, &init, &init_len, error) ||
	    !g_file_get_contents(module_ko, &ko, &ko_len, error))
		return FALSE;
	c = cpio_new();
	cpio_add_dir(c, "dev", 0755);
	/* the kernel opens /dev/console for init before anything mounts
	 * devtmpfs (init/main.c console_on_rootfs) */
	cpio_add_chardev(c, "dev/console", 0600, 5, 1);
	cpio_add_dir(c, "proc", 0755);
	cpio_add_dir(c, "sys", 0755);
	cpio_add_file(c, "init", 0755, init, init_len);
	cpio_add_file(c, "rpm_test.ko", 0644, ko, ko_len);
	archive = cpio_finish(c, error);
	if (!archive)
		return FALSE;
	return g_file_set_contents(out_path, g_bytes_get_data(archive, NULL),
				   g_bytes_get_size(archive), error);
}
