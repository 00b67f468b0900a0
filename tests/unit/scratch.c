/* Scratch directories, git and shell runs for the unit tests.  See
 * tests/unit/scratch.h. */
#include "tests/unit/scratch.h"

#include <gio/gio.h>
#include <string.h>

char *scratch_dir_new(const char *tmpl)
{
	g_autoptr(GError) error = NULL;
	char *dir = g_dir_make_tmp(tmpl, &error);

	g_assert_no_error(error);
	return dir;
}

char **scratch_git_environ(const char *home, const char *author_date,
			   const char *committer_date)
{
	GPtrArray *env = g_ptr_array_new();

	g_ptr_array_add(env, g_strdup_printf("HOME=%s", home));
	g_ptr_array_add(env, g_strdup_printf("PATH=%s", g_getenv("PATH")));
	g_ptr_array_add(env, g_strdup("LC_ALL=C"));
	g_ptr_array_add(env, g_strdup("GIT_CONFIG_NOSYSTEM=1"));
	g_ptr_array_add(env, g_strdup("GIT_AUTHOR_NAME=A U Thor"));
	g_ptr_array_add(env, g_strdup("GIT_AUTHOR_EMAIL=author@example.com"));
	g_ptr_array_add(env, g_strdup("GIT_COMMITTER_NAME=C O Mitter"));
	g_ptr_array_add(env,
			g_strdup("GIT_COMMITTER_EMAIL=committer@example.com"));
	if (author_date)
		g_ptr_array_add(env, g_strdup_printf("GIT_AUTHOR_DATE=%s",
						     author_date));
	if (committer_date)
		g_ptr_array_add(env, g_strdup_printf("GIT_COMMITTER_DATE=%s",
						     committer_date));
	g_ptr_array_add(env, NULL);
	return (char **)g_ptr_array_free(env, FALSE);
}

/* Run @argv in @cwd (NULL: ours) with @env; TRUE if it exited with 0.
 * Its stdout in *@out (as scratch_sh()) unless @out is NULL, its stderr
 * in *@err unless @err is NULL (then thrown away). */
static gboolean run(const char *const *env, const char *cwd,
		    const char *const *argv, char **out, gsize *len, char **err)
{
	g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new(
		G_SUBPROCESS_FLAGS_STDOUT_PIPE |
		(err ? G_SUBPROCESS_FLAGS_STDERR_PIPE :
		       G_SUBPROCESS_FLAGS_STDERR_SILENCE));
	g_autoptr(GSubprocess) proc = NULL;
	g_autoptr(GBytes) stdout_bytes = NULL;
	g_autoptr(GBytes) stderr_bytes = NULL;
	g_autoptr(GError) error = NULL;
	gsize n;
	const char *data;

	g_subprocess_launcher_set_environ(launcher, (char **)env);
	g_subprocess_launcher_set_cwd(launcher, cwd);
	proc = g_subprocess_launcher_spawnv(launcher, argv, &error);
	g_assert_no_error(error);
	g_assert_true(g_subprocess_communicate(proc, NULL, NULL, &stdout_bytes,
					       err ? &stderr_bytes : NULL,
					       &error));
	g_assert_no_error(error);
	if (out) {
		data = g_bytes_get_data(stdout_bytes, &n);
		*out = g_malloc(n + 1);
		if (n)
			memcpy(*out, data, n);
		(*out)[n] = '\0';
		if (len)
			*len = n;
	}
	if (err) {
		data = g_bytes_get_data(stderr_bytes, &n);
		*err = g_strndup(data, n);
	}
	return g_subprocess_get_successful(proc);
}

gboolean scratch_git(const char *const *env, const char *dir, char **out,
		     const char *const *args)
{
	g_autoptr(GStrvBuilder) argv_b = g_strv_builder_new();
	g_auto(GStrv) argv = NULL;

	g_strv_builder_add_many(argv_b, "git", "-C", dir, NULL);
	g_strv_builder_addv(argv_b, (const char **)args);
	argv = g_strv_builder_end(argv_b);
	return run(env, NULL, (const char *const *)argv, out, NULL, NULL);
}

char *scratch_git_ok(const char *const *env, const char *dir,
		     const char *const *args)
{
	char *out = NULL;

	if (!scratch_git(env, dir, &out, args)) {
		g_autofree char *cmd = g_strjoinv(" ", (char **)args);

		g_error("git %s failed in %s", cmd, dir);
	}
	return out;
}

char *scratch_sh(const char *const *env, const char *dir, const char *script,
		 gsize *len)
{
	const char *argv[] = { "/bin/sh", "-ec", script, NULL };
	g_autofree char *err = NULL;
	char *out = NULL;

	if (!run(env, dir, argv, &out, len, &err))
		g_error("script failed: %s\n%s", script, err);
	return out;
}

void scratch_write_file(const char *dir, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *parent = g_path_get_dirname(path);

	g_assert_cmpint(g_mkdir_with_parents(parent, 0755), ==, 0);
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
}
