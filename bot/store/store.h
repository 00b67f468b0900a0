/* The store: one SQLite database (WAL) with every message as received, the
 * series assembled from them and their state.  Every SQL statement of
 * armbot is in bot/store/, as a named statement: the core tables
 * (messages, rejects, series) here in store.c, the other tables in the
 * parts beside it (bot/store/db.h).  The schema is versioned with PRAGMA
 * user_version and the store_parts table and migrated forward on open. */
#pragma once

#include <glib.h>

#include "bot/store/db.h"
#include "mailparse/message.h"
#include "mailparse/series.h"

/* Open (creating and migrating as needed) the store at @path, with every
 * part.  Returns NULL with @error set. */
struct store *store_open(const char *path, GError **error);

/* The same, then the connection is set query_only so that nothing done
 * through it can write (the web's).  NULL with @error set. */
struct store *store_open_query_only(const char *path, GError **error);

/* The schema version this build writes. */
int store_schema_version(void);

/* Keep @msg with what the assembler needs of it (@info).  *@added is FALSE
 * when a message with the same Message-ID is already stored (it is then
 * left alone: ingest is idempotent). */
gboolean store_add_message(struct store *st, const struct message *msg,
			   const struct series_message *info,
			   const char *source, gboolean *added, GError **error);

/* Keep the bytes of a message that could not be parsed, with why, so that
 * nothing received is lost.  *@added is FALSE for bytes already kept. */
gboolean store_add_reject(struct store *st, GBytes *raw, const char *source,
			  const char *reason, gboolean *added, GError **error);

gboolean store_has_message(struct store *st, const char *message_id,
			   gboolean *out, GError **error);

/* The raw bytes of a stored message, or NULL with @error set. */
GBytes *store_message_raw(struct store *st, const char *message_id,
			  GError **error);

/* Every stored message as the assembler sees it (struct series_message *,
 * owned by the array). */
GPtrArray *store_load_series_messages(struct store *st, GError **error);

/* The Message-IDs of stored replies (kind reply) whose In-Reply-To is @message_id
 * (char *, owned by the array). */
GPtrArray *store_replies(struct store *st, const char *message_id,
			 GError **error);

/* Record @assembly: series keep their id as long as one of their messages
 * stays in them; states past assembly (applying, checking, reported,
 * failed) are left alone. */
gboolean store_save_assembly(struct store *st,
			     const struct series_assembly *assembly,
			     GError **error);

/* A stored series. */
struct store_series {
	gint64 id;
	char *state;
	gboolean expired;
	guint version, version_minor, total, received;
	gboolean rfc;
	char *subject;
	char *author;
	char *cover; /* Message-ID or NULL */
	char *base_commit; /* or NULL */
	gint64 supersedes; /* series id or 0 */
	gint64 partial_of; /* series id or 0 */
	gint64 first_date, last_activity;
	GPtrArray *patches; /* Message-IDs in the order to apply */
};

void store_series_free(struct store_series *s);
typedef struct store_series store_series;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_series, store_series_free)

/* Every series, oldest first (struct store_series *, owned). */
GPtrArray *store_list_series(struct store *st, GError **error);

/* One series, or NULL with @error set. */
struct store_series *store_get_series(struct store *st, gint64 id,
				      GError **error);

/* The Message-IDs of the messages received since @since (Unix time),
 * oldest first (char *, owned). */
GPtrArray *store_message_ids_since(struct store *st, gint64 since,
				   GError **error);

/* Counts for `armbot ingest` and tests. */
gboolean store_count(struct store *st, gint64 *messages, gint64 *rejects,
		     GError **error);
