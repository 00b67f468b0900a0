#include "bot/store/store.h"

#include <string.h>

#include "bot/store/boot.h"
#include "bot/store/lists.h"
#include "bot/store/pipeline.h"
#include "bot/store/sources.h"
#include "bot/store/timing.h"
#include "bot/store/boards.h"
#include "bot/store/trees.h"
#include "bot/store/pwchecks.h"
#include "bot/store/web.h"
#include "mailparse/subject.h"

/* Schema migrations: entry N takes user_version N to N + 1.  Append only;
 * never edit a migration that has shipped. */
static const char *const migrations[] = {
	/* 0 -> 1: messages, rejects, series */
	"CREATE TABLE messages ("
	" id INTEGER PRIMARY KEY,"
	" message_id TEXT NOT NULL UNIQUE,"
	" raw BLOB NOT NULL,"
	" kind TEXT NOT NULL,"
	" subject TEXT NOT NULL,"
	" clean_subject TEXT NOT NULL,"
	" from_email TEXT NOT NULL,"
	" author TEXT NOT NULL,"
	" date INTEGER NOT NULL,"
	" received INTEGER NOT NULL,"
	" in_reply_to TEXT,"
	" refs TEXT,"
	" has_version INTEGER NOT NULL, version INTEGER NOT NULL,"
	" version_minor INTEGER NOT NULL,"
	" has_index INTEGER NOT NULL, idx INTEGER NOT NULL,"
	" total INTEGER NOT NULL, rfc INTEGER NOT NULL,"
	" base_commit TEXT, change_id TEXT, list_id TEXT, source TEXT);"
	"CREATE INDEX messages_in_reply_to ON messages(in_reply_to);"
	"CREATE TABLE rejects ("
	" id INTEGER PRIMARY KEY,"
	" sha256 TEXT NOT NULL UNIQUE,"
	" raw BLOB NOT NULL,"
	" source TEXT, reason TEXT NOT NULL, received INTEGER NOT NULL);"
	/* state: incomplete, ready, superseded, then the later stages
	 * (applying, checking, reported, failed) */
	"CREATE TABLE series ("
	" id INTEGER PRIMARY KEY,"
	" state TEXT NOT NULL,"
	" expired INTEGER NOT NULL DEFAULT 0,"
	" version INTEGER NOT NULL, version_minor INTEGER NOT NULL,"
	" total INTEGER NOT NULL, received INTEGER NOT NULL,"
	" rfc INTEGER NOT NULL,"
	" subject TEXT NOT NULL, author TEXT NOT NULL,"
	" cover TEXT, base_commit TEXT,"
	" supersedes INTEGER, partial_of INTEGER,"
	" first_date INTEGER NOT NULL, last_activity INTEGER NOT NULL,"
	" reason TEXT, updated INTEGER NOT NULL);"
	/* position 0 is the cover letter, then patches in apply order */
	"CREATE TABLE series_members ("
	" series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,"
	" position INTEGER NOT NULL,"
	" message_id TEXT NOT NULL,"
	" PRIMARY KEY (series_id, position));"
	"CREATE INDEX series_members_message ON series_members(message_id);",
	/* 1 -> 2: the parts (bot/store/db.h) and their versions */
	"CREATE TABLE store_parts ("
	" name TEXT PRIMARY KEY, version INTEGER NOT NULL);",
};

/* The parts, migrated in this order after the core tables. */
static const struct store_part *const parts[] = {
	&store_part_pipeline, &store_part_sources, &store_part_trees,
	&store_part_lists,    &store_part_web,	   &store_part_pwchecks,
	&store_part_boot,     &store_part_timing,  &store_part_boards,
};

/* The named statements. */
enum stmt {
	STMT_MESSAGE_INSERT,
	STMT_MESSAGE_EXISTS,
	STMT_MESSAGE_RAW,
	STMT_MESSAGE_LOAD_ALL,
	STMT_MESSAGE_REPLIES,
	STMT_MESSAGE_COUNT,
	STMT_REJECT_INSERT,
	STMT_REJECT_COUNT,
	STMT_MEMBERS_ALL,
	STMT_SERIES_STATES,
	STMT_SERIES_INSERT,
	STMT_SERIES_UPDATE,
	STMT_SERIES_DELETE,
	STMT_MEMBERS_DELETE,
	STMT_MEMBER_INSERT,
	STMT_SERIES_MEMBERS,
	STMT_COUNT_
};

static const char *const statements[STMT_COUNT_] = {
	[STMT_MESSAGE_INSERT] =
		"INSERT OR IGNORE INTO messages (message_id, raw, kind,"
		" subject, clean_subject, from_email, author, date, received,"
		" in_reply_to, refs, has_version, version, version_minor,"
		" has_index, idx, total, rfc, base_commit, change_id, list_id,"
		" source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
		" ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)",
	[STMT_MESSAGE_EXISTS] = "SELECT 1 FROM messages WHERE message_id = ?1",
	[STMT_MESSAGE_RAW] = "SELECT raw FROM messages WHERE message_id = ?1",
	[STMT_MESSAGE_LOAD_ALL] =
		"SELECT id, message_id, in_reply_to, refs, from_email, author,"
		" date, received, kind, has_version, version, version_minor,"
		" has_index, idx, total, rfc, clean_subject, base_commit,"
		" change_id, subject FROM messages ORDER BY id",
	[STMT_MESSAGE_REPLIES] =
		"SELECT message_id FROM messages WHERE in_reply_to = ?1"
		" AND kind = 'reply' ORDER BY date, id",
	[STMT_MESSAGE_COUNT] = "SELECT count(*) FROM messages",
	[STMT_REJECT_INSERT] =
		"INSERT OR IGNORE INTO rejects (sha256, raw, source, reason,"
		" received) VALUES (?1, ?2, ?3, ?4, ?5)",
	[STMT_REJECT_COUNT] = "SELECT count(*) FROM rejects",
	[STMT_MEMBERS_ALL] = "SELECT message_id, series_id FROM series_members",
	[STMT_SERIES_STATES] = "SELECT id, state FROM series",
	[STMT_SERIES_INSERT] =
		"INSERT INTO series (state, version, version_minor, total,"
		" received, rfc, subject, author, first_date, last_activity,"
		" updated) VALUES ('incomplete', 1, 0, 1, 0, 0, '', '', 0, 0,"
		" ?1)",
	/* assembly decides incomplete/ready/superseded; a series that has
	 * gone on to later stages keeps its state unless superseded when
	 * it is not being worked on */
	[STMT_SERIES_UPDATE] =
		"UPDATE series SET state = CASE"
		"  WHEN state IN ('incomplete', 'ready', 'superseded') THEN ?2"
		"  WHEN ?2 = 'superseded' AND state NOT IN ('applying',"
		"   'checking') THEN ?2"
		"  ELSE state END,"
		" expired = ?3, version = ?4, version_minor = ?5, total = ?6,"
		" received = ?7, rfc = ?8, subject = ?9, author = ?10,"
		" cover = ?11, base_commit = ?12, supersedes = ?13,"
		" partial_of = ?14, first_date = ?15, last_activity = ?16,"
		" updated = ?17 WHERE id = ?1",
	[STMT_SERIES_DELETE] =
		"DELETE FROM series WHERE id = ?1 AND state IN ('incomplete',"
		" 'ready', 'superseded')",
	[STMT_MEMBERS_DELETE] =
		"DELETE FROM series_members WHERE series_id = ?1",
	[STMT_MEMBER_INSERT] =
		"INSERT INTO series_members (series_id, position, message_id)"
		" VALUES (?1, ?2, ?3)",
	[STMT_SERIES_MEMBERS] =
		"SELECT message_id FROM series_members WHERE series_id = ?1"
		" AND position > 0 ORDER BY position",
};

/* The prepared statement @id, reset and unbound, prepared on first use. */
static sqlite3_stmt *stmt(struct store *st, enum stmt id, GError **error)
{
	return store_statement(st, statements[id], error);
}

int store_schema_version(void)
{
	return G_N_ELEMENTS(migrations);
}

struct store *store_open(const char *path, GError **error)
{
	static const struct store_schema schema = {
		.migrations = migrations,
		.n_migrations = G_N_ELEMENTS(migrations),
		.parts = parts,
		.n_parts = G_N_ELEMENTS(parts),
	};

	return store_db_open(path, &schema, error);
}

struct store *store_open_query_only(const char *path, GError **error)
{
	g_autoptr(store) st = store_open(path, error);

	if (!st)
		return NULL;
	/* SQLite: "PRAGMA query_only" makes every write on this connection
	 * fail with SQLITE_READONLY */
	if (sqlite3_exec(store_db(st), "PRAGMA query_only = ON", NULL, NULL,
			 NULL) != SQLITE_OK) {
		store_fail(st, error, "cannot make the store read-only");
		return NULL;
	}
	return g_steal_pointer(&st);
}

gboolean store_add_message(struct store *st, const struct message *msg,
			   const struct series_message *info,
			   const char *source, gboolean *added, GError **error)
{
	g_autofree char *refs = NULL;

	if (msg->references->len) {
		g_ptr_array_add(msg->references, NULL);
		refs = g_strjoinv(" ", (char **)msg->references->pdata);
		g_ptr_array_remove_index(msg->references,
					 msg->references->len - 1);
	}
	return store_exec_changed(
		st, statements[STMT_MESSAGE_INSERT], added, error,
		STORE_T(msg->message_id), STORE_B(msg->raw),
		STORE_T(classify_kind_name(info->kind)), STORE_T(msg->subject),
		STORE_T(info->subject), STORE_T(msg->from_email),
		STORE_T(info->author), STORE_I(msg->date),
		STORE_I(info->received), STORE_T(msg->in_reply_to),
		STORE_T(refs), STORE_I(info->has_version),
		STORE_I(info->version), STORE_I(info->version_minor),
		STORE_I(info->has_index), STORE_I(info->index),
		STORE_I(info->total), STORE_I(info->rfc),
		STORE_T(info->base_commit), STORE_T(info->change_id),
		STORE_T(message_header(msg, "List-Id")), STORE_T(source),
		STORE_END);
}

gboolean store_add_reject(struct store *st, GBytes *raw, const char *source,
			  const char *reason, gboolean *added, GError **error)
{
	g_autofree char *sum =
		g_compute_checksum_for_bytes(G_CHECKSUM_SHA256, raw);

	return store_exec_changed(st, statements[STMT_REJECT_INSERT], added,
				  error, STORE_T(sum), STORE_B(raw),
				  STORE_T(source), STORE_T(reason),
				  STORE_I(g_get_real_time() / G_USEC_PER_SEC),
				  STORE_END);
}

gboolean store_has_message(struct store *st, const char *message_id,
			   gboolean *out, GError **error)
{
	sqlite3_stmt *s = stmt(st, STMT_MESSAGE_EXISTS, error);
	int rc;

	if (!s)
		return FALSE;
	store_bind_text(s, 1, message_id);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(st, error, "cannot read the store");
	*out = rc == SQLITE_ROW;
	return TRUE;
}

GBytes *store_message_raw(struct store *st, const char *message_id,
			  GError **error)
{
	sqlite3_stmt *s = stmt(st, STMT_MESSAGE_RAW, error);
	GBytes *raw;

	if (!s)
		return NULL;
	store_bind_text(s, 1, message_id);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_reset(s);
		g_set_error(error, STORE_ERROR, 0,
			    "no message <%s> in the store", message_id);
		return NULL;
	}
	raw = g_bytes_new(sqlite3_column_blob(s, 0),
			  sqlite3_column_bytes(s, 0));
	sqlite3_reset(s);
	return raw;
}

GPtrArray *store_load_series_messages(struct store *st, GError **error)
{
	sqlite3_stmt *s = stmt(st, STMT_MESSAGE_LOAD_ALL, error);
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(
		(GDestroyNotify)series_message_free);
	int rc;

	if (!s)
		return NULL;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct series_message *m = series_message_new();
		const char *refs = (const char *)sqlite3_column_text(s, 3);

		m->seq = sqlite3_column_int64(s, 0);
		m->message_id = store_column_text(s, 1);
		m->in_reply_to = store_column_text(s, 2);
		if (refs && *refs) {
			g_auto(GStrv) v = g_strsplit(refs, " ", -1);

			m->references = g_ptr_array_new_with_free_func(g_free);
			for (guint i = 0; v[i]; i++)
				g_ptr_array_add(m->references,
						g_steal_pointer(&v[i]));
		}
		m->from_email = store_column_text(s, 4);
		m->author = store_column_text(s, 5);
		m->date = sqlite3_column_int64(s, 6);
		m->received = sqlite3_column_int64(s, 7);
		m->kind = classify_kind_from_name(
			(const char *)sqlite3_column_text(s, 8));
		m->has_version = sqlite3_column_int(s, 9);
		m->version = sqlite3_column_int(s, 10);
		m->version_minor = sqlite3_column_int(s, 11);
		m->has_index = sqlite3_column_int(s, 12);
		m->index = sqlite3_column_int(s, 13);
		m->total = sqlite3_column_int(s, 14);
		m->rfc = sqlite3_column_int(s, 15);
		m->subject = store_column_text(s, 16);
		m->base_commit = store_column_text(s, 17);
		m->change_id = store_column_text(s, 18);
		/* RESEND has no column: read from the subject as stored, so
		 * that mail stored before it counted is judged alike */
		if (m->kind == CLASSIFY_PATCH || m->kind == CLASSIFY_COVER) {
			struct subject_tags tags = SUBJECT_TAGS_INIT;

			subject_tags_parse(
				&tags,
				(const char *)sqlite3_column_text(s, 19));
			m->resend = tags.resend;
			subject_tags_clear(&tags);
		}
		g_ptr_array_add(out, m);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		store_fail(st, error, "cannot read messages");
		return NULL;
	}
	return g_steal_pointer(&out);
}

GPtrArray *store_replies(struct store *st, const char *message_id,
			 GError **error)
{
	sqlite3_stmt *s = stmt(st, STMT_MESSAGE_REPLIES, error);
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);
	int rc;

	if (!s)
		return NULL;
	store_bind_text(s, 1, message_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		g_ptr_array_add(out, store_column_text(s, 0));
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		store_fail(st, error, "cannot read replies");
		return NULL;
	}
	return g_steal_pointer(&out);
}

static const char *series_base_commit(const struct series *s)
{
	if (s->cover && s->cover->base_commit)
		return s->cover->base_commit;
	for (guint i = 0; i < s->patches->len; i++) {
		struct series_message *p = s->patches->pdata[i];

		if (p->base_commit)
			return p->base_commit;
	}
	return NULL;
}

static gboolean write_members(struct store *st, gint64 id,
			      const struct series *s, GError **error)
{
	g_autoptr(GPtrArray) order = series_apply_order(s);
	sqlite3_stmt *q = stmt(st, STMT_MEMBERS_DELETE, error);

	if (!q)
		return FALSE;
	sqlite3_bind_int64(q, 1, id);
	if (!store_step_done(st, q, error))
		return FALSE;
	for (guint i = 0; i <= order->len; i++) {
		const struct series_message *m = i ? order->pdata[i - 1] :
						     s->cover;

		if (!m)
			continue;
		if (!(q = stmt(st, STMT_MEMBER_INSERT, error)))
			return FALSE;
		sqlite3_bind_int64(q, 1, id);
		sqlite3_bind_int(q, 2, i);
		store_bind_text(q, 3, m->message_id);
		if (!store_step_done(st, q, error))
			return FALSE;
	}
	return TRUE;
}

gboolean store_save_assembly(struct store *st,
			     const struct series_assembly *assembly,
			     GError **error)
{
	g_autoptr(GHashTable) old_of =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GHashTable)
		unclaimed = g_hash_table_new(g_int64_hash, g_int64_equal);
	g_autoptr(GArray) ids = g_array_new(FALSE, TRUE, sizeof(gint64));
	g_autoptr(GArray) old_ids = g_array_new(FALSE, TRUE, sizeof(gint64));
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	GPtrArray *all = assembly->series;
	sqlite3_stmt *s;
	int rc;

	if (!(s = stmt(st, STMT_MEMBERS_ALL, error)))
		return FALSE;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		g_hash_table_insert(
			old_of, store_column_text(s, 0),
			GSIZE_TO_POINTER(sqlite3_column_int64(s, 1)));
	sqlite3_reset(s);
	if (!(s = stmt(st, STMT_SERIES_STATES, error)))
		return FALSE;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		g_array_append_val(old_ids,
				   *(gint64[]){ sqlite3_column_int64(s, 0) });
	sqlite3_reset(s);
	for (guint i = 0; i < old_ids->len; i++)
		g_hash_table_add(unclaimed, &g_array_index(old_ids, gint64, i));

	/* first give every series an id: the smallest old id among its
	 * members still unclaimed, else a new row */
	g_array_set_size(ids, all->len);
	for (guint i = 0; i < all->len; i++) {
		const struct series *x = all->pdata[i];
		gint64 best = 0;

		for (guint j = 0; j <= x->patches->len; j++) {
			const struct series_message *m =
				j ? x->patches->pdata[j - 1] : x->cover;
			gint64 old;

			if (!m)
				continue;
			old = GPOINTER_TO_SIZE(
				g_hash_table_lookup(old_of, m->message_id));
			if (old && g_hash_table_contains(unclaimed, &old) &&
			    (!best || old < best))
				best = old;
		}
		if (best) {
			g_hash_table_remove(unclaimed, &best);
		} else {
			if (!(s = stmt(st, STMT_SERIES_INSERT, error)))
				return FALSE;
			sqlite3_bind_int64(s, 1, now);
			if (!store_step_done(st, s, error))
				return FALSE;
			best = sqlite3_last_insert_rowid(store_db(st));
		}
		g_array_index(ids, gint64, i) = best;
	}
	for (guint i = 0; i < all->len; i++) {
		const struct series *x = all->pdata[i];
		gint64 id = g_array_index(ids, gint64, i);

		if (!(s = stmt(st, STMT_SERIES_UPDATE, error)))
			return FALSE;
		sqlite3_bind_int64(s, 1, id);
		store_bind_text(s, 2, series_state_name(x->state));
		sqlite3_bind_int(s, 3, x->expired);
		sqlite3_bind_int(s, 4, x->version);
		sqlite3_bind_int(s, 5, x->version_minor);
		sqlite3_bind_int(s, 6, x->total);
		sqlite3_bind_int(s, 7, x->patches->len);
		sqlite3_bind_int(s, 8, x->rfc);
		store_bind_text(s, 9, series_subject(x));
		store_bind_text(s, 10, series_author(x));
		store_bind_text(s, 11, x->cover ? x->cover->message_id : NULL);
		store_bind_text(s, 12, series_base_commit(x));
		if (x->supersedes)
			sqlite3_bind_int64(
				s, 13,
				g_array_index(ids, gint64,
					      x->supersedes->number));
		if (x->partial_of)
			sqlite3_bind_int64(
				s, 14,
				g_array_index(ids, gint64,
					      x->partial_of->number));
		sqlite3_bind_int64(s, 15, x->first_date);
		sqlite3_bind_int64(s, 16, x->last_activity);
		sqlite3_bind_int64(s, 17, now);
		if (!store_step_done(st, s, error) ||
		    !write_members(st, id, x, error))
			return FALSE;
	}
	/* series whose messages all went elsewhere */
	for (guint i = 0; i < old_ids->len; i++) {
		gint64 *id = &g_array_index(old_ids, gint64, i);

		if (!g_hash_table_contains(unclaimed, id))
			continue;
		if (!(s = stmt(st, STMT_SERIES_DELETE, error)))
			return FALSE;
		sqlite3_bind_int64(s, 1, *id);
		if (!store_step_done(st, s, error))
			return FALSE;
	}
	return TRUE;
}

static const struct store_field series_fields[] = {
	STORE_COLUMN(struct store_series, id, STORE_INT64),
	STORE_COLUMN(struct store_series, state, STORE_TEXT),
	STORE_COLUMN(struct store_series, expired, STORE_INT),
	STORE_COLUMN(struct store_series, version, STORE_INT),
	STORE_COLUMN(struct store_series, version_minor, STORE_INT),
	STORE_COLUMN(struct store_series, total, STORE_INT),
	STORE_COLUMN(struct store_series, received, STORE_INT),
	STORE_COLUMN(struct store_series, rfc, STORE_INT),
	STORE_COLUMN(struct store_series, subject, STORE_TEXT),
	STORE_COLUMN(struct store_series, author, STORE_TEXT),
	STORE_COLUMN(struct store_series, cover, STORE_TEXT),
	STORE_COLUMN(struct store_series, base_commit, STORE_TEXT),
	STORE_COLUMN(struct store_series, supersedes, STORE_INT64),
	STORE_COLUMN(struct store_series, partial_of, STORE_INT64),
	STORE_COLUMN(struct store_series, first_date, STORE_INT64),
	STORE_COLUMN(struct store_series, last_activity, STORE_INT64),
	STORE_OWNED_FIELD(struct store_series, patches, g_ptr_array_unref),
};

STORE_ROW_DEFINE(, series_row, struct store_series, series_fields,
		 store_series_free, NULL)

static const char sql_series_list[] = " FROM series ORDER BY first_date, id";
static const char sql_series_get[] = " FROM series WHERE id = ?1";

/* The patches of series @x, read after the series (the statements share
 * the connection's cache). */
static gboolean read_patches(struct store *st, struct store_series *x,
			     GError **error)
{
	sqlite3_stmt *m;
	int rc;

	x->patches = g_ptr_array_new_with_free_func(g_free);
	if (!(m = stmt(st, STMT_SERIES_MEMBERS, error)))
		return FALSE;
	sqlite3_bind_int64(m, 1, x->id);
	while ((rc = sqlite3_step(m)) == SQLITE_ROW)
		g_ptr_array_add(x->patches, store_column_text(m, 0));
	sqlite3_reset(m);
	if (rc != SQLITE_DONE)
		return store_fail(st, error, "cannot read series members");
	return TRUE;
}

GPtrArray *store_list_series(struct store *st, GError **error)
{
	g_autoptr(GPtrArray) out = store_select_rows(
		st, &series_row, sql_series_list, error, STORE_END);

	if (!out)
		return NULL;
	for (guint i = 0; i < out->len; i++)
		if (!read_patches(st, out->pdata[i], error))
			return NULL;
	return g_steal_pointer(&out);
}

struct store_series *store_get_series(struct store *st, gint64 id,
				      GError **error)
{
	g_autoptr(store_series) out = NULL;

	if (!store_select_row(st, &series_row, sql_series_get, (gpointer *)&out,
			      error, STORE_I(id), STORE_END))
		return NULL;
	if (!out) {
		g_set_error(error, STORE_ERROR, 0,
			    "no series %" G_GINT64_FORMAT, id);
		return NULL;
	}
	if (!read_patches(st, out, error))
		return NULL;
	return g_steal_pointer(&out);
}

static gboolean count(struct store *st, enum stmt id, gint64 *out,
		      GError **error)
{
	sqlite3_stmt *s = stmt(st, id, error);

	return s && store_read_int64(st, s, out, error);
}

gboolean store_count(struct store *st, gint64 *messages, gint64 *rejects,
		     GError **error)
{
	return count(st, STMT_MESSAGE_COUNT, messages, error) &&
	       count(st, STMT_REJECT_COUNT, rejects, error);
}

GPtrArray *store_message_ids_since(struct store *st, gint64 since,
				   GError **error)
{
	static const char sql[] = "SELECT message_id FROM messages"
				  " WHERE received >= ?1 ORDER BY id";
	sqlite3_stmt *s = store_bind(st, sql, error, STORE_I(since), STORE_END);

	if (!s)
		return NULL;
	return store_read_texts(st, s, error);
}
