/* The store's connection (bot/store/db.c): one SQLite database in WAL
 * mode, its statements prepared once and cached, transactions, and the
 * migration of its schema.  Every file of bot/store/ works through it:
 * store.c (the core tables: messages, rejects, series) and the parts.
 *
 * A part keeps one concern's tables (bot/store/NAME.c) with its own
 * append-only list of migrations, versioned in the store_parts table, and
 * its own named statements.  To add one: define
 * `const struct store_part store_part_NAME` in bot/store/NAME.c, declare
 * it in bot/store/NAME.h and list it in store.c's parts[]. */
#pragma once

#include <glib.h>
#include <sqlite3.h>

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

/* Set @error from SQLite's last error, prefixed by @what; FALSE. */
gboolean store_fail(struct store *st, GError **error, const char *what);

/* Bind @text, or NULL when @text is NULL. */
void store_bind_text(sqlite3_stmt *s, int i, const char *text);

/* Column @i as a new string, or NULL. */
char *store_column_text(sqlite3_stmt *s, int i);
