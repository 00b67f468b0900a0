/* The daemon's workers: one thread per tree takes that tree's queued jobs
 * one at a time (the tree has one worktree and one set of build dirs),
 * runs bot/daemon/pipeline.c on the series and records the results and the reply
 * in one transaction (bot/store/pipeline.h).  Between two jobs it fetches
 * its tree when the tree's update-interval says so (bot/daemon/treeupdate.h), so
 * that a tree never moves while one of its series is checked.  Each
 * thread has its own connection to the store. */
#pragma once

#include <gio/gio.h>
#include <glib.h>

#include "bot/store/store.h"
#include "config/config.h"

/* Wakes the threads that wait for work (workers, the outbox sender). */
struct daemon_bell;

struct daemon_bell *daemon_bell_new(void);
void daemon_bell_ring(struct daemon_bell *bell);
/* Wait until rung or @seconds passed; FALSE when the bell was closed. */
gboolean daemon_bell_wait(struct daemon_bell *bell, guint seconds);
/* Make every wait return FALSE from now on. */
void daemon_bell_close(struct daemon_bell *bell);
void daemon_bell_free(struct daemon_bell *bell);

struct worker_options {
	const char *data_dir;
	const char *store_path;
	const struct armbot_config *config; /* borrowed, outlives the worker */
	const char *tree; /* the tree whose jobs this worker takes */
	struct daemon_bell *jobs_bell; /* rung when jobs are queued */
	struct daemon_bell *outbox_bell; /* rung when a reply is queued */
	guint max_attempts; /* a job that failed this often is given up */
	guint lab_retry_s; /* the first wait of a job the LAVA lab could not
			    * boot (lava-fallback = none; 0: 60 s) */
	GCancellable *cancellable; /* stops a fetch of the tree (set by
				    * worker_start(); may be NULL) */
};

struct worker;

/* Start a worker thread.  NULL with @error when it cannot start. */
struct worker *worker_start(const struct worker_options *opts, GError **error);

/* Ask the worker to stop after the job it is running (a fetch of its tree
 * stops at once, and is tried again on the next start) and wait for it. */
void worker_stop(struct worker *w);

/* Run the next queued job of @opts->tree in the calling thread, if any:
 * what the worker thread does in a loop.  With @ahead_tried (job ids the
 * worker keeps), the verdicts of the jobs queued behind it are taken
 * meanwhile (bot/daemon/ahead.h).  *@ran tells whether there was one.
 * FALSE with @error only for store errors. */
gboolean worker_run_one(const struct worker_options *opts, struct store *st,
			GHashTable *ahead_tried, gboolean *ran, GError **error);
