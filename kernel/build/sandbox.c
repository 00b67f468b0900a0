/* The bubblewrap sandbox.  bwrap reports on --json-status-fd how the
 * sandboxed program ended ("exit-code"); a run without that report failed
 * to set up (or to exec) and is an error, never a result.
 *
 * The runner's timeout kills bwrap's process group; the program itself is
 * in a session of its own (--new-session) but dies with bwrap: it is
 * --die-with-parent, the PID namespace ends with its init, and the run's
 * cgroup is emptied by SIGKILL after the run. */
#define _GNU_SOURCE /* setns */
#include "kernel/build/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/build/sandbox-cgroup.h"
#include "kernel/build/sandbox-filter.h"

/* The uid and gid of the build inside its user namespace: not 0, so that
 * bwrap drops every capability (a process with CAP_NET_ADMIN in its own
 * namespace reaches netfilter, a frequent local-root path).  Files it
 * writes belong to armbot's own uid outside. */
#define SANDBOX_UID "1000"

/* What this host allows, found once per process (sandbox_new). */
struct sandbox_host {
	struct sandbox_cgroup_roots roots;
	GBytes *filter; /* seccomp BPF */
	gboolean userns;
	guint64 max_memory; /* the default, $ARMBOT_SANDBOX_MEMORY */
	char *error; /* why builds cannot be sandboxed here; or NULL */
};

struct sandbox_bind {
	char *src;
	char *dest;
	gboolean writable;
};

struct sandbox {
	const struct sandbox_host *host;
	gboolean userns; /* host->userns, but the probe tries both */
	GPtrArray *binds; /* struct sandbox_bind */
	guint max_procs;
	guint64 max_memory;
	gboolean host_network; /* --share-net */
	int netns; /* a network namespace entered before bwrap, or -1 */
};

/* What the child needs before exec: set up in the parent, so that the
 * child only makes async-signal-safe calls. */
struct sandbox_child {
	const char *procs[2]; /* cgroup.procs files to join; NULL: none */
	gboolean nproc; /* RLIMIT_NPROC: no pids cgroup */
	guint max_procs;
	guint64 max_data; /* RLIMIT_DATA, 0: none (a memory cgroup) */
	guint cpu_s;
	int netns; /* setns() into it before exec, or -1 */
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
	struct rlimit data_lim = { c->max_data, c->max_data };
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	/* nothing to read: not the terminal of whoever started armbot */
	if (null < 0 || dup2(null, 0) < 0)
		child_fail("sandbox: cannot open /dev/null\n");
	close(null);
	setrlimit(RLIMIT_CORE, &none);
	setrlimit(RLIMIT_NOFILE, &files);
	setrlimit(RLIMIT_FSIZE, &fsize);
	if (c->cpu_s)
		setrlimit(RLIMIT_CPU, &cpu);
	if (c->max_data && setrlimit(RLIMIT_DATA, &data_lim) != 0)
		child_fail("sandbox: cannot limit memory\n");
	for (int i = 0; i < 2 && c->procs[i]; i++) {
		/* "0" is the writer itself (kernel/cgroup/cgroup.c,
		 * cgroup_procs_write_start); the sandbox's processes are
		 * all forked from here, so all of them count */
		int fd = open(c->procs[i], O_WRONLY | O_CLOEXEC);

		if (fd < 0 || write(fd, "0", 1) != 1)
			child_fail("sandbox: cannot join the run's cgroup\n");
		close(fd);
	}
	if (c->nproc && setrlimit(RLIMIT_NPROC, &nproc) != 0)
		child_fail("sandbox: cannot limit processes\n");
	if (c->netns >= 0 && setns(c->netns, CLONE_NEWNET) != 0)
		child_fail("sandbox: cannot enter the network namespace\n");
}

static void add_args(GPtrArray *a, ...) G_GNUC_NULL_TERMINATED;
static void add_args(GPtrArray *a, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, a);
	while ((s = va_arg(ap, const char *)))
		g_ptr_array_add(a, g_strdup(s));
	va_end(ap);
}

/* The top-level directories of a merged /usr (Debian 12: links into
 * /usr), as the host has them: a link is made again, a directory bound. */
static void add_usr_links(GPtrArray *a)
{
	static const char *const names[] = { "/bin",   "/sbin",	 "/lib",
					     "/lib32", "/lib64", "/libx32" };

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *target = NULL;
		GStatBuf st;

		if (g_lstat(names[i], &st) != 0)
			continue;
		if (S_ISLNK(st.st_mode) &&
		    (target = g_file_read_link(names[i], NULL)))
			add_args(a, "--symlink", target, names[i], NULL);
		else if (S_ISDIR(st.st_mode))
			add_args(a, "--ro-bind", names[i], names[i], NULL);
	}
}

/* bwrap's arguments up to "--"; the status goes to fd 3, the filter is
 * read from fd 4. */
static GPtrArray *bwrap_argv(const struct sandbox *sb, const char *cwd)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	add_args(a, "bwrap", "--unshare-all", "--die-with-parent",
		 "--new-session", NULL);
	/* the namespace entered before bwrap (sandbox_set_netns()) is the
	 * one bwrap keeps */
	if (sb->host_network || sb->netns >= 0)
		add_args(a, "--share-net", NULL);
	if (sb->userns)
		add_args(a, "--unshare-user", "--disable-userns", "--uid",
			 SANDBOX_UID, "--gid", SANDBOX_UID, NULL);
	else
		/* root without a user namespace: uid 0 without capabilities */
		add_args(a, "--cap-drop", "ALL", NULL);
	add_args(a, "--ro-bind", "/usr", "/usr", NULL);
	add_usr_links(a);
	/* of /etc: the alternatives links (awk, cc, ...) and ld.so's cache
	 * (the multiarch library directories are not in its defaults) */
	add_args(a, "--ro-bind-try", "/etc/alternatives", "/etc/alternatives",
		 "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",
		 "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", NULL);
	/* after --tmpfs /tmp, so that directories under /tmp show through */
	for (guint i = 0; i < sb->binds->len; i++) {
		const struct sandbox_bind *b = sb->binds->pdata[i];

		add_args(a, b->writable ? "--bind" : "--ro-bind", b->src,
			 b->dest, NULL);
	}
	/* the directories made for the mount points stay as they are */
	add_args(a, "--remount-ro", "/", "--json-status-fd", "3", "--seccomp",
		 "4", NULL);
	if (cwd)
		add_args(a, "--chdir", cwd, NULL);
	add_args(a, "--", NULL);
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

/* @env with HOME=SANDBOX_HOME in place of the caller's. */
static char **sandbox_env(const char *const *env)
{
	GStrvBuilder *b = g_strv_builder_new();
	char **out;

	for (guint i = 0; env && env[i]; i++)
		if (!g_str_has_prefix(env[i], "HOME="))
			g_strv_builder_add(b, env[i]);
	g_strv_builder_add(b, "HOME=" SANDBOX_HOME);
	out = g_strv_builder_end(b);
	g_strv_builder_unref(b);
	return out;
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

/* A pipe whose read end holds @bytes, then EOF (the filter, for bwrap's
 * --seccomp: it reads to the end).  The filter is far smaller than a
 * pipe's buffer (sandbox_host_probe() checks). */
static int bytes_pipe(GBytes *bytes, GError **error)
{
	int p[2];
	gsize len;
	const char *data = g_bytes_get_data(bytes, &len);

	if (!g_unix_open_pipe(p, FD_CLOEXEC, error))
		return -1;
	while (len) {
		ssize_t n = write(p[1], data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			g_set_error(error, G_IO_ERROR,
				    g_io_error_from_errno(errno),
				    "cannot pass the seccomp filter: %s",
				    g_strerror(errno));
			close(p[0]);
			close(p[1]);
			return -1;
		}
		data += n;
		len -= n;
	}
	close(p[1]);
	return p[0];
}

/* The "[sandbox: ...]" lines for limits the run reached. */
static void say_limits(const struct sandbox *sb,
		       const struct sandbox_cgroup_events *ev, GString *out)
{
	if (ev->forks_refused)
		g_string_append_printf(out,
				       "[sandbox: process limit of %u reached, "
				       "%" G_GUINT64_FORMAT " forks refused]\n",
				       sb->max_procs, ev->forks_refused);
	if (ev->oom_kills)
		g_string_append_printf(
			out,
			"[sandbox: memory limit of %" G_GUINT64_FORMAT
			" MiB reached, %" G_GUINT64_FORMAT
			" process%s killed]\n",
			sb->max_memory >> 20, ev->oom_kills,
			ev->oom_kills == 1 ? "" : "es");
}

gboolean sandbox_run(struct sandbox *sb, const char *const *argv,
		     const struct runner_opts *opts, struct runner_result *out,
		     GError **error)
{
	const struct sandbox_host *host = sb->host;
	g_autoptr(GPtrArray) args = bwrap_argv(sb, opts ? opts->cwd : NULL);
	struct runner_opts o = RUNNER_OPTS_INIT;
	g_autofree char *status = NULL;
	g_auto(GStrv) env = NULL;
	struct sandbox_cgroup cg;
	struct sandbox_cgroup_events ev = { 0 };
	struct sandbox_child child = { 0 };
	int status_pipe[2];
	int fds[2];
	int filter_fd;
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
	env = sandbox_env(o.env);
	o.env = (const char *const *)env;
	child.max_procs = sb->max_procs;
	child.netns = sb->netns;
	child.nproc = !host->roots.pids;
	child.max_data = host->roots.memory ? 0 : sb->max_memory;
	/* CPU time per process, a backstop behind the wall-clock timeout:
	 * a process with a thread per core (QEMU) could use cores x wall
	 * time, and must still end by the timeout, not by SIGXCPU */
	child.cpu_s = o.timeout_ms ? (o.timeout_ms / 1000 + 1) *
					     g_get_num_processors() :
				     0;
	if (!sandbox_cgroup_make(&host->roots, sb->max_procs, sb->max_memory,
				 &cg, error)) {
		g_prefix_error(error, "sandbox: ");
		return FALSE;
	}
	for (int i = 0; i < 2; i++)
		child.procs[i] = cg.procs[i];
	filter_fd = bytes_pipe(host->filter, error);
	if (filter_fd < 0) {
		sandbox_cgroup_destroy(&cg, NULL);
		return FALSE;
	}
	if (!g_unix_open_pipe(status_pipe, FD_CLOEXEC, error)) {
		g_prefix_error(error, "sandbox: ");
		close(filter_fd);
		sandbox_cgroup_destroy(&cg, NULL);
		return FALSE;
	}
	fds[0] = status_pipe[1];
	fds[1] = filter_fd;
	o.fds = fds;
	o.n_fds = 2;
	o.child_setup = sandbox_limits;
	o.child_setup_data = &child;
	/* bwrap does the chdir once the mounts are set up */
	o.cwd = NULL;
	ran = runner_run((const char *const *)args->pdata, &o, out, error);
	close(status_pipe[1]);
	close(filter_fd);
	status = read_all(status_pipe[0]);
	close(status_pipe[0]);
	sandbox_cgroup_destroy(&cg, &ev);
	if (!ran)
		return FALSE;
	/* the reason a fork bomb or a memory hog failed, in its log */
	say_limits(sb, &ev, out->output);
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

/* "6G", "512M", "4096K", "1073741824" as bytes; FALSE when it is none of
 * these. */
static gboolean parse_size(const char *text, guint64 *out)
{
	char *end = NULL;
	guint64 n;
	guint shift = 0;

	if (!g_ascii_isdigit(*text))
		return FALSE;
	errno = 0;
	n = g_ascii_strtoull(text, &end, 10);
	if (errno)
		return FALSE;
	switch (g_ascii_toupper(*end)) {
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case '\0':
		break;
	default:
		return FALSE;
	}
	if (*end && (end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B")))
		return FALSE;
	if (n > (G_MAXUINT64 >> shift))
		return FALSE;
	*out = n << shift;
	return TRUE;
}

/* Whether bwrap sets a sandbox up here with @userns (and everything
 * else): it runs `true`.  FALSE with @error, bwrap's words, when not. */
static gboolean probe(struct sandbox_host *host, gboolean userns,
		      GError **error)
{
	static const char *const argv[] = { "true", NULL };
	struct sandbox sb = { .netns = -1 };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_auto(GStrv) env = runner_env_new(NULL);
	gboolean ok;

	sb.host = host;
	sb.userns = userns;
	sb.binds = g_ptr_array_new();
	sb.max_procs = SANDBOX_MAX_PROCS;
	sb.max_memory = host->max_memory;
	o.env = (const char *const *)env;
	o.timeout_ms = 30000;
	ok = sandbox_run(&sb, argv, &o, &r, error);
	g_ptr_array_unref(sb.binds);
	if (!ok)
		return FALSE;
	if (!runner_result_ok(&r)) {
		g_autofree char *how = runner_result_describe(&r);

		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "probe %s: %s", how, r.output->str);
		runner_result_clear(&r);
		return FALSE;
	}
	runner_result_clear(&r);
	return TRUE;
}

/* Find out what this host allows; host->error says when builds cannot
 * be sandboxed at all. */
static void sandbox_host_probe(struct sandbox_host *host)
{
	const char *mem = g_getenv("ARMBOT_SANDBOX_MEMORY");
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) userns_error = NULL;

	host->max_memory = SANDBOX_MAX_MEMORY;
	if (mem && *mem && !parse_size(mem, &host->max_memory)) {
		host->error = g_strdup_printf(
			"ARMBOT_SANDBOX_MEMORY='%s' is not a size (bytes, or "
			"with K, M or G)",
			mem);
		return;
	}
	host->filter = sandbox_filter_new(&error);
	if (!host->filter) {
		host->error = g_strdup(error->message);
		return;
	}
	if (g_bytes_get_size(host->filter) >= 65536) {
		host->error = g_strdup("the seccomp filter does not fit in "
				       "a pipe");
		return;
	}
	sandbox_cgroup_roots_find(&host->roots);
	/* RLIMIT_NPROC does not bind root (kernel/fork.c, copy_process):
	 * without a pids cgroup a fork bomb would be bounded only by the
	 * host's pid_max, so root does not build at all */
	if (!host->roots.pids && geteuid() == 0) {
		host->error = g_strdup("running as root without a writable "
				       "pids cgroup to bound processes");
		return;
	}
	if (probe(host, TRUE, &userns_error)) {
		host->userns = TRUE;
		return;
	}
	/* bwrap without setuid needs a user namespace for anyone but root
	 * (user.max_user_namespaces, Debian's
	 * kernel.unprivileged_userns_clone) */
	if (geteuid() != 0) {
		host->error = g_strdup(userns_error->message);
		return;
	}
	if (!probe(host, FALSE, &error)) {
		host->error = g_strdup(error->message);
		return;
	}
	g_message("sandbox: no user namespace here (%s)",
		g_strstrip(userns_error->message));
}

static const struct sandbox_host *sandbox_host_get(void)
{
	static struct sandbox_host *host;

	if (g_once_init_enter(&host)) {
		struct sandbox_host *h = g_new0(struct sandbox_host, 1);

		sandbox_host_probe(h);
		g_once_init_leave(&host, h);
	}
	return host;
}

char *sandbox_describe(const struct sandbox *sb)
{
	const struct sandbox_host *host = sb->host;
	GString *s = g_string_new(NULL);

	if (sb->userns)
		g_string_append(s, "user namespace (uid " SANDBOX_UID ")");
	else
		g_string_append(s, "no user namespace: uid 0 without "
				   "capabilities");
	g_string_append(s, ", seccomp");
	if (host->roots.pids)
		g_string_append_printf(s, ", pids cgroup (%u)", sb->max_procs);
	else
		g_string_append_printf(s, ", no pids cgroup: RLIMIT_NPROC %u",
				       sb->max_procs);
	if (!sb->max_memory)
		g_string_append(s, ", no memory limit");
	else if (host->roots.memory)
		g_string_append_printf(s,
				       ", memory cgroup %s (%" G_GUINT64_FORMAT
				       " MiB)",
				       host->roots.memory_v2 ? "v2" : "v1",
				       sb->max_memory >> 20);
	else
		g_string_append_printf(s,
				       ", no memory cgroup: RLIMIT_DATA "
				       "%" G_GUINT64_FORMAT " MiB per process",
				       sb->max_memory >> 20);
	return g_string_free(s, FALSE);
}

struct sandbox *sandbox_new(GError **error)
{
	static gsize logged;
	const struct sandbox_host *host = sandbox_host_get();
	struct sandbox *sb;

	if (host->error) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
			    "cannot sandbox builds: %s", host->error);
		return NULL;
	}
	sb = g_new0(struct sandbox, 1);
	sb->host = host;
	sb->userns = host->userns;
	sb->binds = g_ptr_array_new();
	sb->max_procs = SANDBOX_MAX_PROCS;
	sb->netns = -1;
	sb->max_memory = host->max_memory;
	/* what is missing here, once: each is a weaker fallback */
	if ((!host->userns || !host->roots.pids || !host->roots.memory) &&
	    g_once_init_enter(&logged)) {
		g_autofree char *what = sandbox_describe(sb);

		g_message("sandbox: %s", what);
		g_once_init_leave(&logged, 1);
	}
	return sb;
}

void sandbox_add_bind(struct sandbox *sb, const char *src, const char *dest,
		      gboolean writable)
{
	struct sandbox_bind *b = g_new0(struct sandbox_bind, 1);

	b->src = g_strdup(src);
	b->dest = g_strdup(dest);
	b->writable = writable;
	g_ptr_array_add(sb->binds, b);
}

void sandbox_add_writable(struct sandbox *sb, const char *dir)
{
	sandbox_add_bind(sb, dir, dir, TRUE);
}

void sandbox_add_readonly(struct sandbox *sb, const char *dir)
{
	sandbox_add_bind(sb, dir, dir, FALSE);
}

static void bind_free(struct sandbox_bind *b)
{
	g_free(b->src);
	g_free(b->dest);
	g_free(b);
}

void sandbox_clear_binds(struct sandbox *sb)
{
	for (guint i = 0; i < sb->binds->len; i++)
		bind_free(sb->binds->pdata[i]);
	g_ptr_array_set_size(sb->binds, 0);
}

void sandbox_set_host_network(struct sandbox *sb, gboolean on)
{
	sb->host_network = on;
}

void sandbox_set_netns(struct sandbox *sb, int fd)
{
	sb->netns = fd;
}

void sandbox_set_max_procs(struct sandbox *sb, guint max)
{
	sb->max_procs = max;
}

void sandbox_set_max_memory(struct sandbox *sb, guint64 bytes)
{
	sb->max_memory = bytes;
}

void sandbox_free(struct sandbox *sb)
{
	if (!sb)
		return;
	sandbox_clear_binds(sb);
	g_ptr_array_unref(sb->binds);
	g_free(sb);
}
