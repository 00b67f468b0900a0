/* Ingest: one message, or a mailbox, into the store, then series assembly.
 * The one path every way of receiving mail goes through (`armbot ingest`,
 * `armbot deliver`, the sources of bot/sources/source.h), so that a message is
 * stored once, by its Message-ID, whatever brought it, and series are
 * assembled the same way. */
#pragma once

#include <glib.h>

#include "bot/store/store.h"
#include "mailparse/classify.h"
#include "mailparse/mailbox.h"

struct ingest_counts {
	guint added, duplicate, unparseable;
	guint kinds[CLASSIFY_BOT + 1]; /* of the new messages */
};

/* Parse @raw and store it; a message that cannot be parsed is kept as a
 * reject with the reason (and reported on stderr), so that nothing
 * received is lost.  @position says where it came from (stored as the
 * message's source).  When @new_ids is not NULL the Message-ID of a newly
 * stored message is appended to it (char *, the array owns it).  When
 * @message_id is not NULL it gets the Message-ID of a parsed message, new
 * or already stored (NULL for an unparseable one), newly allocated.
 * FALSE with @error only when the store fails. */
gboolean ingest_message(struct store *st, GBytes *raw, const char *position,
			struct ingest_counts *counts, GPtrArray *new_ids,
			char **message_id, GError **error);

/* Every message of the mailbox at @path (mailbox_open()). */
gboolean ingest_mailbox(struct store *st, const char *path,
			const struct mailbox_options *opts,
			struct ingest_counts *counts, GError **error);

/* Assemble every stored message into series and record the result;
 * @timeout: seconds after which an incomplete series stops waiting. */
gboolean ingest_assemble(struct store *st, gint64 timeout, GError **error);

void ingest_counts_add(struct ingest_counts *to,
		       const struct ingest_counts *from);

/* The two summary lines of `armbot ingest` on stdout. */
void ingest_counts_print(const struct ingest_counts *counts);
