/* Out-of-tree kernel builds through the sandbox (kbuild's O=, see
 * Documentation/kbuild/kbuild.rst and modules.rst for M=). */
#include "kernel/kbuild.h"

#include <errno.h>
#include <stdlib.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#define KBUILD_ARCH "arm"
#define KBUILD_CROSS "arm-linux-gnueabihf-"

char *kbuild_dir(const char *data_dir, const char *tree_key,
		 const char *config_name)
{
	return g_build_filename(data_dir, "kbuild", tree_key, config_name,
				NULL);
}

/* Replace *@path by its real path. */
static gboolean resolve_links(char **path, GError **error)
{
	char *real = realpath(*path, NULL);

	if (!real) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot resolve '%s': %s", *path,
			    g_strerror(errno));
		return FALSE;
	}
	g_free(*path);
	*path = g_strdup(real);
	free(real);
	return TRUE;
}

struct kbuild *kbuild_new(const char *src_dir, const char *build_dir,
			  const char *fragment, const char *ccache_dir,
			  GError **error)
{
	g_autoptr(kbuild) kb = g_new0(struct kbuild, 1);

	kb->src_dir = g_canonicalize_filename(src_dir, NULL);
	kb->build_dir = g_canonicalize_filename(build_dir, NULL);
	kb->fragment = fragment ? g_canonicalize_filename(fragment, NULL) :
				  NULL;
	kb->ccache_dir =
		ccache_dir ? g_canonicalize_filename(ccache_dir, NULL) : NULL;
	kb->nice = 10;
	kb->timeout_s = 3600;
	if (!g_file_test(kb->src_dir, G_FILE_TEST_IS_DIR)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
			    "kernel tree '%s' not found", kb->src_dir);
		return NULL;
	}
	if (g_mkdir_with_parents(kb->build_dir, 0755) != 0 ||
	    (kb->ccache_dir && g_mkdir_with_parents(kb->ccache_dir, 0755))) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot create '%s': %s", kb->build_dir,
			    g_strerror(errno));
		return NULL;
	}
	/* kbuild records absolute paths (.cmd files, O=): the same dirs
	 * reached through a symbolic link must not look like new ones and
	 * rebuild everything */
	if (!resolve_links(&kb->src_dir, error) ||
	    !resolve_links(&kb->build_dir, error))
		return NULL;
	kb->sandbox = sandbox_new(error);
	if (!kb->sandbox)
		return NULL;
	sandbox_add_readonly(kb->sandbox, kb->src_dir);
	sandbox_add_writable(kb->sandbox, kb->build_dir);
	if (kb->ccache_dir)
		sandbox_add_writable(kb->sandbox, kb->ccache_dir);
	return g_steal_pointer(&kb);
}

gboolean kbuild_make(struct kbuild *kb, const char *const *targets,
		     const char *const *vars, struct kbuild_result *out,
		     GError **error)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func(g_free);
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_auto(GStrv) env = NULL;
	guint jobs = kb->jobs ? kb->jobs : (guint)g_get_num_processors();

	memset(out, 0, sizeof(*out));
	g_ptr_array_add(argv, g_strdup("make"));
	g_ptr_array_add(argv, g_strdup("ARCH=" KBUILD_ARCH));
	g_ptr_array_add(argv, g_strdup("CROSS_COMPILE=" KBUILD_CROSS));
	if (kb->ccache_dir) {
		/* kbuild's CC and HOSTCC are command lines: a wrapper fits */
		g_ptr_array_add(argv,
				g_strdup("CC=ccache " KBUILD_CROSS "gcc"));
		g_ptr_array_add(argv, g_strdup("HOSTCC=ccache gcc"));
	}
	g_ptr_array_add(argv, g_strconcat("O=", kb->build_dir, NULL));
	g_ptr_array_add(argv, g_strdup_printf("-j%u", jobs));
	for (guint i = 0; vars && vars[i]; i++)
		g_ptr_array_add(argv, g_strdup(vars[i]));
	for (guint i = 0; targets && targets[i]; i++)
		g_ptr_array_add(argv, g_strdup(targets[i]));
	g_ptr_array_add(argv, NULL);

	/* the build stamp in the image must not depend on who built it */
	g_ptr_array_add(extra, g_strdup("KBUILD_BUILD_USER=armbot"));
	g_ptr_array_add(extra, g_strdup("KBUILD_BUILD_HOST=armbot"));
	if (kb->ccache_dir)
		g_ptr_array_add(extra, g_strconcat("CCACHE_DIR=",
						   kb->ccache_dir, NULL));
	g_ptr_array_add(extra, NULL);
	env = runner_env_new((const char *const *)extra->pdata);

	o.cwd = kb->src_dir;
	o.env = (const char *const *)env;
	o.timeout_ms = kb->timeout_s * 1000;
	o.merge_stderr = TRUE;
	o.nice = kb->nice;
	o.output_cap = 8u << 20;
	if (!sandbox_run(kb->sandbox, (const char *const *)argv->pdata, &o, &r,
			 error)) {
		g_prefix_error(error, "make in '%s': ", kb->build_dir);
		return FALSE;
	}
	out->ok = runner_result_ok(&r);
	out->how = runner_result_describe(&r);
	out->seconds = r.elapsed_us / 1e6;
	out->log = g_steal_pointer(&r.output);
	runner_result_clear(&r);
	return TRUE;
}

/* TRUE when @path holds exactly @data. */
static gboolean same_content(const char *path, const char *data, gsize len)
{
	g_autofree char *old = NULL;
	gsize old_len;

	return g_file_get_contents(path, &old, &old_len, NULL) &&
	       old_len == len && !memcmp(old, data, len);
}

/* Write @data to @path unless it already holds it: kbuild decides what to
 * rebuild from timestamps. */
static gboolean sync_file(const char *path, const char *data, gsize len,
			  gboolean *changed, GError **error)
{
	if (same_content(path, data, len))
		return TRUE;
	if (changed)
		*changed = TRUE;
	return g_file_set_contents(path, data, len, error);
}

gboolean kbuild_kernel(struct kbuild *kb, struct kbuild_result *out,
		       GError **error)
{
	static const char *const allno[] = { "allnoconfig", NULL };
	g_autofree char *frag = NULL;
	g_autofree char *copy =
		g_build_filename(kb->build_dir, "armbot.config", NULL);
	g_autofree char *dotconfig =
		g_build_filename(kb->build_dir, ".config", NULL);
	g_autofree char *allconfig =
		g_strconcat("KCONFIG_ALLCONFIG=", copy, NULL);
	const char *vars[] = { allconfig, NULL };
	gboolean changed = FALSE;
	gsize len;
	double configure = 0;

	if (!g_file_get_contents(kb->fragment, &frag, &len, error))
		return FALSE;
	if (!sync_file(copy, frag, len, &changed, error))
		return FALSE;
	if (changed || !g_file_test(dotconfig, G_FILE_TEST_EXISTS)) {
		if (!kbuild_make(kb, allno, vars, out, error))
			return FALSE;
		if (!out->ok) {
			/* a fragment applied again next time */
			g_unlink(copy);
			return TRUE;
		}
		configure = out->seconds;
		kbuild_result_clear(out);
	}
	if (!kbuild_make(kb, NULL, NULL, out, error))
		return FALSE;
	out->seconds += configure;
	return TRUE;
}

/* The stamp's content for @target and @fragment. */
static char *configured_stamp(const char *target, const char *fragment)
{
	return g_strdup_printf("%s\n%s", target, fragment ? fragment : "");
}

gboolean kbuild_is_configured(struct kbuild *kb, const char *target,
			      const char *fragment)
{
	g_autofree char *stamp =
		g_build_filename(kb->build_dir, "armbot-configured", NULL);
	g_autofree char *dotconfig =
		g_build_filename(kb->build_dir, ".config", NULL);
	g_autofree char *want = configured_stamp(target, fragment);

	return same_content(stamp, want, strlen(want)) &&
	       g_file_test(dotconfig, G_FILE_TEST_EXISTS);
}

gboolean kbuild_configure_target(struct kbuild *kb, const char *target,
				 const char *fragment, gboolean *configured,
				 struct kbuild_result *out, GError **error)
{
	static const char *const olddef[] = { "olddefconfig", NULL };
	static const char *const prepare[] = { "prepare", NULL };
	const char *const first[] = { target, NULL };
	const char *const *steps[] = { first, olddef, prepare };
	g_autofree char *stamp =
		g_build_filename(kb->build_dir, "armbot-configured", NULL);
	g_autofree char *dotconfig =
		g_build_filename(kb->build_dir, ".config", NULL);
	g_autofree char *want =
		g_strdup_printf("%s\n%s", target, fragment ? fragment : "");
	double seconds = 0;

	*configured = FALSE;
	memset(out, 0, sizeof(*out));
	if (same_content(stamp, want, strlen(want)) &&
	    g_file_test(dotconfig, G_FILE_TEST_EXISTS)) {
		out->ok = TRUE;
		return TRUE;
	}
	*configured = TRUE;
	g_unlink(stamp);
	for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
		if (i == 1 && fragment) {
			g_autofree char *config = NULL;
			g_autofree char *merged = NULL;

			if (!g_file_get_contents(dotconfig, &config, NULL,
						 error))
				return FALSE;
			merged = g_strconcat(config, fragment, NULL);
			if (!g_file_set_contents(dotconfig, merged, -1, error))
				return FALSE;
		}
		if (i > 0)
			kbuild_result_clear(out);
		if (!kbuild_make(kb, steps[i], NULL, out, error))
			return FALSE;
		seconds += out->seconds;
		out->seconds = seconds;
		if (!out->ok)
			return TRUE;
	}
	return g_file_set_contents(stamp, want, -1, error);
}

gboolean kbuild_external_module(struct kbuild *kb, const char *module_src,
				const char *name, const char *config_symbol,
				char **ko_out, struct kbuild_result *out,
				GError **error)
{
	static const char *const modules[] = { "modules", NULL };
	g_autofree char *dir =
		g_build_filename(kb->build_dir, "armbot-ext", name, NULL);
	g_autofree char *mvar = g_strconcat("M=", dir, NULL);
	g_autofree char *cvar = g_strconcat(config_symbol, "=m", NULL);
	g_autofree char *ko_name = g_strconcat(name, ".ko", NULL);
	const char *vars[] = { mvar, cvar, NULL };
	g_autoptr(GDir) d = NULL;
	const char *entry;

	*ko_out = NULL;
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot create '%s': %s", dir, g_strerror(errno));
		return FALSE;
	}
	d = g_dir_open(module_src, 0, error);
	if (!d)
		return FALSE;
	while ((entry = g_dir_read_name(d))) {
		g_autofree char *src =
			g_build_filename(module_src, entry, NULL);
		g_autofree char *dst = g_build_filename(dir, entry, NULL);
		g_autofree char *data = NULL;
		gsize len;

		if (!g_file_test(src, G_FILE_TEST_IS_REGULAR))
			continue;
		if (!g_file_get_contents(src, &data, &len, error) ||
		    !sync_file(dst, data, len, NULL, error))
			return FALSE;
	}
	if (!kbuild_make(kb, modules, vars, out, error))
		return FALSE;
	if (out->ok)
		*ko_out = g_build_filename(dir, ko_name, NULL);
	return TRUE;
}

char *kbuild_image(struct kbuild *kb)
{
	return g_build_filename(kb->build_dir, "arch", KBUILD_ARCH, "boot",
				"zImage", NULL);
}

void kbuild_result_clear(struct kbuild_result *result)
{
	g_free(result->how);
	if (result->log)
		g_string_free(result->log, TRUE);
	memset(result, 0, sizeof(*result));
}

void kbuild_free(struct kbuild *kb)
{
	if (!kb)
		return;
	g_free(kb->src_dir);
	g_free(kb->build_dir);
	g_free(kb->fragment);
	g_free(kb->ccache_dir);
	sandbox_free(kb->sandbox);
	g_free(kb);
}
