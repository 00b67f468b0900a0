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

const struct store_part store_part_web = {
	.name = "web",
	.migrations = migrations,
	.n_migrations = G_N_ELEMENTS(migrations),
};

static void check_free(struct store_web_check *c)
{
	g_free(c->name);
	g_free(c->status);
	g_free(c->summary);
	g_free(c->detail);
	g_free(c->log_path);
	g_free(c);
}

static void reply_free(struct store_web_reply *r)
{
	if (!r)
		return;
	g_free(r->message_id);
	g_free(r->list);
	g_free(r->state);
	g_free(r->last_error);
	g_clear_pointer(&r->raw, g_bytes_unref);
	g_free(r);
}

static void job_free(struct store_web_job *j)
{
	g_free(j->tree);
	g_free(j->tree_reason);
	g_free(j->state);
	g_free(j->reason);
	g_free(j->base_commit);
	g_free(j->base_how);
	g_free(j->base_reason);
	g_free(j->not_tested);
	g_free(j->head_commit);
	g_free(j->verdict);
	g_free(j->verdict_json);
	g_free(j->verdict_kind);
	g_free(j->dirstat);
	g_free(j->similar);
	g_clear_pointer(&j->checks, g_ptr_array_unref);
	reply_free(j->reply);
	g_free(j);
}

gboolean store_web_job_provisional(const struct store_web_job *j)
{
	return j->verdict && j->state && strcmp(j->state, "done") != 0;
}

static void part_free(struct store_web_part *p)
{
	g_free(p->message_id);
	g_free(p->list_id);
	if (p->raw)
		g_bytes_unref(p->raw);
	g_free(p->subject);
	g_free(p->author);
	g_free(p);
}

void store_web_series_free(struct store_web_series *s)
{
	if (!s)
		return;
	g_free(s->state);
	g_free(s->reason);
	g_free(s->subject);
	g_free(s->author);
	g_free(s->list);
	g_free(s->cover);
	g_free(s->base_commit);
	g_clear_pointer(&s->superseded_by, g_array_unref);
	g_clear_pointer(&s->partials, g_array_unref);
	g_clear_pointer(&s->parts, g_ptr_array_unref);
	g_clear_pointer(&s->jobs, g_ptr_array_unref);
	g_free(s);
}

/* The list a series was posted to: its first member's List-Id. */
#define SERIES_COLUMNS                                                     \
	"s.id, s.state, s.expired, s.version, s.version_minor, s.total,"   \
	" s.received, s.rfc, s.subject, s.author, s.cover, s.base_commit," \
	" s.supersedes, s.partial_of, s.first_date, s.last_activity,"      \
	" s.reason, (SELECT m.list_id FROM series_members sm"              \
	" JOIN messages m INDEXED BY web_messages_list"                    \
	" ON m.message_id = sm.message_id"                                 \
	" WHERE sm.series_id = s.id ORDER BY sm.position LIMIT 1)"

/* ?1 state, ?2 author, ?3 tree, ?4 list; NULL matches anything */
#define SERIES_FILTER                                                 \
	" FROM series s WHERE (?1 IS NULL OR s.state = ?1)"           \
	" AND (?2 IS NULL OR instr(lower(s.author), lower(?2)) > 0)"  \
	" AND (?3 IS NULL OR EXISTS (SELECT 1 FROM jobs j"            \
	" WHERE j.series_id = s.id AND j.tree = ?3))"                 \
	" AND (?4 IS NULL OR EXISTS (SELECT 1 FROM series_members sm" \
	" JOIN messages m ON m.message_id = sm.message_id"            \
	" WHERE sm.series_id = s.id AND instr(m.list_id, ?4) > 0))"

static const char sql_series_page[] =
	"SELECT " SERIES_COLUMNS SERIES_FILTER
	" ORDER BY s.last_activity DESC, s.id DESC LIMIT ?5 OFFSET ?6";
static const char sql_series_count[] = "SELECT count(*)" SERIES_FILTER;
static const char sql_series_one[] = "SELECT " SERIES_COLUMNS
				     " FROM series s WHERE s.id = ?1";
static const char sql_superseded_by[] =
	"SELECT id FROM series WHERE supersedes = ?1 ORDER BY id LIMIT 100";
static const char sql_partials[] =
	"SELECT id FROM series WHERE partial_of = ?1 ORDER BY id LIMIT 100";
static const char sql_parts[] =
	"SELECT sm.position, sm.message_id, m.subject, m.author, m.date,"
	" m.list_id, CASE WHEN sum(length(m.raw)) OVER (ORDER BY sm.position"
	" ROWS UNBOUNDED PRECEDING) <= " G_STRINGIFY(
		STORE_WEB_RAW_MAX) " THEN m.raw END, length(m.raw)"
				   " FROM series_members sm LEFT JOIN messages m"
				   " ON m.message_id = sm.message_id WHERE sm.series_id = ?1"
				   " ORDER BY sm.position LIMIT 1000";
static const char sql_jobs[] =
	"SELECT id, tree, tree_reason, state, reason, base_commit, base_how,"
	" head_commit, verdict, CASE WHEN json_valid(verdict_json) THEN"
	" json(verdict_json) END, dirstat, queued, started,"
	" finished, CASE WHEN json_valid(verdict_json) THEN"
	" json_extract(verdict_json, '$.net') END,"
	" CASE WHEN json_valid(verdict_json) THEN"
	" json_extract(verdict_json, '$.added') END,"
	" CASE WHEN json_valid(verdict_json) THEN"
	" json_extract(verdict_json, '$.removed') END,"
	" CASE WHEN json_valid(verdict_json) THEN"
	" json_extract(verdict_json, '$.verdict') END,"
	" base_reason, not_tested, similar"
	" FROM jobs WHERE series_id = ?1 ORDER BY id LIMIT 50";
/* the order the pipeline runs them in */
static const char sql_checks[] =
	"SELECT name, status, summary, detail, log_path, seconds FROM checks"
	" WHERE job_id = ?1 ORDER BY CASE name WHEN 'apply' THEN 0"
	" WHEN 'sparse' THEN 1 WHEN 'build' THEN 2 WHEN 'boot' THEN 3"
	" WHEN 'rpm' THEN 4 WHEN 'runtime-PM' THEN 4 ELSE 5 END, name"
	" LIMIT 50";
static const char sql_reply[] =
	"SELECT message_id, list, state, last_error, raw, created, sent"
	" FROM outbox WHERE job_id = ?1";

static GArray *read_ids(struct store *st, const char *sql, gint64 id,
			GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql, error);
	g_autoptr(GArray) out = g_array_new(FALSE, FALSE, sizeof(gint64));
	gboolean row;

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, id);
	for (;;) {
		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			break;
		g_array_append_val(out,
				   *(gint64[]){ sqlite3_column_int64(s, 0) });
	}
	return g_steal_pointer(&out);
}

static GPtrArray *read_checks(struct store *st, gint64 job, gboolean full,
			      GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_checks, error);
	g_autoptr(GPtrArray) out =
		g_ptr_array_new_with_free_func((GDestroyNotify)check_free);
	gboolean row;

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, job);
	for (;;) {
		struct store_web_check *c;

		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			break;
		c = g_new0(struct store_web_check, 1);
		c->name = store_column_text(s, 0);
		c->status = store_column_text(s, 1);
		c->summary = store_column_text(s, 2);
		if (full) {
			c->detail = store_column_text(s, 3);
			c->log_path = store_column_text(s, 4);
		}
		c->seconds = sqlite3_column_double(s, 5);
		g_ptr_array_add(out, c);
	}
	return g_steal_pointer(&out);
}

static gboolean read_reply(struct store *st, struct store_web_job *job,
			   GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_reply, error);
	gboolean row;
	struct store_web_reply *r;

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, job->id);
	if (!store_step_row(st, s, &row, error))
		return FALSE;
	if (!row)
		return TRUE;
	r = g_new0(struct store_web_reply, 1);
	r->message_id = store_column_text(s, 0);
	r->list = store_column_text(s, 1);
	r->state = store_column_text(s, 2);
	r->last_error = store_column_text(s, 3);
	r->raw = g_bytes_new(sqlite3_column_blob(s, 4),
			     sqlite3_column_bytes(s, 4));
	r->created = sqlite3_column_int64(s, 5);
	r->sent = sqlite3_column_int64(s, 6);
	job->reply = r;
	sqlite3_reset(s);
	return TRUE;
}

static GPtrArray *read_jobs(struct store *st, gint64 series, gboolean full,
			    GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_jobs, error);
	g_autoptr(GPtrArray)
		out = g_ptr_array_new_with_free_func((GDestroyNotify)job_free);
	gboolean row;

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, series);
	for (;;) {
		struct store_web_job *j;

		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			break;
		j = g_new0(struct store_web_job, 1);
		g_ptr_array_add(out, j);
		j->id = sqlite3_column_int64(s, 0);
		j->tree = store_column_text(s, 1);
		j->tree_reason = store_column_text(s, 2);
		j->state = store_column_text(s, 3);
		j->reason = store_column_text(s, 4);
		j->base_commit = store_column_text(s, 5);
		j->base_how = store_column_text(s, 6);
		j->base_reason = store_column_text(s, 18);
		j->not_tested = store_column_text(s, 19);
		j->head_commit = store_column_text(s, 7);
		j->verdict = store_column_text(s, 8);
		if (full) {
			j->verdict_json = store_column_text(s, 9);
			j->dirstat = store_column_text(s, 10);
			j->similar = store_column_text(s, 20);
		}
		j->queued = sqlite3_column_int64(s, 11);
		j->started = sqlite3_column_int64(s, 12);
		j->finished = sqlite3_column_int64(s, 13);
		j->has_net = sqlite3_column_type(s, 14) == SQLITE_INTEGER;
		j->net = sqlite3_column_int64(s, 14);
		j->added = sqlite3_column_int64(s, 15);
		j->removed = sqlite3_column_int64(s, 16);
		j->verdict_kind = store_column_text(s, 17);
	}
	/* the job statement is done before the nested ones reuse the
	 * connection's cache */
	for (guint i = 0; i < out->len; i++) {
		struct store_web_job *j = out->pdata[i];

		if (!(j->checks = read_checks(st, j->id, full, error)))
			return NULL;
		if (full && !read_reply(st, j, error))
			return NULL;
	}
	return g_steal_pointer(&out);
}

static struct store_web_series *read_series_row(sqlite3_stmt *s)
{
	struct store_web_series *x = g_new0(struct store_web_series, 1);

	x->id = sqlite3_column_int64(s, 0);
	x->state = store_column_text(s, 1);
	x->expired = sqlite3_column_int(s, 2);
	x->version = sqlite3_column_int(s, 3);
	x->version_minor = sqlite3_column_int(s, 4);
	x->total = sqlite3_column_int(s, 5);
	x->received = sqlite3_column_int(s, 6);
	x->rfc = sqlite3_column_int(s, 7);
	x->subject = store_column_text(s, 8);
	x->author = store_column_text(s, 9);
	x->cover = store_column_text(s, 10);
	x->base_commit = store_column_text(s, 11);
	x->supersedes = sqlite3_column_int64(s, 12);
	x->partial_of = sqlite3_column_int64(s, 13);
	x->first_date = sqlite3_column_int64(s, 14);
	x->last_activity = sqlite3_column_int64(s, 15);
	x->reason = store_column_text(s, 16);
	x->list = store_column_text(s, 17);
	x->parts = g_ptr_array_new_with_free_func((GDestroyNotify)part_free);
	return x;
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
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(
		(GDestroyNotify)store_web_series_free);
	guint per_page = CLAMP(filter->per_page, 1, STORE_WEB_PER_PAGE_MAX);
	guint page = MAX(filter->page, 1);
	sqlite3_stmt *s = store_statement(st, sql_series_count, error);
	gboolean row;

	if (!s)
		return NULL;
	bind_filter(s, filter);
	if (!store_step_row(st, s, &row, error))
		return NULL;
	*total = row ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_reset(s);
	if (!(s = store_statement(st, sql_series_page, error)))
		return NULL;
	bind_filter(s, filter);
	sqlite3_bind_int64(s, 5, per_page);
	sqlite3_bind_int64(s, 6, (gint64)(page - 1) * per_page);
	for (;;) {
		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			break;
		g_ptr_array_add(out, read_series_row(s));
	}
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
	sqlite3_stmt *s = store_statement(st, sql_parts, error);
	gboolean row;

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, x->id);
	for (;;) {
		struct store_web_part *p;

		if (!store_step_row(st, s, &row, error))
			return FALSE;
		if (!row)
			return TRUE;
		p = g_new0(struct store_web_part, 1);
		p->position = sqlite3_column_int(s, 0);
		p->message_id = store_column_text(s, 1);
		p->subject = store_column_text(s, 2);
		p->author = store_column_text(s, 3);
		p->date = sqlite3_column_int64(s, 4);
		p->list_id = store_column_text(s, 5);
		p->raw_size = sqlite3_column_int64(s, 7);
		if (sqlite3_column_type(s, 6) != SQLITE_NULL)
			p->raw = g_bytes_new(sqlite3_column_blob(s, 6),
					     sqlite3_column_bytes(s, 6));
		g_ptr_array_add(x->parts, p);
	}
}

struct store_web_series *store_web_series_get(struct store *st, gint64 id,
					      gboolean *found, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_series_one, error);
	g_autoptr(store_web_series) x = NULL;
	gboolean row;

	*found = FALSE;
	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, id);
	if (!store_step_row(st, s, &row, error))
		return NULL;
	if (!row)
		return NULL;
	x = read_series_row(s);
	sqlite3_reset(s);
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
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);
	gboolean row;

	if (!s)
		return NULL;
	for (;;) {
		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			return g_steal_pointer(&out);
		if (sqlite3_column_type(s, 0) != SQLITE_NULL)
			g_ptr_array_add(out, store_column_text(s, 0));
	}
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
static const char sql_dirs[] =
	"SELECT json_extract(d.value, '$.path') AS dir, count(*),"
	" sum(json_extract(d.value, '$.added')),"
	" sum(json_extract(d.value, '$.removed')),"
	" sum(json_extract(d.value, '$.net')) AS net" ARCH_FROM
	" JOIN json_each(CASE WHEN json_type(j.verdict_json,"
	" '$.directories') = 'array' THEN j.verdict_json ELSE '{}' END,"
	" '$.directories') d" ARCH_WHERE
	" GROUP BY dir HAVING dir IS NOT NULL ORDER BY net DESC, dir"
	" LIMIT ?1";

void store_web_dir_free(struct store_web_dir *d)
{
	g_free(d->path);
	g_free(d);
}

gpointer store_web_dir_row(sqlite3_stmt *s)
{
	struct store_web_dir *d = g_new0(struct store_web_dir, 1);

	d->path = store_column_text(s, 0);
	d->series = sqlite3_column_int(s, 1);
	d->added = sqlite3_column_int64(s, 2);
	d->removed = sqlite3_column_int64(s, 3);
	d->net = sqlite3_column_int64(s, 4);
	return d;
}

GPtrArray *store_web_arch_dirs(struct store *st, const char *list, guint max,
			       GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_dirs, error);

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, max);
	store_bind_text(s, 2, list && *list ? list : NULL);
	return store_rows(st, s, store_web_dir_row,
			  (GDestroyNotify)store_web_dir_free, error);
}

static const char sql_count_series[] =
	"SELECT state, count(*) FROM series GROUP BY state LIMIT 100";
static const char sql_count_jobs[] =
	"SELECT state, count(*) FROM jobs GROUP BY state LIMIT 100";
static const char sql_count_outbox[] =
	"SELECT state, count(*) FROM outbox GROUP BY state LIMIT 100";

static void count_free(struct store_web_count *c)
{
	g_free(c->name);
	g_free(c);
}

GPtrArray *store_web_count_states(struct store *st, const char *table,
				  GError **error)
{
	const char *sql = !strcmp(table, "series") ? sql_count_series :
			  !strcmp(table, "jobs")   ? sql_count_jobs :
						     sql_count_outbox;
	sqlite3_stmt *s = store_statement(st, sql, error);
	g_autoptr(GPtrArray) out =
		g_ptr_array_new_with_free_func((GDestroyNotify)count_free);
	gboolean row;

	if (!s)
		return NULL;
	for (;;) {
		struct store_web_count *c;

		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			return g_steal_pointer(&out);
		c = g_new0(struct store_web_count, 1);
		c->name = store_column_text(s, 0);
		c->count = sqlite3_column_int64(s, 1);
		g_ptr_array_add(out, c);
	}
}

const double store_web_buckets[STORE_WEB_BUCKETS] = {
	0.5, 1, 5, 10, 30, 60, 120, 300, 600, 1800,
};

static const char sql_durations[] =
	"SELECT name, count(*), total(seconds),"
	" sum(seconds <= 0.5), sum(seconds <= 1), sum(seconds <= 5),"
	" sum(seconds <= 10), sum(seconds <= 30), sum(seconds <= 60),"
	" sum(seconds <= 120), sum(seconds <= 300), sum(seconds <= 600),"
	" sum(seconds <= 1800) FROM checks WHERE status != 'skipped'"
	" GROUP BY name ORDER BY name LIMIT 100";

static void histogram_free(struct store_web_histogram *h)
{
	g_free(h->name);
	g_free(h);
}

GPtrArray *store_web_check_durations(struct store *st, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_durations, error);
	g_autoptr(GPtrArray) out =
		g_ptr_array_new_with_free_func((GDestroyNotify)histogram_free);
	gboolean row;

	if (!s)
		return NULL;
	for (;;) {
		struct store_web_histogram *h;

		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			return g_steal_pointer(&out);
		h = g_new0(struct store_web_histogram, 1);
		h->name = store_column_text(s, 0);
		h->count = sqlite3_column_int64(s, 1);
		h->sum = sqlite3_column_double(s, 2);
		for (int i = 0; i < STORE_WEB_BUCKETS; i++)
			h->le[i] = sqlite3_column_int64(s, 3 + i);
		g_ptr_array_add(out, h);
	}
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
	"SELECT j.series_id, s.subject, s.author, j.tree, j.verdict,"
	" o.message_id, o.state, o.raw, o.created, o.sent FROM outbox o"
	" JOIN jobs j ON j.id = o.job_id JOIN series s ON s.id = j.series_id"
	" ORDER BY o.created DESC, o.id DESC LIMIT ?1";

static void report_free(struct store_web_report *r)
{
	g_free(r->subject);
	g_free(r->author);
	g_free(r->tree);
	g_free(r->verdict);
	g_free(r->message_id);
	g_free(r->state);
	g_clear_pointer(&r->raw, g_bytes_unref);
	g_free(r);
}

GPtrArray *store_web_reports(struct store *st, guint max, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_reports, error);
	g_autoptr(GPtrArray) out =
		g_ptr_array_new_with_free_func((GDestroyNotify)report_free);
	gboolean row;

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, max);
	for (;;) {
		struct store_web_report *r;

		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			return g_steal_pointer(&out);
		r = g_new0(struct store_web_report, 1);
		r->series_id = sqlite3_column_int64(s, 0);
		r->subject = store_column_text(s, 1);
		r->author = store_column_text(s, 2);
		r->tree = store_column_text(s, 3);
		r->verdict = store_column_text(s, 4);
		r->message_id = store_column_text(s, 5);
		r->state = store_column_text(s, 6);
		r->raw = g_bytes_new(sqlite3_column_blob(s, 7),
				     sqlite3_column_bytes(s, 7));
		r->created = sqlite3_column_int64(s, 8);
		r->sent = sqlite3_column_int64(s, 9);
		g_ptr_array_add(out, r);
	}
}
