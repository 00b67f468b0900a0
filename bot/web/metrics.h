/* /metrics in the Prometheus text exposition format 0.0.4: the queue,
 * series, jobs and replies by state, check durations as histograms, and
 * the web server's own request counts. */
#pragma once

#include <glib.h>

#include "bot/store/store.h"

/* Requests answered by the server, by status class. */
struct web_metrics_counts {
	guint64 by_class[6]; /* [2] 2xx ... [5] 5xx */
	guint64 rejected; /* malformed or refused before routing */
};

/* Returns the HTTP status, 0 with @error set. */
guint web_metrics(struct store *st, const struct web_metrics_counts *counts,
		  GString *out, GError **error);
