/* What the web interface reads from the store: bounded, paged, read-only
 * queries over the series and the pipeline's jobs, checks and outbox.
 * The SQL is in bot/store/web.c, a part of the store without tables of
 * its own. */
#pragma once

#include <glib.h>

#include "bot/store/db.h"

/* The part's tables, listed in bot/store/store.c. */
extern const struct store_part store_part_web;

#define STORE_WEB_PER_PAGE_MAX 200

/* Filters of the series list; NULL or "" means any. */
struct store_web_filter {
	const char *list; /* substring of the List-Id */
	const char *tree; /* exact tree name of a job */
	const char *author; /* substring of "Name <email>", any case */
	const char *state; /* exact series state */
	guint page; /* from 1 */
	guint per_page; /* 1 .. STORE_WEB_PER_PAGE_MAX */
};

struct store_web_check {
	char *name; /* apply, sparse, build, boot, runtime-PM */
	char *status; /* ok, warn, fail, skipped */
	char *summary, *detail, *log_path; /* or NULL; detail and log_path
					      only in store_web_series_get() */
	double seconds;
};

struct store_web_reply {
	char *message_id, *list, *state, *last_error;
	GBytes *raw; /* the message as sent */
	gint64 created, sent; /* sent 0 when not (yet) */
};

struct store_web_job {
	gint64 id;
	char *tree, *tree_reason, *state, *reason;
	char *base_commit, *base_how, *head_commit;
	char *base_reason; /* how the base was found, or why not */
	char *not_tested; /* why the series was not tested, or NULL */
	char *verdict; /* the sentence, or NULL */
	char *verdict_json; /* dirstat_json_verdict(), valid JSON, or
			       NULL */
	char *verdict_kind; /* shrinks, grows, balanced, untouched or NULL */
	gboolean has_net;
	gint64 net, added, removed; /* under arch/arm, when has_net */
	char *dirstat; /* signed dirstat text, or NULL */
	/* why it grows arch/arm (kernel/similar/similar.h), or NULL */
	char *similar;
	gint64 queued, started, finished; /* 0 when not */
	GPtrArray *checks; /* struct store_web_check *, in pipeline order */
	struct store_web_reply *reply; /* or NULL; only in
					  store_web_series_get() */
};

/* Is @j's verdict provisional: written early (a list's early-verdict,
 * store_job_early_verdict()) while its checks run or wait in the
 * queue? */
gboolean store_web_job_provisional(const struct store_web_job *j);

struct store_web_part {
	guint position; /* 0: cover letter */
	char *message_id, *subject, *author;
	char *list_id; /* the List-Id, or NULL */
	gint64 date;
	GBytes *raw; /* the mail as stored, or NULL; only in
			store_web_series_get(), and only while the parts so
			far and this one hold at most STORE_WEB_RAW_MAX
			bytes */
	gint64 raw_size; /* its size, 0 when not in the store */
};

/* The bytes of mail store_web_series_get() reads for one series. */
#define STORE_WEB_RAW_MAX 16777216

struct store_web_series {
	gint64 id;
	char *state, *reason;
	gboolean expired, rfc;
	guint version, version_minor, total, received;
	char *subject, *author, *list, *cover, *base_commit;
	gint64 supersedes, partial_of; /* series id or 0 */
	gint64 first_date, last_activity;
	GArray *superseded_by; /* gint64 series ids */
	GArray *partials; /* gint64: partial rerolls of this series */
	GPtrArray *parts; /* struct store_web_part *; empty in lists */
	GPtrArray *jobs; /* struct store_web_job * */
};

void store_web_series_free(struct store_web_series *s);
typedef struct store_web_series store_web_series;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_web_series, store_web_series_free)

/* One page of series matching @filter, most recent activity first
 * (struct store_web_series *, owned, with jobs and check statuses), and
 * in *@total how many match in all. */
GPtrArray *store_web_series_list(struct store *st,
				 const struct store_web_filter *filter,
				 gint64 *total, GError **error);

/* Everything about series @id, or NULL with *@found FALSE when there is
 * no such series (not an error), or NULL with @error set. */
struct store_web_series *store_web_series_get(struct store *st, gint64 id,
					      gboolean *found, GError **error);

/* The distinct states, trees and lists, for the filter menus (char *,
 * owned, sorted; at most 100 each). */
GPtrArray *store_web_states(struct store *st, GError **error);
GPtrArray *store_web_trees(struct store *st, GError **error);
GPtrArray *store_web_lists(struct store *st, GError **error);

/* arch/arm per ISO week (Monday 00:00 UTC), of the series that are not
 * superseded and have a verdict, counted once each (their first job). */
struct store_web_week {
	gint64 start; /* Unix time */
	guint series;
	gint64 added, removed, net;
};

/* At most @max weeks, oldest first (struct store_web_week, GArray), of
 * the series posted to @list (a substring of their List-Id, as the
 * series filter takes it; NULL or "": every list). */
GArray *store_web_arch_weeks(struct store *st, const char *list, guint max,
			     GError **error);

/* Per mach-* / plat-* directory over the same series. */
struct store_web_dir {
	char *path;
	guint series;
	gint64 added, removed, net;
};

/* At most @max directories, by net growth, largest first (struct
 * store_web_dir *, owned); @list as above. */
GPtrArray *store_web_arch_dirs(struct store *st, const char *list, guint max,
			       GError **error);

/* The row of a directory (bot/store/db.h), for a statement that selects
 * FROM its series joined with their directories as json_each() "d", and
 * its free function. */
extern const struct store_row store_web_dir_row;
void store_web_dir_free(struct store_web_dir *d);

/* A name and a count, for the metrics. */
struct store_web_count {
	char *name;
	gint64 count;
};

/* "series" / "jobs" / "outbox" rows by state, as struct store_web_count *
 * (owned). */
GPtrArray *store_web_count_states(struct store *st, const char *table,
				  GError **error);

#define STORE_WEB_BUCKETS 10
extern const double store_web_buckets[STORE_WEB_BUCKETS];

/* Durations of the checks that ran (not skipped), per check name, as a
 * Prometheus histogram. */
struct store_web_histogram {
	char *name;
	gint64 count;
	double sum;
	gint64 le[STORE_WEB_BUCKETS]; /* cumulative, for store_web_buckets */
};

GPtrArray *store_web_check_durations(struct store *st, GError **error);

/* The messages and rejects stored. */
gboolean store_web_totals(struct store *st, gint64 *messages, gint64 *rejects,
			  GError **error);

/* A reply for the Atom feed, with its series. */
struct store_web_report {
	gint64 series_id;
	char *subject, *author, *tree, *verdict, *message_id, *state;
	GBytes *raw;
	gint64 created, sent;
};

/* The @max latest replies, newest first (struct store_web_report *,
 * owned). */
GPtrArray *store_web_reports(struct store *st, guint max, GError **error);
