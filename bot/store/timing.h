/* How long each stage of a job took (queue wait, apply, dirstat, sparse
 * at the base and at the head, build, boot, suite, compose, SMTP): one
 * row per (job, stage), for the series page and /metrics. */
#pragma once

#include <glib.h>

#include "bot/store/db.h"

/* The part's tables, listed in bot/store/store.c. */
extern const struct store_part store_part_timing;

/* Record (or replace) the @seconds stage @stage of job @job_id took;
 * @position orders the stages on the page. */
gboolean store_timing_set(struct store *st, gint64 job_id, guint position,
			  const char *stage, double seconds, GError **error);

struct store_timing {
	char *stage;
	double seconds;
};

/* The stages of job @job_id (struct store_timing *), in order. */
GPtrArray *store_timing_job(struct store *st, gint64 job_id, GError **error);

#define STORE_TIMING_BUCKETS 11
extern const double store_timing_buckets[STORE_TIMING_BUCKETS];

/* One Prometheus histogram per (stage, tree). */
struct store_timing_histogram {
	char *stage, *tree;
	gint64 count;
	double sum;
	gint64 le[STORE_TIMING_BUCKETS]; /* cumulative */
};

GPtrArray *store_timing_histograms(struct store *st, GError **error);
