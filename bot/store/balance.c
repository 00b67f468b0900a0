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

static const char sql_series[] = " FROM series s LEFT" BALANCE_JOB BALANCE_WHERE
				 " ORDER BY s.first_date, s.id LIMIT ?3";

/* json_each() has a column "path" of its own: the alias is "dir" */
static const char sql_dirs[] =
	" FROM series s" BALANCE_JOB
	" JOIN json_each(CASE WHEN json_type(j.verdict_json,"
	" '$.directories') = 'array' THEN j.verdict_json ELSE '{}' END,"
	" '$.directories') d" BALANCE_WHERE " AND s.state != 'superseded'"
	" GROUP BY dir HAVING dir IS NOT NULL ORDER BY net DESC, dir"
	" LIMIT ?3";

static void series_free(struct store_balance_series *s);

#define SERIES(member, column, kind) \
	STORE_FIELD(struct store_balance_series, member, column, kind)
static const struct store_field series_fields[] = {
	SERIES(id, "s.id", STORE_INT64),
	SERIES(subject, "s.subject", STORE_TEXT),
	SERIES(author, "s.author", STORE_TEXT),
	SERIES(state, "s.state", STORE_TEXT),
	SERIES(first_date, "s.first_date", STORE_INT64),
	SERIES(tested, "j.id IS NOT NULL", STORE_INT),
	SERIES(added, "json_extract(j.verdict_json, '$.added')", STORE_INT64),
	SERIES(removed, "json_extract(j.verdict_json, '$.removed')",
	       STORE_INT64),
	SERIES(net, "json_extract(j.verdict_json, '$.net')", STORE_INT64),
	SERIES(similar, "j.similar", STORE_TEXT),
};
#undef SERIES

static void series_counted(gpointer p, sqlite3_stmt *s)
{
	struct store_balance_series *r = p;

	r->counted = r->tested && strcmp(r->state, "superseded");
}

STORE_ROW_DEFINE(static, series_row, struct store_balance_series, series_fields,
		 series_free, series_counted)

void store_balance_free(struct store_balance *b)
{
	if (!b)
		return;
	g_clear_pointer(&b->series, g_ptr_array_unref);
	g_clear_pointer(&b->dirs, g_ptr_array_unref);
	g_free(b);
}

/* The rows of @row in list @list_id's week @week, as @sql selects them */
static GPtrArray *week_rows(struct store *st, const struct store_row *row,
			    const char *sql, const char *list_id, gint64 week,
			    GError **error)
{
	return store_select_rows(st, row, sql, error, STORE_T(list_id),
				 STORE_I(week), STORE_I(BALANCE_SERIES_MAX),
				 STORE_END);
}

struct store_balance *store_balance_read(struct store *st, const char *list_id,
					 gint64 week, GError **error)
{
	g_autoptr(store_balance) b = g_new0(struct store_balance, 1);

	b->week = week;
	if (!(b->series = week_rows(st, &series_row, sql_series, list_id, week,
				    error)) ||
	    !(b->dirs = week_rows(st, &store_web_dir_row, sql_dirs, list_id,
				  week, error)))
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
