/* Verdicts ahead of the queue (issue 24).  A list with early-verdict =
 * true has the arch/arm verdict of its series on the web as soon as it is
 * known, marked provisional until the reply is out (pipeline_options'
 * verdict_known).  For the series a worker checks, that is once it
 * applied.  For the series queued behind it on the same tree it is here:
 * while the worker checks one series, a thread of its own finds the base
 * of each queued series of such a list, applies it and takes its dirstat
 * (a verdict_only pipeline run), so that its verdict is on the web within
 * seconds of its last mail rather than after its wait in the queue.
 *
 * Finding the base, the apply and the dirstat read the tree and write
 * objects and the series' logs (under 0.1 s a series, README
 * "Throughput"); they touch no worktree, build dir or branch, so they do
 * not disturb the check that runs, and the thread runs at nice 19.  It
 * is stopped and joined before the worker fetches its tree or takes its
 * next job: the tree never moves under it, and a job is never both
 * claimed and looked at ahead.  The job's own run applies again and
 * writes the final verdict with the reply. */
#pragma once

#include <glib.h>

#include "bot/daemon/pipeline.h"
#include "config/config.h"

/* What the early verdict of one job needs. */
struct early_verdict {
	const struct armbot_config *config;
	struct store *st; /* the calling thread's connection */
	gint64 job_id, series_id;
	const char *tree;
	gboolean queued; /* the job waits in the queue (else it runs) */
	gboolean written; /* set when the verdict was written */
};

/* Let the pipeline run of @popts write the early verdict of @ev's job
 * when the series' list wants it (@ev outlives the run). */
void early_verdict_hook(struct pipeline_options *popts,
			struct early_verdict *ev);

/* Where the thread works (borrowed: they outlive it). */
struct ahead_options {
	const char *data_dir;
	const char *store_path; /* it opens a connection of its own */
	const struct armbot_config *config;
	const char *tree;
};

struct ahead;

/* Start the thread that gives verdicts to the queued jobs of @o->tree
 * that @tried (job ids, gint64 *) does not hold yet, adding each it
 * tries: a series that does not apply is not tried again while it
 * waits.  NULL (and nothing runs) when no list wants early verdicts or
 * the thread cannot start. */
struct ahead *ahead_start(const struct ahead_options *o, GHashTable *tried);

/* Stop it after the series it is on, wait for it and free it; returns
 * the number of verdicts it wrote.  NULL is allowed. */
guint ahead_stop(struct ahead *a);
