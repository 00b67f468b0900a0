/* Build a tree with the runtime-PM test config and boot it in qemu -M virt
 * with the rpm-test KUnit module: what `armbot boot` and the pipeline's
 * boot and runtime-PM checks share.
 *
 * A session holds one tree's persistent worktree (DATA/worktrees/NAME,
 * locked against other runs on the same tree), the build dir of the boot
 * config (DATA/kbuild/NAME/rpm-virt) and the VM's sandbox.  Each run
 * checks the worktree out at a commit with tree_checkout(), which rewrites
 * only the paths that differ, so kbuild rebuilds only what changed. */
#pragma once

#include "kernel/git/odb.h"
#include <glib.h>

#include "kernel/build/kbuild.h"
#include "kernel/tree/tree.h"
#include "qemu/boards.h"
#include "qemu/ktap.h"
#include "qemu/runner.h"
#include "qemu/virt.h"

#define BOOT_CONFIG_NAME "rpm-virt"
#define BOOT_TIMEOUT_DEFAULT 60

struct boot_options {
	const char *data_dir;
	struct tree *tree; /* borrowed */
	const char *config; /* fragment; NULL: qemu/virt.config */
	/* the board of the map (qemu/boards.h) to build and boot: its
	 * fragment file, build dir DATA/kbuild/NAME/rpm-BOARD, machine, DTB
	 * and console; NULL: qemu -M virt as above */
	const struct board *board;
	const char *rpm_test_dir; /* NULL: qemu/guest/rpm-test */
	const char *init_src; /* NULL: qemu/guest/init.c */
	guint timeout_s; /* 0: BOOT_TIMEOUT_DEFAULT */
	guint jobs; /* 0: the number of cores */
	/* compiles through icecream (kbuild_use_icecc_for_check()); its
	 * socket NULL: locally */
	struct icecc_use icecc;
	/* where the kernels boot (qemu/runner.h); NULL: here */
	const struct boot_runner_config *runner;
	/* remembering LAVA jobs across a restart (struct boot_input) */
	guint64 (*find_job)(const char *key, char **server, void *data);
	void (*save_job)(const char *key, const char *server, guint64 id,
			 void *data);
	void *job_data;
	/* a commit of the tree (KBUILD_TRUSTED) that built and booted with
	 * the same inputs before is not built and booted again: its kept
	 * console is read back (qemu/bootcache.h) */
	gboolean reuse_trusted;
};

/* One build-and-boot of one commit. */
struct boot_run {
	gboolean built; /* FALSE: the build (or the module's) failed */
	gboolean module_failed; /* the kernel built, the module did not */
	struct kbuild_result build;
	double module_seconds;
	struct virt_result vm;
	char *booted_where; /* "booted on LAVA job 12, device qemu-01";
			     * NULL: here */
	char *fell_back; /* why a LAVA boot was done here instead */
	struct ktap_report *ktap;
	guint checkout_written; /* files the checkout rewrote */
	gboolean checkout_full; /* the worktree had to be written whole */
	/* a series' run: bringing its copy of the build dir back */
	struct buildcopy_stats copy;
	/* nothing was built or booted: the result of an earlier run with
	 * the same inputs (boot_options.reuse_trusted) */
	gboolean reused;
	/* nothing was built or booted: the series changes no file the
	 * base's build read, its kernel is the base's
	 * (boot_session_run_unaffected()) */
	gboolean unaffected;
};

struct boot_session;

/* Where the session's builds compile when the tree is on icecream
 * ("the base on icecream, the series locally (...)"); NULL: locally, as
 * asked. */
const char *boot_session_build_note(const struct boot_session *bs);

/* Lock the tree's worktree (waiting for another run; @on_wait is called
 * once if it has to) and prepare the build and the sandbox.  NULL with
 * @error when something is missing: nothing then ran. */
struct boot_session *boot_session_open(const struct boot_options *opts,
				       void (*on_wait)(void), GError **error);

/* The build directory of the session. */
const char *boot_session_build_dir(const struct boot_session *bs);

/* The session's build (its kernel tree, build dir), borrowed. */
const struct kbuild *boot_session_kbuild(const struct boot_session *bs);

/* Check the worktree out at @commit, build as @trust (KBUILD_TRUSTED for
 * a commit of the tree, KBUILD_SERIES for a series': kernel/build/kbuild.h),
 * boot.  A session serves one series.  FALSE with @error only for what is
 * not an outcome of the tree (a missing tool, a sandbox that cannot be
 * set up); a failed build is @run->built == FALSE. */
gboolean boot_session_run(struct boot_session *bs, const struct gitoid *commit,
			  enum kbuild_trust trust, struct boot_run *run,
			  GError **error);

/* A series' run that builds and boots nothing: when the build dir holds
 * the trusted build of @base with this session's inputs (the config,
 * module, init, compiler, emulator, board and runner of the kept boot's
 * key, qemu/bootcache.h), @base_run booted to a finished init, and none
 * of the @n tree-relative @paths the series changes is read by that build
 * (kernel/build/builddeps.h), the series' kernel is the base's: @run is
 * then @base_run's boot, marked unaffected, with a build log that says
 * why (TRUE).  FALSE and @run empty when the series must be built
 * (boot_session_run()), and always on a LAVA runner. */
gboolean boot_session_run_unaffected(struct boot_session *bs,
				     const struct gitoid *base,
				     const struct boot_run *base_run,
				     const char *const *paths, guint n,
				     struct boot_run *run);

void boot_session_free(struct boot_session *bs);
typedef struct boot_session boot_session;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(boot_session, boot_session_free)

/* What a reader runs to build and boot as the session does, without
 * armbot (kernel/build/kbuild.h, "what a reader runs"): the config fragment
 * written to build/armbot.config, the kernel configured and built, then
 * with @module the make of the rpm_test module (armbot's, whose sources
 * it expects in build/armbot-ext/rpm_test), and with @qemu the
 * qemu-system-arm command line virt_boot() runs (for a board, with its
 * machine, the DTB of the build and its console), with the initramfs at
 * boot_session_printable_initramfs().  A new array of struct kbuild_step,
 * or NULL with @error when the fragment cannot be read. */
GPtrArray *boot_session_steps(const struct boot_session *bs, gboolean module,
			      gboolean qemu, GError **error);

/* Where boot_session_steps()'s qemu line reads armbot's test initramfs
 * ("build/armbot-initramfs.cpio").  Newly allocated. */
char *boot_session_printable_initramfs(const struct boot_session *bs);

/* The same for a session whose build is @kb (its fragment is read). */
GPtrArray *boot_steps(const struct kbuild *kb, gboolean module, gboolean qemu,
		      GError **error);
char *boot_printable_initramfs(const struct kbuild *kb);

/* The boot's failure in a few words ("kernel panic", "hung: stopped by
 * the timeout"), or NULL when it booted. */
const char *boot_failure_reason(const struct virt_result *vm);

/* A board's boot (struct boot_options' board) in a few words, the same
 * for `armbot boot --board` and the pipeline: TRUE and "userspace at
 * 0.52 s" (the kernel's uptime when init started) when it booted with no
 * oops, WARN or BUG on the console; else FALSE and why not ("kernel
 * panic", "'WARNING: CPU:' on the console").  *@words is newly
 * allocated. */
gboolean boot_board_verdict(const struct virt_result *vm, char **words);

void boot_run_clear(struct boot_run *run);
