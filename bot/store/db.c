/* The store's connection: see bot/store/db.h. */
#include "bot/store/db.h"

#include <stdarg.h>

G_DEFINE_QUARK(store - error - quark, store_error)

struct store {
	sqlite3 *db;
	GHashTable *stmts; /* SQL text address -> sqlite3_stmt */
	GHashTable *selects; /* store_select() tail address -> SQL text */
};

/* The transactions' statements, cached as every other. */
static const char sql_begin[] = "BEGIN IMMEDIATE";
static const char sql_commit[] = "COMMIT";
static const char sql_rollback[] = "ROLLBACK";

gboolean store_fail(struct store *st, GError **error, const char *what)
{
	g_set_error(error, STORE_ERROR, sqlite3_errcode(st->db), "%s: %s", what,
		    sqlite3_errmsg(st->db));
	return FALSE;
}

sqlite3 *store_db(struct store *st)
{
	return st->db;
}

sqlite3_stmt *store_statement(struct store *st, const char *sql, GError **error)
{
	sqlite3_stmt *s = g_hash_table_lookup(st->stmts, sql);

	if (!s) {
		if (sqlite3_prepare_v3(st->db, sql, -1,
				       SQLITE_PREPARE_PERSISTENT, &s,
				       NULL) != SQLITE_OK) {
			store_fail(st, error, "cannot prepare statement");
			return NULL;
		}
		g_hash_table_insert(st->stmts, (gpointer)sql, s);
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

static void bind_args(sqlite3_stmt *s, va_list ap)
{
	int kind;
	gint64 v;
	GBytes *bytes;
	gconstpointer data;
	gsize len;

	for (int i = 1; (kind = va_arg(ap, int)) != STORE_END; i++) {
		switch (kind) {
		case STORE_ARG_TEXT:
			store_bind_text(s, i, va_arg(ap, const char *));
			break;
		case STORE_ARG_INT64:
			sqlite3_bind_int64(s, i, va_arg(ap, gint64));
			break;
		case STORE_ARG_TIME:
			v = va_arg(ap, gint64);
			if (v)
				sqlite3_bind_int64(s, i, v);
			else
				sqlite3_bind_null(s, i);
			break;
		case STORE_ARG_DOUBLE:
			sqlite3_bind_double(s, i, va_arg(ap, double));
			break;
		case STORE_ARG_BLOB:
			bytes = va_arg(ap, GBytes *);
			len = 0;
			data = bytes ? g_bytes_get_data(bytes, &len) : NULL;
			sqlite3_bind_blob64(s, i, data ? data : "", len,
					    SQLITE_STATIC);
			break;
		default:
			g_assert_not_reached();
		}
	}
}

/* store_statement() of @sql with the parameters of @ap bound. */
static sqlite3_stmt *statement_bound(struct store *st, const char *sql,
				     GError **error, va_list ap)
{
	sqlite3_stmt *s = store_statement(st, sql, error);

	if (s)
		bind_args(s, ap);
	return s;
}

sqlite3_stmt *store_bind(struct store *st, const char *sql, GError **error, ...)
{
	sqlite3_stmt *s;
	va_list ap;

	va_start(ap, error);
	s = statement_bound(st, sql, error, ap);
	va_end(ap);
	return s;
}

gboolean store_exec(struct store *st, const char *sql, GError **error, ...)
{
	sqlite3_stmt *s;
	va_list ap;

	va_start(ap, error);
	s = statement_bound(st, sql, error, ap);
	va_end(ap);
	return s && store_step_done(st, s, error);
}

gboolean store_exec_changed(struct store *st, const char *sql,
			    gboolean *changed, GError **error, ...)
{
	sqlite3_stmt *s;
	va_list ap;

	*changed = FALSE;
	va_start(ap, error);
	s = statement_bound(st, sql, error, ap);
	va_end(ap);
	if (!s || !store_step_done(st, s, error))
		return FALSE;
	*changed = sqlite3_changes(st->db) > 0;
	return TRUE;
}

gboolean store_step_row(struct store *st, sqlite3_stmt *s, gboolean *row,
			GError **error)
{
	int rc = sqlite3_step(s);

	if (rc == SQLITE_ROW) {
		*row = TRUE;
		return TRUE;
	}
	sqlite3_reset(s);
	*row = FALSE;
	if (rc != SQLITE_DONE)
		return store_fail(st, error, "cannot read the store");
	return TRUE;
}

GPtrArray *store_rows(struct store *st, sqlite3_stmt *s, store_row_fn read,
		      GDestroyNotify free_fn, GError **error)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(free_fn);
	gboolean row = TRUE;

	while (row) {
		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (row)
			g_ptr_array_add(out, read(s));
	}
	return g_steal_pointer(&out);
}

static void read_field(const struct store_field *f, sqlite3_stmt *s, int col,
		       char *base)
{
	void *at = base + f->offset;

	switch (f->kind) {
	case STORE_TEXT:
		*(char **)at = store_column_text(s, col);
		break;
	case STORE_INT:
		*(int *)at = sqlite3_column_int(s, col);
		break;
	case STORE_INT64:
		*(gint64 *)at = sqlite3_column_int64(s, col);
		break;
	case STORE_INT64_OR_MINUS1:
		*(gint64 *)at = sqlite3_column_type(s, col) == SQLITE_NULL ?
					-1 :
					sqlite3_column_int64(s, col);
		break;
	case STORE_DOUBLE:
		*(double *)at = sqlite3_column_double(s, col);
		break;
	case STORE_BLOB:
		*(GBytes **)at = g_bytes_new(sqlite3_column_blob(s, col),
					     sqlite3_column_bytes(s, col));
		break;
	case STORE_BLOB_OR_NULL:
		if (sqlite3_column_type(s, col) != SQLITE_NULL)
			*(GBytes **)at =
				g_bytes_new(sqlite3_column_blob(s, col),
					    sqlite3_column_bytes(s, col));
		break;
	case STORE_OWNED:
		break;
	}
}

/* Step @s once and reset it; when it gave a row, its first column into
 * *@out as @kind says. */
static gboolean read_first(struct store *st, sqlite3_stmt *s,
			   enum store_field_kind kind, gpointer out,
			   GError **error)
{
	const struct store_field f = { "", kind, 0, NULL };
	gboolean row;

	if (!store_step_row(st, s, &row, error))
		return FALSE;
	if (row)
		read_field(&f, s, 0, out);
	sqlite3_reset(s);
	return TRUE;
}

gboolean store_read_int64(struct store *st, sqlite3_stmt *s, gint64 *out,
			  GError **error)
{
	*out = 0;
	return read_first(st, s, STORE_INT64, out, error);
}

gboolean store_read_text(struct store *st, sqlite3_stmt *s, char **out,
			 GError **error)
{
	*out = NULL;
	return read_first(st, s, STORE_TEXT, out, error);
}

/* statement_bound() of @sql, then read_first(). */
static gboolean query_first(struct store *st, const char *sql,
			    enum store_field_kind kind, gpointer out,
			    GError **error, va_list ap)
{
	sqlite3_stmt *s = statement_bound(st, sql, error, ap);

	return s && read_first(st, s, kind, out, error);
}

/* store_query_int64() and store_query_text(): one body, the type of *@out
 * and its value without a row aside. */
#define STORE_QUERY_FIRST(fn, type, kind, none)                   \
	gboolean fn(struct store *st, const char *sql, type *out, \
		    GError **error, ...)                          \
	{                                                         \
		gboolean ok;                                      \
		va_list ap;                                       \
                                                                  \
		*out = none;                                      \
		va_start(ap, error);                              \
		ok = query_first(st, sql, kind, out, error, ap);  \
		va_end(ap);                                       \
		return ok;                                        \
	}

STORE_QUERY_FIRST(store_query_int64, gint64, STORE_INT64, 0)
STORE_QUERY_FIRST(store_query_text, char *, STORE_TEXT, NULL)
#undef STORE_QUERY_FIRST

GArray *store_read_ids(struct store *st, sqlite3_stmt *s, GError **error)
{
	g_autoptr(GArray) out = g_array_new(FALSE, FALSE, sizeof(gint64));
	gboolean row = TRUE;

	while (row) {
		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (row)
			g_array_append_val(
				out, *(gint64[]){ sqlite3_column_int64(s, 0) });
	}
	return g_steal_pointer(&out);
}

GPtrArray *store_read_texts(struct store *st, sqlite3_stmt *s, GError **error)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);
	gboolean row = TRUE;

	while (row) {
		if (!store_step_row(st, s, &row, error))
			return NULL;
		if (row && sqlite3_column_type(s, 0) != SQLITE_NULL)
			g_ptr_array_add(out, store_column_text(s, 0));
	}
	return g_steal_pointer(&out);
}

gboolean store_step_done(struct store *st, sqlite3_stmt *s, GError **error)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_fail(st, error, "cannot write the store");
	return TRUE;
}

static gboolean exec_simple(struct store *st, const char *sql, GError **error)
{
	sqlite3_stmt *s = store_statement(st, sql, error);

	return s && store_step_done(st, s, error);
}

gboolean store_begin(struct store *st, GError **error)
{
	return exec_simple(st, sql_begin, error);
}

gboolean store_commit(struct store *st, GError **error)
{
	return exec_simple(st, sql_commit, error);
}

void store_rollback(struct store *st)
{
	exec_simple(st, sql_rollback, NULL);
}

void store_bind_text(sqlite3_stmt *s, int i, const char *text)
{
	if (text)
		sqlite3_bind_text(s, i, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

char *store_column_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? g_strdup((const char *)t) : NULL;
}

static sqlite3_stmt *select_bound(struct store *st, const struct store_row *row,
				  const char *tail, GError **error, va_list ap)
{
	char *sql = g_hash_table_lookup(st->selects, tail);

	if (!sql) {
		GString *b = g_string_new("SELECT ");
		const char *sep = "";

		for (guint i = 0; i < row->n_fields; i++) {
			if (!row->fields[i].column)
				continue;
			g_string_append(b, sep);
			g_string_append(b, row->fields[i].column);
			sep = ", ";
		}
		g_string_append(b, tail);
		sql = g_string_free(b, FALSE);
		g_hash_table_insert(st->selects, (gpointer)tail, sql);
	}
	return statement_bound(st, sql, error, ap);
}

sqlite3_stmt *store_select(struct store *st, const struct store_row *row,
			   const char *tail, GError **error, ...)
{
	sqlite3_stmt *s;
	va_list ap;

	va_start(ap, error);
	s = select_bound(st, row, tail, error, ap);
	va_end(ap);
	return s;
}

GPtrArray *store_select_rows(struct store *st, const struct store_row *row,
			     const char *tail, GError **error, ...)
{
	sqlite3_stmt *s;
	va_list ap;

	va_start(ap, error);
	s = select_bound(st, row, tail, error, ap);
	va_end(ap);
	return s ? store_read_rows(st, s, row, error) : NULL;
}

gboolean store_select_row(struct store *st, const struct store_row *row,
			  const char *tail, gpointer *out, GError **error, ...)
{
	sqlite3_stmt *s;
	va_list ap;

	*out = NULL;
	va_start(ap, error);
	s = select_bound(st, row, tail, error, ap);
	va_end(ap);
	return s && store_read_row(st, s, row, out, error);
}

gpointer store_row_read(const struct store_row *row, sqlite3_stmt *s)
{
	char *p = g_malloc0(row->size);
	int col = 0;

	for (guint i = 0; i < row->n_fields; i++) {
		if (row->fields[i].kind == STORE_OWNED)
			continue;
		read_field(&row->fields[i], s, col++, p);
	}
	if (row->after)
		row->after(p, s);
	return p;
}

void store_row_free(const struct store_row *row, gpointer p)
{
	if (!p)
		return;
	for (guint i = 0; i < row->n_fields; i++) {
		const struct store_field *f = &row->fields[i];
		gpointer *at = (gpointer *)((char *)p + f->offset);

		switch (f->kind) {
		case STORE_TEXT:
			g_free(*at);
			break;
		case STORE_BLOB:
		case STORE_BLOB_OR_NULL:
			g_clear_pointer(at, g_bytes_unref);
			break;
		case STORE_OWNED:
			if (*at)
				f->destroy(*at);
			break;
		default:
			break;
		}
	}
	g_free(p);
}

gboolean store_read_row(struct store *st, sqlite3_stmt *s,
			const struct store_row *row, gpointer *out,
			GError **error)
{
	gboolean found;

	*out = NULL;
	if (!store_step_row(st, s, &found, error))
		return FALSE;
	if (found)
		*out = store_row_read(row, s);
	sqlite3_reset(s);
	return TRUE;
}

GPtrArray *store_read_rows(struct store *st, sqlite3_stmt *s,
			   const struct store_row *row, GError **error)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(row->free);
	gboolean found = TRUE;

	while (found) {
		if (!store_step_row(st, s, &found, error))
			return NULL;
		if (found)
			g_ptr_array_add(out, store_row_read(row, s));
	}
	return g_steal_pointer(&out);
}

/* The schema version of @part (0 when it has none yet), or -1 with
 * @error set.  Only asked once the core tables, store_parts among them,
 * are current. */
static int part_version(struct store *st, const struct store_part *part,
			GError **error)
{
	sqlite3_stmt *s = NULL;
	int version = 0;

	if (sqlite3_prepare_v2(
		    st->db, "SELECT version FROM store_parts WHERE name = ?1",
		    -1, &s, NULL) != SQLITE_OK) {
		store_fail(st, error, "cannot read the schema version");
		return -1;
	}
	sqlite3_bind_text(s, 1, part->name, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		version = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (version > (int)part->n_migrations) {
		g_set_error(error, STORE_ERROR, 0,
			    "store schema of %s is version %d, newer than "
			    "this armbot's %u",
			    part->name, version, part->n_migrations);
		return -1;
	}
	return version;
}

/* PRAGMA user_version, the version of the core tables, or -1 with @error
 * set. */
static int core_version(struct store *st, const struct store_schema *schema,
			GError **error)
{
	sqlite3_stmt *s = NULL;
	int version;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) !=
		    SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_finalize(s);
		store_fail(st, error, "cannot read the schema version");
		return -1;
	}
	version = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (version > (int)schema->n_migrations) {
		g_set_error(error, STORE_ERROR, 0,
			    "store schema version %d is newer than this "
			    "armbot's %d",
			    version, (int)schema->n_migrations);
		return -1;
	}
	return version;
}

/* Is every migration applied?  FALSE with @error set on a read error. */
static gboolean schema_current(struct store *st,
			       const struct store_schema *schema,
			       gboolean *current, GError **error)
{
	int version = core_version(st, schema, error);

	if (version < 0)
		return FALSE;
	*current = version == (int)schema->n_migrations;
	for (guint i = 0; *current && i < schema->n_parts; i++) {
		version = part_version(st, schema->parts[i], error);
		if (version < 0)
			return FALSE;
		*current = version == (int)schema->parts[i]->n_migrations;
	}
	return TRUE;
}

/* Apply what is missing; the caller holds the write lock. */
static gboolean migrate_locked(struct store *st,
			       const struct store_schema *schema,
			       GError **error)
{
	int version = core_version(st, schema, error);

	if (version < 0)
		return FALSE;
	for (; version < (int)schema->n_migrations; version++) {
		g_autofree char *sql = g_strdup_printf(
			"%s PRAGMA user_version = %d;",
			schema->migrations[version], version + 1);

		if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
			return store_fail(st, error,
					  "cannot migrate the store");
	}
	for (guint i = 0; i < schema->n_parts; i++) {
		const struct store_part *part = schema->parts[i];
		int v = part_version(st, part, error);

		if (v < 0)
			return FALSE;
		for (; v < (int)part->n_migrations; v++) {
			g_autofree char *sql = g_strdup_printf(
				"%s INSERT OR REPLACE INTO store_parts"
				" (name, version) VALUES ('%s', %d);",
				part->migrations[v], part->name, v + 1);

			if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) !=
			    SQLITE_OK) {
				store_fail(st, error,
					   "cannot migrate the store");
				g_prefix_error(error, "%s: ", part->name);
				return FALSE;
			}
		}
	}
	return TRUE;
}

/* Bring the schema up to date.  Two processes may open a new store at
 * once (the daemon and a command): the versions are read again and every
 * migration applied under one write lock (BEGIN IMMEDIATE, which waits out
 * the busy timeout), so the second finds the work done instead of failing
 * on "table already exists".  A current store takes no lock at all. */
static gboolean migrate(struct store *st, const struct store_schema *schema,
			GError **error)
{
	gboolean current = FALSE;

	if (!schema_current(st, schema, &current, error))
		return FALSE;
	if (current)
		return TRUE;
	if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return store_fail(st, error,
				  "cannot lock the store to migrate it");
	if (!migrate_locked(st, schema, error)) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return FALSE;
	}
	if (sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		store_fail(st, error, "cannot migrate the store");
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return FALSE;
	}
	return TRUE;
}

static void finalize_statement(gpointer s)
{
	sqlite3_finalize(s);
}

struct store *store_db_open(const char *path, const struct store_schema *schema,
			    GError **error)
{
	g_autoptr(store) st = g_new0(struct store, 1);
	int rc = SQLITE_OK;

	st->stmts = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					  finalize_statement);
	st->selects = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					    g_free);

	if (sqlite3_open_v2(path, &st->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
			    NULL) != SQLITE_OK) {
		store_fail(st, error, "cannot open the store");
		g_prefix_error(error, "%s: ", path);
		return NULL;
	}
	sqlite3_busy_timeout(st->db, 10000);
	/* switching a new database to WAL can fail with SQLITE_BUSY at once,
	 * without the busy handler, while another process creates it (seen
	 * in CI: two `tree import` at once): try again for up to 10 s */
	for (int i = 0; i < 100; i++) {
		rc = sqlite3_exec(st->db,
				  "PRAGMA journal_mode = WAL;"
				  " PRAGMA foreign_keys = ON;"
				  " PRAGMA synchronous = NORMAL;",
				  NULL, NULL, NULL);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		g_usleep(100 * 1000);
	}
	if (rc != SQLITE_OK || !migrate(st, schema, error)) {
		if (error && !*error)
			store_fail(st, error, "cannot set up the store");
		g_prefix_error(error, "%s: ", path);
		return NULL;
	}
	return g_steal_pointer(&st);
}

void store_free(struct store *st)
{
	if (!st)
		return;
	g_clear_pointer(&st->stmts, g_hash_table_destroy);
	g_clear_pointer(&st->selects, g_hash_table_destroy);
	sqlite3_close(st->db);
	g_free(st);
}
