/* The sources' positions in the store (bot/store/sources.c): a cursor per
 * source URL as key/value pairs (IMAP uidvalidity and last-uid, NNTP
 * article, HTTP etag, last-modified), and the names a source has done
 * (maildir file names, public-inbox Message-IDs).  Written in the same
 * transaction as the messages they account for. */
#pragma once

#include <glib.h>

#include "bot/store/db.h"

/* The part's tables, listed in bot/store/store.c. */
extern const struct store_part store_part_sources;

/* The value of @key for @source in *@out (newly allocated, NULL when
 * unset). */
gboolean store_sources_get(struct store *st, const char *source,
			   const char *key, char **out, GError **error);

/* The same, as an integer (@fallback when unset or not a number). */
gboolean store_sources_get_int(struct store *st, const char *source,
			       const char *key, gint64 fallback, gint64 *out,
			       GError **error);

/* Set (or with @value NULL, remove) @key for @source. */
gboolean store_sources_set(struct store *st, const char *source,
			   const char *key, const char *value, GError **error);
gboolean store_sources_set_int(struct store *st, const char *source,
			       const char *key, gint64 value, GError **error);

/* Has @source done @name? */
gboolean store_sources_done(struct store *st, const char *source,
			    const char *name, gboolean *out, GError **error);

/* Record that @source has done @name. */
gboolean store_sources_mark_done(struct store *st, const char *source,
				 const char *name, GError **error);

/* Forget every name @source has done (an IMAP UIDVALIDITY change). */
gboolean store_sources_forget(struct store *st, const char *source,
			      GError **error);
