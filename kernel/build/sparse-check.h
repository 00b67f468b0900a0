/* The sparse check of a series, as `armbot sparse` and the pipeline run it:
 * the series' commits are already in the tree's object database (kernel/patch/am.h);
 * the tree's persistent worktree DATA/worktrees/TREE is moved to the head and
 * the base (and to each patch with per_patch) with tree_checkout(), and the
 * objects the series touches are built with `make C=2 CHECK=sparse` in the
 * sandboxed, warm build dirs DATA/kbuild/TREE/CONFIG (kernel/build/kbuild.h).
 *
 * Objects: every .c file the series touches (its .o), and the .c files that
 * #include a touched header (nearest first, at most max_includers).  Each is
 * checked under the first of the tree's configs whose kbuild builds it;
 * kbuild itself decides ("No rule to make target" for an object the config
 * does not build), so composite objects, Makefile conditionals and ifdef'd
 * directories are handled the way kbuild handles them.
 *
 * Warnings are compared by content (kernel/build/sparse.h): a head warning is new
 * when no base warning with the same file, message and source-line text is
 * left to match it. */
#pragma once

#include "kernel/git/odb.h"
#include <glib.h>

#include "kernel/build/icecc.h"
#include "kernel/tree/tree.h"

/* The configs a tree is checked under when its tree.conf has no
 * "sparse-configs" key in group [tree]: ARMv7 multi-platform first, then
 * ARMv5 (mach-omap1 and the other ARMv5 platforms are not in allmodconfig):
 * "multi_v5" is multi_v5_defconfig with the OMAP1 SoCs and boards added.
 * Another name is a make target of the tree (e.g. "omap1_defconfig").
 * The build dir of a config is DATA/kbuild/TREE/NAME. */
#define SPARSE_CHECK_DEFAULT_CONFIGS "allmodconfig", "multi_v5"
#define SPARSE_CHECK_MAX_INCLUDERS 50

enum sparse_check_status {
	SPARSE_CHECK_OK, /* ran: no new warning */
	SPARSE_CHECK_WARN, /* ran: new sparse or compiler warnings */
	SPARSE_CHECK_FAIL, /* the series (or, per patch, one of its patches)
			    * does not compile: new compiler errors */
	SPARSE_CHECK_SKIPPED, /* nothing checked (no .c or header touched,
			       * or no config builds any); see reason */
};

/* Stages reported to the progress callback, in this order (PATCH once per
 * patch with per_patch, detail "2/5"). */
enum sparse_check_stage {
	SPARSE_CHECK_STAGE_SELECT, /* files and includers of touched headers */
	SPARSE_CHECK_STAGE_CONFIG, /* configuring a cold build dir (minutes) */
	SPARSE_CHECK_STAGE_HEAD, /* checkout + build + sparse at the head */
	SPARSE_CHECK_STAGE_BASE, /* the same at the base */
	SPARSE_CHECK_STAGE_PATCH, /* the same after one patch */
};

/* @detail: the config name or "i/n"; may be NULL. */
typedef void (*sparse_check_progress_fn)(enum sparse_check_stage stage,
					 const char *detail,
					 gpointer user_data);

struct sparse_check_opts {
	const char *data_dir;
	struct tree *tree; /* borrowed; its repository holds the commits */
	struct gitoid base;
	/* the applied patches' commits in order, head = the last; the commit
	 * of patch i is patches[i] (struct gitoid), its subject subjects[i] (char *,
	 * may be NULL: the commit's summary is used) */
	GArray *patches;
	GPtrArray *subjects;
	gboolean per_patch;
	/* NULL: the tree's "sparse-configs", else the default list */
	const char *const *configs;
	/* the tree's ccache; NULL: $ARMBOT_CACHE_DIR/ccache/TREE */
	const char *ccache_dir;
	/* the name of its worktree and build dirs (DATA/worktrees/KEY,
	 * DATA/kbuild/KEY/CONFIG); NULL: the tree's name, the worktree
	 * `armbot boot` checks out too.  A run beside a boot of the same
	 * tree needs one of its own. */
	const char *worktree_key;
	guint jobs; /* 0: the number of cores */
	/* compiles through icecream (kbuild_use_icecc_for_check()); its
	 * socket NULL: locally */
	struct icecc_use icecc;
	guint timeout_s; /* per make run; 0: 3600 */
	guint max_includers; /* 0: SPARSE_CHECK_MAX_INCLUDERS */
	/* compute the warnings of the base and of the series' commits even
	 * when kept from an earlier run (kernel/build/sparse-cache.h) */
	gboolean no_cache;
	sparse_check_progress_fn progress; /* may be NULL */
	gpointer user_data;
};

#define SPARSE_CHECK_OPTS_INIT \
	{                      \
		0              \
	}

/* A file that was not checked, and why ("no config builds it: not built by
 * allmodconfig, multi_v5_defconfig", "deleted by the series", ...). */
struct sparse_check_skip {
	char *path;
	char *reason;
};

/* A checked object and the config that built it. */
struct sparse_check_object {
	char *object; /* "arch/arm/mach-omap1/clock.o" */
	char *config; /* "multi_v5" */
	char *why; /* "touched", "includes arch/arm/mach-omap1/clock.h" */
};

/* Wall-clock seconds of each phase (a phase done several times adds). */
struct sparse_check_timings {
	double select; /* diff, includer search, the kbuild probe */
	double config; /* configuring cold build dirs (0 when warm) */
	double checkout; /* tree_checkout() of head, base, patches */
	double head; /* compile + sparse at the head */
	double base;
	double patches; /* per_patch runs */
	double total;
};

struct sparse_check_result {
	enum sparse_check_status status;
	char *reason; /* SKIPPED: why; FAIL: which commit does not compile;
		       * else NULL */
	guint new_warnings; /* new sparse + compiler warnings at head */
	guint fixed_warnings; /* base warnings gone at head */
	guint total_warnings; /* sparse + compiler warnings at head */
	guint compile_errors; /* compiler errors at head (all, not only new) */
	guint new_compile_errors;
	/* the report, kernel test robot shape: compile errors first
	 * ("the series does not compile:" + errors), then
	 * "sparse warnings: (new ones prefixed by >>)", then compiler
	 * warnings ("All warnings (new ones prefixed by >>):"), fixed ones,
	 * "not checked:" with the files of not_checked,
	 * and, per patch, "introduced by patch i/n: SUBJECT" lines */
	char *report;
	GPtrArray *checked; /* struct sparse_check_object */
	GPtrArray *not_checked; /* struct sparse_check_skip */
	struct sparse_check_timings timings;
	/* objects whose base results were read from the cache, and those
	 * built at the base (kernel/build/sparse-cache.h) */
	guint base_cached, base_computed;
	/* the same at the series' commits (the head, and each patch with
	 * per_patch): results kept per root tree */
	guint series_cached, series_computed;
	/* what a reader runs in the kernel tree to see the same warnings,
	 * without armbot (kernel/build/kbuild.h, "what a reader runs"): per config
	 * that checked objects, its configuration in the build dir "build"
	 * and "make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- O=build
	 * -j$(nproc) C=2 CHECK=sparse OBJ..."; struct kbuild_step */
	GPtrArray *steps;
	/* the same as shell text (kbuild_steps_format()) */
	char *reproduce;
	/* with icecc.socket: "the base and the series on icecream (the
	 * series in a network namespace fenced to the nodes)", "the base on
	 * icecream, the series locally" without icecc.series_netns, "the
	 * base on icecream, the series locally (its network namespace
	 * cannot be fenced: WHY)", or "built locally (icecream
	 * unavailable: WHY)" when iceccd could not be used */
	char *build_note;
};

/* Run the check.  Takes the tree's worktree lock (DATA/worktrees/TREE.lock,
 * the one `armbot boot` takes), waiting for it.  FALSE with @error only when
 * the check could not run (sandbox, missing tool, I/O, libgit2); what the
 * series does (warnings, compile errors, nothing to check) is @out.  @out is
 * filled in even on FALSE (cleared with sparse_check_result_clear). */
gboolean sparse_check_run(const struct sparse_check_opts *opts,
			  struct sparse_check_result *out, GError **error);

/* "ok", "warn", "fail", "skipped". */
const char *sparse_check_status_name(enum sparse_check_status status);

void sparse_check_result_clear(struct sparse_check_result *result);
