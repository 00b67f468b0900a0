/* The bubblewrap sandbox.  bwrap reports on --json-status-fd how the
 * sandboxed program ended ("exit-code"); a run without that report failed
 * to set up (or to exec) and is an error, never a result.
 *
 * The runner's timeout kills bwrap's process group; the program itself is
 * in a session of its own (--new-session) but dies with bwrap: it is
 * --die-with-parent, and the PID namespace ends with its init. */
#include "kernel/build/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct sandbox {
	GPtrArray *readonly;
	GPtrArray *writable;
	guint max_procs;
	char *cgroup_root; /* a pids cgroup we may create children in */
};

/* What the child needs before exec: set up in the parent, so that the
 * child only makes async-signal-safe calls. */
struct sandbox_child {
	const char *procs; /* cgroup.procs to join; NULL: none */
	guint max_procs;
	guint cpu_s;
};

static void child_fail(const char *msg)
{
	ssize_t n = write(2, msg, strlen(msg));

	(void)n;
	_exit(125);
}

/* In the child, before exec of bwrap (async-signal-safe). */
static void sandbox_limits(gpointer data)
{
	const struct sandbox_child *c = data;
	struct rlimit none = { 0, 0 };
	struct rlimit files = { 4096, 4096 };
	struct rlimit fsize = { 16ull << 30, 16ull << 30 };
	struct rlimit cpu = { c->cpu_s, c->cpu_s };
	struct rlimit nproc = { c->max_procs, c->max_procs };

	setrlimit(RLIMIT_CORE, &none);
	setrlimit(RLIMIT_NOFILE, &files);
	setrlimit(RLIMIT_FSIZE, &fsize);
	if (c->cpu_s)
		setrlimit(RLIMIT_CPU, &cpu);
	if (c->procs) {
		/* "0" is the writer itself (kernel/cgroup/cgroup.c,
		 * cgroup_procs_write_start); the sandbox's processes are
		 * all forked from here, so all of them count */
		int fd = open(c->procs, O_WRONLY | O_CLOEXEC);

		if (fd < 0 || write(fd, "0", 1) != 1)
			child_fail("sandbox: cannot join the pids cgroup\n");
		close(fd);
	} else if (setrlimit(RLIMIT_NPROC, &nproc) != 0) {
		child_fail("sandbox: cannot limit processes\n");
	}
}

/* The pids cgroup (v1 hierarchy, or v2 with the pids controller) that
 * this process is in, when we may create children in it; NULL if not. */
static char *find_cgroup_root(void)
{
	g_autofree char *self = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents("/proc/self/cgroup", &self, NULL, NULL))
		return NULL;
	lines = g_strsplit(self, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], ":", 3);
		g_autofree char *dir = NULL;
		g_autofree char *probe = NULL;
		g_autofree char *max = NULL;

		if (g_strv_length(f) != 3)
			continue;
		if (!strcmp(f[1], "pids"))
			dir = g_build_filename("/sys/fs/cgroup/pids", f[2],
					       NULL);
		else if (!*f[1] && !strcmp(f[0], "0"))
			dir = g_build_filename("/sys/fs/cgroup", f[2], NULL);
		else
			continue;
		probe = g_strdup_printf("%s/armbot-probe-%d", dir,
					(int)getpid());
		if (g_mkdir(probe, 0755) != 0)
			continue;
		max = g_build_filename(probe, "pids.max", NULL);
		if (g_file_test(max, G_FILE_TEST_EXISTS)) {
			g_rmdir(probe);
			return g_steal_pointer(&dir);
		}
		g_rmdir(probe);
	}
	return NULL;
}

/* A fresh cgroup for one run, limited to @max processes; NULL when it
 * cannot be made. */
static char *cgroup_make(const char *root, guint max)
{
	static gint counter;
	g_autofree char *dir = g_strdup_printf("%s/armbot-%d-%d", root,
					       (int)getpid(),
					       g_atomic_int_add(&counter, 1));
	g_autofree char *pmax = g_build_filename(dir, "pids.max", NULL);
	g_autofree char *text = g_strdup_printf("%u", max);
	gsize len = strlen(text);
	int fd;
	gboolean ok;

	if (g_mkdir(dir, 0755) != 0)
		return NULL;
	/* a control file: written in place, not replaced by a rename */
	fd = open(pmax, O_WRONLY | O_CLOEXEC);
	ok = fd >= 0 && write(fd, text, len) == (ssize_t)len;
	if (fd >= 0)
		close(fd);
	if (!ok) {
		g_rmdir(dir);
		return NULL;
	}
	return g_steal_pointer(&dir);
}

/* Kill whatever is left in @dir and remove it.  Returns how often the
 * process limit refused a fork (pids.events "max"). */
static guint64 cgroup_destroy(const char *dir)
{
	g_autofree char *procs = g_build_filename(dir, "cgroup.procs", NULL);
	g_autofree char *events = g_build_filename(dir, "pids.events", NULL);
	g_autofree char *ev = NULL;
	guint64 refused = 0;

	/* a fork bomb may still be forking while we kill: repeat until
	 * the cgroup is empty (it cannot grow past pids.max) */
	for (int round = 0; round < 500; round++) {
		g_autofree char *list = NULL;
		g_auto(GStrv) pids = NULL;
		gboolean any = FALSE;

		if (!g_file_get_contents(procs, &list, NULL, NULL))
			break;
		pids = g_strsplit(list, "\n", -1);
		for (guint i = 0; pids[i]; i++)
			if (*pids[i]) {
				kill((pid_t)atoi(pids[i]), SIGKILL);
				any = TRUE;
			}
		if (!any)
			break;
		g_usleep(10000);
	}
	if (g_file_get_contents(events, &ev, NULL, NULL)) {
		const char *m = strstr(ev, "max ");

		if (m)
			refused = g_ascii_strtoull(m + 4, NULL, 10);
	}
	/* a killed process leaves the cgroup a moment after it is gone
	 * from cgroup.procs */
	for (int round = 0; round < 200 && g_rmdir(dir) != 0; round++)
		g_usleep(10000);
	return refused;
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

/* Which of bwrap's --json-status-fd reports came: bwrap writes one JSON
 * object a line, {"child-pid": N, ...} once it started the program and
 * {"exit-code": N} when that program ended (bubblewrap.c, dump_info()). */
static void status_parse(const char *text, gboolean *started, gboolean *exited)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	*started = *exited = FALSE;
	for (guint i = 0; lines[i]; i++) {
		g_autoptr(JsonNode) node = NULL;
		JsonObject *o;

		if (!*g_strstrip(lines[i]))
			continue;
		node = json_from_string(lines[i], NULL);
		if (!node || !JSON_NODE_HOLDS_OBJECT(node))
			continue;
		o = json_node_get_object(node);
		*started |= json_object_has_member(o, "child-pid");
		*exited |= json_object_has_member(o, "exit-code");
	}
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
	g_autofree char *cgroup = NULL;
	g_autofree char *procs = NULL;
	struct sandbox_child child = { 0 };
	int status_pipe[2];
	gboolean ran, started, exited;

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
	child.max_procs = sb->max_procs;
	/* CPU time per process, a backstop behind the wall-clock timeout:
	 * a process with a thread per core (QEMU) could use cores x wall
	 * time, and must still end by the timeout, not by SIGXCPU */
	child.cpu_s = o.timeout_ms ? (o.timeout_ms / 1000 + 1) *
					     g_get_num_processors() :
				     0;
	if (sb->cgroup_root) {
		cgroup = cgroup_make(sb->cgroup_root, sb->max_procs);
		if (!cgroup) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
				    "sandbox: cannot create a pids cgroup "
				    "under '%s'",
				    sb->cgroup_root);
			return FALSE;
		}
		procs = g_build_filename(cgroup, "cgroup.procs", NULL);
		child.procs = procs;
	}
	if (!g_unix_open_pipe(status_pipe, FD_CLOEXEC, error)) {
		g_prefix_error(error, "sandbox: ");
		if (cgroup)
			cgroup_destroy(cgroup);
		return FALSE;
	}
	o.fds = &status_pipe[1];
	o.n_fds = 1;
	o.child_setup = sandbox_limits;
	o.child_setup_data = &child;
	/* bwrap does the chdir once the mounts are set up */
	o.cwd = NULL;
	ran = runner_run((const char *const *)args->pdata, &o, out, error);
	close(status_pipe[1]);
	status = read_all(status_pipe[0]);
	close(status_pipe[0]);
	if (cgroup) {
		guint64 refused = cgroup_destroy(cgroup);

		/* the reason a fork bomb failed, in the log it left */
		if (ran && refused)
			g_string_append_printf(
				out->output,
				"[sandbox: process limit of %u reached, "
				"%" G_GUINT64_FORMAT " forks refused]\n",
				sb->max_procs, refused);
	}
	if (!ran)
		return FALSE;
	/* bwrap reports "exit-code" when the program it exec'd exits; a
	 * failed setup or exec ends with none.  A run we killed (timeout)
	 * has none either, but it got as far as "child-pid". */
	status_parse(status, &started, &exited);
	if (!exited && !(started && !out->exited)) {
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
	sb->max_procs = SANDBOX_MAX_PROCS;
	sb->cgroup_root = find_cgroup_root();
	/* RLIMIT_NPROC does not bind root (kernel/fork.c, copy_process):
	 * without a pids cgroup a fork bomb would be bounded only by the
	 * host's pid_max, so root does not build at all */
	if (!sb->cgroup_root && geteuid() == 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
			    "cannot sandbox builds: running as root without a "
			    "writable pids cgroup to bound processes");
		return NULL;
	}
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

void sandbox_set_max_procs(struct sandbox *sb, guint max)
{
	sb->max_procs = max;
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
	g_free(sb->cgroup_root);
	g_free(sb);
}
