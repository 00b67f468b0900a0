/* The pipeline's tables: one job per (series, tree) with its state, the
 * result of each check, and the outbox of replies.  The state machine of
 * `armbot run` lives here, so that a restart after kill -9 at any point
 * loses nothing and sends nothing twice (see bot/pipeline-store.h). */
#include "bot/store-part.h"

static const char *const migrations[] = {
	/* 0 -> 1 */
	/* state: queued, running, done (reply rendered), failed (gave up
	 * after attempts), ignored (policy: no check, no reply; reason) */
	"CREATE TABLE jobs ("
	" id INTEGER PRIMARY KEY,"
	" series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,"
	" tree TEXT NOT NULL,"
	" tree_reason TEXT,"
	" state TEXT NOT NULL,"
	" attempts INTEGER NOT NULL DEFAULT 0,"
	" base_commit TEXT, base_how TEXT, head_commit TEXT,"
	" verdict TEXT, verdict_json TEXT, dirstat TEXT,"
	" reason TEXT,"
	" queued INTEGER NOT NULL, started INTEGER, finished INTEGER,"
	" UNIQUE (series_id, tree));"
	"CREATE INDEX jobs_state ON jobs(state);"
	/* name: apply, sparse, build, boot, rpm; status: ok, warn, fail,
	 * skipped */
	"CREATE TABLE checks ("
	" job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL,"
	" status TEXT NOT NULL,"
	" summary TEXT, detail TEXT, log_path TEXT,"
	" seconds REAL NOT NULL DEFAULT 0,"
	" PRIMARY KEY (job_id, name));"
	/* one reply per job.  state: pending (to send), sending (handed to
	 * the server, result not yet recorded), sent, held (dry run),
	 * failed (permanent error) */
	"CREATE TABLE outbox ("
	" id INTEGER PRIMARY KEY,"
	" job_id INTEGER NOT NULL UNIQUE REFERENCES jobs(id),"
	" message_id TEXT NOT NULL UNIQUE,"
	" list TEXT,"
	" sender TEXT NOT NULL, recipients TEXT NOT NULL,"
	" raw BLOB NOT NULL,"
	" state TEXT NOT NULL,"
	" attempts INTEGER NOT NULL DEFAULT 0,"
	" next_attempt INTEGER NOT NULL DEFAULT 0,"
	" last_error TEXT,"
	" created INTEGER NOT NULL, handed INTEGER, sent INTEGER);"
	"CREATE INDEX outbox_state ON outbox(state, next_attempt);"
	"CREATE INDEX outbox_list_sent ON outbox(list, sent);",
};

const struct store_part store_part_pipeline = {
	.name = "pipeline",
	.migrations = migrations,
	.n_migrations = G_N_ELEMENTS(migrations),
};
