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

STORE_PART_DEFINE(trees, migrations);

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
	return store_select_rows(st, &tree_row, sql_tree_list, error,
				 STORE_END);
}

gboolean store_tree_get(struct store *st, const char *name,
			struct store_tree **out, GError **error)
{
	return store_select_row(st, &tree_row, sql_tree_get, (gpointer *)out,
				error, STORE_T(name), STORE_END);
}

gboolean store_tree_put(struct store *st, const struct store_tree *t,
			GError **error)
{
	return store_exec(st, sql_tree_put, error, STORE_T(t->name),
			  STORE_T(t->data), STORE_I(t->active),
			  STORE_T(t->owner), STORE_I(t->created),
			  STORE_I(t->updated), STORE_END);
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
	return store_exec(st, sql_change_add, error, STORE_T(c->tree),
			  STORE_T(c->who), STORE_I(c->at), STORE_T(c->what),
			  STORE_END);
}

GPtrArray *store_tree_changes(struct store *st, const char *tree,
			      GError **error)
{
	return store_select_rows(st, &change_row, sql_changes, error,
				 STORE_T(tree), STORE_END);
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
	sqlite3_stmt *s = store_bind(
		st, sql_request_add, error, STORE_T(r->token_hash),
		STORE_T(r->action), STORE_T(r->tree), STORE_T(r->sender),
		STORE_T(r->data), STORE_T(r->what), STORE_T(r->message_id),
		STORE_I(r->created), STORE_I(r->expires), STORE_END);

	if (!s)
		return FALSE;
	if (!store_step_done(st, s, error))
		return FALSE;
	r->id = sqlite3_last_insert_rowid(store_db(st));
	return TRUE;
}

gboolean store_optin_request_find(struct store *st, const char *token_hash,
				  struct store_optin_request **out,
				  GError **error)
{
	return store_select_row(st, &request_row, sql_request_find,
				(gpointer *)out, error, STORE_T(token_hash),
				STORE_END);
}

gboolean store_optin_request_count(struct store *st, const char *sender,
				   gint64 since, guint *out, GError **error)
{
	gint64 n;
	gboolean ok = store_query_int64(st, sql_request_count, &n, error,
					STORE_T(sender), STORE_I(since),
					STORE_END);

	*out = (guint)n;
	return ok;
}

gboolean store_optin_request_use(struct store *st, gint64 id, gint64 now,
				 gboolean *marked, GError **error)
{
	/* at most one row: the request's */
	return store_exec_changed(st, sql_request_use, marked, error,
				  STORE_I(id), STORE_I(now), STORE_END);
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
	return store_select_rows(st, &update_row, sql_update_list, error,
				 STORE_END);
}

gboolean store_tree_update_get(struct store *st, const char *tree,
			       struct store_tree_update **out, GError **error)
{
	return store_select_row(st, &update_row, sql_update_get,
				(gpointer *)out, error, STORE_T(tree),
				STORE_END);
}

gboolean store_tree_update_follow(struct store *st, const char *tree,
				  const char *url, const char *branches,
				  guint interval, GError **error)
{
	return store_exec(st, sql_update_follow, error, STORE_T(tree),
			  STORE_T(url), STORE_T(branches), STORE_I(interval),
			  STORE_END);
}

gboolean store_tree_updates_unfollow(struct store *st, const char *tree,
				     GError **error)
{
	return store_exec(st, sql_update_unfollow, error, STORE_T(tree),
			  STORE_END);
}

gboolean store_tree_update_record(struct store *st,
				  const struct store_tree_update *u,
				  GError **error)
{
	return store_exec(
		st, sql_update_record, error, STORE_T(u->tree), STORE_T(u->url),
		STORE_T(u->branches), STORE_I(u->attempted),
		STORE_TIME(u->error ? 0 : u->succeeded), STORE_T(u->error),
		STORE_T(u->error ? NULL : u->head_branch),
		STORE_T(u->error ? NULL : u->head), STORE_D(u->seconds),
		STORE_I(u->objects), STORE_I(u->bytes), STORE_END);
}

gint64 store_tree_update_next(const struct store_tree_update *u)
{
	if (u->interval <= 0)
		return -1;
	if (!u->attempted)
		return 0;
	return u->attempted + u->interval;
}
