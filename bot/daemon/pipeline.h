/* The checks of one series on one tree, and the reply they make: what
 * `armbot check` prints and what the daemon's workers send.
 *
 *   series (from the store) -> mbox -> am into the tree's object database
 *   -> signed dirstat and arch/arm verdict -> sparse at base and head
 *   -> build, boot and the runtime-PM KUnit suite at base and head
 *   -> the boards the series' paths select (qemu/boards.h), each built
 *      and booted at the head, and at the base when the head fails
 *   -> the reply (bot/daemon/report.h)
 *
 * sparse runs in a thread beside the build and boot, unless
 * ARMBOT_PIPELINE_SERIAL=1 is in the environment (pipeline.c, "Overlap").
 *
 * Every stage writes its full log under DATA/logs/series-ID/TREE/; the
 * outcome holds what the reply says.  Nothing here sends mail or changes
 * a series' state: the caller (bot/daemon/worker.c, bot/cli/cmd-check.c) does. */
#pragma once

#include <glib.h>

#include "bot/daemon/report.h"
#include "bot/daemon/timing.h"
#include "bot/store/store.h"
#include "kernel/diff/dirstat-verdict.h"

#define PIPELINE_ERROR pipeline_error_quark()
GQuark pipeline_error_quark(void);

/* The stages, in order, as progress reports them. */
enum pipeline_stage {
	PIPELINE_STAGE_SERIES,
	PIPELINE_STAGE_TREE,
	PIPELINE_STAGE_BASE,
	PIPELINE_STAGE_APPLY,
	PIPELINE_STAGE_DIRSTAT,
	PIPELINE_STAGE_SPARSE,
	PIPELINE_STAGE_BOOT_BASE,
	PIPELINE_STAGE_BOOT_HEAD,
	PIPELINE_STAGE_BOARDS, /* the detail: "vexpress-a9 (series)" */
	PIPELINE_STAGE_REPORT,
	PIPELINE_N_STAGES,
};

/* "apply", "sparse", "boot (base)"...  Static. */
const char *pipeline_stage_name(enum pipeline_stage stage);

struct pipeline_outcome;

/* @detail may be NULL ("allmodconfig", "2/5"). */
typedef void (*pipeline_progress_fn)(enum pipeline_stage stage,
				     const char *detail, gpointer user_data);

struct pipeline_options {
	const char *data_dir;
	const char *tree_name; /* NULL: the distro tree */
	const char *tree_reason; /* why this tree, for the report; NULL:
				    "the distro tree (default)" */
	gboolean sparse; /* run sparse */
	gboolean boot; /* build, boot and run the runtime-PM suite */
	/* with boot: also build and boot the boards the series selects */
	gboolean boards;
	gboolean per_patch; /* sparse after each patch */
	/* sparse's configs (make targets); NULL: the tree's or the default */
	const char *const *sparse_configs;
	/* build-distribute = icecream (kernel/build/icecc.h); its socket
	 * NULL: build locally */
	struct icecc_use icecc;
	gboolean no_list; /* reply to the author only, not Cc the list */
	/* a series that was not tested (unknown base): reply to the author
	 * only even when no_list is FALSE */
	gboolean not_tested_no_list;
	guint jobs; /* make -j; 0: the number of cores */
	/* compute the base's part again: sparse's warnings at the base and
	 * the base's build and boot, even when kept from an earlier check */
	gboolean no_base_cache;
	guint boot_timeout_s; /* 0: the default */
	/* where the kernels boot (qemu/runner.h), NULL: here; and the
	 * store's hooks that remember LAVA jobs (struct boot_options) */
	const struct boot_runner_config *boot_runner;
	guint64 (*find_job)(const char *key, char **server, void *data);
	void (*save_job)(const char *key, const char *server, guint64 id,
			 void *data);
	void *job_data;
	const char *bot_name; /* "armbot" */
	const char *bot_address; /* "armbot@localhost" */
	const char *series_url; /* the series' public page, or NULL */
	gint64 date; /* the reply's Date; 0: now */
	pipeline_progress_fn progress; /* may be NULL */
	gpointer user_data;
	/* called once the series applied and its dirstat and verdict are
	 * in @out, before sparse, the build and the boot (a list's
	 * early-verdict); may be NULL */
	void (*verdict_known)(const struct pipeline_outcome *out,
			      gpointer data);
	/* does the series' list (NULL: none known) want its verdict early?
	 * Asked by a verdict_only run before it applies; may be NULL (yes) */
	gboolean (*verdict_wanted)(const char *list, gpointer data);
	gpointer verdict_data;
	/* find the base, apply and take the dirstat, for verdict_known,
	 * and nothing else: no other check, no reply (the verdict of a
	 * queued series, bot/daemon/ahead.h) */
	gboolean verdict_only;
};

/* One board's boot (owned strings, unlike struct report_board). */
struct pipeline_board {
	char *name;
	enum report_status status;
	char *summary; /* "userspace at 0.52 s", "kernel panic", why not
			* booted */
	char *reason; /* why the series selects it */
	char *detail; /* a failure's console tail, or NULL */
	double seconds; /* its build and boot at the head (and base) */
};

/* One check's outcome (owned strings, unlike struct report_check). */
struct pipeline_check {
	enum report_status status;
	char *reason, *summary, *detail;
	double seconds;
	/* how a reader reproduces it without armbot, for a check that is
	 * not ok (struct report_repro_check); NULL otherwise.  The steps
	 * (struct kbuild_step) may be shared with another check. */
	char *repro_what;
	GPtrArray *repro_steps;
	char *repro_note;
};

struct pipeline_outcome {
	gint64 series_id;
	char *tree_name;
	char *tree_description;
	char *tree_reason;
	char *base_commit; /* hex, or NULL when nothing was applied */
	char *head_commit;
	enum report_base base_how;
	char *base_reason; /* how the base was found, or why not */
	/* the base is known (base-commit:, blob ids, or already applied):
	 * only then is an apply failure the series' own */
	gboolean base_known;
	/* why the series was not tested, or NULL: already applied, or an
	 * unknown base and no apply at the head */
	char *not_tested;
	GPtrArray *applied_commits; /* char *: already applied, per patch */
	struct dirstat_verdict *verdict;
	struct dirstat_verdict *arm64; /* the same for arch/arm64 */
	char *verdict_json;
	char *dirstat; /* the signed dirstat as text */
	/* near-copies, drivers in the wrong place (similar-check.h); NULL:
	 * nothing to say */
	char *similar;
	struct pipeline_check checks[REPORT_N_CHECKS];
	/* struct pipeline_board *: the boards the series selects besides
	 * virt (the boot check's), in the map's order; NULL: none */
	GPtrArray *boards;
	/* a board failed, so the boot check FAILs: its status on virt alone
	 * was @virt_boot (for KCIDB's rpm-virt boot test) */
	gboolean board_failed;
	enum report_status virt_boot;
	char *log_dir; /* DATA/logs/series-ID/TREE */
	/* the compiler of the boot's build, its .config's
	 * CONFIG_CC_VERSION_TEXT, or NULL */
	char *compiler;
	/* the reply */
	char *message_id; /* without angle brackets */
	char *parent_message_id;
	char *list; /* the list address it is Cc'd to, or NULL */
	char *author_email;
	GPtrArray *recipients; /* char *: To and Cc, for the envelope */
	GBytes *reply; /* the whole message */
	char *reply_body; /* its body alone, for printing */
	double seconds;
	/* per stage (bot/daemon/timing.h); queue and SMTP are the
	 * worker's and the outbox's */
	struct timing timing;
	/* how long checks ran beside each other (sparse beside the build
	 * and boot): the stages add up to @seconds plus this */
	double overlap_seconds;
};

/* Does any check of @out say FAIL or WARN? */
gboolean pipeline_outcome_has_problems(const struct pipeline_outcome *out);

/* Run every check of series @series_id of @st as @opts asks and make the
 * reply.  FALSE with @error only when the checks could not run (no such
 * series or tree, a broken store, a sandbox that cannot be set up, a
 * missing tool): what the series does is the outcome. */
gboolean pipeline_check(struct store *st, gint64 series_id,
			const struct pipeline_options *opts,
			struct pipeline_outcome *out, GError **error);

void pipeline_outcome_clear(struct pipeline_outcome *out);
