#include "bot/web/metrics.h"

#include <string.h>

#include "bot/store/timing.h"
#include "bot/store/web.h"

/* Prometheus text format: label values escape backslash, double quote
 * and line feed */
static void label(GString *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			g_string_append_c(out, '\\');
		if (*s == '\n')
			g_string_append(out, "\\n");
		else
			g_string_append_c(out, *s);
	}
}

static void header(GString *out, const char *name, const char *type,
		   const char *help)
{
	g_string_append_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help,
			       name, type);
}

static gboolean states(struct store *st, GString *out, const char *table,
		       const char *help, gint64 *queued, GError **error)
{
	g_autoptr(GPtrArray) counts = store_web_count_states(st, table, error);
	g_autofree char *name = g_strdup_printf("armbot_%s", table);

	if (!counts)
		return FALSE;
	header(out, name, "gauge", help);
	for (guint i = 0; i < counts->len; i++) {
		const struct store_web_count *c = counts->pdata[i];

		g_string_append_printf(out, "%s{state=\"", name);
		label(out, c->name);
		g_string_append_printf(out, "\"} %" G_GINT64_FORMAT "\n",
				       c->count);
		if (queued && c->name && !strcmp(c->name, "queued"))
			*queued = c->count;
	}
	return TRUE;
}

static void stage_labels(GString *out, const char *suffix,
			 const struct store_timing_histogram *h)
{
	g_string_append_printf(out, "armbot_stage_duration_seconds_%s{stage=\"",
			       suffix);
	label(out, h->stage);
	g_string_append(out, "\",tree=\"");
	label(out, h->tree);
	g_string_append_c(out, '"');
}

/* armbot_stage_duration_seconds{stage,tree}: the reply's stages
 * (bot/store/timing.h) */
static gboolean stages(struct store *st, GString *out, GError **error)
{
	g_autoptr(GPtrArray) hs = store_timing_histograms(st, error);
	char num[G_ASCII_DTOSTR_BUF_SIZE];

	if (!hs)
		return FALSE;
	header(out, "armbot_stage_duration_seconds", "histogram",
	       "How long each stage of a reply took, per tree (queue wait, "
	       "apply, dirstat, sparse-base, sparse-head, build, boot, "
	       "suite, compose, smtp).");
	for (guint i = 0; i < hs->len; i++) {
		const struct store_timing_histogram *h = hs->pdata[i];

		for (int b = 0; b < STORE_TIMING_BUCKETS; b++) {
			stage_labels(out, "bucket", h);
			g_string_append_printf(
				out, ",le=\"%s\"} %" G_GINT64_FORMAT "\n",
				g_ascii_dtostr(num, sizeof(num),
					       store_timing_buckets[b]),
				h->le[b]);
		}
		stage_labels(out, "bucket", h);
		g_string_append_printf(
			out, ",le=\"+Inf\"} %" G_GINT64_FORMAT "\n", h->count);
		stage_labels(out, "sum", h);
		g_string_append_printf(out, "} %s\n",
				       g_ascii_dtostr(num, sizeof(num),
						      h->sum));
		stage_labels(out, "count", h);
		g_string_append_printf(out, "} %" G_GINT64_FORMAT "\n",
				       h->count);
	}
	return TRUE;
}

guint web_metrics(struct store *st, const struct web_metrics_counts *counts,
		  GString *out, GError **error)
{
	g_autoptr(GPtrArray) durations = NULL;
	gint64 queued = 0, messages, rejects;
	char num[G_ASCII_DTOSTR_BUF_SIZE];

	if (!states(st, out, "series", "Series by state.", NULL, error) ||
	    !states(st, out, "jobs", "Jobs (series x tree) by state.", &queued,
		    error) ||
	    !states(st, out, "outbox", "Replies by state.", NULL, error) ||
	    !store_web_totals(st, &messages, &rejects, error) ||
	    !(durations = store_web_check_durations(st, error)))
		return 0;
	header(out, "armbot_queue_length", "gauge", "Jobs waiting to run.");
	g_string_append_printf(
		out, "armbot_queue_length %" G_GINT64_FORMAT "\n", queued);
	header(out, "armbot_messages", "gauge", "Messages in the store.");
	g_string_append_printf(out, "armbot_messages %" G_GINT64_FORMAT "\n",
			       messages);
	header(out, "armbot_rejects", "gauge",
	       "Messages kept aside as unparseable.");
	g_string_append_printf(out, "armbot_rejects %" G_GINT64_FORMAT "\n",
			       rejects);
	header(out, "armbot_check_duration_seconds", "histogram",
	       "How long each check ran (skipped checks left out).");
	for (guint i = 0; i < durations->len; i++) {
		const struct store_web_histogram *h = durations->pdata[i];

		for (int b = 0; b < STORE_WEB_BUCKETS; b++) {
			g_string_append(out, "armbot_check_duration_seconds_"
					     "bucket{check=\"");
			label(out, h->name);
			g_string_append_printf(
				out, "\",le=\"%s\"} %" G_GINT64_FORMAT "\n",
				g_ascii_dtostr(num, sizeof(num),
					       store_web_buckets[b]),
				h->le[b]);
		}
		g_string_append(out, "armbot_check_duration_seconds_bucket"
				     "{check=\"");
		label(out, h->name);
		g_string_append_printf(out,
				       "\",le=\"+Inf\"} %" G_GINT64_FORMAT "\n",
				       h->count);
		g_string_append(out,
				"armbot_check_duration_seconds_sum{check=\"");
		label(out, h->name);
		g_string_append_printf(out, "\"} %s\n",
				       g_ascii_dtostr(num, sizeof(num),
						      h->sum));
		g_string_append(out,
				"armbot_check_duration_seconds_count{check=\"");
		label(out, h->name);
		g_string_append_printf(out, "\"} %" G_GINT64_FORMAT "\n",
				       h->count);
	}
	if (!stages(st, out, error))
		return 0;
	header(out, "armbot_web_requests_total", "counter",
	       "Requests answered by the web server, by status class.");
	for (int c = 2; c <= 5; c++)
		g_string_append_printf(
			out,
			"armbot_web_requests_total{code=\"%dxx\"} "
			"%" G_GUINT64_FORMAT "\n",
			c, counts->by_class[c]);
	return 200;
}
