/* The weekly arch/arm balance of a list (see bot/store/balance.h). */
#include "bot/store/balance.h"

#include <string.h>

#define BALANCE_SERIES_MAX 5000

gint64 store_balance_week_start(gint64 when)
{
	gint64 monday = 345600; /* 1970-01-05 00:00 UTC */
	gint64 offset = (when - monday) % STORE_BALANCE_WEEK;

	if (offset < 0)
		offset += STORE_BALANCE_WEEK;
	return when - offset;
}

/* The series of the list first posted in [?2, ?2 + a week), with the
 * first stored verdict of each (as /arch-arm takes it). */
#define BALANCE_JOB                                        \
	" JOIN jobs j ON j.id = (SELECT min(id) FROM jobs" \
	" WHERE series_id = s.id AND json_valid(verdict_json))"
#define BALANCE_WHERE                                                  \
	" WHERE s.first_date >= ?2 AND s.first_date < ?2 + 604800"     \
	" AND EXISTS (SELECT 1 FROM series_members sm JOIN messages m" \
	" ON m.message_id = sm.message_id WHERE sm.series_id = s.id"   \
	" AND instr(lower(m.list_id), '<' || lower(?1) || '>') > 0)"

static const char sql_series[] =
	"SELECT s.id, s.subject, s.author, s.state, s.first_date,"
	" j.id IS NOT NULL, json_extract(j.verdict_json, '$.added'),"
	" json_extract(j.verdict_json, '$.removed'),"
	" json_extract(j.verdict_json, '$.net'), j.similar"
	" FROM series s LEFT" BALANCE_JOB BALANCE_WHERE
	" ORDER BY s.first_date, s.id LIMIT ?3";

/* json_each() has a column "path" of its own: the alias is "dir" */
static const char sql_dirs[] =
	"SELECT json_extract(d.value, '$.path') AS dir, count(*),"
	" sum(json_extract(d.value, '$.added')),"
	" sum(json_extract(d.value, '$.removed')),"
	" sum(json_extract(d.value, '$.net')) AS net"
	" FROM series s" BALANCE_JOB
	" JOIN json_each(CASE WHEN json_type(j.verdict_json,"
	" '$.directories') = 'array' THEN j.verdict_json ELSE '{}' END,"
	" '$.directories') d" BALANCE_WHERE " AND s.state != 'superseded'"
	" GROUP BY dir HAVING dir IS NOT NULL ORDER BY net DESC, dir"
	" LIMIT ?3";

static void series_free(struct store_balance_series *s)
{
	g_free(s->subject);
	g_free(s->author);
	g_free(s->state);
	g_free(s->similar);
	g_free(s);
}

void store_balance_free(struct store_balance *b)
{
	if (!b)
		return;
	if (b->series)
		g_ptr_array_unref(b->series);
	if (b->dirs)
		g_ptr_array_unref(b->dirs);
	g_free(b);
}

static sqlite3_stmt *bound(struct store *st, const char *sql,
			   const char *list_id, gint64 week, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return NULL;
	store_bind_text(s, 1, list_id);
	sqlite3_bind_int64(s, 2, week);
	sqlite3_bind_int64(s, 3, BALANCE_SERIES_MAX);
	return s;
}

static gpointer read_series(sqlite3_stmt *s)
{
	struct store_balance_series *r = g_new0(struct store_balance_series, 1);

	r->id = sqlite3_column_int64(s, 0);
	r->subject = store_column_text(s, 1);
	r->author = store_column_text(s, 2);
	r->state = store_column_text(s, 3);
	r->first_date = sqlite3_column_int64(s, 4);
	r->tested = sqlite3_column_int(s, 5);
	r->counted = r->tested && strcmp(r->state, "superseded");
	r->added = sqlite3_column_int64(s, 6);
	r->removed = sqlite3_column_int64(s, 7);
	r->net = sqlite3_column_int64(s, 8);
	r->similar = store_column_text(s, 9);
	return r;
}

struct store_balance *store_balance_read(struct store *st, const char *list_id,
					 gint64 week, GError **error)
{
	g_autoptr(store_balance) b = g_new0(struct store_balance, 1);
	sqlite3_stmt *s;

	b->week = week;
	s = bound(st, sql_series, list_id, week, error);
	if (!s || !(b->series = store_rows(st, s, read_series,
					   (GDestroyNotify)series_free, error)))
		return NULL;
	s = bound(st, sql_dirs, list_id, week, error);
	if (!s ||
	    !(b->dirs = store_rows(st, s, store_web_dir_row,
				   (GDestroyNotify)store_web_dir_free, error)))
		return NULL;
	for (guint i = 0; i < b->series->len; i++) {
		const struct store_balance_series *r = b->series->pdata[i];

		b->posted++;
		b->tested += r->tested;
		if (!r->counted)
			continue;
		b->counted++;
		b->added += r->added;
		b->removed += r->removed;
		b->net += r->net;
	}
	return g_steal_pointer(&b);
}
