/* The store part "pwchecks": see bot/store/pwchecks.h. */
#include "bot/store/pwchecks.h"

#include "bot/store/db.h"

static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE pwchecks ("
	" id INTEGER PRIMARY KEY,"
	" series_id INTEGER NOT NULL,"
	" tree TEXT NOT NULL,"
	" list TEXT NOT NULL,"
	" message_id TEXT NOT NULL,"
	" context TEXT NOT NULL,"
	" state TEXT NOT NULL,"
	" target_url TEXT,"
	" description TEXT NOT NULL,"
	" status TEXT NOT NULL,"
	" attempts INTEGER NOT NULL,"
	" next_try INTEGER NOT NULL,"
	" last_error TEXT,"
	" posted INTEGER,"
	" UNIQUE (series_id, tree, message_id, context));"
	"CREATE INDEX pwchecks_due ON pwchecks (status, next_try);",
};

STORE_PART_DEFINE(pwchecks, migrations);

static const char sql_queue[] =
	"INSERT OR REPLACE INTO pwchecks (series_id, tree, list, message_id,"
	" context, state, target_url, description, status, attempts,"
	" next_try) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'pending', 0, ?9)";
static const char sql_due[] = " FROM pwchecks"
			      " WHERE status = 'pending' AND next_try <= ?1"
			      " ORDER BY next_try, id LIMIT ?2";
static const char sql_series[] = " FROM pwchecks"
				 " WHERE series_id = ?1 ORDER BY id";
static const char sql_posted[] =
	"UPDATE pwchecks SET status = 'posted', posted = ?2,"
	" attempts = attempts + 1, last_error = NULL WHERE id = ?1";
static const char sql_retry[] =
	"UPDATE pwchecks SET status = ?2, attempts = attempts + 1,"
	" next_try = ?3, last_error = ?4 WHERE id = ?1";

static const struct store_field fields[] = {
	STORE_COLUMN(struct store_pwcheck, id, STORE_INT64),
	STORE_COLUMN(struct store_pwcheck, series_id, STORE_INT64),
	STORE_COLUMN(struct store_pwcheck, tree, STORE_TEXT),
	STORE_COLUMN(struct store_pwcheck, list, STORE_TEXT),
	STORE_COLUMN(struct store_pwcheck, message_id, STORE_TEXT),
	STORE_COLUMN(struct store_pwcheck, context, STORE_TEXT),
	STORE_COLUMN(struct store_pwcheck, state, STORE_TEXT),
	STORE_COLUMN(struct store_pwcheck, target_url, STORE_TEXT),
	STORE_COLUMN(struct store_pwcheck, description, STORE_TEXT),
	STORE_COLUMN(struct store_pwcheck, status, STORE_TEXT),
	STORE_COLUMN(struct store_pwcheck, attempts, STORE_INT),
	STORE_COLUMN(struct store_pwcheck, next_try, STORE_INT64),
	STORE_COLUMN(struct store_pwcheck, last_error, STORE_TEXT),
};

STORE_ROW_DEFINE(, pwcheck_row, struct store_pwcheck, fields,
		 store_pwcheck_free, NULL)

gboolean store_pwcheck_queue(struct store *st, const struct store_pwcheck *c,
			     gint64 now, GError **error)
{
	return store_exec(st, sql_queue, error, STORE_I(c->series_id),
			  STORE_T(c->tree), STORE_T(c->list),
			  STORE_T(c->message_id), STORE_T(c->context),
			  STORE_T(c->state), STORE_T(c->target_url),
			  STORE_T(c->description), STORE_I(now), STORE_END);
}

GPtrArray *store_pwcheck_due(struct store *st, gint64 now, guint limit,
			     GError **error)
{
	return store_select_rows(st, &pwcheck_row, sql_due, error, STORE_I(now),
				 STORE_I(limit), STORE_END);
}

GPtrArray *store_pwcheck_of_series(struct store *st, gint64 series_id,
				   GError **error)
{
	return store_select_rows(st, &pwcheck_row, sql_series, error,
				 STORE_I(series_id), STORE_END);
}

gboolean store_pwcheck_posted(struct store *st, gint64 id, gint64 now,
			      GError **error)
{
	return store_exec(st, sql_posted, error, STORE_I(id), STORE_I(now),
			  STORE_END);
}

gboolean store_pwcheck_retry(struct store *st, gint64 id, const char *why,
			     gint64 next_try, gboolean give_up, GError **error)
{
	return store_exec(st, sql_retry, error, STORE_I(id),
			  STORE_T(give_up ? "failed" : "pending"),
			  STORE_I(next_try), STORE_T(why), STORE_END);
}
