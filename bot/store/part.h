/* For the files that keep one concern's tables in the store
 * (bot/store-NAME.c): each is a "part" with its own append-only list of
 * migrations, versioned in the store_parts table, and its own named
 * statements, prepared once and cached by the address of their SQL text.
 * The core tables (messages, rejects, series) stay in bot/store/store.c.
 *
 * To add a part: define `const struct store_part store_part_NAME` in
 * bot/store-NAME.c, declare it below and list it in store.c's parts[]. */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "bot/store/store.h"

struct store_part {
	const char *name;
	/* entry N takes the part from version N to N + 1; never edit one
	 * that has shipped */
	const char *const *migrations;
	guint n_migrations;
};

extern const struct store_part store_part_pipeline;
extern const struct store_part store_part_sources;
extern const struct store_part store_part_trees;
extern const struct store_part store_part_lists;
extern const struct store_part store_part_web;

GQuark store_error_quark(void);
#define STORE_ERROR store_error_quark()

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
