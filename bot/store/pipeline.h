/* The pipeline's state in the store (tables in bot/store/pipeline.c).
 *
 * A job is one series on one tree: queued -> running -> done, or failed
 * after too many attempts, or ignored (policy: with the reason).  Its
 * results and its reply (in the outbox) are written in the transaction
 * that marks it done, so a job is either not done (and runs again after a
 * crash: its reply's Message-ID is the same every time) or done with its
 * reply queued.  A reply goes pending -> sending (committed before the
 * SMTP transaction starts) -> sent; one found "sending" after a restart
 * is in doubt: it counts as sent once the list echoes it back (the store
 * then holds its Message-ID), and is sent again only after a grace period
 * without an echo. */
#pragma once

#include <glib.h>

#include "bot/store/db.h"

/* The part's tables, listed in bot/store/store.c. */
extern const struct store_part store_part_pipeline;

/* The series that message @message_id is part of (its newest when
 * several), or 0. */
gboolean store_series_of_message(struct store *st, const char *message_id,
				 gint64 *series_id, GError **error);

/* The ids (gint64) of the series in @state, oldest first. */
GArray *store_series_ids_in_state(struct store *st, const char *state,
				  GError **error);

/* Set a series' pipeline state ("checking", "reported", "failed"). */
gboolean store_series_set_state(struct store *st, gint64 series_id,
				const char *state, GError **error);

struct store_job {
	gint64 id, series_id;
	char *tree, *tree_reason;
	char *state;
	guint attempts;
	char *reason;
	gint64 queued, started, finished;
};

void store_job_free(struct store_job *job);
typedef struct store_job store_job;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_job, store_job_free)

/* Queue series @series_id on @tree (state "queued"), or record that it is
 * not checked (state "ignored" with @ignore_reason).  *@added is FALSE
 * when the job exists already: one job per series and tree, ever. */
gboolean store_job_add(struct store *st, gint64 series_id, const char *tree,
		       const char *tree_reason, const char *ignore_reason,
		       gboolean *added, GError **error);

/* After a restart: jobs left running go back to the queue, or to failed
 * when they have had @max_attempts already (a series that crashes the
 * bot must not crash it forever). */
gboolean store_job_recover(struct store *st, guint max_attempts,
			   guint *requeued, guint *failed, GError **error);

/* Take the oldest queued job (of @tree, or any when NULL), after setting
 * aside (ignored, with the reason) queued jobs whose series was superseded
 * meanwhile: it becomes running, its attempts count goes up.  NULL without
 * @error when none. */
struct store_job *store_job_claim(struct store *st, const char *tree,
				  GError **error);

/* A job's check, as written with its results. */
struct store_check {
	const char *name; /* apply, sparse, build, boot, runtime-PM */
	const char *status; /* ok, warn, fail, skipped */
	const char *summary, *detail;
	double seconds;
};

/* The reply of a job, for the outbox. */
struct store_reply {
	const char *message_id;
	const char *list; /* may be NULL */
	const char *sender;
	const char *recipients; /* comma separated */
	GBytes *raw;
	const char *state; /* "pending", or "held" (dry run) */
};

struct store_job_result {
	const char *tree_reason;
	const char *base_commit, *base_how, *head_commit;
	const char *verdict, *verdict_json, *dirstat;
	const struct store_check *checks;
	guint n_checks;
	const struct store_reply *reply; /* NULL: no reply (policy) */
	const char *no_reply_reason; /* why, when no reply */
	const char *base_reason; /* how the base was found, or why not */
	const char *not_tested; /* why the series was not tested, or NULL */
	const char *similar; /* near-copies, drivers in the wrong place */
	/* the series' state: NULL for "reported"; "not-tested",
	 * "applied" */
	const char *series_state;
};

/* Job @job_id is done: its results, its reply and the series' state
 * ("reported") in one transaction. */
gboolean store_job_finish(struct store *st, gint64 job_id,
			  const struct store_job_result *result,
			  GError **error);

/* The verdict of job @job_id before its checks end (a list's
 * early-verdict), while it runs or still waits in the queue: @result's
 * base and head, verdict and dirstat alone.  The web shows a verdict of a
 * job that is not done as provisional; store_job_finish() writes the
 * final one, store_job_error() and a superseded series drop it. */
gboolean store_job_early_verdict(struct store *st, gint64 job_id,
				 const struct store_job_result *result,
				 GError **error);

/* Job @job_id could not run (@reason); back to the queue when @retry,
 * else failed. */
gboolean store_job_error(struct store *st, gint64 job_id, const char *reason,
			 gboolean retry, GError **error);

/* Job @job_id could not run for a reason outside the series (the LAVA
 * lab down, with lava-fallback = none): back to the queue, not picked
 * before @first_s seconds, doubled at each deferral up to @max_s
 * (*@delay_s: this one's); the attempt is not counted. */
gboolean store_job_defer(struct store *st, gint64 job_id, const char *reason,
			 guint first_s, guint max_s, guint *delay_s,
			 GError **error);

/* The trees that have jobs queued or running (char *). */
GPtrArray *store_job_queued_trees(struct store *st, GError **error);

/* The queued jobs of @tree whose series has no verdict yet and is not
 * superseded, in the order store_job_claim() takes them: at most @limit
 * from the @offset-th on (struct store_job *). */
GPtrArray *store_jobs_waiting(struct store *st, const char *tree, guint offset,
			      guint limit, GError **error);

/* Every job of series @series_id (struct store_job *). */
GPtrArray *store_jobs_of_series(struct store *st, gint64 series_id,
				GError **error);

struct store_outbox {
	gint64 id, job_id;
	char *message_id, *list, *sender, *recipients, *state, *last_error;
	GBytes *raw;
	guint attempts;
	gint64 created, handed, sent, next_attempt;
};

void store_outbox_free(struct store_outbox *o);
typedef struct store_outbox store_outbox;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_outbox, store_outbox_free)

/* Queue a mail of the bot's own that answers no series: @kind "optin",
 * "subscribe"...; @mail->state NULL means "pending".  *@added is FALSE
 * when a mail with that Message-ID is queued already (so a mail made the
 * same way twice is sent once). */
gboolean store_outbox_add(struct store *st, const char *kind,
			  const struct store_reply *mail, gboolean *added,
			  GError **error);

/* The oldest pending reply due at @now, or NULL without @error. */
struct store_outbox *store_outbox_next(struct store *st, gint64 now,
				       GError **error);

/* The replies in @state (struct store_outbox *), oldest first. */
GPtrArray *store_outbox_in_state(struct store *st, const char *state,
				 GError **error);

/* Move reply @id to @state: "sending" (handed at @now, attempts + 1),
 * "sent" (at @now), "pending" (again, due at @next_attempt, with
 * @last_error), "failed" (with @last_error). */
gboolean store_outbox_set(struct store *st, gint64 id, const char *state,
			  gint64 now, gint64 next_attempt,
			  const char *last_error, GError **error);

/* Replies sent to @list since @since (for the per-list hourly cap). */
gboolean store_outbox_sent_since(struct store *st, const char *list,
				 gint64 since, guint *count, GError **error);

/* *@has: whether a mail with @message_id is in the outbox, in any
 * state. */
gboolean store_outbox_has(struct store *st, const char *message_id,
			  gboolean *has, GError **error);

/* For `armbot status` and /metrics: rows of (what, state, count), e.g.
 * ("jobs", "queued", 3), ("series", "ready", 12), ("outbox", "sent", 9).
 * Three parallel arrays of the same length. */
gboolean store_pipeline_counts(struct store *st, GPtrArray *what,
			       GPtrArray *state, GArray *count, GError **error);

/* The most recent errors: failed jobs and replies that are pending again
 * or failed ("job 12 (series 5 on distro-6.1): why" ...), newest first. */
GPtrArray *store_pipeline_errors(struct store *st, guint max, GError **error);
