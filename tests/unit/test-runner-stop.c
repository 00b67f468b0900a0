/* Unit tests for runner_opts.stop_on (kernel/build/runner.c) with real
 * programs: a string of the list in the output ends the run, even when it
 * arrives split across two reads, and a run that never prints one ends
 * as it would without the list. */
#include <signal.h>
#include <string.h>

#include "kernel/build/runner.h"

static const char *const stops[] = { "reboot: Power down",
				     "reboot: System halted", NULL };

/* Run `sh -c @script` with stop_on set to stops[] and a timeout of
 * @timeout_ms, stderr merged into the output; the run itself must not
 * fail.  Clear @r with runner_result_clear(). */
static void run_sh(const char *script, guint timeout_ms,
		   struct runner_result *r)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	const char *env[] = { "PATH=/usr/bin:/bin", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	g_autoptr(GError) error = NULL;

	o.env = env;
	o.merge_stderr = TRUE;
	o.timeout_ms = timeout_ms;
	o.stop_on = stops;
	g_assert_true(runner_run(argv, &o, r, &error));
	g_assert_no_error(error);
}

/* The machine "halts" and spins: the run ends at the string, long
 * before the timeout, and says so. */
static void test_stop_split_string(void)
{
	struct runner_result r;
	g_autofree char *how = NULL;

	run_sh("echo booting; printf 'reboot: Power'; "
	       "sleep 0.3; echo ' down'; sleep 60",
	       30000, &r);
	g_assert_true(r.stopped_on == stops[0]);
	g_assert_false(r.timed_out);
	g_assert_false(r.exited);
	g_assert_cmpint(r.term_signal, ==, SIGKILL);
	g_assert_false(runner_result_ok(&r));
	g_assert_cmpint(r.elapsed_us, <, 10 * G_USEC_PER_SEC);
	g_assert_true(g_str_has_prefix(r.output->str,
				       "booting\nreboot: Power down\n"));
	how = runner_result_describe(&r);
	g_assert_cmpstr(how, ==,
			"stopped after 'reboot: Power down' in the output");
	runner_result_clear(&r);
}

/* The second string of the list; a NUL before it does not hide it. */
static void test_stop_second_string(void)
{
	struct runner_result r;

	run_sh("printf 'a\\000b\\nreboot: System halted\\n'; sleep 60", 30000,
	       &r);
	g_assert_true(r.stopped_on == stops[1]);
	g_assert_false(r.timed_out);
	runner_result_clear(&r);
}

/* No string of the list: the child's own exit, or the timeout, as
 * without one; an almost-match is not a match. */
static void test_no_stop(void)
{
	struct runner_result r;

	run_sh("echo 'reboot: Power dow'; exit 0", 30000, &r);
	g_assert_null(r.stopped_on);
	g_assert_true(runner_result_ok(&r));
	runner_result_clear(&r);

	run_sh("echo 'reboot: Power'; sleep 60", 300, &r);
	g_assert_null(r.stopped_on);
	g_assert_true(r.timed_out);
	runner_result_clear(&r);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/runner/stop-split-string", test_stop_split_string);
	g_test_add_func("/runner/stop-second-string", test_stop_second_string);
	g_test_add_func("/runner/no-stop", test_no_stop);
	return g_test_run();
}
