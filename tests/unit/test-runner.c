/* Unit tests for kernel/build/runner.c and kernel/build/sandbox.c with real programs:
 * environment, working directory, output cap, the timeout killing the
 * whole process group, and what the sandbox lets through. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "kernel/build/runner.h"
#include "kernel/build/sandbox.h"

static void run_ok(const char *const *argv, const struct runner_opts *o,
		   struct runner_result *r)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(runner_run(argv, o, r, &error));
	g_assert_no_error(error);
}

static void test_env_and_cwd(void)
{
	const char *argv[] = { "sh", "-c",
			       "echo \"$FOO|$HOME|$(pwd)\"; "
			       "echo err >&2; exit 3",
			       NULL };
	const char *env[] = { "FOO=bar", "PATH=/usr/bin:/bin", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;

	o.env = env;
	o.cwd = "/";
	run_ok(argv, &o, &r);
	g_assert_true(r.exited);
	g_assert_cmpint(r.exit_status, ==, 3);
	g_assert_false(runner_result_ok(&r));
	/* HOME is not passed on: the environment is exactly @env */
	g_assert_cmpstr(r.output->str, ==, "bar||/\n");
	g_assert_cmpstr(r.errout->str, ==, "err\n");
	runner_result_clear(&r);
}

static void test_missing_program(void)
{
	const char *argv[] = { "armbot-no-such-program", NULL };
	g_autoptr(GError) error = NULL;
	struct runner_result r;

	g_assert_false(runner_run(argv, NULL, &r, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* Running or sleeping, not dead and not a zombie (/proc/PID/stat). */
static gboolean process_alive(pid_t pid)
{
	g_autofree char *path = g_strdup_printf("/proc/%d/stat", (int)pid);
	g_autofree char *stat = NULL;
	const char *close;

	if (!g_file_get_contents(path, &stat, NULL, NULL))
		return FALSE;
	close = strrchr(stat, ')');
	return close && close[1] == ' ' && close[2] != 'Z' && close[2] != 'X';
}

/* The timeout kills the process group: a background grandchild holding
 * the pipe open does not keep the run alive, and does not survive it. */
static void test_timeout_kills_group(void)
{
	g_autofree char *pidfile =
		g_build_filename(g_get_tmp_dir(), "armbot-runner-XXXXXX", NULL);
	g_autofree char *script = NULL;
	g_autofree char *pidtext = NULL;
	const char *argv[] = { "sh", "-c", NULL, NULL };
	const char *env[] = { "PATH=/usr/bin:/bin", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	int fd = g_mkstemp(pidfile);
	pid_t grandchild;

	g_assert_cmpint(fd, >=, 0);
	close(fd);
	script = g_strdup_printf("sleep 60 & echo $! > %s; echo started; "
				 "wait",
				 pidfile);
	argv[2] = script;
	o.env = env;
	o.timeout_ms = 300;
	run_ok(argv, &o, &r);
	g_assert_true(r.timed_out);
	g_assert_false(r.exited);
	g_assert_cmpint(r.term_signal, ==, SIGKILL);
	g_assert_cmpstr(r.output->str, ==, "started\n");
	g_assert_cmpint(r.elapsed_us, <, 10 * G_USEC_PER_SEC);
	g_assert_true(g_file_get_contents(pidfile, &pidtext, NULL, NULL));
	grandchild = (pid_t)atoi(pidtext);
	g_assert_cmpint(grandchild, >, 0);
	/* killed: gone, or a zombie until its new parent reaps it */
	for (int i = 0; i < 100 && process_alive(grandchild); i++)
		g_usleep(10000);
	g_assert_false(process_alive(grandchild));
	g_unlink(pidfile);
	runner_result_clear(&r);
}

/* More output than the cap: its head and tail around a marker. */
static void test_output_cap(void)
{
	const char *argv[] = { "sh", "-c",
			       "echo first; seq 1 100000; echo last", NULL };
	const char *env[] = { "PATH=/usr/bin:/bin", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_autofree char *tail = NULL;

	o.env = env;
	o.output_cap = 1000;
	run_ok(argv, &o, &r);
	g_assert_true(runner_result_ok(&r));
	g_assert_true(r.truncated);
	g_assert_true(g_str_has_prefix(r.output->str, "first\n1\n2\n"));
	g_assert_true(g_str_has_suffix(r.output->str, "99999\n100000\nlast\n"));
	g_assert_nonnull(strstr(r.output->str, " bytes dropped ...]\n"));
	g_assert_cmpuint(r.output->len, <, 1100);
	tail = runner_tail_lines(r.output->str, 2);
	g_assert_cmpstr(tail, ==, "100000\nlast\n");
	runner_result_clear(&r);
}

static void test_tail_lines(void)
{
	g_autofree char *a = runner_tail_lines("a\nb\nc", 2);
	g_autofree char *b = runner_tail_lines("a\nb\n", 5);
	g_autofree char *c = runner_tail_lines("a\nb\n", 0);

	g_assert_cmpstr(a, ==, "b\nc");
	g_assert_cmpstr(b, ==, "a\nb\n");
	g_assert_cmpstr(c, ==, "");
}

static struct sandbox *sandbox_or_skip(void)
{
	g_autoptr(GError) error = NULL;
	struct sandbox *sb = sandbox_new(&error);

	if (!sb)
		g_test_skip(error->message);
	return sb;
}

/* Inside: no network but loopback, /usr read-only, the writable dir
 * writable, a private /tmp that is $HOME, a new PID namespace, an
 * unprivileged uid without capabilities, and nothing else of the host:
 * not its /etc, not our $HOME, not the directory the test runs in. */
static void test_sandbox(void)
{
	g_autoptr(sandbox) sb = sandbox_or_skip();
	g_autofree char *dir = NULL;
	g_autofree char *script = NULL;
	g_autofree char *written = NULL;
	g_autofree char *inside = NULL;
	g_autofree char *base = NULL;
	g_autofree char *cwd = g_get_current_dir();
	g_autofree char *describe = NULL;
	const char *argv[] = { "sh", "-c", NULL, NULL };
	const char *env[] = { "PATH=/usr/bin:/bin", "HOME=/root", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_autoptr(GError) error = NULL;
	gboolean userns;

	if (!sb)
		return;
	describe = sandbox_describe(sb);
	userns = g_str_has_prefix(describe, "user namespace");
	dir = g_dir_make_tmp("armbot-sandbox-XXXXXX", &error);
	g_assert_no_error(error);
	sandbox_add_writable(sb, dir);
	script = g_strdup_printf(
		"tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; "
		"touch /usr/armbot-sandbox-test 2>/dev/null && echo host-rw || "
		"echo host-ro; "
		"touch /armbot-sandbox-test 2>/dev/null && echo root-rw || "
		"echo root-ro; "
		"echo hi > %s/out && echo dir-rw; "
		"ls -A /tmp; echo $$; pwd; echo \"HOME=$HOME\"; "
		"ls /etc; "
		"for p in /root /home /var /etc/passwd /sys '%s' \"%s\"; do "
		"test -e \"$p\" && echo \"visible: $p\"; done; "
		"id -u; id -g; sed -n 's/^CapEff:[[:space:]]*//p' "
		"/proc/self/status",
		dir, cwd, g_get_home_dir());
	argv[2] = script;
	o.env = env;
	o.cwd = dir;
	o.timeout_ms = 30000;
	g_assert_true(sandbox_run(sb, argv, &o, &r, &error));
	g_assert_no_error(error);
	g_assert_true(runner_result_ok(&r));
	/* /tmp is empty but for the mount point of the writable dir */
	base = g_path_get_basename(dir);
	inside = g_strdup_printf(
		"lo\nhost-ro\nroot-ro\ndir-rw\n%s%s2\n%s\nHOME=%s\n"
		"alternatives\nld.so.cache\n%s",
		g_str_has_prefix(dir, "/tmp/") ? base : "",
		g_str_has_prefix(dir, "/tmp/") ? "\n" : "", dir, SANDBOX_HOME,
		userns ? "1000\n1000\n0000000000000000\n" : "0\n0\n");
	if (userns)
		g_assert_cmpstr(r.output->str, ==, inside);
	else
		g_assert_true(g_str_has_prefix(r.output->str, inside));
	runner_result_clear(&r);
	written = g_build_filename(dir, "out", NULL);
	g_assert_true(g_file_test(written, G_FILE_TEST_IS_REGULAR));
	g_unlink(written);
	g_rmdir(dir);
}

/* A sandbox that cannot be set up runs nothing and says so. */
static void test_sandbox_fails_closed(void)
{
	g_autoptr(sandbox) sb = sandbox_or_skip();
	const char *argv[] = { "touch", "/tmp/armbot-should-not-run", NULL };
	const char *env[] = { "PATH=/usr/bin:/bin", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	g_autoptr(GError) error = NULL;

	if (!sb)
		return;
	sandbox_add_writable(sb, "/nonexistent/armbot/dir");
	o.env = env;
	g_assert_false(sandbox_run(sb, argv, &o, &r, &error));
	g_assert_nonnull(error);
	g_assert_nonnull(strstr(error->message, "bwrap could not set up"));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/runner/env-and-cwd", test_env_and_cwd);
	g_test_add_func("/runner/missing-program", test_missing_program);
	g_test_add_func("/runner/timeout-kills-group",
			test_timeout_kills_group);
	g_test_add_func("/runner/output-cap", test_output_cap);
	g_test_add_func("/runner/tail-lines", test_tail_lines);
	g_test_add_func("/sandbox/isolation", test_sandbox);
	g_test_add_func("/sandbox/fails-closed", test_sandbox_fails_closed);
	return g_test_run();
}
