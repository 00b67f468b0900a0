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

const struct store_part store_part_pwchecks = {
	.name = "pwchecks",
	.migrations = migrations,
	.n_migrations = G_N_ELEMENTS(migrations),
};

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
	sqlite3_stmt *s = store_statement(st, sql_queue, error);

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, c->series_id);
	store_bind_text(s, 2, c->tree);
	store_bind_text(s, 3, c->list);
	store_bind_text(s, 4, c->message_id);
	store_bind_text(s, 5, c->context);
	store_bind_text(s, 6, c->state);
	store_bind_text(s, 7, c->target_url);
	store_bind_text(s, 8, c->description);
	sqlite3_bind_int64(s, 9, now);
	return store_step_done(st, s, error);
}

GPtrArray *store_pwcheck_due(struct store *st, gint64 now, guint limit,
			     GError **error)
{
	sqlite3_stmt *s = store_select(st, &pwcheck_row, sql_due, error);

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, limit);
	return store_read_rows(st, s, &pwcheck_row, error);
}

GPtrArray *store_pwcheck_of_series(struct store *st, gint64 series_id,
				   GError **error)
{
	sqlite3_stmt *s = store_select(st, &pwcheck_row, sql_series, error);

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, series_id);
	return store_read_rows(st, s, &pwcheck_row, error);
}

gboolean store_pwcheck_posted(struct store *st, gint64 id, gint64 now,
			      GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_posted, error);

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, now);
	return store_step_done(st, s, error);
}

gboolean store_pwcheck_retry(struct store *st, gint64 id, const char *why,
			     gint64 next_try, gboolean give_up, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_retry, error);

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, id);
	store_bind_text(s, 2, give_up ? "failed" : "pending");
	sqlite3_bind_int64(s, 3, next_try);
	store_bind_text(s, 4, why);
	return store_step_done(st, s, error);
}
