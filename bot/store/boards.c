/* The boards of the jobs (see bot/store/boards.h). */
#include "bot/store/boards.h"

static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE job_boards ("
	" job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,"
	" position INTEGER NOT NULL,"
	" board TEXT NOT NULL,"
	" status TEXT NOT NULL,"
	" summary TEXT, reason TEXT, detail TEXT,"
	" seconds REAL NOT NULL DEFAULT 0,"
	" PRIMARY KEY (job_id, position));",
};

STORE_PART_DEFINE(boards, migrations);

static const char sql_set[] =
	"INSERT OR REPLACE INTO job_boards (job_id, position, board, status,"
	" summary, reason, detail, seconds)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

gboolean store_boards_set(struct store *st, gint64 job_id, guint position,
			  const struct store_board *b, GError **error)
{
	return store_exec(st, sql_set, error, STORE_I(job_id),
			  STORE_I(position), STORE_T(b->board),
			  STORE_T(b->status), STORE_T(b->summary),
			  STORE_T(b->reason), STORE_T(b->detail),
			  STORE_D(b->seconds), STORE_END);
}

void store_board_free(struct store_board *b)
{
	if (!b)
		return;
	g_free(b->board);
	g_free(b->status);
	g_free(b->summary);
	g_free(b->reason);
	g_free(b->detail);
	g_free(b);
}

static gpointer read_board(sqlite3_stmt *s)
{
	struct store_board *b = g_new0(struct store_board, 1);

	b->board = store_column_text(s, 0);
	b->status = store_column_text(s, 1);
	b->summary = store_column_text(s, 2);
	b->reason = store_column_text(s, 3);
	b->detail = store_column_text(s, 4);
	b->seconds = sqlite3_column_double(s, 5);
	return b;
}

static const char sql_job[] =
	"SELECT board, status, summary, reason, detail, seconds"
	" FROM job_boards WHERE job_id = ?1 ORDER BY position LIMIT 256";

GPtrArray *store_boards_job(struct store *st, gint64 job_id, GError **error)
{
	sqlite3_stmt *s =
		store_bind(st, sql_job, error, STORE_I(job_id), STORE_END);

	if (!s)
		return NULL;
	return store_rows(st, s, read_board, (GDestroyNotify)store_board_free,
			  error);
}
