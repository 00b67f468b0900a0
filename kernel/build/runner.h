/* The one way armbot runs an external program: an argv (never a shell), an
 * explicit environment, a working directory, a timeout that kills the
 * whole process group, and a cap on the output kept.  Untrusted code goes
 * through kernel/build/sandbox.h, which builds on this. */
#pragma once

#include <glib.h>

/* Called in the child between fork and exec, after it has become the
 * leader of its own session and process group (async-signal-safe only). */
typedef void (*runner_child_setup_fn)(gpointer data);

struct runner_opts {
	const char *cwd; /* NULL: the caller's */
	const char *const *env; /* the child's whole environment; NULL: empty */
	guint timeout_ms; /* 0: no timeout */
	gsize output_cap; /* bytes kept of the output; 0: RUNNER_OUTPUT_CAP */
	gboolean merge_stderr; /* stderr into the output, else kept apart */
	int nice; /* added to the child's niceness */
	runner_child_setup_fn child_setup;
	gpointer child_setup_data;
	/* extra fds for the child: fds[i] becomes fd 3 + i; the caller keeps
	 * ownership of its copies */
	const int *fds;
	guint n_fds;
	/* NULL-terminated strings that end the run when one shows up in the
	 * output (stdout, or both when merged): the process group is killed
	 * as on timeout and the result's stopped_on names the string; NULL:
	 * the run ends when the child does (or times out) */
	const char *const *stop_on;
};

#define RUNNER_OUTPUT_CAP (64u << 20)
#define RUNNER_OPTS_INIT \
	{                \
		0        \
	}

/* What happened to the child: an outcome, not an error. */
struct runner_result {
	gboolean exited; /* exited by itself: exit_status is valid */
	int exit_status;
	int term_signal; /* killed by this signal (SIGKILL on timeout) */
	gboolean timed_out;
	/* the string of opts->stop_on whose appearance ended the run (the
	 * caller's pointer); NULL: it was not ended so */
	const char *stopped_on;
	/* the output: when longer than the cap, its first and last halves
	 * around a "[... N bytes dropped ...]" line, and truncated is set */
	GString *output;
	GString *errout; /* stderr when not merged */
	gboolean truncated;
	gint64 elapsed_us;
};

/* Run @argv (argv[0] looked up in our PATH when it has no slash) with
 * @opts and wait for it.  Returns FALSE with @error only when the program
 * cannot be started; how it ended is in @out, which the caller clears
 * with runner_result_clear(). */
gboolean runner_run(const char *const *argv, const struct runner_opts *opts,
		    struct runner_result *out, GError **error);

/* TRUE when the child exited by itself with status 0. */
gboolean runner_result_ok(const struct runner_result *result);

/* "exit status 2", "killed by signal 9", "timed out after 12.0 s",
 * "stopped after 'reboot: Power down' in the output";
 * newly allocated. */
char *runner_result_describe(const struct runner_result *result);

void runner_result_clear(struct runner_result *result);

/* The last @n lines of @text as a new string (all of it if fewer). */
char *runner_tail_lines(const char *text, guint n);

/* @arg as one word of a POSIX shell command line, for a reader to paste:
 * as it is when the shell takes every character of it literally (letters,
 * digits and "%+,-./:=@_"), else in single quotes (XCU 2.2.2), '' for an
 * empty one.  Newly allocated. */
char *runner_shell_word(const char *arg);

/* A minimal environment for build tools: PATH, HOME, LANG=C, TZ=UTC, plus
 * the NULL-terminated NAME=VALUE pairs of @extra.  Free with g_strfreev. */
char **runner_env_new(const char *const *extra);
