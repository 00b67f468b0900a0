/* Remote boots' jobs (bot/store/boot.h). */
#include "bot/store/boot.h"

#include <time.h>

static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE boot_jobs ("
	" key TEXT PRIMARY KEY,"
	" server TEXT NOT NULL,"
	" job_id INTEGER NOT NULL,"
	" submitted INTEGER NOT NULL);",
};

STORE_PART_DEFINE(boot, migrations);

static const char sql_get[] =
	"SELECT server, job_id FROM boot_jobs WHERE key = ?1";
static const char sql_set[] =
	"INSERT OR REPLACE INTO boot_jobs (key, server, job_id, submitted)"
	" VALUES (?1, ?2, ?3, ?4)";
static const char sql_unset[] = "DELETE FROM boot_jobs WHERE key = ?1";

gboolean store_boot_job_get(struct store *st, const char *key, char **server,
			    guint64 *id, GError **error)
{
	sqlite3_stmt *s =
		store_bind(st, sql_get, error, STORE_T(key), STORE_END);
	gboolean row;

	*server = NULL;
	*id = 0;
	if (!s)
		return FALSE;
	if (!store_step_row(st, s, &row, error))
		return FALSE;
	if (row) {
		*server = store_column_text(s, 0);
		*id = (guint64)sqlite3_column_int64(s, 1);
		sqlite3_reset(s);
	}
	return TRUE;
}

gboolean store_boot_job_set(struct store *st, const char *key,
			    const char *server, guint64 id, GError **error)
{
	if (!id)
		return store_exec(st, sql_unset, error, STORE_T(key),
				  STORE_END);
	return store_exec(st, sql_set, error, STORE_T(key), STORE_T(server),
			  STORE_I(id), STORE_I(time(NULL)), STORE_END);
}
