/* The store part "lists": see bot/store/lists.h. */
#include "bot/store/lists.h"

#include "bot/store/db.h"

static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE lists ("
	" address TEXT PRIMARY KEY,"
	" via TEXT NOT NULL,"
	" state TEXT NOT NULL,"
	" request_id TEXT,"
	" requested INTEGER NOT NULL,"
	" confirmed INTEGER,"
	" confirm_source TEXT,"
	" updated INTEGER NOT NULL);"
	"CREATE TABLE list_tokens ("
	" address TEXT NOT NULL,"
	" token TEXT NOT NULL,"
	" used INTEGER NOT NULL,"
	" PRIMARY KEY (address, token)) WITHOUT ROWID;"
	"CREATE TABLE control_done ("
	" message_id TEXT PRIMARY KEY,"
	" what TEXT NOT NULL,"
	" at INTEGER NOT NULL) WITHOUT ROWID;",
};

const struct store_part store_part_lists = {
	.name = "lists",
	.migrations = migrations,
	.n_migrations = G_N_ELEMENTS(migrations),
};

static const char sql_get[] =
	"SELECT address, via, state, request_id, requested, confirmed,"
	" confirm_source, updated FROM lists WHERE address = ?1";
static const char sql_all[] =
	"SELECT address, via, state, request_id, requested, confirmed,"
	" confirm_source, updated FROM lists ORDER BY address";
static const char sql_put[] =
	"INSERT OR REPLACE INTO lists (address, via, state, request_id,"
	" requested, confirmed, confirm_source, updated) VALUES (?1, ?2, ?3,"
	" ?4, ?5, ?6, ?7, ?8)";
static const char sql_token_use[] =
	"INSERT OR IGNORE INTO list_tokens (address, token, used) VALUES (?1,"
	" ?2, ?3)";
static const char sql_message_source[] =
	"SELECT source FROM messages WHERE message_id = ?1";
/* List-Id: "Name <arm.lists.test>" (RFC 2919 2) */
static const char sql_traffic_source[] =
	"SELECT source FROM messages WHERE list_id LIKE '%<' || ?1 || '>%'"
	" ORDER BY id DESC LIMIT 1";
static const char sql_done[] =
	"SELECT 1 FROM control_done WHERE message_id = ?1";
static const char sql_mark[] =
	"INSERT OR IGNORE INTO control_done (message_id, what, at) VALUES (?1,"
	" ?2, ?3)";

void store_list_free(struct store_list *l)
{
	if (!l)
		return;
	g_free(l->address);
	g_free(l->via);
	g_free(l->state);
	g_free(l->request_id);
	g_free(l->confirm_source);
	g_free(l);
}

static struct store_list *read_row(sqlite3_stmt *s)
{
	struct store_list *l = g_new0(struct store_list, 1);

	l->address = store_column_text(s, 0);
	l->via = store_column_text(s, 1);
	l->state = store_column_text(s, 2);
	l->request_id = store_column_text(s, 3);
	l->requested = sqlite3_column_int64(s, 4);
	l->confirmed = sqlite3_column_int64(s, 5);
	l->confirm_source = store_column_text(s, 6);
	l->updated = sqlite3_column_int64(s, 7);
	return l;
}

gboolean store_list_get(struct store *st, const char *address,
			struct store_list **out, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_get, error);
	gboolean row;

	*out = NULL;
	if (!s)
		return FALSE;
	store_bind_text(s, 1, address);
	if (!store_step_row(st, s, &row, error))
		return FALSE;
	if (row) {
		*out = read_row(s);
		sqlite3_reset(s);
	}
	return TRUE;
}

GPtrArray *store_lists_all(struct store *st, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_all, error);
	g_autoptr(GPtrArray) out = NULL;

	if (!s)
		return NULL;
	out = g_ptr_array_new_with_free_func((GDestroyNotify)store_list_free);
	for (;;) {
		gboolean row;

		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (!row)
			break;
		g_ptr_array_add(out, read_row(s));
	}
	return g_steal_pointer(&out);
}

gboolean store_list_put(struct store *st, const struct store_list *l,
			GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_put, error);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, l->address);
	store_bind_text(s, 2, l->via);
	store_bind_text(s, 3, l->state);
	store_bind_text(s, 4, l->request_id);
	sqlite3_bind_int64(s, 5, l->requested);
	if (l->confirmed)
		sqlite3_bind_int64(s, 6, l->confirmed);
	store_bind_text(s, 7, l->confirm_source);
	sqlite3_bind_int64(s, 8, l->updated);
	return store_step_done(st, s, error);
}

gboolean store_list_token_use(struct store *st, const char *address,
			      const char *token, gint64 at, gboolean *fresh,
			      GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_token_use, error);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, address);
	store_bind_text(s, 2, token);
	sqlite3_bind_int64(s, 3, at);
	if (!store_step_done(st, s, error))
		return FALSE;
	*fresh = sqlite3_changes(store_db(st)) > 0;
	return TRUE;
}

static gboolean one_text(struct store *st, const char *sql, const char *arg,
			 char **out, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql, error);
	gboolean row;

	*out = NULL;
	if (!s)
		return FALSE;
	store_bind_text(s, 1, arg);
	if (!store_step_row(st, s, &row, error))
		return FALSE;
	if (row) {
		*out = store_column_text(s, 0);
		sqlite3_reset(s);
	}
	return TRUE;
}

gboolean store_list_message_source(struct store *st, const char *message_id,
				   char **out, GError **error)
{
	return one_text(st, sql_message_source, message_id, out, error);
}

gboolean store_list_traffic_source(struct store *st, const char *list_id,
				   char **out, GError **error)
{
	return one_text(st, sql_traffic_source, list_id, out, error);
}

gboolean store_control_done(struct store *st, const char *message_id,
			    gboolean *out, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_done, error);
	gboolean row;

	*out = FALSE;
	if (!s)
		return FALSE;
	store_bind_text(s, 1, message_id);
	if (!store_step_row(st, s, &row, error))
		return FALSE;
	if (row) {
		*out = TRUE;
		sqlite3_reset(s);
	}
	return TRUE;
}

gboolean store_control_mark(struct store *st, const char *message_id,
			    const char *what, gint64 at, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql_mark, error);

	if (!s)
		return FALSE;
	store_bind_text(s, 1, message_id);
	store_bind_text(s, 2, what);
	sqlite3_bind_int64(s, 3, at);
	return store_step_done(st, s, error);
}
