/* Sources: where mail comes from.  A source is named by a URL:
 *
 *   maildir:PATH                      a maildir (new/ watched, cur/ tracked)
 *   imap://[USER[:PASS]@]HOST[:PORT]/FOLDER[?OPTIONS]  and imaps://
 *   nntp://[USER@]HOST[:PORT]/GROUP[?OPTIONS]  and nntps://
 *   http://HOST[:PORT]/INBOX/  and https://   a public-inbox inbox
 *
 * Every source stores what it fetches through the same code as
 * `armbot ingest FILE` (bot/sources/ingest.h: a message is stored once, whatever
 * the source, and series are reassembled after each batch), and records
 * its position (cursor) in the same transaction as the messages, so that
 * nothing is lost across restarts and nothing is processed twice.  Side
 * effects on the server (IMAP \Seen, maildir new/ -> cur/) happen only
 * after that commit.
 *
 * Each kind of source is a struct source_ops (bot/sources/NAME.c).  A
 * watched source runs its network work in a thread of its own with its
 * own connection to the store; the caller's GMainContext only gets the
 * batch callbacks, after the batch is committed. */
#pragma once

#include <gio/gio.h>

#include "bot/sources/ingest.h"
#include "bot/store/store.h"

#define SOURCE_ERROR source_error_quark()
GQuark source_error_quark(void);

enum source_error_code {
	SOURCE_ERROR_URL, /* not a source URL, bad option */
	SOURCE_ERROR_PROTOCOL, /* malformed or unexpected server response */
	SOURCE_ERROR_NETWORK, /* connection refused, lost, timed out */
	SOURCE_ERROR_AUTH, /* login refused */
};

/* Options common to every source; URL query options (?interval=...)
 * override them. */
struct source_options {
	guint interval; /* seconds between polls (HTTP, NNTP, IMAP without
			   IDLE, the maildir safety scan); 0: the source's
			   default (HTTP 300, NNTP 60, IMAP 60, maildir 60) */
	guint batch; /* messages per transaction; 0: 200 */
	gint64 incomplete_timeout; /* seconds, for series assembly; 0: 6 h */
	gboolean set_seen; /* IMAP: set \Seen once stored (or ?seen=1) */
	gboolean quiet; /* no progress on stderr */
};

#define SOURCE_OPTIONS_INIT           \
	{                             \
		0, 0, 0, FALSE, FALSE \
	}

/* What one committed batch brought.  Valid during the callback only. */
struct source_batch {
	const char *url; /* the source's URL, without its password */
	struct ingest_counts counts; /* new, duplicate, unparseable */
	GPtrArray *new_ids; /* Message-IDs first stored by this batch */
};

/* Called on the GMainContext given to source_start() after each batch has
 * been committed (messages, rejects, series assembly, cursor). */
typedef void (*source_batch_fn)(const struct source_batch *batch,
				gpointer user_data);

/* Called on that GMainContext when a watched source fails (it retries
 * itself with backoff; this is for logging). */
typedef void (*source_error_fn)(const char *url, const GError *error,
				gpointer user_data);

struct source;

/* One kind of source.  Every function but the ops' own free runs in the
 * thread that owns the source (the caller's for source_fetch(), the
 * source's worker thread once started). */
struct source_ops {
	const char *name; /* "maildir", "imap", "nntp", "http" */
	/* parse @url into src's private state (source_priv()) */
	gboolean (*open)(struct source *src, const char *url, GError **error);
	/* fetch and commit everything new since the stored cursor, through
	 * source_store_batch(); returns FALSE on a connection/protocol error
	 * (what was committed stays committed) */
	gboolean (*fetch)(struct source *src, struct store *st, GError **error);
	/* block until there may be something new, the poll interval passed
	 * or @cancellable was cancelled (IMAP IDLE, maildir GFileMonitor);
	 * FALSE with @error when the connection failed */
	gboolean (*wait)(struct source *src, GCancellable *cancellable,
			 GError **error);
	/* drop the connection (it is made again by the next fetch) */
	void (*disconnect)(struct source *src);
	void (*free)(gpointer priv);
};

/* Parse @url and make its source.  Returns NULL with @error set (code
 * SOURCE_ERROR_URL) for a URL no source takes. */
struct source *source_new(const char *url, const struct source_options *opts,
			  GError **error);

/* The URL without its password (for logs and the store's cursors). */
const char *source_url(const struct source *src);

/* Fetch what is new once, in the calling thread, into @st; @counts (may be
 * NULL) accumulates over the batches.  This is `armbot ingest URL`. */
gboolean source_fetch(struct source *src, struct store *st,
		      struct ingest_counts *counts, GError **error);

/* Watch @src: a worker thread opens the store at @store_path, fetches
 * what is new, then waits for more, forever, reconnecting with backoff
 * (1 s doubling to 5 min) after errors.  @on_batch (for batches with new
 * or unparseable messages) and @on_error (may be NULL) are called on
 * @context.  Returns FALSE with @error if the thread cannot start. */
gboolean source_start(struct source *src, const char *store_path,
		      GMainContext *context, source_batch_fn on_batch,
		      source_error_fn on_error, gpointer user_data,
		      GError **error);

/* Stop watching and wait for the worker thread (a batch being stored is
 * finished or rolled back, never half-done).  Callbacks already queued on
 * the context are dropped.  Safe on a source never started. */
void source_stop(struct source *src);

void source_free(struct source *src);
typedef struct source source;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(source, source_free)

/* For the ops. */

/* The source's private state, set by open. */
gpointer source_priv(struct source *src);
void source_set_priv(struct source *src, gpointer priv);
const struct source_options *source_options(const struct source *src);

/* Store @raws (GBytes, each one message as received; @positions, same
 * length, say where each came from, for rejects) in one transaction with
 * series assembly, and in that same transaction run @cursor_fn to record
 * the source's new position.  On failure nothing of it is committed. */
typedef gboolean (*source_cursor_fn)(struct store *st, gpointer data,
				     GError **error);
gboolean source_store_batch(struct source *src, struct store *st,
			    GPtrArray *raws, GPtrArray *positions,
			    source_cursor_fn cursor_fn, gpointer cursor_data,
			    GError **error);

/* Has the caller asked to stop?  Long fetches check it between batches. */
gboolean source_cancelled(const struct source *src);

/* Sleep up to @seconds, waking early when cancelled; FALSE if cancelled. */
gboolean source_sleep(GCancellable *cancellable, guint seconds);

/* A URL query option (?name=value) of @url, or NULL; newly allocated. */
char *source_url_option(const char *url, const char *name);

extern const struct source_ops source_maildir_ops;
extern const struct source_ops source_imap_ops;
extern const struct source_ops source_nntp_ops;
extern const struct source_ops source_http_ops;
