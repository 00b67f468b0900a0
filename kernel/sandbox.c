/* The bubblewrap sandbox.  bwrap reports on --json-status-fd how the
 * sandboxed program ended ("exit-code"); a run without that report failed
 * to set up (or to exec) and is an error, never a result.
 *
 * The runner's timeout kills bwrap's process group; the program itself is
 * in a session of its own (--new-session) but dies with bwrap: it is
 * --die-with-parent, and the PID namespace ends with its init. */
#include "kernel/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct sandbox {
	GPtrArray *readonly;
	GPtrArray *writable;
};

/* In the child, before exec of bwrap (async-signal-safe). */
static void sandbox_limits(gpointer data)
{
	struct rlimit none = { 0, 0 };
	struct rlimit files = { 4096, 4096 };
	struct rlimit fsize = { 16ull << 30, 16ull << 30 };

	setrlimit(RLIMIT_CORE, &none);
	setrlimit(RLIMIT_NOFILE, &files);
	setrlimit(RLIMIT_FSIZE, &fsize);
}

static GPtrArray *bwrap_argv(struct sandbox *sb, const char *cwd)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	static const char *const fixed[] = {
		"bwrap",
		"--unshare-net",
		"--unshare-ipc",
		"--unshare-pid",
		"--unshare-uts",
		"--die-with-parent",
		"--new-session",
		"--ro-bind",
		"/",
		"/",
		"--dev",
		"/dev",
		"--proc",
		"/proc",
		"--tmpfs",
		"/tmp",
		"--json-status-fd",
		"3",
	};

	for (guint i = 0; i < G_N_ELEMENTS(fixed); i++)
		g_ptr_array_add(a, g_strdup(fixed[i]));
	/* after --tmpfs /tmp, so that directories under /tmp show through */
	for (guint i = 0; sb && i < sb->readonly->len; i++) {
		g_ptr_array_add(a, g_strdup("--ro-bind"));
		g_ptr_array_add(a, g_strdup(sb->readonly->pdata[i]));
		g_ptr_array_add(a, g_strdup(sb->readonly->pdata[i]));
	}
	for (guint i = 0; sb && i < sb->writable->len; i++) {
		g_ptr_array_add(a, g_strdup("--bind"));
		g_ptr_array_add(a, g_strdup(sb->writable->pdata[i]));
		g_ptr_array_add(a, g_strdup(sb->writable->pdata[i]));
	}
	if (cwd) {
		g_ptr_array_add(a, g_strdup("--chdir"));
		g_ptr_array_add(a, g_strdup(cwd));
	}
	g_ptr_array_add(a, g_strdup("--"));
	return a;
}

static char *read_all(int fd)
{
	GString *s = g_string_new(NULL);
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			g_string_append_len(s, buf, n);
	return g_string_free(s, FALSE);
}

gboolean sandbox_run(struct sandbox *sb, const char *const *argv,
		     const struct runner_opts *opts, struct runner_result *out,
		     GError **error)
{
	g_autoptr(GPtrArray) args = bwrap_argv(sb, opts ? opts->cwd : NULL);
	struct runner_opts o = RUNNER_OPTS_INIT;
	g_autofree char *status = NULL;
	int status_pipe[2];
	gboolean ran;

	if (opts)
		o = *opts;
	if (o.n_fds) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
			    "sandbox: extra fds are not passed in");
		return FALSE;
	}
	for (guint i = 0; argv[i]; i++)
		g_ptr_array_add(args, g_strdup(argv[i]));
	g_ptr_array_add(args, NULL);
	if (!g_unix_open_pipe(status_pipe, FD_CLOEXEC, error)) {
		g_prefix_error(error, "sandbox: ");
		return FALSE;
	}
	o.fds = &status_pipe[1];
	o.n_fds = 1;
	o.child_setup = sandbox_limits;
	/* bwrap does the chdir once the mounts are set up */
	o.cwd = NULL;
	ran = runner_run((const char *const *)args->pdata, &o, out, error);
	close(status_pipe[1]);
	status = read_all(status_pipe[0]);
	close(status_pipe[0]);
	if (!ran)
		return FALSE;
	/* bwrap reports "exit-code" when the program it exec'd exits; a
	 * failed setup or exec ends with none.  A run we killed (timeout)
	 * has none either, but it got as far as "child-pid". */
	if (!strstr(status, "\"exit-code\"") &&
	    !(strstr(status, "\"child-pid\"") && !out->exited)) {
		g_autofree char *how = runner_result_describe(out);

		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "sandbox: bwrap could not set up (%s): %s", how,
			    g_strstrip(out->errout && out->errout->len ?
					       out->errout->str :
					       out->output->str));
		runner_result_clear(out);
		return FALSE;
	}
	return TRUE;
}

struct sandbox *sandbox_new(GError **error)
{
	g_autoptr(sandbox) sb = g_new0(struct sandbox, 1);
	static const char *const probe[] = { "true", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_auto(GStrv) env = runner_env_new(NULL);

	sb->writable = g_ptr_array_new_with_free_func(g_free);
	sb->readonly = g_ptr_array_new_with_free_func(g_free);
	o.env = (const char *const *)env;
	o.timeout_ms = 30000;
	if (!sandbox_run(sb, probe, &o, &r, error)) {
		g_prefix_error(error, "cannot sandbox builds: ");
		return NULL;
	}
	if (!runner_result_ok(&r)) {
		g_autofree char *how = runner_result_describe(&r);

		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot sandbox builds: probe %s", how);
		runner_result_clear(&r);
		return NULL;
	}
	runner_result_clear(&r);
	return g_steal_pointer(&sb);
}

void sandbox_add_writable(struct sandbox *sb, const char *dir)
{
	g_ptr_array_add(sb->writable, g_strdup(dir));
}

void sandbox_add_readonly(struct sandbox *sb, const char *dir)
{
	g_ptr_array_add(sb->readonly, g_strdup(dir));
}

void sandbox_free(struct sandbox *sb)
{
	if (!sb)
		return;
	g_ptr_array_unref(sb->readonly);
	g_ptr_array_unref(sb->writable);
	g_free(sb);
}
