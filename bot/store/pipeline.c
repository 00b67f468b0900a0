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
	/* 5: a job the lab could not run waits (store_job_defer): not
	 * picked before not_before; deferrals sets the back-off */
	"ALTER TABLE jobs ADD COLUMN not_before INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN deferrals INTEGER NOT NULL DEFAULT 0;",
};

STORE_PART_DEFINE(pipeline, migrations);

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
	return store_query_int64(st, sql, series_id, error, STORE_T(message_id),
				 STORE_END);
}

GArray *store_series_ids_in_state(struct store *st, const char *state,
				  GError **error)
{
	static const char sql[] =
		"SELECT id FROM series WHERE state = ?1 ORDER BY id";
	sqlite3_stmt *s = store_bind(st, sql, error, STORE_T(state), STORE_END);

	if (!s)
		return NULL;
	return store_read_ids(st, s, error);
}

gboolean store_series_set_state(struct store *st, gint64 series_id,
				const char *state, GError **error)
{
	static const char sql[] =
		"UPDATE series SET state = ?2, updated = ?3 WHERE id = ?1";
	return store_exec(st, sql, error, STORE_I(series_id), STORE_T(state),
			  STORE_I(now_s()), STORE_END);
}

static const struct store_field job_fields[] = {
	STORE_COLUMN(struct store_job, id, STORE_INT64),
	STORE_COLUMN(struct store_job, series_id, STORE_INT64),
	STORE_COLUMN(struct store_job, tree, STORE_TEXT),
	STORE_COLUMN(struct store_job, tree_reason, STORE_TEXT),
	STORE_COLUMN(struct store_job, state, STORE_TEXT),
	STORE_COLUMN(struct store_job, attempts, STORE_INT),
	STORE_COLUMN(struct store_job, reason, STORE_TEXT),
	STORE_COLUMN(struct store_job, queued, STORE_INT64),
	STORE_COLUMN(struct store_job, started, STORE_INT64),
	STORE_COLUMN(struct store_job, finished, STORE_INT64),
};

STORE_ROW_DEFINE(, job_row, struct store_job, job_fields, store_job_free, NULL)

gboolean store_job_add(struct store *st, gint64 series_id, const char *tree,
		       const char *tree_reason, const char *ignore_reason,
		       gboolean *added, GError **error)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO jobs (series_id, tree, tree_reason,"
		" state, reason, queued) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	return store_exec_changed(st, sql, added, error, STORE_I(series_id),
				  STORE_T(tree), STORE_T(tree_reason),
				  STORE_T(ignore_reason ? "ignored" : "queued"),
				  STORE_T(ignore_reason), STORE_I(now_s()),
				  STORE_END);
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
	if (!store_exec(st, fail_sql, error, STORE_I(max_attempts),
			STORE_I(now_s()), STORE_END))
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
	static const char pick_tail[] =
		" FROM jobs WHERE state = 'queued'"
		" AND (?1 IS NULL OR tree = ?1) AND not_before <= ?2"
		" ORDER BY queued, id LIMIT 1";
	static const char superseded_sql[] =
		"UPDATE jobs SET state = 'ignored', reason = 'superseded by a"
		" newer version or a resend before it was checked',"
		" verdict = NULL, verdict_json = NULL, dirstat = NULL WHERE"
		" state = 'queued'"
		" AND series_id IN (SELECT id FROM series WHERE state ="
		" 'superseded')";
	static const char take_sql[] =
		"UPDATE jobs SET state = 'running', attempts = attempts + 1,"
		" started = ?2 WHERE id = ?1";
	g_autoptr(store_job) job = NULL;
	sqlite3_stmt *s;

	if (!store_begin(st, error))
		return NULL;
	/* a newer version or a resend came while it waited: no check, no
	 * reply */
	s = store_statement(st, superseded_sql, error);
	if (!s || !store_step_done(st, s, error))
		goto fail;
	if (!store_select_row(st, &job_row, pick_tail, (gpointer *)&job, error,
			      STORE_T(tree), STORE_I(now_s()), STORE_END))
		goto fail;
	if (!job) {
		/* keeps what was set aside */
		if (!store_commit(st, error))
			goto fail;
		return NULL;
	}
	s = store_bind(st, take_sql, error, STORE_I(job->id), STORE_I(now_s()),
		       STORE_END);
	if (!s)
		goto fail;
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

	if (!store_begin(st, error))
		return FALSE;
	if (!store_exec(st, job_sql, error, STORE_I(job_id), STORE_I(now_s()),
			STORE_T(res->base_commit), STORE_T(res->base_how),
			STORE_T(res->head_commit), STORE_T(res->verdict),
			STORE_T(res->verdict_json), STORE_T(res->dirstat),
			STORE_T(res->no_reply_reason),
			STORE_T(res->tree_reason), STORE_T(res->base_reason),
			STORE_T(res->not_tested), STORE_T(res->similar),
			STORE_END))
		goto fail;
	for (guint i = 0; i < res->n_checks; i++) {
		const struct store_check *c = &res->checks[i];

		if (!store_exec(st, check_sql, error, STORE_I(job_id),
				STORE_T(c->name), STORE_T(c->status),
				STORE_T(c->summary), STORE_T(c->detail),
				STORE_D(c->seconds), STORE_END))
			goto fail;
	}
	if (res->reply) {
		const struct store_reply *r = res->reply;

		if (!store_exec(st, reply_sql, error, STORE_I(job_id),
				STORE_T(r->message_id), STORE_T(r->list),
				STORE_T(r->sender), STORE_T(r->recipients),
				STORE_B(r->raw), STORE_T(r->state),
				STORE_I(now_s()), STORE_END))
			goto fail;
	}
	if (!store_exec(st, series_sql, error, STORE_I(job_id),
			STORE_I(now_s()), STORE_T(res->series_state),
			STORE_END))
		goto fail;
	return store_commit(st, error);
fail:
	store_rollback(st);
	return FALSE;
}

gboolean store_job_defer(struct store *st, gint64 job_id, const char *reason,
			 guint first_s, guint max_s, guint *delay_s,
			 GError **error)
{
	static const char get_sql[] =
		"SELECT deferrals FROM jobs WHERE id = ?1";
	static const char sql[] =
		"UPDATE jobs SET state = 'queued', reason = ?2,"
		" attempts = MAX(attempts - 1, 0), deferrals = deferrals + 1,"
		" not_before = ?3 WHERE id = ?1";
	guint64 delay = first_s;
	gint64 n;

	if (!store_begin(st, error))
		return FALSE;
	if (!store_query_int64(st, get_sql, &n, error, STORE_I(job_id),
			       STORE_END))
		goto fail;
	/* first_s, twice that, ... up to max_s */
	for (gint64 i = 0; i < n && delay < max_s; i++)
		delay *= 2;
	delay = MIN(delay, (guint64)max_s);
	/* the series stays "checking" */
	if (!store_exec(st, sql, error, STORE_I(job_id), STORE_T(reason),
			STORE_I(now_s() + (gint64)delay), STORE_END))
		goto fail;
	*delay_s = (guint)delay;
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
		" dirstat = ?7 WHERE id = ?1 AND state IN ('running', 'queued')";
	return store_exec(st, sql, error, STORE_I(job_id),
			  STORE_T(res->base_commit), STORE_T(res->base_how),
			  STORE_T(res->head_commit), STORE_T(res->verdict),
			  STORE_T(res->verdict_json), STORE_T(res->dirstat),
			  STORE_END);
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

	if (!store_begin(st, error))
		return FALSE;
	if (!store_exec(st, sql, error, STORE_I(job_id),
			STORE_T(retry ? "queued" : "failed"), STORE_T(reason),
			STORE_I(now_s()), STORE_END))
		goto fail;
	if (!store_exec(st, series_sql, error, STORE_I(job_id),
			STORE_T(retry ? "checking" : "failed"),
			STORE_I(now_s()), STORE_END))
		goto fail;
	return store_commit(st, error);
fail:
	store_rollback(st);
	return FALSE;
}

GPtrArray *store_jobs_waiting(struct store *st, const char *tree, guint offset,
			      guint limit, GError **error)
{
	static const char tail[] =
		" FROM jobs WHERE state = 'queued' AND tree = ?1"
		" AND verdict IS NULL AND series_id NOT IN"
		" (SELECT id FROM series WHERE state = 'superseded')"
		" ORDER BY queued, id LIMIT ?2 OFFSET ?3";
	return store_select_rows(st, &job_row, tail, error, STORE_T(tree),
				 STORE_I(limit), STORE_I(offset), STORE_END);
}

GPtrArray *store_jobs_of_series(struct store *st, gint64 series_id,
				GError **error)
{
	static const char tail[] =
		" FROM jobs WHERE series_id = ?1 ORDER BY id";
	return store_select_rows(st, &job_row, tail, error, STORE_I(series_id),
				 STORE_END);
}

static const struct store_field outbox_fields[] = {
	STORE_COLUMN(struct store_outbox, id, STORE_INT64),
	STORE_COLUMN(struct store_outbox, job_id, STORE_INT64),
	STORE_COLUMN(struct store_outbox, message_id, STORE_TEXT),
	STORE_COLUMN(struct store_outbox, list, STORE_TEXT),
	STORE_COLUMN(struct store_outbox, sender, STORE_TEXT),
	STORE_COLUMN(struct store_outbox, recipients, STORE_TEXT),
	STORE_COLUMN(struct store_outbox, raw, STORE_BLOB),
	STORE_COLUMN(struct store_outbox, state, STORE_TEXT),
	STORE_COLUMN(struct store_outbox, attempts, STORE_INT),
	STORE_COLUMN(struct store_outbox, next_attempt, STORE_INT64),
	STORE_COLUMN(struct store_outbox, last_error, STORE_TEXT),
	STORE_COLUMN(struct store_outbox, created, STORE_INT64),
	STORE_COLUMN(struct store_outbox, handed, STORE_INT64),
	STORE_COLUMN(struct store_outbox, sent, STORE_INT64),
};

STORE_ROW_DEFINE(, outbox_row, struct store_outbox, outbox_fields,
		 store_outbox_free, NULL)

struct store_outbox *store_outbox_next(struct store *st, gint64 now,
				       GError **error)
{
	static const char tail[] =
		" FROM outbox WHERE state = 'pending'"
		" AND next_attempt <= ?1 ORDER BY next_attempt, id LIMIT 1";
	gpointer o = NULL;

	if (!store_select_row(st, &outbox_row, tail, &o, error, STORE_I(now),
			      STORE_END))
		return NULL;
	return o;
}

GPtrArray *store_outbox_in_state(struct store *st, const char *state,
				 GError **error)
{
	static const char tail[] = " FROM outbox WHERE state = ?1 ORDER BY id";
	return store_select_rows(st, &outbox_row, tail, error, STORE_T(state),
				 STORE_END);
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
	return store_exec(st, sql, error, STORE_I(id), STORE_T(state),
			  STORE_I(now), STORE_I(next_attempt),
			  STORE_T(last_error), STORE_END);
}

gboolean store_outbox_sent_since(struct store *st, const char *list,
				 gint64 since, guint *count, GError **error)
{
	static const char sql[] =
		"SELECT count(*) FROM outbox WHERE list = ?1 AND state IN"
		" ('sent', 'sending') AND coalesce(sent, handed) >= ?2";
	gint64 n;
	gboolean ok = store_query_int64(st, sql, &n, error, STORE_T(list),
					STORE_I(since), STORE_END);

	*count = n;
	return ok;
}

gboolean store_outbox_has(struct store *st, const char *message_id,
			  gboolean *has, GError **error)
{
	static const char sql[] =
		"SELECT 1 FROM outbox WHERE message_id = ?1 LIMIT 1";
	gint64 one;
	gboolean ok = store_query_int64(st, sql, &one, error,
					STORE_T(message_id), STORE_END);

	*has = one == 1;
	return ok;
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
	sqlite3_stmt *s = store_bind(st, sql, error, STORE_I(max), STORE_END);

	if (!s)
		return NULL;
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

	return store_exec_changed(
		st, sql, added, error, STORE_T(kind), STORE_T(mail->message_id),
		STORE_T(mail->list), STORE_T(mail->sender),
		STORE_T(mail->recipients), STORE_B(mail->raw),
		STORE_T(mail->state ? mail->state : "pending"),
		STORE_I(now_s()), STORE_END);
}

GPtrArray *store_job_queued_trees(struct store *st, GError **error)
{
	static const char sql[] =
		"SELECT DISTINCT tree FROM jobs WHERE state IN ('queued',"
		" 'running') ORDER BY tree";
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (!s)
		return NULL;
	return store_read_texts(st, s, error);
}
