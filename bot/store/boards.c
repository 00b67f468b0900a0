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

static const struct store_field fields[] = {
	STORE_COLUMN(struct store_board, board, STORE_TEXT),
	STORE_COLUMN(struct store_board, status, STORE_TEXT),
	STORE_COLUMN(struct store_board, summary, STORE_TEXT),
	STORE_COLUMN(struct store_board, reason, STORE_TEXT),
	STORE_COLUMN(struct store_board, detail, STORE_TEXT),
	STORE_COLUMN(struct store_board, seconds, STORE_DOUBLE),
};

STORE_ROW_DEFINE(, board_row, struct store_board, fields, store_board_free,
		 NULL)

static const char sql_job[] =
	" FROM job_boards WHERE job_id = ?1 ORDER BY position LIMIT 256";

GPtrArray *store_boards_job(struct store *st, gint64 job_id, GError **error)
{
	return store_select_rows(st, &board_row, sql_job, error,
				 STORE_I(job_id), STORE_END);
}
