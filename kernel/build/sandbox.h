/* Untrusted work (a series' kernel build, the kernel it boots) runs in a
 * bubblewrap sandbox: its own network, IPC, PID and UTS namespaces, the
 * host read-only, only the directories named writable plus a private
 * /tmp, a new session, resource limits (processes, file size, CPU time
 * per process as a backstop: cores x the timeout).  If bwrap cannot set the sandbox
 * up, nothing runs: there is no unsandboxed fallback. */
#pragma once

#include <glib.h>

#include "kernel/build/runner.h"

struct sandbox;

/* A sandbox with no writable directory yet.  Checks once that bwrap can
 * set up these namespaces here; NULL with @error when it cannot. */
struct sandbox *sandbox_new(GError **error);

/* Let the sandboxed programs write to @dir (bound at the same path). */
void sandbox_add_writable(struct sandbox *sb, const char *dir);

/* At most this many processes at once inside (SANDBOX_MAX_PROCS by
 * default): a pids cgroup per run when one can be created (which also
 * lets every leftover process be killed after the run), else
 * RLIMIT_NPROC. */
#define SANDBOX_MAX_PROCS 512u
void sandbox_set_max_procs(struct sandbox *sb, guint max);

/* Make @dir visible read-only even where the sandbox hides the host (its
 * private /tmp). */
void sandbox_add_readonly(struct sandbox *sb, const char *dir);

/* runner_run() of @argv inside the sandbox.  @opts->env is the whole
 * environment inside; @opts->cwd must be visible in the sandbox.  FALSE
 * with @error when the program cannot start or the sandbox was not set up
 * (then nothing ran); otherwise how it ended is in @out. */
gboolean sandbox_run(struct sandbox *sb, const char *const *argv,
		     const struct runner_opts *opts, struct runner_result *out,
		     GError **error);

void sandbox_free(struct sandbox *sb);
typedef struct sandbox sandbox;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(sandbox, sandbox_free)
