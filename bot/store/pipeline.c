/* The pipeline's tables: one job per (series, tree) with its state, the
 * result of each check, and the outbox of replies.  The state machine of
 * `armbot run` lives here, so that a restart after kill -9 at any point
 * loses nothing and sends nothing twice (see bot/pipeline-store.h). */
#include "bot/store/pipeline.h"

#include "bot/store/db.h"

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
	/* 1 -> 2: the outbox also carries the bot's own mail that answers
	 * no series (opt-in confirmations, list subscriptions): job_id may
	 * be NULL and kind says what a mail is */
	"CREATE TABLE outbox_new ("
	" id INTEGER PRIMARY KEY,"
	" job_id INTEGER UNIQUE REFERENCES jobs(id),"
	" kind TEXT NOT NULL DEFAULT 'reply',"
	" message_id TEXT NOT NULL UNIQUE,"
	" list TEXT,"
	" sender TEXT NOT NULL, recipients TEXT NOT NULL,"
	" raw BLOB NOT NULL,"
	" state TEXT NOT NULL,"
	" attempts INTEGER NOT NULL DEFAULT 0,"
	" next_attempt INTEGER NOT NULL DEFAULT 0,"
	" last_error TEXT,"
	" created INTEGER NOT NULL, handed INTEGER, sent INTEGER);"
	"INSERT INTO outbox_new (id, job_id, message_id, list, sender,"
	" recipients, raw, state, attempts, next_attempt, last_error,"
	" created, handed, sent) SELECT id, job_id, message_id, list,"
	" sender, recipients, raw, state, attempts, next_attempt,"
	" last_error, created, handed, sent FROM outbox;"
	"DROP TABLE outbox;"
	"ALTER TABLE outbox_new RENAME TO outbox;"
	"CREATE INDEX outbox_state ON outbox(state, next_attempt);"
	"CREATE INDEX outbox_list_sent ON outbox(list, sent);",
	/* 3: base discovery says how it found the base or why not; a series
	 * not tested says why */
	"ALTER TABLE jobs ADD COLUMN base_reason TEXT;"
	"ALTER TABLE jobs ADD COLUMN not_tested TEXT;",
	/* 4: why the series grows arch/arm: near-copies, drivers in the
	 * wrong place (kernel/similar/similar.h's lines) */
	"ALTER TABLE jobs ADD COLUMN similar TEXT;",
};

const struct store_part store_part_pipeline = {
	.name = "pipeline",
	.migrations = migrations,
	.n_migrations = G_N_ELEMENTS(migrations),
};

static gpointer first_column(sqlite3_stmt *s)
{
	return store_column_text(s, 0);
}

static gpointer second_column(sqlite3_stmt *s)
{
	return store_column_text(s, 1);
}

static gint64 now_s(void)
{
	return g_get_real_time() / G_USEC_PER_SEC;
}

gboolean store_series_of_message(struct store *st, const char *message_id,
				 gint64 *series_id, GError **error)
{
	static const char sql[] =
		"SELECT series_id FROM series_members WHERE message_id = ?1"
		" ORDER BY series_id DESC LIMIT 1";
	sqlite3_stmt *s = store_statement(st, sql, error);
	gboolean row;

	*series_id = 0;
	if (!s)
		return FALSE;
	store_bind_text(s, 1, message_id);
	if (!store_step_row(st, s, &row, error))
		return FALSE;
	if (row)
		*series_id = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	return TRUE;
}

GArray *store_series_ids_in_state(struct store *st, const char *state,
				  GError **error)
{
	static const char sql[] =
		"SELECT id FROM series WHERE state = ?1 ORDER BY id";
	sqlite3_stmt *s = store_statement(st, sql, error);
	g_autoptr(GArray) ids = g_array_new(FALSE, FALSE, sizeof(gint64));
	gboolean row = TRUE;

	if (!s)
		return NULL;
	store_bind_text(s, 1, state);
	while (row) {
		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (row) {
			gint64 id = sqlite3_column_int64(s, 0);

			g_array_append_val(ids, id);
		}
	}
	return g_steal_pointer(&ids);
}

gboolean store_series_set_state(struct store *st, gint64 series_id,
				const char *state, GError **error)
{
	static const char sql[] =
		"UPDATE series SET state = ?2, updated = ?3 WHERE id = ?1";
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, series_id);
	store_bind_text(s, 2, state);
	sqlite3_bind_int64(s, 3, now_s());
	return store_step_done(st, s, error);
}

void store_job_free(struct store_job *job)
{
	if (!job)
		return;
	g_free(job->tree);
	g_free(job->tree_reason);
	g_free(job->state);
	g_free(job->reason);
	g_free(job);
}

#define JOB_COLUMNS                                                          \
	"id, series_id, tree, tree_reason, state, attempts, reason, queued," \
	" started, finished"

static struct store_job *read_job(sqlite3_stmt *s)
{
	struct store_job *job = g_new0(struct store_job, 1);

	job->id = sqlite3_column_int64(s, 0);
	job->series_id = sqlite3_column_int64(s, 1);
	job->tree = store_column_text(s, 2);
	job->tree_reason = store_column_text(s, 3);
	job->state = store_column_text(s, 4);
	job->attempts = sqlite3_column_int(s, 5);
	job->reason = store_column_text(s, 6);
	job->queued = sqlite3_column_int64(s, 7);
	job->started = sqlite3_column_int64(s, 8);
	job->finished = sqlite3_column_int64(s, 9);
	return job;
}

gboolean store_job_add(struct store *st, gint64 series_id, const char *tree,
		       const char *tree_reason, const char *ignore_reason,
		       gboolean *added, GError **error)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO jobs (series_id, tree, tree_reason,"
		" state, reason, queued) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, series_id);
	store_bind_text(s, 2, tree);
	store_bind_text(s, 3, tree_reason);
	store_bind_text(s, 4, ignore_reason ? "ignored" : "queued");
	store_bind_text(s, 5, ignore_reason);
	sqlite3_bind_int64(s, 6, now_s());
	if (!store_step_done(st, s, error))
		return FALSE;
	*added = sqlite3_changes(store_db(st)) > 0;
	return TRUE;
}

gboolean store_job_recover(struct store *st, guint max_attempts,
			   guint *requeued, guint *failed, GError **error)
{
	static const char fail_sql[] =
		"UPDATE jobs SET state = 'failed', finished = ?2, reason ="
		" 'gave up after ' || attempts || ' attempts: the bot stopped"
		" while checking it each time'"
		" WHERE state = 'running' AND attempts >= ?1";
	static const char requeue_sql[] =
		"UPDATE jobs SET state = 'queued' WHERE state = 'running'";
	sqlite3_stmt *s;

	if (!store_begin(st, error))
		return FALSE;
	s = store_statement(st, fail_sql, error);
	if (!s)
		goto fail;
	sqlite3_bind_int(s, 1, max_attempts);
	sqlite3_bind_int64(s, 2, now_s());
	if (!store_step_done(st, s, error))
		goto fail;
	*failed = sqlite3_changes(store_db(st));
	s = store_statement(st, requeue_sql, error);
	if (!s || !store_step_done(st, s, error))
		goto fail;
	*requeued = sqlite3_changes(store_db(st));
	return store_commit(st, error);
fail:
	store_rollback(st);
	return FALSE;
}

struct store_job *store_job_claim(struct store *st, const char *tree,
				  GError **error)
{
	static const char pick_sql[] =
		"SELECT " JOB_COLUMNS " FROM jobs WHERE state = 'queued'"
		" AND (?1 IS NULL OR tree = ?1) ORDER BY queued, id LIMIT 1";
	static const char superseded_sql[] =
		"UPDATE jobs SET state = 'ignored', reason = 'superseded by a"
		" newer version or a resend before it was checked' WHERE"
		" state = 'queued'"
		" AND series_id IN (SELECT id FROM series WHERE state ="
		" 'superseded')";
	static const char take_sql[] =
		"UPDATE jobs SET state = 'running', attempts = attempts + 1,"
		" started = ?2 WHERE id = ?1";
	g_autoptr(store_job) job = NULL;
	sqlite3_stmt *s;
	gboolean row;

	if (!store_begin(st, error))
		return NULL;
	/* a newer version or a resend came while it waited: no check, no
	 * reply */
	s = store_statement(st, superseded_sql, error);
	if (!s || !store_step_done(st, s, error))
		goto fail;
	s = store_statement(st, pick_sql, error);
	if (!s)
		goto fail;
	store_bind_text(s, 1, tree);
	if (!store_step_row(st, s, &row, error))
		goto fail;
	if (!row) {
		/* keeps what was set aside */
		if (!store_commit(st, error))
			goto fail;
		return NULL;
	}
	job = read_job(s);
	sqlite3_reset(s);
	s = store_statement(st, take_sql, error);
	if (!s)
		goto fail;
	sqlite3_bind_int64(s, 1, job->id);
	sqlite3_bind_int64(s, 2, now_s());
	if (!store_step_done(st, s, error) ||
	    !store_series_set_state(st, job->series_id, "checking", error) ||
	    !store_commit(st, error))
		goto fail;
	g_free(job->state);
	job->state = g_strdup("running");
	job->attempts++;
	return g_steal_pointer(&job);
fail:
	store_rollback(st);
	return NULL;
}

gboolean store_job_finish(struct store *st, gint64 job_id,
			  const struct store_job_result *res, GError **error)
{
	static const char job_sql[] =
		"UPDATE jobs SET state = 'done', finished = ?2,"
		" base_commit = ?3, base_how = ?4, head_commit = ?5,"
		" verdict = ?6, verdict_json = ?7, dirstat = ?8, reason = ?9,"
		" tree_reason = coalesce(?10, tree_reason), base_reason = ?11,"
		" not_tested = ?12, similar = ?13 WHERE id = ?1";
	static const char check_sql[] =
		"INSERT OR REPLACE INTO checks (job_id, name, status, summary,"
		" detail, seconds) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	static const char reply_sql[] =
		"INSERT OR IGNORE INTO outbox (job_id, message_id, list, sender,"
		" recipients, raw, state, created) VALUES (?1, ?2, ?3, ?4, ?5,"
		" ?6, ?7, ?8)";
	static const char series_sql[] =
		"UPDATE series SET state = coalesce(?3, 'reported'), updated = ?2"
		" WHERE id = (SELECT series_id FROM jobs WHERE id = ?1)";
	sqlite3_stmt *s;

	if (!store_begin(st, error))
		return FALSE;
	if (!(s = store_statement(st, job_sql, error)))
		goto fail;
	sqlite3_bind_int64(s, 1, job_id);
	sqlite3_bind_int64(s, 2, now_s());
	store_bind_text(s, 3, res->base_commit);
	store_bind_text(s, 4, res->base_how);
	store_bind_text(s, 5, res->head_commit);
	store_bind_text(s, 6, res->verdict);
	store_bind_text(s, 7, res->verdict_json);
	store_bind_text(s, 8, res->dirstat);
	store_bind_text(s, 9, res->no_reply_reason);
	store_bind_text(s, 10, res->tree_reason);
	store_bind_text(s, 11, res->base_reason);
	store_bind_text(s, 12, res->not_tested);
	store_bind_text(s, 13, res->similar);
	if (!store_step_done(st, s, error))
		goto fail;
	for (guint i = 0; i < res->n_checks; i++) {
		const struct store_check *c = &res->checks[i];

		if (!(s = store_statement(st, check_sql, error)))
			goto fail;
		sqlite3_bind_int64(s, 1, job_id);
		store_bind_text(s, 2, c->name);
		store_bind_text(s, 3, c->status);
		store_bind_text(s, 4, c->summary);
		store_bind_text(s, 5, c->detail);
		sqlite3_bind_double(s, 6, c->seconds);
		if (!store_step_done(st, s, error))
			goto fail;
	}
	if (res->reply) {
		const struct store_reply *r = res->reply;
		gsize len;
		const void *data = g_bytes_get_data(r->raw, &len);

		if (!(s = store_statement(st, reply_sql, error)))
			goto fail;
		sqlite3_bind_int64(s, 1, job_id);
		store_bind_text(s, 2, r->message_id);
		store_bind_text(s, 3, r->list);
		store_bind_text(s, 4, r->sender);
		store_bind_text(s, 5, r->recipients);
		sqlite3_bind_blob64(s, 6, data ? data : "", len, SQLITE_STATIC);
		store_bind_text(s, 7, r->state);
		sqlite3_bind_int64(s, 8, now_s());
		if (!store_step_done(st, s, error))
			goto fail;
	}
	if (!(s = store_statement(st, series_sql, error)))
		goto fail;
	sqlite3_bind_int64(s, 1, job_id);
	sqlite3_bind_int64(s, 2, now_s());
	store_bind_text(s, 3, res->series_state);
	if (!store_step_done(st, s, error))
		goto fail;
	return store_commit(st, error);
fail:
	store_rollback(st);
	return FALSE;
}

gboolean store_job_early_verdict(struct store *st, gint64 job_id,
				 const struct store_job_result *res,
				 GError **error)
{
	static const char sql[] =
		"UPDATE jobs SET base_commit = ?2, base_how = ?3,"
		" head_commit = ?4, verdict = ?5, verdict_json = ?6,"
		" dirstat = ?7 WHERE id = ?1 AND state = 'running'";
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, job_id);
	store_bind_text(s, 2, res->base_commit);
	store_bind_text(s, 3, res->base_how);
	store_bind_text(s, 4, res->head_commit);
	store_bind_text(s, 5, res->verdict);
	store_bind_text(s, 6, res->verdict_json);
	store_bind_text(s, 7, res->dirstat);
	return store_step_done(st, s, error);
}

gboolean store_job_error(struct store *st, gint64 job_id, const char *reason,
			 gboolean retry, GError **error)
{
	static const char sql[] =
		"UPDATE jobs SET state = ?2, reason = ?3, finished = ?4,"
		" verdict = NULL, verdict_json = NULL, dirstat = NULL"
		" WHERE id = ?1";
	static const char series_sql[] =
		"UPDATE series SET state = ?2, updated = ?3 WHERE id ="
		" (SELECT series_id FROM jobs WHERE id = ?1)";
	sqlite3_stmt *s;

	if (!store_begin(st, error))
		return FALSE;
	if (!(s = store_statement(st, sql, error)))
		goto fail;
	sqlite3_bind_int64(s, 1, job_id);
	store_bind_text(s, 2, retry ? "queued" : "failed");
	store_bind_text(s, 3, reason);
	sqlite3_bind_int64(s, 4, now_s());
	if (!store_step_done(st, s, error))
		goto fail;
	if (!(s = store_statement(st, series_sql, error)))
		goto fail;
	sqlite3_bind_int64(s, 1, job_id);
	store_bind_text(s, 2, retry ? "checking" : "failed");
	sqlite3_bind_int64(s, 3, now_s());
	if (!store_step_done(st, s, error))
		goto fail;
	return store_commit(st, error);
fail:
	store_rollback(st);
	return FALSE;
}

GPtrArray *store_jobs_of_series(struct store *st, gint64 series_id,
				GError **error)
{
	static const char sql[] = "SELECT " JOB_COLUMNS
				  " FROM jobs WHERE series_id = ?1 ORDER BY id";
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, series_id);
	return store_rows(st, s, (store_row_fn)read_job,
			  (GDestroyNotify)store_job_free, error);
}

void store_outbox_free(struct store_outbox *o)
{
	if (!o)
		return;
	g_free(o->message_id);
	g_free(o->list);
	g_free(o->sender);
	g_free(o->recipients);
	g_free(o->state);
	g_free(o->last_error);
	if (o->raw)
		g_bytes_unref(o->raw);
	g_free(o);
}

#define OUTBOX_COLUMNS                                                  \
	"id, job_id, message_id, list, sender, recipients, raw, state," \
	" attempts, next_attempt, last_error, created, handed, sent"

static struct store_outbox *read_outbox(sqlite3_stmt *s)
{
	struct store_outbox *o = g_new0(struct store_outbox, 1);

	o->id = sqlite3_column_int64(s, 0);
	o->job_id = sqlite3_column_int64(s, 1);
	o->message_id = store_column_text(s, 2);
	o->list = store_column_text(s, 3);
	o->sender = store_column_text(s, 4);
	o->recipients = store_column_text(s, 5);
	o->raw = g_bytes_new(sqlite3_column_blob(s, 6),
			     sqlite3_column_bytes(s, 6));
	o->state = store_column_text(s, 7);
	o->attempts = sqlite3_column_int(s, 8);
	o->next_attempt = sqlite3_column_int64(s, 9);
	o->last_error = store_column_text(s, 10);
	o->created = sqlite3_column_int64(s, 11);
	o->handed = sqlite3_column_int64(s, 12);
	o->sent = sqlite3_column_int64(s, 13);
	return o;
}

struct store_outbox *store_outbox_next(struct store *st, gint64 now,
				       GError **error)
{
	static const char sql[] =
		"SELECT " OUTBOX_COLUMNS " FROM outbox WHERE state = 'pending'"
		" AND next_attempt <= ?1 ORDER BY next_attempt, id LIMIT 1";
	sqlite3_stmt *s = store_statement(st, sql, error);
	struct store_outbox *o = NULL;
	gboolean row;

	if (!s)
		return NULL;
	sqlite3_bind_int64(s, 1, now);
	if (!store_step_row(st, s, &row, error))
		return NULL;
	if (row)
		o = read_outbox(s);
	sqlite3_reset(s);
	return o;
}

GPtrArray *store_outbox_in_state(struct store *st, const char *state,
				 GError **error)
{
	static const char sql[] = "SELECT " OUTBOX_COLUMNS
				  " FROM outbox WHERE state = ?1 ORDER BY id";
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return NULL;
	store_bind_text(s, 1, state);
	return store_rows(st, s, (store_row_fn)read_outbox,
			  (GDestroyNotify)store_outbox_free, error);
}

gboolean store_outbox_set(struct store *st, gint64 id, const char *state,
			  gint64 now, gint64 next_attempt,
			  const char *last_error, GError **error)
{
	static const char sql[] =
		"UPDATE outbox SET state = ?2,"
		" attempts = attempts + (?2 = 'sending'),"
		" handed = CASE WHEN ?2 = 'sending' THEN ?3 ELSE handed END,"
		" sent = CASE WHEN ?2 = 'sent' THEN ?3 ELSE sent END,"
		" next_attempt = ?4,"
		" last_error = coalesce(?5, last_error) WHERE id = ?1";
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, id);
	store_bind_text(s, 2, state);
	sqlite3_bind_int64(s, 3, now);
	sqlite3_bind_int64(s, 4, next_attempt);
	store_bind_text(s, 5, last_error);
	return store_step_done(st, s, error);
}

gboolean store_outbox_sent_since(struct store *st, const char *list,
				 gint64 since, guint *count, GError **error)
{
	static const char sql[] =
		"SELECT count(*) FROM outbox WHERE list = ?1 AND state IN"
		" ('sent', 'sending') AND coalesce(sent, handed) >= ?2";
	sqlite3_stmt *s = store_statement(st, sql, error);
	gboolean row;

	*count = 0;
	if (!s)
		return FALSE;
	store_bind_text(s, 1, list);
	sqlite3_bind_int64(s, 2, since);
	if (!store_step_row(st, s, &row, error))
		return FALSE;
	if (row)
		*count = sqlite3_column_int(s, 0);
	sqlite3_reset(s);
	return TRUE;
}

gboolean store_pipeline_counts(struct store *st, GPtrArray *what,
			       GPtrArray *state, GArray *count, GError **error)
{
	static const char sql[] =
		"SELECT 'series', state, count(*) FROM series GROUP BY state"
		" UNION ALL SELECT 'jobs', state, count(*) FROM jobs"
		" GROUP BY state"
		" UNION ALL SELECT 'outbox', state, count(*) FROM outbox"
		" GROUP BY state ORDER BY 1, 2";
	sqlite3_stmt *s = store_statement(st, sql, error);
	gboolean row = TRUE;

	if (!s)
		return FALSE;
	while (row) {
		if (!store_step_row(st, s, &row, error))
			return FALSE;
		if (row) {
			guint n = sqlite3_column_int(s, 2);

			g_ptr_array_add(what, store_column_text(s, 0));
			g_ptr_array_add(state, store_column_text(s, 1));
			g_array_append_val(count, n);
		}
	}
	return TRUE;
}

GPtrArray *store_pipeline_errors(struct store *st, guint max, GError **error)
{
	static const char sql[] =
		"SELECT t, text FROM ("
		" SELECT finished AS t, 'job ' || id || ' (series ' ||"
		"  series_id || ' on ' || tree || '): ' || reason AS text"
		"  FROM jobs WHERE state = 'failed'"
		" UNION ALL SELECT coalesce(handed, created), 'reply <' ||"
		"  message_id || '> (' || state || ', ' || attempts ||"
		"  ' attempts): ' || last_error FROM outbox"
		"  WHERE last_error IS NOT NULL AND state != 'sent')"
		" ORDER BY t DESC LIMIT ?1";
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return NULL;
	sqlite3_bind_int(s, 1, max);
	return store_rows(st, s, second_column, g_free, error);
}

gboolean store_outbox_add(struct store *st, const char *kind,
			  const struct store_reply *mail, gboolean *added,
			  GError **error)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO outbox (kind, message_id, list, sender,"
		" recipients, raw, state, created) VALUES (?1, ?2, ?3, ?4, ?5,"
		" ?6, ?7, ?8)";
	sqlite3_stmt *s = store_statement(st, sql, error);
	gsize len;
	const void *data = g_bytes_get_data(mail->raw, &len);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, kind);
	store_bind_text(s, 2, mail->message_id);
	store_bind_text(s, 3, mail->list);
	store_bind_text(s, 4, mail->sender);
	store_bind_text(s, 5, mail->recipients);
	sqlite3_bind_blob64(s, 6, data ? data : "", len, SQLITE_STATIC);
	store_bind_text(s, 7, mail->state ? mail->state : "pending");
	sqlite3_bind_int64(s, 8, now_s());
	if (!store_step_done(st, s, error))
		return FALSE;
	*added = sqlite3_changes(store_db(st)) > 0;
	return TRUE;
}

GPtrArray *store_job_queued_trees(struct store *st, GError **error)
{
	static const char sql[] =
		"SELECT DISTINCT tree FROM jobs WHERE state IN ('queued',"
		" 'running') ORDER BY tree";
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return NULL;
	return store_rows(st, s, first_column, g_free, error);
}
