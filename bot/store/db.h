/* The store's connection (bot/store/db.c): one SQLite database in WAL
 * mode, its statements prepared once and cached, transactions, and the
 * migration of its schema.  Every file of bot/store/ works through it:
 * store.c (the core tables: messages, rejects, series) and the parts.
 *
 * A part keeps one concern's tables (bot/store/NAME.c) with its own
 * append-only list of migrations, versioned in the store_parts table, and
 * its own named statements.  To add one: define it in bot/store/NAME.c
 * with STORE_PART_DEFINE(NAME, migrations), declare `extern const struct
 * store_part store_part_NAME` in bot/store/NAME.h and list it in
 * store.c's parts[]. */
#pragma once

#include <glib.h>
#include <sqlite3.h>
#include <stddef.h>

typedef struct store store;

GQuark store_error_quark(void);
#define STORE_ERROR store_error_quark()

struct store_part {
	const char *name;
	/* entry N takes the part from version N to N + 1; never edit one
	 * that has shipped */
	const char *const *migrations;
	guint n_migrations;
};

/* `const struct store_part store_part_NAME`, the part "NAME" with the
 * migrations of the array @migrations. */
#define STORE_PART_DEFINE(NAME, migrations)               \
	const struct store_part store_part_##NAME = {     \
		.name = #NAME,                            \
		.migrations = (migrations),               \
		.n_migrations = G_N_ELEMENTS(migrations), \
	}

/* What store_db_open() brings up to date, in this order. */
struct store_schema {
	/* the core tables: entry N takes PRAGMA user_version N to N + 1;
	 * one of them creates the table the parts' versions are kept in,
	 * store_parts (name TEXT PRIMARY KEY, version INTEGER NOT NULL) */
	const char *const *migrations;
	guint n_migrations;
	/* then the parts, each from its version in store_parts */
	const struct store_part *const *parts;
	guint n_parts;
};

/* Open (creating as needed) the database at @path and migrate it to
 * @schema (read during the call only); two processes may do so at once.
 * NULL with @error set, prefixed by @path. */
struct store *store_db_open(const char *path, const struct store_schema *schema,
			    GError **error);
void store_free(struct store *st);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store, store_free)

/* BEGIN IMMEDIATE, COMMIT, ROLLBACK (which reports no error). */
gboolean store_begin(struct store *st, GError **error);
gboolean store_commit(struct store *st, GError **error);
void store_rollback(struct store *st);

/* The database, for sqlite3_changes() and sqlite3_last_insert_rowid(). */
sqlite3 *store_db(struct store *st);

/* @sql (a string constant: its address is the cache key) prepared once,
 * reset and unbound; NULL with @error set. */
sqlite3_stmt *store_statement(struct store *st, const char *sql,
			      GError **error);

/* The parameters of a statement, in order from ?1, each a kind and its
 * value, the list ended by STORE_END: made by these macros only, so that
 * every value is passed as the type read. */
enum store_arg {
	STORE_END,
	STORE_ARG_TEXT, /* const char *, NULL for NULL */
	STORE_ARG_INT64, /* gint64 */
	STORE_ARG_TIME, /* gint64, 0 for NULL */
	STORE_ARG_DOUBLE, /* double */
	STORE_ARG_BLOB, /* GBytes *, NULL for empty; bound without a copy,
			 * so it must live until the statement is stepped */
};
#define STORE_T(v) STORE_ARG_TEXT, (const char *)(v)
#define STORE_I(v) STORE_ARG_INT64, (gint64)(v)
#define STORE_TIME(v) STORE_ARG_TIME, (gint64)(v)
#define STORE_D(v) STORE_ARG_DOUBLE, (double)(v)
#define STORE_B(v) STORE_ARG_BLOB, (GBytes *)(v)

/* store_statement() of @sql with the parameters that follow bound; NULL
 * with @error set. */
sqlite3_stmt *store_bind(struct store *st, const char *sql, GError **error,
			 ...);

/* The same, then stepped to its end: FALSE with @error on failure. */
gboolean store_exec(struct store *st, const char *sql, GError **error, ...);

/* store_exec(), and *@changed whether it inserted, updated or deleted a
 * row. */
gboolean store_exec_changed(struct store *st, const char *sql,
			    gboolean *changed, GError **error, ...);

/* Step @s to its end (bindings made); FALSE with @error on failure. */
gboolean store_step_done(struct store *st, sqlite3_stmt *s, GError **error);

/* Step @s once: TRUE with *@row set when it gave a row or finished;
 * FALSE with @error on failure (the statement is then reset). */
gboolean store_step_row(struct store *st, sqlite3_stmt *s, gboolean *row,
			GError **error);

/* Every row of @s (bindings made), each made into an element by @read,
 * freed with @free_fn; NULL with @error on failure. */
typedef gpointer (*store_row_fn)(sqlite3_stmt *s);
GPtrArray *store_rows(struct store *st, sqlite3_stmt *s, store_row_fn read,
		      GDestroyNotify free_fn, GError **error);

/* Step @s (bindings made) once and reset it: *@out its first column, 0
 * or NULL when there was no row.  FALSE with @error on failure. */
gboolean store_read_int64(struct store *st, sqlite3_stmt *s, gint64 *out,
			  GError **error);
gboolean store_read_text(struct store *st, sqlite3_stmt *s, char **out,
			 GError **error);

/* store_bind() of @sql with the parameters that follow, then
 * store_read_int64() or store_read_text(): *@out the first column of its
 * first row, 0 or NULL when there was none or on failure.  FALSE with
 * @error on failure. */
gboolean store_query_int64(struct store *st, const char *sql, gint64 *out,
			   GError **error, ...);
gboolean store_query_text(struct store *st, const char *sql, char **out,
			  GError **error, ...);

/* The first column of every row of @s (bindings made): as gint64s, and
 * as new strings (char *, owned; NULLs left out).  NULL with @error on
 * failure. */
GArray *store_read_ids(struct store *st, sqlite3_stmt *s, GError **error);
GPtrArray *store_read_texts(struct store *st, sqlite3_stmt *s, GError **error);

/* Set @error from SQLite's last error, prefixed by @what; FALSE. */
gboolean store_fail(struct store *st, GError **error, const char *what);

/* Bind @text, or NULL when @text is NULL. */
void store_bind_text(sqlite3_stmt *s, int i, const char *text);

/* Column @i as a new string, or NULL. */
char *store_column_text(sqlite3_stmt *s, int i);

/* Table-driven rows: a struct is described once, field by field, by the
 * SQL expression it is read from, how, and where it lives in the struct;
 * store_select() writes the SELECT list from it, store_read_row() and
 * store_read_rows() read result rows into new structs and
 * store_row_free() frees one.  Column i of the statement is the i-th
 * field that has a column. */
enum store_field_kind {
	STORE_TEXT, /* char *, owned; NULL for NULL */
	STORE_INT, /* int, guint or gboolean */
	STORE_INT64, /* gint64; 0 for NULL */
	STORE_INT64_OR_MINUS1, /* gint64; -1 for NULL */
	STORE_DOUBLE, /* double */
	STORE_BLOB, /* GBytes *, owned; empty for NULL */
	STORE_BLOB_OR_NULL, /* GBytes *, owned; NULL for NULL */
	STORE_OWNED, /* no column: a pointer the row owns, freed by
			.destroy (NULL-safe: called only when set) */
};

struct store_field {
	const char *column; /* the SQL expression; NULL for STORE_OWNED */
	enum store_field_kind kind;
	size_t offset; /* offsetof() the member */
	GDestroyNotify destroy; /* STORE_OWNED only */
};

#define STORE_FIELD(type, member, column, kind)            \
	{                                                  \
		column, kind, offsetof(type, member), NULL \
	}
/* A member read from the column of its own name. */
#define STORE_COLUMN(type, member, kind) \
	STORE_FIELD(type, member, #member, kind)
#define STORE_OWNED_FIELD(type, member, destroy)           \
	{                                                  \
		NULL, STORE_OWNED, offsetof(type, member), \
			(GDestroyNotify)destroy            \
	}

/* A histogram of seconds read by SQL: @list is an X-macro that names each
 * bucket as X(INDEX, SECONDS).  STORE_BUCKETS_DEFINE defines the array
 * @name of the @n bounds (what /metrics prints), checking their number
 * when compiled; STORE_BUCKET_FIELD is the field that counts the rows
 * whose @column is at most the bound, into member le[INDEX] of @type. */
#define STORE_BUCKET_ONE(i, seconds) +1
#define STORE_BUCKET_BOUND(i, seconds) seconds,
#define STORE_BUCKETS_DEFINE(name, n, list)               \
	G_STATIC_ASSERT(0 list(STORE_BUCKET_ONE) == (n)); \
	const double name[n] = { list(STORE_BUCKET_BOUND) }
#define STORE_BUCKET_FIELD(type, column, i, seconds) \
	STORE_FIELD(type, le[i], "sum(" column " <= " #seconds ")", STORE_INT64)

struct store_row {
	size_t size; /* sizeof the struct */
	const struct store_field *fields;
	guint n_fields;
	/* the struct's public free function (a store_row_free() of this
	 * row), for the arrays store_read_rows() returns */
	GDestroyNotify free;
	/* or NULL: called on each new struct with the row it was read
	 * from, for what a field cannot say */
	void (*after)(gpointer p, sqlite3_stmt *s);
};

/* The row of struct @type read by @fields (an array), freed by @free_fn;
 * @after_fn or NULL. */
#define STORE_ROW(type, fields, free_fn, after_fn)          \
	{                                                   \
		sizeof(type), fields, G_N_ELEMENTS(fields), \
			(GDestroyNotify)free_fn, after_fn   \
	}

/* Define @row, the row of struct @type read by @fields, and @free_fn
 * (declared before: the row names it), which frees one with
 * store_row_free(); @storage is static or nothing. */
#define STORE_ROW_DEFINE(storage, row, type, fields, free_fn, after_fn) \
	static const struct store_row row =                             \
		STORE_ROW(type, fields, free_fn, after_fn);             \
	storage void free_fn(type *p)                                   \
	{                                                               \
		store_row_free(&row, p);                                \
	}

/* "SELECT <the row's columns> @tail" prepared once and cached as
 * store_statement() does, with the parameters that follow bound (as
 * store_bind()); @tail a string constant used with this row only (its
 * address is the cache key).  NULL with @error set. */
sqlite3_stmt *store_select(struct store *st, const struct store_row *row,
			   const char *tail, GError **error, ...);

/* Every row of that store_select() as structs of @row, as
 * store_read_rows() returns them; NULL with @error on failure. */
GPtrArray *store_select_rows(struct store *st, const struct store_row *row,
			     const char *tail, GError **error, ...);

/* The first row of that store_select() as a struct of @row, as
 * store_read_row() reads it: @out is a pointer to the struct pointer,
 * set to NULL when there is no row.  FALSE with @error on failure. */
gboolean store_select_row(struct store *st, const struct store_row *row,
			  const char *tail, gpointer *out, GError **error, ...);

/* The current result row of @s as a new struct of @row. */
gpointer store_row_read(const struct store_row *row, sqlite3_stmt *s);

/* Free @p (a struct of @row, or NULL) and what its fields own. */
void store_row_free(const struct store_row *row, gpointer p);

/* Step @s (bindings made) once: *@out the row read, or NULL when there
 * was none; @s is reset.  FALSE with @error on failure. */
gboolean store_read_row(struct store *st, sqlite3_stmt *s,
			const struct store_row *row, gpointer *out,
			GError **error);

/* Every row of @s (bindings made) as structs of @row, owned by the array
 * (freed by @row->free); NULL with @error on failure. */
GPtrArray *store_read_rows(struct store *st, sqlite3_stmt *s,
			   const struct store_row *row, GError **error);
