/* The stage times of the jobs (see bot/store/timing.h). */
#include "bot/store/timing.h"

static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE stage_times ("
	" job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,"
	" stage TEXT NOT NULL,"
	" position INTEGER NOT NULL,"
	" seconds REAL NOT NULL,"
	" PRIMARY KEY (job_id, stage));",
};

STORE_PART_DEFINE(timing, migrations);

/* The histograms' bounds in seconds, written once: the array /metrics
 * prints and the columns that count the stages under each. */
/* clang-format off */
#define BUCKETS(X)                                                      \
	X(0, 0.1) X(1, 0.25) X(2, 0.5) X(3, 1) X(4, 2.5) X(5, 5) X(6, 10) \
	X(7, 30) X(8, 60) X(9, 300) X(10, 1800)
/* clang-format on */
STORE_BUCKETS_DEFINE(store_timing_buckets, STORE_TIMING_BUCKETS, BUCKETS);

static const char sql_set[] =
	"INSERT OR REPLACE INTO stage_times (job_id, stage, position,"
	" seconds) VALUES (?1, ?2, ?3, ?4)";

gboolean store_timing_set(struct store *st, gint64 job_id, guint position,
			  const char *stage, double seconds, GError **error)
{
	return store_exec(st, sql_set, error, STORE_I(job_id), STORE_T(stage),
			  STORE_I(position), STORE_D(seconds), STORE_END);
}

static void timing_free(struct store_timing *t);

static const struct store_field timing_fields[] = {
	STORE_COLUMN(struct store_timing, stage, STORE_TEXT),
	STORE_COLUMN(struct store_timing, seconds, STORE_DOUBLE),
};

STORE_ROW_DEFINE(static, timing_row, struct store_timing, timing_fields,
		 timing_free, NULL)

static const char sql_job[] = " FROM stage_times WHERE job_id = ?1"
			      " ORDER BY position, stage LIMIT 100";

GPtrArray *store_timing_job(struct store *st, gint64 job_id, GError **error)
{
	return store_select_rows(st, &timing_row, sql_job, error,
				 STORE_I(job_id), STORE_END);
}

static const char sql_histograms[] =
	" FROM stage_times t JOIN jobs j ON j.id = t.job_id"
	" GROUP BY t.stage, j.tree ORDER BY j.tree, min(t.position), t.stage"
	" LIMIT 1000";

static void histogram_free(struct store_timing_histogram *h);

#define LE(i, seconds)                                                    \
	STORE_BUCKET_FIELD(struct store_timing_histogram, "t.seconds", i, \
			   seconds),
static const struct store_field histogram_fields[] = {
	STORE_FIELD(struct store_timing_histogram, stage, "t.stage",
		    STORE_TEXT),
	STORE_FIELD(struct store_timing_histogram, tree, "j.tree", STORE_TEXT),
	STORE_FIELD(struct store_timing_histogram, count, "count(*)",
		    STORE_INT64),
	STORE_FIELD(struct store_timing_histogram, sum, "total(t.seconds)",
		    STORE_DOUBLE),
	BUCKETS(LE)
};
#undef LE
#undef BUCKETS

STORE_ROW_DEFINE(static, histogram_row, struct store_timing_histogram,
		 histogram_fields, histogram_free, NULL)

GPtrArray *store_timing_histograms(struct store *st, GError **error)
{
	return store_select_rows(st, &histogram_row, sql_histograms, error,
				 STORE_END);
}
