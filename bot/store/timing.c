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

const struct store_part store_part_timing = {
	.name = "timing",
	.migrations = migrations,
	.n_migrations = G_N_ELEMENTS(migrations),
};

const double store_timing_buckets[STORE_TIMING_BUCKETS] = {
	0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800,
};

static const char sql_set[] =
	"INSERT OR REPLACE INTO stage_times (job_id, stage, position,"
	" seconds) VALUES (?1, ?2, ?3, ?4)";

gboolean store_timing_set(struct store *st, gint64 job_id, guint position,
			  const char *stage, double seconds, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_set, error);

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, job_id);
	store_bind_text(s, 2, stage);
	sqlite3_bind_int(s, 3, position);
	sqlite3_bind_double(s, 4, seconds);
	return store_step_done(st, s, error);
}

static void timing_free(struct store_timing *t)
{
	g_free(t->stage);
	g_free(t);
}

static gpointer read_timing(sqlite3_stmt *s)
{
	struct store_timing *t = g_new0(struct store_timing, 1);

	t->stage = store_column_text(s, 0);
	t->seconds = sqlite3_column_double(s, 1);
	return t;
}

static const char sql_job[] =
	"SELECT stage, seconds FROM stage_times WHERE job_id = ?1"
	" ORDER BY position, stage LIMIT 100";

GPtrArray *store_timing_job(struct store *st, gint64 job_id, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_job, error);

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, job_id);
	return store_rows(st, s, read_timing, (GDestroyNotify)timing_free,
			  error);
}

static const char sql_histograms[] =
	"SELECT t.stage, j.tree, count(*), total(t.seconds),"
	" sum(t.seconds <= 0.1), sum(t.seconds <= 0.25),"
	" sum(t.seconds <= 0.5), sum(t.seconds <= 1), sum(t.seconds <= 2.5),"
	" sum(t.seconds <= 5), sum(t.seconds <= 10), sum(t.seconds <= 30),"
	" sum(t.seconds <= 60), sum(t.seconds <= 300),"
	" sum(t.seconds <= 1800), min(t.position)"
	" FROM stage_times t JOIN jobs j ON j.id = t.job_id"
	" GROUP BY t.stage, j.tree ORDER BY j.tree, min(t.position), t.stage"
	" LIMIT 1000";

static void histogram_free(struct store_timing_histogram *h)
{
	g_free(h->stage);
	g_free(h->tree);
	g_free(h);
}

static gpointer read_histogram(sqlite3_stmt *s)
{
	struct store_timing_histogram *h =
		g_new0(struct store_timing_histogram, 1);

	h->stage = store_column_text(s, 0);
	h->tree = store_column_text(s, 1);
	h->count = sqlite3_column_int64(s, 2);
	h->sum = sqlite3_column_double(s, 3);
	for (int i = 0; i < STORE_TIMING_BUCKETS; i++)
		h->le[i] = sqlite3_column_int64(s, 4 + i);
	return h;
}

GPtrArray *store_timing_histograms(struct store *st, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_histograms, error);

	if (!s)
		return NULL;
	return store_rows(st, s, read_histogram,
			  (GDestroyNotify)histogram_free, error);
}
