/* The web's queries.  Every query is bounded: lists by LIMIT, pages by a
 * per-page maximum; the arch/arm figures are read from the verdict JSON
 * with SQLite's JSON functions, guarded by json_valid() so that one bad
 * row cannot fail a page. */
#include "bot/store/web.h"

#include <string.h>

#include "bot/store/db.h"

/* The web reads a message's List-Id per series on every list page; the
 * messages table keeps the raw mail before that column, so reading it
 * from the table walks the mail's overflow pages.  Covering indexes
 * answer from the index alone (measured by bench/web.sh: / went from 56
 * to several hundred requests/s over the lakml week). */
static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE INDEX web_messages_list ON messages(message_id, list_id);"
	"CREATE INDEX web_messages_kind_list ON messages(kind, list_id);",
};

STORE_PART_DEFINE(web, migrations);

static void check_free(struct store_web_check *c);
static void reply_free(struct store_web_reply *r);
static void job_free(struct store_web_job *j);
static void part_free(struct store_web_part *p);

#define CHECK(member, kind) STORE_COLUMN(struct store_web_check, member, kind)
static const struct store_field check_fields[] = {
	CHECK(name, STORE_TEXT),     CHECK(status, STORE_TEXT),
	CHECK(summary, STORE_TEXT),  CHECK(detail, STORE_TEXT),
	CHECK(log_path, STORE_TEXT), CHECK(seconds, STORE_DOUBLE),
};
#undef CHECK

STORE_ROW_DEFINE(static, check_row, struct store_web_check, check_fields,
		 check_free, NULL)

#define REPLY(member, kind) STORE_COLUMN(struct store_web_reply, member, kind)
static const struct store_field reply_fields[] = {
	REPLY(message_id, STORE_TEXT), REPLY(list, STORE_TEXT),
	REPLY(state, STORE_TEXT),      REPLY(last_error, STORE_TEXT),
	REPLY(raw, STORE_BLOB),	       REPLY(created, STORE_INT64),
	REPLY(sent, STORE_INT64),
};
#undef REPLY

STORE_ROW_DEFINE(static, reply_row, struct store_web_reply, reply_fields,
		 reply_free, NULL)

/* the arch/arm figures of a job, from a verdict that may not be JSON */
#define VERDICT(what) "CASE WHEN json_valid(verdict_json) THEN " what " END"
#define JOB(member, kind) STORE_COLUMN(struct store_web_job, member, kind)
static const struct store_field job_fields[] = {
	JOB(id, STORE_INT64),
	JOB(tree, STORE_TEXT),
	JOB(tree_reason, STORE_TEXT),
	JOB(state, STORE_TEXT),
	JOB(reason, STORE_TEXT),
	JOB(base_commit, STORE_TEXT),
	JOB(base_how, STORE_TEXT),
	JOB(head_commit, STORE_TEXT),
	JOB(verdict, STORE_TEXT),
	STORE_FIELD(struct store_web_job, verdict_json,
		    VERDICT("json(verdict_json)"), STORE_TEXT),
	JOB(dirstat, STORE_TEXT),
	JOB(queued, STORE_INT64),
	JOB(started, STORE_INT64),
	JOB(finished, STORE_INT64),
	/* column 14: has_net */
	STORE_FIELD(struct store_web_job, net,
		    VERDICT("json_extract(verdict_json, '$.net')"),
		    STORE_INT64),
	STORE_FIELD(struct store_web_job, added,
		    VERDICT("json_extract(verdict_json, '$.added')"),
		    STORE_INT64),
	STORE_FIELD(struct store_web_job, removed,
		    VERDICT("json_extract(verdict_json, '$.removed')"),
		    STORE_INT64),
	STORE_FIELD(struct store_web_job, verdict_kind,
		    VERDICT("json_extract(verdict_json, '$.verdict')"),
		    STORE_TEXT),
	JOB(base_reason, STORE_TEXT),
	JOB(not_tested, STORE_TEXT),
	JOB(similar, STORE_TEXT),
	STORE_OWNED_FIELD(struct store_web_job, checks, g_ptr_array_unref),
	STORE_OWNED_FIELD(struct store_web_job, reply, reply_free),
};
#undef JOB
#undef VERDICT

static void job_has_net(gpointer p, sqlite3_stmt *s)
{
	struct store_web_job *j = p;

	j->has_net = sqlite3_column_type(s, 14) == SQLITE_INTEGER;
}

STORE_ROW_DEFINE(static, job_row, struct store_web_job, job_fields, job_free,
		 job_has_net)

static const struct store_field part_fields[] = {
	STORE_FIELD(struct store_web_part, position, "sm.position", STORE_INT),
	STORE_FIELD(struct store_web_part, message_id, "sm.message_id",
		    STORE_TEXT),
	STORE_FIELD(struct store_web_part, subject, "m.subject", STORE_TEXT),
	STORE_FIELD(struct store_web_part, author, "m.author", STORE_TEXT),
	STORE_FIELD(struct store_web_part, date, "m.date", STORE_INT64),
	STORE_FIELD(struct store_web_part, list_id, "m.list_id", STORE_TEXT),
	STORE_FIELD(struct store_web_part, raw,
		    "CASE WHEN sum(length(m.raw)) OVER (ORDER BY sm.position"
		    " ROWS UNBOUNDED PRECEDING) <= " G_STRINGIFY(
			    STORE_WEB_RAW_MAX) " THEN m.raw END",
		    STORE_BLOB_OR_NULL),
	STORE_FIELD(struct store_web_part, raw_size, "length(m.raw)",
		    STORE_INT64),
};

STORE_ROW_DEFINE(static, part_row, struct store_web_part, part_fields,
		 part_free, NULL)

#define SERIES(member, kind) \
	STORE_FIELD(struct store_web_series, member, "s." #member, kind)
static const struct store_field series_fields[] = {
	SERIES(id, STORE_INT64),
	SERIES(state, STORE_TEXT),
	SERIES(expired, STORE_INT),
	SERIES(version, STORE_INT),
	SERIES(version_minor, STORE_INT),
	SERIES(total, STORE_INT),
	SERIES(received, STORE_INT),
	SERIES(rfc, STORE_INT),
	SERIES(subject, STORE_TEXT),
	SERIES(author, STORE_TEXT),
	SERIES(cover, STORE_TEXT),
	SERIES(base_commit, STORE_TEXT),
	SERIES(supersedes, STORE_INT64),
	SERIES(partial_of, STORE_INT64),
	SERIES(first_date, STORE_INT64),
	SERIES(last_activity, STORE_INT64),
	SERIES(reason, STORE_TEXT),
	/* the list a series was posted to: its first member's List-Id */
	STORE_FIELD(struct store_web_series, list,
		    "(SELECT m.list_id FROM series_members sm"
		    " JOIN messages m INDEXED BY web_messages_list"
		    " ON m.message_id = sm.message_id"
		    " WHERE sm.series_id = s.id ORDER BY sm.position LIMIT 1)",
		    STORE_TEXT),
	STORE_OWNED_FIELD(struct store_web_series, superseded_by,
			  g_array_unref),
	STORE_OWNED_FIELD(struct store_web_series, partials, g_array_unref),
	STORE_OWNED_FIELD(struct store_web_series, parts, g_ptr_array_unref),
	STORE_OWNED_FIELD(struct store_web_series, jobs, g_ptr_array_unref),
};
#undef SERIES

static void series_parts(gpointer p, sqlite3_stmt *s)
{
	struct store_web_series *x = p;

	x->parts = g_ptr_array_new_with_free_func((GDestroyNotify)part_free);
}

STORE_ROW_DEFINE(, series_row, struct store_web_series, series_fields,
		 store_web_series_free, series_parts)

gboolean store_web_job_provisional(const struct store_web_job *j)
{
	return j->verdict && j->state &&
	       (!strcmp(j->state, "running") || !strcmp(j->state, "queued"));
}

/* ?1 state, ?2 author, ?3 tree, ?4 list; NULL matches anything */
#define SERIES_FILTER                                                 \
	" FROM series s WHERE (?1 IS NULL OR s.state = ?1)"           \
	" AND (?2 IS NULL OR instr(lower(s.author), lower(?2)) > 0)"  \
	" AND (?3 IS NULL OR EXISTS (SELECT 1 FROM jobs j"            \
	" WHERE j.series_id = s.id AND j.tree = ?3))"                 \
	" AND (?4 IS NULL OR EXISTS (SELECT 1 FROM series_members sm" \
	" JOIN messages m ON m.message_id = sm.message_id"            \
	" WHERE sm.series_id = s.id AND instr(m.list_id, ?4) > 0))"

static const char sql_series_page[] = SERIES_FILTER
	" ORDER BY s.last_activity DESC, s.id DESC LIMIT ?5 OFFSET ?6";
static const char sql_series_count[] = "SELECT count(*)" SERIES_FILTER;
static const char sql_series_one[] = " FROM series s WHERE s.id = ?1";
static const char sql_superseded_by[] =
	"SELECT id FROM series WHERE supersedes = ?1 ORDER BY id LIMIT 100";
static const char sql_partials[] =
	"SELECT id FROM series WHERE partial_of = ?1 ORDER BY id LIMIT 100";
static const char sql_parts[] =
	" FROM series_members sm LEFT JOIN messages m"
	" ON m.message_id = sm.message_id WHERE sm.series_id = ?1"
	" ORDER BY sm.position LIMIT 1000";
static const char sql_jobs[] =
	" FROM jobs WHERE series_id = ?1 ORDER BY id LIMIT 50";
/* the order the pipeline runs them in */
static const char sql_checks[] =
	" FROM checks WHERE job_id = ?1 ORDER BY CASE name WHEN 'apply' THEN 0"
	" WHEN 'sparse' THEN 1 WHEN 'build' THEN 2 WHEN 'boot' THEN 3"
	" WHEN 'rpm' THEN 4 WHEN 'runtime-PM' THEN 4 ELSE 5 END, name"
	" LIMIT 50";
static const char sql_reply[] = " FROM outbox WHERE job_id = ?1";

static GArray *read_ids(struct store *st, const char *sql, gint64 id,
			GError **error)
{
	sqlite3_stmt *s = store_bind(st, sql, error, STORE_I(id), STORE_END);

	if (!s)
		return NULL;
	return store_read_ids(st, s, error);
}

static GPtrArray *read_checks(struct store *st, gint64 job, gboolean full,
			      GError **error)
{
	g_autoptr(GPtrArray) out = store_select_rows(
		st, &check_row, sql_checks, error, STORE_I(job), STORE_END);

	if (!out)
		return NULL;
	for (guint i = 0; !full && i < out->len; i++) {
		struct store_web_check *c = out->pdata[i];

		g_clear_pointer(&c->detail, g_free);
		g_clear_pointer(&c->log_path, g_free);
	}
	return g_steal_pointer(&out);
}

static gboolean read_reply(struct store *st, struct store_web_job *job,
			   GError **error)
{
	return store_select_row(st, &reply_row, sql_reply,
				(gpointer *)&job->reply, error,
				STORE_I(job->id), STORE_END);
}

static GPtrArray *read_jobs(struct store *st, gint64 series, gboolean full,
			    GError **error)
{
	g_autoptr(GPtrArray) out = store_select_rows(
		st, &job_row, sql_jobs, error, STORE_I(series), STORE_END);

	if (!out)
		return NULL;
	/* the job statement is done before the nested ones reuse the
	 * connection's cache */
	for (guint i = 0; i < out->len; i++) {
		struct store_web_job *j = out->pdata[i];

		if (!full) {
			g_clear_pointer(&j->verdict_json, g_free);
			g_clear_pointer(&j->dirstat, g_free);
			g_clear_pointer(&j->similar, g_free);
		}
		if (!(j->checks = read_checks(st, j->id, full, error)))
			return NULL;
		if (full && !read_reply(st, j, error))
			return NULL;
	}
	return g_steal_pointer(&out);
}

static const char *nonempty(const char *s)
{
	return s && *s ? s : NULL;
}

static void bind_filter(sqlite3_stmt *s, const struct store_web_filter *f)
{
	store_bind_text(s, 1, nonempty(f->state));
	store_bind_text(s, 2, nonempty(f->author));
	store_bind_text(s, 3, nonempty(f->tree));
	store_bind_text(s, 4, nonempty(f->list));
}

GPtrArray *store_web_series_list(struct store *st,
				 const struct store_web_filter *filter,
				 gint64 *total, GError **error)
{
	g_autoptr(GPtrArray) out = NULL;
	guint per_page = CLAMP(filter->per_page, 1, STORE_WEB_PER_PAGE_MAX);
	guint page = MAX(filter->page, 1);
	sqlite3_stmt *s = store_statement(st, sql_series_count, error);

	if (!s)
		return NULL;
	bind_filter(s, filter);
	if (!store_read_int64(st, s, total, error))
		return NULL;
	if (!(s = store_select(st, &series_row, sql_series_page, error,
			       STORE_END)))
		return NULL;
	bind_filter(s, filter);
	sqlite3_bind_int64(s, 5, per_page);
	sqlite3_bind_int64(s, 6, (gint64)(page - 1) * per_page);
	if (!(out = store_read_rows(st, s, &series_row, error)))
		return NULL;
	for (guint i = 0; i < out->len; i++) {
		struct store_web_series *x = out->pdata[i];

		if (!(x->jobs = read_jobs(st, x->id, FALSE, error)))
			return NULL;
		x->superseded_by = g_array_new(FALSE, FALSE, sizeof(gint64));
		x->partials = g_array_new(FALSE, FALSE, sizeof(gint64));
	}
	return g_steal_pointer(&out);
}

static gboolean read_parts(struct store *st, struct store_web_series *x,
			   GError **error)
{
	GPtrArray *parts = store_select_rows(st, &part_row, sql_parts, error,
					     STORE_I(x->id), STORE_END);

	if (!parts)
		return FALSE;
	g_ptr_array_unref(x->parts);
	x->parts = parts;
	return TRUE;
}

struct store_web_series *store_web_series_get(struct store *st, gint64 id,
					      gboolean *found, GError **error)
{
	g_autoptr(store_web_series) x = NULL;

	*found = FALSE;
	if (!store_select_row(st, &series_row, sql_series_one, (gpointer *)&x,
			      error, STORE_I(id), STORE_END) ||
	    !x)
		return NULL;
	*found = TRUE;
	if (!(x->superseded_by = read_ids(st, sql_superseded_by, id, error)) ||
	    !(x->partials = read_ids(st, sql_partials, id, error)) ||
	    !read_parts(st, x, error) ||
	    !(x->jobs = read_jobs(st, id, TRUE, error)))
		return NULL;
	return g_steal_pointer(&x);
}

static GPtrArray *read_strings(struct store *st, const char *sql,
			       GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql, error);

	return s ? store_read_texts(st, s, error) : NULL;
}

static const char sql_states[] =
	"SELECT DISTINCT state FROM series ORDER BY 1 LIMIT 100";
static const char sql_trees[] =
	"SELECT DISTINCT tree FROM jobs ORDER BY 1 LIMIT 100";
static const char sql_lists[] =
	"SELECT DISTINCT list_id FROM messages WHERE list_id IS NOT NULL"
	" AND kind IN ('patch', 'cover') ORDER BY 1 LIMIT 100";

GPtrArray *store_web_states(struct store *st, GError **error)
{
	return read_strings(st, sql_states, error);
}

GPtrArray *store_web_trees(struct store *st, GError **error)
{
	return read_strings(st, sql_trees, error);
}

GPtrArray *store_web_lists(struct store *st, GError **error)
{
	return read_strings(st, sql_lists, error);
}

/* Each series once: its first job with a readable verdict; superseded
 * versions left out so that a series rerolled five times counts once.
 * Weeks start on Monday: the Unix epoch was a Thursday, 345600 s (4 days)
 * before Monday 1970-01-05. */
#define ARCH_FROM                                                        \
	" FROM series s JOIN jobs j ON j.id = (SELECT min(id) FROM jobs" \
	" WHERE series_id = s.id AND json_valid(verdict_json))"
/* ?2: a substring of the List-Id of one of the series' messages, or NULL
 * for every list */
#define ARCH_WHERE                                                    \
	" WHERE s.state != 'superseded'"                              \
	" AND (?2 IS NULL OR EXISTS (SELECT 1 FROM series_members sm" \
	" JOIN messages m ON m.message_id = sm.message_id"            \
	" WHERE sm.series_id = s.id AND instr(m.list_id, ?2) > 0))"

static const char sql_weeks[] =
	"SELECT * FROM (SELECT (s.first_date - 345600) / 604800 AS week,"
	" count(*), sum(json_extract(j.verdict_json, '$.added')),"
	" sum(json_extract(j.verdict_json, '$.removed')),"
	" sum(json_extract(j.verdict_json, '$.net'))" ARCH_FROM ARCH_WHERE
	" GROUP BY week ORDER BY week DESC LIMIT ?1) ORDER BY week";

GArray *store_web_arch_weeks(struct store *st, const char *list, guint max,
			     GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_weeks, error);
	g_autoptr(GArray)
		out = g_array_new(FALSE, TRUE, sizeof(struct store_web_week));
	gboolean row;

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, max);
	store_bind_text(s, 2, list && *list ? list : NULL);
	for (;;) {
		struct store_web_week w;

		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			return g_steal_pointer(&out);
		w.start = sqlite3_column_int64(s, 0) * 604800 + 345600;
		w.series = sqlite3_column_int(s, 1);
		w.added = sqlite3_column_int64(s, 2);
		w.removed = sqlite3_column_int64(s, 3);
		w.net = sqlite3_column_int64(s, 4);
		g_array_append_val(out, w);
	}
}

/* json_each() has a column "path" of its own: the alias is "dir" */
static const char sql_dirs[] = ARCH_FROM
	" JOIN json_each(CASE WHEN json_type(j.verdict_json,"
	" '$.directories') = 'array' THEN j.verdict_json ELSE '{}' END,"
	" '$.directories') d" ARCH_WHERE
	" GROUP BY dir HAVING dir IS NOT NULL ORDER BY net DESC, dir"
	" LIMIT ?1";

static const struct store_field dir_fields[] = {
	STORE_FIELD(struct store_web_dir, path,
		    "json_extract(d.value, '$.path') AS dir", STORE_TEXT),
	STORE_FIELD(struct store_web_dir, series, "count(*)", STORE_INT),
	STORE_FIELD(struct store_web_dir, added,
		    "sum(json_extract(d.value, '$.added'))", STORE_INT64),
	STORE_FIELD(struct store_web_dir, removed,
		    "sum(json_extract(d.value, '$.removed'))", STORE_INT64),
	STORE_FIELD(struct store_web_dir, net,
		    "sum(json_extract(d.value, '$.net')) AS net", STORE_INT64),
};

const struct store_row store_web_dir_row =
	STORE_ROW(struct store_web_dir, dir_fields, store_web_dir_free, NULL);

void store_web_dir_free(struct store_web_dir *d)
{
	store_row_free(&store_web_dir_row, d);
}

GPtrArray *store_web_arch_dirs(struct store *st, const char *list, guint max,
			       GError **error)
{
	return store_select_rows(st, &store_web_dir_row, sql_dirs, error,
				 STORE_I(max),
				 STORE_T(list && *list ? list : NULL),
				 STORE_END);
}

static const char sql_count_series[] = " FROM series GROUP BY state LIMIT 100";
static const char sql_count_jobs[] = " FROM jobs GROUP BY state LIMIT 100";
static const char sql_count_outbox[] = " FROM outbox GROUP BY state LIMIT 100";

static void count_free(struct store_web_count *c);

static const struct store_field count_fields[] = {
	STORE_FIELD(struct store_web_count, name, "state", STORE_TEXT),
	STORE_FIELD(struct store_web_count, count, "count(*)", STORE_INT64),
};

STORE_ROW_DEFINE(static, count_row, struct store_web_count, count_fields,
		 count_free, NULL)

GPtrArray *store_web_count_states(struct store *st, const char *table,
				  GError **error)
{
	const char *sql = !strcmp(table, "series") ? sql_count_series :
			  !strcmp(table, "jobs")   ? sql_count_jobs :
						     sql_count_outbox;
	return store_select_rows(st, &count_row, sql, error, STORE_END);
}

/* The histogram's bounds in seconds, written once: the array /metrics
 * prints and the columns that count the checks under each. */
/* clang-format off */
#define BUCKETS(X)                                                       \
	X(0, 0.5) X(1, 1) X(2, 5) X(3, 10) X(4, 30) X(5, 60) X(6, 120) \
	X(7, 300) X(8, 600) X(9, 1800)
/* clang-format on */
STORE_BUCKETS_DEFINE(store_web_buckets, STORE_WEB_BUCKETS, BUCKETS);

static const char sql_durations[] = " FROM checks WHERE status != 'skipped'"
				    " GROUP BY name ORDER BY name LIMIT 100";

static void histogram_free(struct store_web_histogram *h);

#define LE(i, seconds) \
	STORE_BUCKET_FIELD(struct store_web_histogram, "seconds", i, seconds),
static const struct store_field histogram_fields[] = {
	STORE_COLUMN(struct store_web_histogram, name, STORE_TEXT),
	STORE_FIELD(struct store_web_histogram, count, "count(*)", STORE_INT64),
	STORE_FIELD(struct store_web_histogram, sum, "total(seconds)",
		    STORE_DOUBLE),
	BUCKETS(LE)
};
#undef LE
#undef BUCKETS

STORE_ROW_DEFINE(static, histogram_row, struct store_web_histogram,
		 histogram_fields, histogram_free, NULL)

GPtrArray *store_web_check_durations(struct store *st, GError **error)
{
	return store_select_rows(st, &histogram_row, sql_durations, error,
				 STORE_END);
}

static const char sql_totals[] =
	"SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM rejects)";

gboolean store_web_totals(struct store *st, gint64 *messages, gint64 *rejects,
			  GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_totals, error);
	gboolean row;

	if (!s || !store_step_row(st, s, &row, error))
		return FALSE;
	*messages = row ? sqlite3_column_int64(s, 0) : 0;
	*rejects = row ? sqlite3_column_int64(s, 1) : 0;
	sqlite3_reset(s);
	return TRUE;
}

static const char sql_reports[] =
	" FROM outbox o"
	" JOIN jobs j ON j.id = o.job_id JOIN series s ON s.id = j.series_id"
	" ORDER BY o.created DESC, o.id DESC LIMIT ?1";

static void report_free(struct store_web_report *r);

#define REPORT(member, column, kind) \
	STORE_FIELD(struct store_web_report, member, column, kind)
static const struct store_field report_fields[] = {
	REPORT(series_id, "j.series_id", STORE_INT64),
	REPORT(subject, "s.subject", STORE_TEXT),
	REPORT(author, "s.author", STORE_TEXT),
	REPORT(tree, "j.tree", STORE_TEXT),
	REPORT(verdict, "j.verdict", STORE_TEXT),
	REPORT(message_id, "o.message_id", STORE_TEXT),
	REPORT(state, "o.state", STORE_TEXT),
	REPORT(raw, "o.raw", STORE_BLOB),
	REPORT(created, "o.created", STORE_INT64),
	REPORT(sent, "o.sent", STORE_INT64),
};
#undef REPORT

STORE_ROW_DEFINE(static, report_row, struct store_web_report, report_fields,
		 report_free, NULL)

GPtrArray *store_web_reports(struct store *st, guint max, GError **error)
{
	return store_select_rows(st, &report_row, sql_reports, error,
				 STORE_I(max), STORE_END);
}
