/* The store part "trees": see bot/store/trees.h. */
#include "bot/store/trees.h"

#include "bot/store/db.h"

static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE trees ("
	" name TEXT PRIMARY KEY,"
	" data TEXT NOT NULL,"
	" active INTEGER NOT NULL,"
	" owner TEXT NOT NULL,"
	" created INTEGER NOT NULL, updated INTEGER NOT NULL);"
	"CREATE TABLE tree_changes ("
	" id INTEGER PRIMARY KEY,"
	" tree TEXT NOT NULL,"
	" who TEXT NOT NULL, at INTEGER NOT NULL, what TEXT NOT NULL);"
	"CREATE INDEX tree_changes_tree ON tree_changes(tree, id);"
	/* action: opt-in, opt-out, set; used: when confirmed, or NULL */
	"CREATE TABLE optin_requests ("
	" id INTEGER PRIMARY KEY,"
	" token_hash TEXT NOT NULL UNIQUE,"
	" action TEXT NOT NULL, tree TEXT NOT NULL, sender TEXT NOT NULL,"
	" data TEXT, what TEXT NOT NULL, message_id TEXT,"
	" created INTEGER NOT NULL, expires INTEGER NOT NULL,"
	" used INTEGER);",
	/* 1 -> 2: the updates of the trees with a url (bot/daemon/treeupdate.h);
	 * interval NULL: no running daemon follows the tree */
	"CREATE TABLE tree_updates ("
	" tree TEXT PRIMARY KEY,"
	" url TEXT, branches TEXT, interval INTEGER,"
	" attempted INTEGER, succeeded INTEGER,"
	" error TEXT, failures INTEGER NOT NULL DEFAULT 0,"
	" head_branch TEXT, head TEXT,"
	" seconds REAL, objects INTEGER, bytes INTEGER);",
	/* 2 -> 3: the rate limits of token mails count requests by sender
	 * and by time (bot/control/optin.c) */
	"CREATE INDEX optin_requests_sender ON optin_requests("
	" sender COLLATE NOCASE, created);"
	"CREATE INDEX optin_requests_created ON optin_requests(created);",
};

const struct store_part store_part_trees = {
	.name = "trees",
	.migrations = migrations,
	.n_migrations = G_N_ELEMENTS(migrations),
};

static const char sql_tree_list[] = " FROM trees ORDER BY name";
static const char sql_tree_get[] = " FROM trees WHERE name = ?1";
static const char sql_tree_put[] =
	"INSERT INTO trees (name, data, active, owner, created, updated)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(name) DO UPDATE SET"
	" data = excluded.data, active = excluded.active,"
	" owner = excluded.owner, updated = excluded.updated";
static const char sql_change_add[] =
	"INSERT INTO tree_changes (tree, who, at, what) VALUES (?1, ?2, ?3,"
	" ?4)";
static const char sql_changes[] = " FROM tree_changes"
				  " WHERE ?1 IS NULL OR tree = ?1 ORDER BY id";
static const char sql_request_add[] =
	"INSERT INTO optin_requests (token_hash, action, tree, sender, data,"
	" what, message_id, created, expires) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	" ?7, ?8, ?9)";
static const char sql_request_find[] =
	" FROM optin_requests WHERE token_hash = ?1";
static const char sql_request_count[] =
	"SELECT count(*) FROM optin_requests WHERE (?1 IS NULL OR"
	" sender = ?1 COLLATE NOCASE) AND created > ?2";
static const char sql_request_use[] =
	"UPDATE optin_requests SET used = ?2 WHERE id = ?1 AND used IS NULL";
static const char sql_update_list[] = " FROM tree_updates ORDER BY tree";
static const char sql_update_get[] = " FROM tree_updates WHERE tree = ?1";
static const char sql_update_follow[] =
	"INSERT INTO tree_updates (tree, url, branches, interval)"
	" VALUES (?1, ?2, ?3, ?4) ON CONFLICT(tree) DO UPDATE SET"
	" url = coalesce(excluded.url, url),"
	" branches = coalesce(excluded.branches, branches),"
	" interval = excluded.interval";
static const char sql_update_unfollow[] =
	"UPDATE tree_updates SET interval = NULL WHERE ?1 IS NULL OR tree = ?1";
/* a failure keeps what the last success recorded (head, succeeded) */
static const char sql_update_record[] =
	"INSERT INTO tree_updates (tree, url, branches, attempted, succeeded,"
	" error, failures, head_branch, head, seconds, objects, bytes)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6 IS NOT NULL, ?7, ?8, ?9, ?10,"
	" ?11) ON CONFLICT(tree) DO UPDATE SET"
	" url = coalesce(excluded.url, url),"
	" branches = coalesce(excluded.branches, branches),"
	" attempted = excluded.attempted,"
	" succeeded = coalesce(excluded.succeeded, succeeded),"
	" error = excluded.error,"
	" failures = CASE WHEN excluded.error IS NULL THEN 0"
	"  ELSE failures + 1 END,"
	" head_branch = coalesce(excluded.head_branch, head_branch),"
	" head = coalesce(excluded.head, head),"
	" seconds = excluded.seconds, objects = excluded.objects,"
	" bytes = excluded.bytes";

static const struct store_field tree_fields[] = {
	STORE_COLUMN(struct store_tree, name, STORE_TEXT),
	STORE_COLUMN(struct store_tree, data, STORE_TEXT),
	STORE_COLUMN(struct store_tree, active, STORE_INT),
	STORE_COLUMN(struct store_tree, owner, STORE_TEXT),
	STORE_COLUMN(struct store_tree, created, STORE_INT64),
	STORE_COLUMN(struct store_tree, updated, STORE_INT64),
};

STORE_ROW_DEFINE(, tree_row, struct store_tree, tree_fields, store_tree_free,
		 NULL)

GPtrArray *store_trees_list(struct store *st, GError **error)
{
	sqlite3_stmt *s = store_select(st, &tree_row, sql_tree_list, error);

	return s ? store_read_rows(st, s, &tree_row, error) : NULL;
}

gboolean store_tree_get(struct store *st, const char *name,
			struct store_tree **out, GError **error)
{
	sqlite3_stmt *s = store_select(st, &tree_row, sql_tree_get, error);

	*out = NULL;
	if (!s)
		return FALSE;
	store_bind_text(s, 1, name);
	return store_read_row(st, s, &tree_row, (gpointer *)out, error);
}

gboolean store_tree_put(struct store *st, const struct store_tree *t,
			GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_tree_put, error);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, t->name);
	store_bind_text(s, 2, t->data);
	sqlite3_bind_int(s, 3, t->active);
	store_bind_text(s, 4, t->owner);
	sqlite3_bind_int64(s, 5, t->created);
	sqlite3_bind_int64(s, 6, t->updated);
	return store_step_done(st, s, error);
}

static const struct store_field change_fields[] = {
	STORE_COLUMN(struct store_tree_change, tree, STORE_TEXT),
	STORE_COLUMN(struct store_tree_change, who, STORE_TEXT),
	STORE_COLUMN(struct store_tree_change, at, STORE_INT64),
	STORE_COLUMN(struct store_tree_change, what, STORE_TEXT),
};

STORE_ROW_DEFINE(, change_row, struct store_tree_change, change_fields,
		 store_tree_change_free, NULL)

gboolean store_tree_change_add(struct store *st,
			       const struct store_tree_change *c,
			       GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_change_add, error);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, c->tree);
	store_bind_text(s, 2, c->who);
	sqlite3_bind_int64(s, 3, c->at);
	store_bind_text(s, 4, c->what);
	return store_step_done(st, s, error);
}

GPtrArray *store_tree_changes(struct store *st, const char *tree,
			      GError **error)
{
	sqlite3_stmt *s = store_select(st, &change_row, sql_changes, error);

	if (!s)
		return NULL;
	store_bind_text(s, 1, tree);
	return store_read_rows(st, s, &change_row, error);
}

static const struct store_field request_fields[] = {
	STORE_COLUMN(struct store_optin_request, id, STORE_INT64),
	STORE_COLUMN(struct store_optin_request, token_hash, STORE_TEXT),
	STORE_COLUMN(struct store_optin_request, action, STORE_TEXT),
	STORE_COLUMN(struct store_optin_request, tree, STORE_TEXT),
	STORE_COLUMN(struct store_optin_request, sender, STORE_TEXT),
	STORE_COLUMN(struct store_optin_request, data, STORE_TEXT),
	STORE_COLUMN(struct store_optin_request, what, STORE_TEXT),
	STORE_COLUMN(struct store_optin_request, message_id, STORE_TEXT),
	STORE_COLUMN(struct store_optin_request, created, STORE_INT64),
	STORE_COLUMN(struct store_optin_request, expires, STORE_INT64),
	STORE_COLUMN(struct store_optin_request, used, STORE_INT64),
};

STORE_ROW_DEFINE(, request_row, struct store_optin_request, request_fields,
		 store_optin_request_free, NULL)

gboolean store_optin_request_add(struct store *st,
				 struct store_optin_request *r, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_request_add, error);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, r->token_hash);
	store_bind_text(s, 2, r->action);
	store_bind_text(s, 3, r->tree);
	store_bind_text(s, 4, r->sender);
	store_bind_text(s, 5, r->data);
	store_bind_text(s, 6, r->what);
	store_bind_text(s, 7, r->message_id);
	sqlite3_bind_int64(s, 8, r->created);
	sqlite3_bind_int64(s, 9, r->expires);
	if (!store_step_done(st, s, error))
		return FALSE;
	r->id = sqlite3_last_insert_rowid(store_db(st));
	return TRUE;
}

gboolean store_optin_request_find(struct store *st, const char *token_hash,
				  struct store_optin_request **out,
				  GError **error)
{
	sqlite3_stmt *s =
		store_select(st, &request_row, sql_request_find, error);

	*out = NULL;
	if (!s)
		return FALSE;
	store_bind_text(s, 1, token_hash);
	return store_read_row(st, s, &request_row, (gpointer *)out, error);
}

gboolean store_optin_request_count(struct store *st, const char *sender,
				   gint64 since, guint *out, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_request_count, error);
	gint64 n;

	*out = 0;
	if (!s)
		return FALSE;
	store_bind_text(s, 1, sender);
	sqlite3_bind_int64(s, 2, since);
	if (!store_read_int64(st, s, &n, error))
		return FALSE;
	*out = (guint)n;
	return TRUE;
}

gboolean store_optin_request_use(struct store *st, gint64 id, gint64 now,
				 gboolean *marked, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_request_use, error);

	if (!s)
		return FALSE;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, now);
	if (!store_step_done(st, s, error))
		return FALSE;
	*marked = sqlite3_changes(store_db(st)) == 1;
	return TRUE;
}

static const struct store_field update_fields[] = {
	STORE_COLUMN(struct store_tree_update, tree, STORE_TEXT),
	STORE_COLUMN(struct store_tree_update, url, STORE_TEXT),
	STORE_COLUMN(struct store_tree_update, branches, STORE_TEXT),
	STORE_COLUMN(struct store_tree_update, interval, STORE_INT64_OR_MINUS1),
	STORE_COLUMN(struct store_tree_update, attempted, STORE_INT64),
	STORE_COLUMN(struct store_tree_update, succeeded, STORE_INT64),
	STORE_COLUMN(struct store_tree_update, error, STORE_TEXT),
	STORE_COLUMN(struct store_tree_update, failures, STORE_INT),
	STORE_COLUMN(struct store_tree_update, head_branch, STORE_TEXT),
	STORE_COLUMN(struct store_tree_update, head, STORE_TEXT),
	STORE_COLUMN(struct store_tree_update, seconds, STORE_DOUBLE),
	STORE_COLUMN(struct store_tree_update, objects, STORE_INT64),
	STORE_COLUMN(struct store_tree_update, bytes, STORE_INT64),
};

STORE_ROW_DEFINE(, update_row, struct store_tree_update, update_fields,
		 store_tree_update_free, NULL)

GPtrArray *store_tree_updates_list(struct store *st, GError **error)
{
	sqlite3_stmt *s = store_select(st, &update_row, sql_update_list, error);

	return s ? store_read_rows(st, s, &update_row, error) : NULL;
}

gboolean store_tree_update_get(struct store *st, const char *tree,
			       struct store_tree_update **out, GError **error)
{
	sqlite3_stmt *s = store_select(st, &update_row, sql_update_get, error);

	*out = NULL;
	if (!s)
		return FALSE;
	store_bind_text(s, 1, tree);
	return store_read_row(st, s, &update_row, (gpointer *)out, error);
}

gboolean store_tree_update_follow(struct store *st, const char *tree,
				  const char *url, const char *branches,
				  guint interval, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_update_follow, error);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, tree);
	store_bind_text(s, 2, url);
	store_bind_text(s, 3, branches);
	sqlite3_bind_int64(s, 4, interval);
	return store_step_done(st, s, error);
}

gboolean store_tree_updates_unfollow(struct store *st, const char *tree,
				     GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_update_unfollow, error);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, tree);
	return store_step_done(st, s, error);
}

static void bind_time(sqlite3_stmt *s, int i, gint64 t)
{
	if (t)
		sqlite3_bind_int64(s, i, t);
	else
		sqlite3_bind_null(s, i);
}

gboolean store_tree_update_record(struct store *st,
				  const struct store_tree_update *u,
				  GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_update_record, error);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, u->tree);
	store_bind_text(s, 2, u->url);
	store_bind_text(s, 3, u->branches);
	sqlite3_bind_int64(s, 4, u->attempted);
	bind_time(s, 5, u->error ? 0 : u->succeeded);
	store_bind_text(s, 6, u->error);
	store_bind_text(s, 7, u->error ? NULL : u->head_branch);
	store_bind_text(s, 8, u->error ? NULL : u->head);
	sqlite3_bind_double(s, 9, u->seconds);
	sqlite3_bind_int64(s, 10, u->objects);
	sqlite3_bind_int64(s, 11, u->bytes);
	return store_step_done(st, s, error);
}

gint64 store_tree_update_next(const struct store_tree_update *u)
{
	if (u->interval <= 0)
		return -1;
	if (!u->attempted)
		return 0;
	return u->attempted + u->interval;
}
