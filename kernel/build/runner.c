/* Running external programs: GSubprocess in a new session, pipes drained
 * on a private main context, the process group killed on timeout. */
#define _GNU_SOURCE /* memmem */
#include "kernel/build/runner.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct run_state {
	GMainContext *context;
	GSubprocess *proc;
	pid_t pgid;
	gsize half_cap;
	GString *output; /* head, then "[... dropped ...]" and tail */
	GString *tail; /* bytes past the head, the newest half_cap kept */
	guint64 dropped;
	GString *errout;
	int pending; /* open pipes + the wait */
	gboolean timed_out;
	GCancellable *cancel;
	const char *const *stop_on;
	const char *stopped_on;
	/* the last bytes of the output, shorter than the longest stop_on
	 * string: one split across two reads is still found */
	GString *window;
};

struct setup_data {
	const struct runner_opts *opts;
	int pid_fd; /* the child writes its pid here */
};

/* In the child: a session of its own, so that killing -pgid reaches every
 * process it starts (make's jobs, the compilers, qemu). */
static void child_setup(gpointer data)
{
	const struct setup_data *setup = data;
	const struct runner_opts *opts = setup->opts;
	pid_t pid = getpid();

	setsid();
	/* GSubprocess forgets the pid once it has reaped the child, which
	 * may be before we ask (a child that exits at once): the child
	 * tells us, so that its group can still be killed on timeout */
	(void)!write(setup->pid_fd, &pid, sizeof(pid));
	if (opts->nice)
		(void)!nice(opts->nice);
	if (opts->child_setup)
		opts->child_setup(opts->child_setup_data);
}

static void append_output(struct run_state *st, const char *buf, gsize n)
{
	gsize room;

	if (st->output->len < st->half_cap && !st->tail->len) {
		room = st->half_cap - st->output->len;
		if (n <= room) {
			g_string_append_len(st->output, buf, n);
			return;
		}
		g_string_append_len(st->output, buf, room);
		buf += room;
		n -= room;
	}
	g_string_append_len(st->tail, buf, n);
	if (st->tail->len > 2 * st->half_cap) {
		gsize cut = st->tail->len - st->half_cap;

		g_string_erase(st->tail, 0, cut);
		st->dropped += cut;
	}
}

/* Kill the group when one of the stop_on strings is in the output read so
 * far (the window, then @buf). */
static void check_stop(struct run_state *st, const char *buf, gsize n)
{
	gsize longest = 0;

	if (!st->stop_on || st->stopped_on)
		return;
	g_string_append_len(st->window, buf, n);
	for (guint i = 0; st->stop_on[i]; i++) {
		gsize len = strlen(st->stop_on[i]);

		longest = MAX(longest, len);
		if (len && memmem(st->window->str, st->window->len,
				  st->stop_on[i], len)) {
			st->stopped_on = st->stop_on[i];
			if (st->pgid > 0)
				kill(-st->pgid, SIGKILL);
			return;
		}
	}
	if (longest && st->window->len >= longest)
		g_string_erase(st->window, 0, st->window->len - (longest - 1));
}

struct pipe_reader {
	struct run_state *st;
	GInputStream *in;
	gboolean is_err;
	char buf[65536];
};

static void read_done(GObject *src, GAsyncResult *res, gpointer data);

static void read_next(struct pipe_reader *r)
{
	g_input_stream_read_async(r->in, r->buf, sizeof(r->buf),
				  G_PRIORITY_DEFAULT, NULL, read_done, r);
}

static void read_done(GObject *src, GAsyncResult *res, gpointer data)
{
	struct pipe_reader *r = data;
	gssize n = g_input_stream_read_finish(G_INPUT_STREAM(src), res, NULL);

	if (n <= 0) {
		r->st->pending--;
		g_free(r);
		return;
	}
	if (r->is_err) {
		if (r->st->errout->len < r->st->half_cap * 2)
			g_string_append_len(r->st->errout, r->buf, n);
	} else {
		append_output(r->st, r->buf, n);
		check_stop(r->st, r->buf, n);
	}
	read_next(r);
}

static void wait_done(GObject *src, GAsyncResult *res, gpointer data)
{
	struct run_state *st = data;

	g_subprocess_wait_finish(G_SUBPROCESS(src), res, NULL);
	/* the leader is gone: anything left in its group would hold the
	 * pipes open, and nothing may outlive the run */
	if (st->pgid > 0)
		kill(-st->pgid, SIGKILL);
	st->pending--;
}

static gboolean on_timeout(gpointer data)
{
	struct run_state *st = data;

	st->timed_out = TRUE;
	if (st->pgid > 0)
		kill(-st->pgid, SIGKILL);
	return G_SOURCE_REMOVE;
}

static void start_reader(struct run_state *st, GInputStream *in,
			 gboolean is_err)
{
	struct pipe_reader *r;

	if (!in)
		return;
	r = g_new0(struct pipe_reader, 1);
	r->st = st;
	r->in = in;
	r->is_err = is_err;
	st->pending++;
	read_next(r);
}

gboolean runner_run(const char *const *argv, const struct runner_opts *opts,
		    struct runner_result *out, GError **error)
{
	static const char *const empty_env[] = { NULL };
	struct runner_opts defaults = RUNNER_OPTS_INIT;
	g_autoptr(GSubprocessLauncher) launcher = NULL;
	g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GSource) timer = NULL;
	struct setup_data setup;
	int pid_pipe[2];
	pid_t child_pid = 0;
	ssize_t got;
	struct run_state st = { 0 };
	GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDOUT_PIPE;
	gint64 start;
	char *program;
	gsize cap;

	memset(out, 0, sizeof(*out));
	if (!opts)
		opts = &defaults;
	if (!argv || !argv[0]) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
			    "no program to run");
		return FALSE;
	}
	program = strchr(argv[0], '/') ? g_strdup(argv[0]) :
					 g_find_program_in_path(argv[0]);
	if (!program) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
			    "cannot run '%s': not found in PATH", argv[0]);
		return FALSE;
	}
	g_ptr_array_add(args, program);
	for (guint i = 1; argv[i]; i++)
		g_ptr_array_add(args, g_strdup(argv[i]));
	g_ptr_array_add(args, NULL);

	flags |= opts->merge_stderr ? G_SUBPROCESS_FLAGS_STDERR_MERGE :
				      G_SUBPROCESS_FLAGS_STDERR_PIPE;
	launcher = g_subprocess_launcher_new(flags);
	g_subprocess_launcher_set_environ(
		launcher, (char **)(opts->env ? opts->env : empty_env));
	if (opts->cwd)
		g_subprocess_launcher_set_cwd(launcher, opts->cwd);
	for (guint i = 0; i < opts->n_fds; i++) {
		int fd = dup(opts->fds[i]);

		if (fd < 0) {
			g_set_error(error, G_IO_ERROR,
				    g_io_error_from_errno(errno),
				    "cannot pass fd %d: %s", opts->fds[i],
				    g_strerror(errno));
			return FALSE;
		}
		/* the launcher closes its copy */
		g_subprocess_launcher_take_fd(launcher, fd, 3 + (int)i);
	}
	setup.opts = opts;
	/* close-on-exec: GLib keeps it open up to the child setup (gspawn
	 * marks fds close-on-exec rather than closing them when there is
	 * a child setup) */
	if (!g_unix_open_pipe(pid_pipe, FD_CLOEXEC, error)) {
		g_prefix_error(error, "cannot run '%s': ", argv[0]);
		return FALSE;
	}
	setup.pid_fd = pid_pipe[1];
	g_subprocess_launcher_set_child_setup(launcher, child_setup, &setup,
					      NULL);

	cap = opts->output_cap ? opts->output_cap : RUNNER_OUTPUT_CAP;
	st.half_cap = MAX(cap / 2, 1);
	st.output = g_string_new(NULL);
	st.tail = g_string_new(NULL);
	st.errout = g_string_new(NULL);
	st.stop_on = opts->stop_on;
	st.window = g_string_new(NULL);
	st.context = g_main_context_new();
	g_main_context_push_thread_default(st.context);

	start = g_get_monotonic_time();
	st.proc = g_subprocess_launcher_spawnv(
		launcher, (const char *const *)args->pdata, error);
	close(pid_pipe[1]);
	/* the child wrote its pid before exec; EOF if it never got there */
	while ((got = read(pid_pipe[0], &child_pid, sizeof(child_pid))) < 0 &&
	       errno == EINTR)
		;
	close(pid_pipe[0]);
	if (!st.proc) {
		g_prefix_error(error, "cannot run '%s': ", argv[0]);
		g_main_context_pop_thread_default(st.context);
		g_main_context_unref(st.context);
		g_string_free(st.output, TRUE);
		g_string_free(st.tail, TRUE);
		g_string_free(st.errout, TRUE);
		g_string_free(st.window, TRUE);
		return FALSE;
	}
	/* setsid() in the child made its pid the group id */
	st.pgid = got == sizeof(child_pid) ? child_pid : 0;
	start_reader(&st, g_subprocess_get_stdout_pipe(st.proc), FALSE);
	start_reader(&st, g_subprocess_get_stderr_pipe(st.proc), TRUE);
	st.pending++;
	g_subprocess_wait_async(st.proc, NULL, wait_done, &st);
	if (opts->timeout_ms) {
		timer = g_timeout_source_new(opts->timeout_ms);
		g_source_set_callback(timer, on_timeout, &st, NULL);
		g_source_attach(timer, st.context);
	}
	while (st.pending > 0)
		g_main_context_iteration(st.context, TRUE);
	if (timer)
		g_source_destroy(timer);

	out->elapsed_us = g_get_monotonic_time() - start;
	out->timed_out = st.timed_out;
	out->stopped_on = st.timed_out ? NULL : st.stopped_on;
	if (g_subprocess_get_if_exited(st.proc)) {
		out->exited = TRUE;
		out->exit_status = g_subprocess_get_exit_status(st.proc);
	} else if (g_subprocess_get_if_signaled(st.proc)) {
		out->term_signal = g_subprocess_get_term_sig(st.proc);
	}
	if (st.dropped || st.tail->len > st.half_cap) {
		gsize extra = st.tail->len > st.half_cap ?
				      st.tail->len - st.half_cap :
				      0;

		out->truncated = TRUE;
		g_string_append_printf(st.output,
				       "\n[... %" G_GUINT64_FORMAT
				       " bytes dropped ...]\n",
				       st.dropped + extra);
		g_string_append_len(st.output, st.tail->str + extra,
				    st.tail->len - extra);
	} else {
		g_string_append_len(st.output, st.tail->str, st.tail->len);
	}
	g_string_free(st.tail, TRUE);
	g_string_free(st.window, TRUE);
	out->output = st.output;
	out->errout = st.errout;
	g_object_unref(st.proc);
	g_main_context_pop_thread_default(st.context);
	g_main_context_unref(st.context);
	return TRUE;
}

gboolean runner_result_ok(const struct runner_result *result)
{
	return result->exited && result->exit_status == 0 && !result->timed_out;
}

char *runner_result_describe(const struct runner_result *result)
{
	if (result->timed_out)
		return g_strdup_printf("timed out after %.1f s",
				       result->elapsed_us / 1e6);
	if (result->stopped_on)
		return g_strdup_printf("stopped after '%s' in the output",
				       result->stopped_on);
	if (result->exited)
		return g_strdup_printf("exit status %d", result->exit_status);
	return g_strdup_printf("killed by signal %d", result->term_signal);
}

void runner_result_clear(struct runner_result *result)
{
	if (result->output)
		g_string_free(result->output, TRUE);
	if (result->errout)
		g_string_free(result->errout, TRUE);
	memset(result, 0, sizeof(*result));
}

char *runner_tail_lines(const char *text, guint n)
{
	const char *p = text + strlen(text);
	guint seen = 0;

	if (!n)
		return g_strdup("");
	/* a final newline does not start an empty last line */
	if (p > text && p[-1] == '\n')
		p--;
	for (; p > text; p--)
		if (p[-1] == '\n' && ++seen == n)
			break;
	return g_strdup(p);
}

char *runner_shell_word(const char *arg)
{
	GString *out;

	if (!*arg)
		return g_strdup("''");
	if (arg[strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789%+,-./:=@_")] == '\0')
		return g_strdup(arg);
	/* POSIX XCU 2.2.2: nothing is special between single quotes, and a
	 * single quote itself cannot be: close, escape it, reopen */
	out = g_string_new("'");
	for (const char *p = arg; *p; p++) {
		if (*p == '\'')
			g_string_append(out, "'\\''");
		else
			g_string_append_c(out, *p);
	}
	g_string_append_c(out, '\'');
	return g_string_free(out, FALSE);
}

char **runner_env_new(const char *const *extra)
{
	GStrvBuilder *b = g_strv_builder_new();
	char **env;

	g_strv_builder_add(b, "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:"
			      "/sbin");
	g_strv_builder_add(b, "LANG=C");
	g_strv_builder_add(b, "LC_ALL=C");
	g_strv_builder_add(b, "TZ=UTC");
	if (g_getenv("HOME")) {
		g_autofree char *home =
			g_strconcat("HOME=", g_getenv("HOME"), NULL);

		g_strv_builder_add(b, home);
	}
	for (guint i = 0; extra && extra[i]; i++)
		g_strv_builder_add(b, extra[i]);
	env = g_strv_builder_end(b);
	g_strv_builder_unref(b);
	return env;
}
