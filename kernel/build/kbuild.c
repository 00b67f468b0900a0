/* Out-of-tree kernel builds through the sandbox (kbuild's O=, see
 * Documentation/kbuild/kbuild.rst and modules.rst for M=). */
#include "kernel/build/kbuild.h"

#include <errno.h>
#include <stdlib.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#define KBUILD_ARCH "arm"
#define KBUILD_CROSS "arm-linux-gnueabihf-"
#define KBUILD_CC_CCACHE "CC=ccache " KBUILD_CROSS "gcc"
#define KBUILD_HOSTCC_CCACHE "HOSTCC=ccache gcc"
/* the build dir as a reader names it, in the kernel tree: O=build */
#define KBUILD_PRINTABLE_DIR "build"
/* columns of a printable command line before it is continued */
#define KBUILD_PRINTABLE_WIDTH 160

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

/* The argv of make in @kb's build dir with @targets and @vars, as
 * kbuild_make() runs it before the sandbox wraps it: the one place it is
 * built (kbuild_make_printable() derives the reader's form from it).
 * NULL-terminated; the strings are owned by the array. */
static GPtrArray *make_argv(const struct kbuild *kb, const char *const *targets,
			    const char *const *vars)
{
	GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
	guint jobs = kb->jobs ? kb->jobs : (guint)g_get_num_processors();

	g_ptr_array_add(argv, g_strdup("make"));
	g_ptr_array_add(argv, g_strdup("ARCH=" KBUILD_ARCH));
	g_ptr_array_add(argv, g_strdup("CROSS_COMPILE=" KBUILD_CROSS));
	if (kb->ccache_dir) {
		/* kbuild's CC and HOSTCC are command lines: a wrapper fits */
		g_ptr_array_add(argv, g_strdup(KBUILD_CC_CCACHE));
		g_ptr_array_add(argv, g_strdup(KBUILD_HOSTCC_CCACHE));
	}
	g_ptr_array_add(argv, g_strconcat("O=", kb->build_dir, NULL));
	g_ptr_array_add(argv, g_strdup_printf("-j%u", jobs));
	for (guint i = 0; vars && vars[i]; i++)
		g_ptr_array_add(argv, g_strdup(vars[i]));
	for (guint i = 0; targets && targets[i]; i++)
		g_ptr_array_add(argv, g_strdup(targets[i]));
	g_ptr_array_add(argv, NULL);
	return argv;
}

gboolean kbuild_make(struct kbuild *kb, const char *const *targets,
		     const char *const *vars, struct kbuild_result *out,
		     GError **error)
{
	g_autoptr(GPtrArray) argv = make_argv(kb, targets, vars);
	g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func(g_free);
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_auto(GStrv) env = NULL;

	memset(out, 0, sizeof(*out));
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

/* --- what a reader runs ------------------------------------------------ */

/* Where @dir occurs in @s as a whole path (followed by '/', a space or the
 * end), or NULL. */
static const char *find_dir(const char *s, const char *dir)
{
	gsize len = strlen(dir);

	for (const char *p = strstr(s, dir); p; p = strstr(p + 1, dir))
		if (p[len] == '\0' || p[len] == '/' || p[len] == ' ')
			return p;
	return NULL;
}

char *kbuild_printable_word(const struct kbuild *kb, const char *arg,
			    gboolean from_build_dir)
{
	const char *dirs[] = { kb->build_dir, kb->src_dir };
	const char *as[] = {
		from_build_dir ? "$PWD/" KBUILD_PRINTABLE_DIR :
				 KBUILD_PRINTABLE_DIR,
		from_build_dir ? "$PWD" : ".",
	};
	GString *out = g_string_new(NULL);
	const char *p = arg;

	while (*p) {
		const char *hit = NULL;
		guint which = 0;

		for (guint i = 0; i < G_N_ELEMENTS(dirs); i++) {
			const char *h = dirs[i] ? find_dir(p, dirs[i]) : NULL;

			if (h && (!hit || h < hit)) {
				hit = h;
				which = i;
			}
		}
		if (hit != p) {
			g_autofree char *before = hit ? g_strndup(p, hit - p) :
							g_strdup(p);
			g_autofree char *word = runner_shell_word(before);

			g_string_append(out, word);
		}
		if (!hit)
			break;
		/* "$PWD" is left for the shell to expand: kbuild does not
		 * build in a path with spaces anyway */
		g_string_append(out, as[which]);
		p = hit + strlen(dirs[which]);
	}
	if (!out->len)
		g_string_append(out, "''");
	return g_string_free(out, FALSE);
}

/* "-j8": make's job count, which does not change what is built. */
static gboolean is_jobs(const char *arg)
{
	return g_str_has_prefix(arg, "-j") && arg[2] &&
	       arg[2 + strspn(arg + 2, "0123456789")] == '\0';
}

void kbuild_printable_append(GString *line, const char *word,
			     gboolean may_break)
{
	const char *nl = strrchr(line->str, '\n');
	gsize col = nl ? line->len - (nl + 1 - line->str) : line->len;

	/* XCU 2.2.1: backslash-newline continues the command; past the
	 * width, so that a mail never breaks a word (RFC 5322 2.1.1: 998) */
	if (may_break && col && col + 1 + strlen(word) > KBUILD_PRINTABLE_WIDTH)
		g_string_append(line, " \\\n    ");
	else if (line->len)
		g_string_append_c(line, ' ');
	g_string_append(line, word);
}

char *kbuild_make_printable(const struct kbuild *kb, const char *const *targets,
			    const char *const *vars)
{
	g_autoptr(GPtrArray) argv = make_argv(kb, targets, vars);
	g_autofree char *o_var = g_strconcat("O=", kb->build_dir, NULL);
	GString *out = g_string_new(NULL);

	for (guint i = 0; argv->pdata[i]; i++) {
		const char *a = argv->pdata[i];
		g_autofree char *word = NULL;

		/* ccache is armbot's cache, not part of the build: without
		 * the wrapper kbuild runs the same compilers */
		if (kb->ccache_dir && (!strcmp(a, KBUILD_CC_CCACHE) ||
				       !strcmp(a, KBUILD_HOSTCC_CCACHE)))
			continue;
		if (!strcmp(a, o_var))
			word = g_strdup("O=" KBUILD_PRINTABLE_DIR);
		else if (is_jobs(a))
			word = g_strdup("-j$(nproc)");
		else
			/* make changes into O= before it reads any other
			 * path: those are made absolute */
			word = kbuild_printable_word(kb, a, TRUE);
		kbuild_printable_append(out, word, TRUE);
	}
	return g_string_free(out, FALSE);
}

void kbuild_step_free(struct kbuild_step *step)
{
	if (!step)
		return;
	g_free(step->command);
	g_free(step->file);
	g_free(step->text);
	g_free(step);
}

GPtrArray *kbuild_steps_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)kbuild_step_free);
}

void kbuild_steps_add_command(GPtrArray *steps, char *command)
{
	struct kbuild_step *s = g_new0(struct kbuild_step, 1);

	s->command = command;
	g_ptr_array_add(steps, s);
}

void kbuild_steps_add_file(GPtrArray *steps, char *file, char *text,
			   gboolean append)
{
	struct kbuild_step *s = g_new0(struct kbuild_step, 1);

	s->file = file;
	s->text = text;
	s->append = append;
	g_ptr_array_add(steps, s);
}

/* A here-document delimiter that no line of @text is. */
static char *heredoc_delimiter(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GString *d = g_string_new("EOF");

	for (guint i = 0; lines[i]; i++)
		if (!strcmp(lines[i], d->str)) {
			g_string_append_c(d, '_');
			i = (guint)-1;
		}
	return g_string_free(d, FALSE);
}

void kbuild_steps_format(GString *out, const GPtrArray *steps,
			 const char *indent)
{
	for (guint i = 0; steps && i < steps->len; i++) {
		const struct kbuild_step *s = steps->pdata[i];
		g_autofree char *delim = NULL;
		g_autofree char *file = NULL;
		gsize len;

		if (s->command) {
			g_auto(GStrv) lines = g_strsplit(s->command, "\n", -1);

			/* a continued command: every line indented */
			for (guint j = 0; lines[j]; j++)
				g_string_append_printf(out, "%s%s\n", indent,
						       lines[j]);
			continue;
		}
		/* XCU 2.7.4: a quoted delimiter keeps the text as it is; the
		 * text and the delimiter are not indented, as the shell
		 * would keep the indentation */
		delim = heredoc_delimiter(s->text);
		file = runner_shell_word(s->file);
		g_string_append_printf(out, "%scat %s %s <<'%s'\n", indent,
				       s->append ? ">>" : ">", file, delim);
		len = strlen(s->text);
		g_string_append(out, s->text);
		if (len && s->text[len - 1] != '\n')
			g_string_append_c(out, '\n');
		g_string_append_printf(out, "%s\n", delim);
	}
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

/* kbuild_kernel()'s configuration: allnoconfig with KCONFIG_ALLCONFIG
 * naming BUILD/armbot.config, the fragment's copy (Documentation/kbuild/
 * kconfig.rst).  *@copy_out is the copy's path; the vars hold it. */
static const char *const allno_targets[] = { "allnoconfig", NULL };

static char *allconfig_var(const struct kbuild *kb, char **copy_out)
{
	*copy_out = g_build_filename(kb->build_dir, "armbot.config", NULL);
	return g_strconcat("KCONFIG_ALLCONFIG=", *copy_out, NULL);
}

gboolean kbuild_kernel(struct kbuild *kb, struct kbuild_result *out,
		       GError **error)
{
	g_autofree char *frag = NULL;
	g_autofree char *copy = NULL;
	g_autofree char *dotconfig =
		g_build_filename(kb->build_dir, ".config", NULL);
	g_autofree char *allconfig = allconfig_var(kb, &copy);
	const char *vars[] = { allconfig, NULL };
	gboolean changed = FALSE;
	gsize len;
	double configure = 0;

	if (!g_file_get_contents(kb->fragment, &frag, &len, error))
		return FALSE;
	if (!sync_file(copy, frag, len, &changed, error))
		return FALSE;
	if (changed || !g_file_test(dotconfig, G_FILE_TEST_EXISTS)) {
		if (!kbuild_make(kb, allno_targets, vars, out, error))
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

GPtrArray *kbuild_kernel_steps(const struct kbuild *kb, GError **error)
{
	g_autoptr(GPtrArray) steps = kbuild_steps_new();
	g_autofree char *frag = NULL;
	g_autofree char *copy = NULL;
	g_autofree char *allconfig = allconfig_var(kb, &copy);
	const char *vars[] = { allconfig, NULL };

	if (!g_file_get_contents(kb->fragment, &frag, NULL, error))
		return NULL;
	/* from a clean build dir: both makes, as a first run does them */
	kbuild_steps_add_command(steps,
				 g_strdup("mkdir -p " KBUILD_PRINTABLE_DIR));
	kbuild_steps_add_file(steps, kbuild_printable_word(kb, copy, FALSE),
			      g_steal_pointer(&frag), FALSE);
	kbuild_steps_add_command(steps, kbuild_make_printable(kb, allno_targets,
							      vars));
	kbuild_steps_add_command(steps, kbuild_make_printable(kb, NULL, NULL));
	return g_steal_pointer(&steps);
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

/* The makes of kbuild_configure_target() after the first (the target
 * itself); the fragment is appended to .config before them. */
static const char *const configure_olddef[] = { "olddefconfig", NULL };
static const char *const configure_prepare[] = { "prepare", NULL };

gboolean kbuild_configure_target(struct kbuild *kb, const char *target,
				 const char *fragment, gboolean *configured,
				 struct kbuild_result *out, GError **error)
{
	const char *const first[] = { target, NULL };
	const char *const *steps[] = { first, configure_olddef,
				       configure_prepare };
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

GPtrArray *kbuild_configure_target_steps(const struct kbuild *kb,
					 const char *target,
					 const char *fragment)
{
	GPtrArray *steps = kbuild_steps_new();
	const char *const first[] = { target, NULL };
	g_autofree char *dotconfig =
		g_build_filename(kb->build_dir, ".config", NULL);

	kbuild_steps_add_command(steps, kbuild_make_printable(kb, first, NULL));
	if (fragment)
		kbuild_steps_add_file(
			steps, kbuild_printable_word(kb, dotconfig, FALSE),
			g_strdup(fragment), TRUE);
	kbuild_steps_add_command(
		steps, kbuild_make_printable(kb, configure_olddef, NULL));
	kbuild_steps_add_command(
		steps, kbuild_make_printable(kb, configure_prepare, NULL));
	return steps;
}

/* The make of kbuild_external_module() (Documentation/kbuild/modules.rst):
 * M= the module's copy in BUILD/armbot-ext/@name (*@dir_out), the module's
 * config symbol set to m on the command line. */
static const char *const module_targets[] = { "modules", NULL };

static void module_vars(const struct kbuild *kb, const char *name,
			const char *config_symbol, char **dir_out,
			char **mvar_out, char **cvar_out)
{
	*dir_out = g_build_filename(kb->build_dir, "armbot-ext", name, NULL);
	*mvar_out = g_strconcat("M=", *dir_out, NULL);
	*cvar_out = g_strconcat(config_symbol, "=m", NULL);
}

gboolean kbuild_external_module(struct kbuild *kb, const char *module_src,
				const char *name, const char *config_symbol,
				char **ko_out, struct kbuild_result *out,
				GError **error)
{
	g_autofree char *dir = NULL;
	g_autofree char *mvar = NULL;
	g_autofree char *cvar = NULL;
	g_autofree char *ko_name = g_strconcat(name, ".ko", NULL);
	const char *vars[3];
	g_autoptr(GDir) d = NULL;
	const char *entry;

	*ko_out = NULL;
	module_vars(kb, name, config_symbol, &dir, &mvar, &cvar);
	vars[0] = mvar;
	vars[1] = cvar;
	vars[2] = NULL;
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
	if (!kbuild_make(kb, module_targets, vars, out, error))
		return FALSE;
	if (out->ok)
		*ko_out = g_build_filename(dir, ko_name, NULL);
	return TRUE;
}

char *kbuild_external_module_printable(const struct kbuild *kb,
				       const char *name,
				       const char *config_symbol)
{
	g_autofree char *dir = NULL;
	g_autofree char *mvar = NULL;
	g_autofree char *cvar = NULL;

	module_vars(kb, name, config_symbol, &dir, &mvar, &cvar);
	{
		const char *vars[] = { mvar, cvar, NULL };

		return kbuild_make_printable(kb, module_targets, vars);
	}
}

char *kbuild_image(const struct kbuild *kb)
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
