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

STORE_PART_DEFINE(lists, migrations);

static const char sql_get[] = " FROM lists WHERE address = ?1";
static const char sql_all[] = " FROM lists ORDER BY address";
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

static const struct store_field fields[] = {
	STORE_COLUMN(struct store_list, address, STORE_TEXT),
	STORE_COLUMN(struct store_list, via, STORE_TEXT),
	STORE_COLUMN(struct store_list, state, STORE_TEXT),
	STORE_COLUMN(struct store_list, request_id, STORE_TEXT),
	STORE_COLUMN(struct store_list, requested, STORE_INT64),
	STORE_COLUMN(struct store_list, confirmed, STORE_INT64),
	STORE_COLUMN(struct store_list, confirm_source, STORE_TEXT),
	STORE_COLUMN(struct store_list, updated, STORE_INT64),
};

STORE_ROW_DEFINE(, list_row, struct store_list, fields, store_list_free, NULL)

gboolean store_list_get(struct store *st, const char *address,
			struct store_list **out, GError **error)
{
	return store_select_row(st, &list_row, sql_get, (gpointer *)out, error,
				STORE_T(address), STORE_END);
}

GPtrArray *store_lists_all(struct store *st, GError **error)
{
	return store_select_rows(st, &list_row, sql_all, error, STORE_END);
}

gboolean store_list_put(struct store *st, const struct store_list *l,
			GError **error)
{
	return store_exec(st, sql_put, error, STORE_T(l->address),
			  STORE_T(l->via), STORE_T(l->state),
			  STORE_T(l->request_id), STORE_I(l->requested),
			  STORE_TIME(l->confirmed), STORE_T(l->confirm_source),
			  STORE_I(l->updated), STORE_END);
}

gboolean store_list_token_use(struct store *st, const char *address,
			      const char *token, gint64 at, gboolean *fresh,
			      GError **error)
{
	return store_exec_changed(st, sql_token_use, fresh, error,
				  STORE_T(address), STORE_T(token), STORE_I(at),
				  STORE_END);
}

gboolean store_list_message_source(struct store *st, const char *message_id,
				   char **out, GError **error)
{
	return store_query_text(st, sql_message_source, out, error,
				STORE_T(message_id), STORE_END);
}

gboolean store_list_traffic_source(struct store *st, const char *list_id,
				   char **out, GError **error)
{
	return store_query_text(st, sql_traffic_source, out, error,
				STORE_T(list_id), STORE_END);
}

gboolean store_control_done(struct store *st, const char *message_id,
			    gboolean *out, GError **error)
{
	gint64 one;
	gboolean ok = store_query_int64(st, sql_done, &one, error,
					STORE_T(message_id), STORE_END);

	*out = one != 0;
	return ok;
}

gboolean store_control_mark(struct store *st, const char *message_id,
			    const char *what, gint64 at, GError **error)
{
	return store_exec(st, sql_mark, error, STORE_T(message_id),
			  STORE_T(what), STORE_I(at), STORE_END);
}
