/* Untrusted work (a series' kernel build, the kernel it boots) runs in a
 * bubblewrap sandbox that shows it only what it needs:
 *
 * - a root of its own: /usr (the toolchain, system headers, QEMU's
 *   firmware) read-only with the merged-/usr links, of /etc only the
 *   alternatives links and the dynamic linker's cache, a private /tmp
 *   that is also $HOME, a minimal /dev and the sandbox's own /proc; then
 *   only the directories the caller adds (the kernel tree read-only, the
 *   build dir read-write).  Nothing else of the host: not $HOME, not the
 *   data dir, no password file;
 * - every namespace new (--unshare-all: no network but loopback), in a
 *   user namespace of its own as an unprivileged uid without
 *   capabilities, which cannot make further user namespaces; only a run
 *   the caller marks with sandbox_set_host_network() keeps the host's
 *   network namespace (a trusted build whose compiles go to the icecream
 *   nodes);
 * - a seccomp filter (kernel/build/sandbox-filter.h) denying what no build
 *   calls: ptrace, mount, keyctl, bpf, perf, module loading, ...;
 * - a cgroup per run that bounds processes and memory and kills what is
 *   left at the end, plus rlimits (no core dumps, file size, CPU time per
 *   process as a backstop: cores x the timeout), stdin /dev/null, a new
 *   session.
 *
 * If bwrap cannot set the sandbox up, nothing runs: there is no
 * unsandboxed fallback.  Where the host lacks a piece, sandbox_new() says
 * what it does instead, once per process, in the log
 * (sandbox_describe()): without user namespaces root's builds run as root
 * with every capability dropped (a user other than root cannot run bwrap
 * at all then); without a memory cgroup each process's data is limited
 * (RLIMIT_DATA); without a pids cgroup RLIMIT_NPROC bounds a user's
 * processes, and root, which it does not bind, does not build. */
#pragma once

#include <glib.h>

#include "kernel/build/runner.h"

struct sandbox;

/* A sandbox with no directory of the host yet.  Checks once per process
 * what this host allows (user namespaces, cgroups, the seccomp filter)
 * and that bwrap sets the sandbox up; NULL with @error when it cannot. */
struct sandbox *sandbox_new(GError **error);

/* Let the sandboxed programs write to @dir (bound at the same path). */
void sandbox_add_writable(struct sandbox *sb, const char *dir);

/* Let them read @dir (bound read-only at the same path). */
void sandbox_add_readonly(struct sandbox *sb, const char *dir);

/* Show the host's @src at @dest inside, read-write when @writable: a
 * fresh copy of a directory where the programs expect the original. */
void sandbox_add_bind(struct sandbox *sb, const char *src, const char *dest,
		      gboolean writable);

/* Forget every directory added so far. */
void sandbox_clear_binds(struct sandbox *sb);

/* Whether the next runs keep the host's network namespace (bwrap
 * --share-net) instead of one with loopback only; every other namespace
 * and limit stays.  Off by default.  Only for trusted work: the icecc
 * client of a trusted build connects over TCP to the node the scheduler
 * picks (kernel/build/icecc.h). */
void sandbox_set_host_network(struct sandbox *sb, gboolean on);

/* Whether the next runs enter the network namespace open at @fd (an nsfs
 * file: /run/netns/NAME, /proc/PID/ns/net) before bwrap starts, and keep
 * it (--share-net); -1: off (the default).  Needs CAP_SYS_ADMIN.  The
 * build inside holds no capability in it, so cannot change its routes or
 * its nftables rules (kernel/build/icecc-netns.h). */
void sandbox_set_netns(struct sandbox *sb, int fd);

/* At most this many processes at once inside (SANDBOX_MAX_PROCS by
 * default): a pids cgroup per run when one can be created (which also
 * lets every leftover process be killed after the run), else
 * RLIMIT_NPROC. */
#define SANDBOX_MAX_PROCS 512u
void sandbox_set_max_procs(struct sandbox *sb, guint max);

/* At most this many bytes of memory for the whole run (its processes,
 * their page cache and its /tmp): a memory cgroup per run, else
 * RLIMIT_DATA per process.  0: no limit.  The default is
 * SANDBOX_MAX_MEMORY, or $ARMBOT_SANDBOX_MEMORY ("6G", "512M", bytes)
 * when set: a build of allmodconfig objects with -j2 stays under 2 GiB,
 * a boot of the test kernel (256 MiB guest) under 1 GiB. */
#define SANDBOX_MAX_MEMORY (4ull << 30)
void sandbox_set_max_memory(struct sandbox *sb, guint64 bytes);

/* $HOME inside: the private /tmp. */
#define SANDBOX_HOME "/tmp"

/* What this host's sandbox has, for a log line: "user namespace (uid
 * 1000), seccomp, pids cgroup (512), memory cgroup v1 (4096 MiB)", and
 * each fallback in its place.  Newly allocated. */
char *sandbox_describe(const struct sandbox *sb);

/* runner_run() of @argv inside the sandbox.  @opts->env is the whole
 * environment inside, except that HOME is SANDBOX_HOME; @opts->cwd must
 * be visible in the sandbox.  FALSE with @error when the program cannot
 * start or the sandbox was not set up (then nothing ran); otherwise how it
 * ended is in @out, and a limit that stopped it (processes, memory) is
 * said in a last "[sandbox: ...]" line of its output. */
gboolean sandbox_run(struct sandbox *sb, const char *const *argv,
		     const struct runner_opts *opts, struct runner_result *out,
		     GError **error);

void sandbox_free(struct sandbox *sb);
typedef struct sandbox sandbox;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(sandbox, sandbox_free)
