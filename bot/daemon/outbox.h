/* The outbox sender: a thread that sends the replies the workers queued
 * (bot/store/pipeline.h), by SMTP when the configuration names a server,
 * else into the outbox maildir (the embedded default).
 *
 *   pending --(commit "sending")--> SMTP transaction --(commit)--> sent
 *
 * A temporary failure (server unreachable, 4xx) puts the reply back to
 * pending with a backoff (30 s doubling up to an hour); a permanent one
 * (5xx, a broken configuration) marks it failed with the reason.  A reply
 * found "sending" when the sender starts was being sent when the bot died:
 * it counts as sent when the list has echoed it back (its Message-ID is
 * in the store; for the maildir, in the maildir), and is sent again only
 * after ECHO_GRACE seconds without an echo.  A list gets at most the
 * configured number of replies per hour; the rest wait. */
#pragma once

#include <glib.h>

#include "bot/store/store.h"
#include "bot/daemon/worker.h"
#include "config/config.h"

#define OUTBOX_ECHO_GRACE 600

struct outbox_options {
	const char *data_dir;
	const char *store_path;
	const struct armbot_config *config; /* borrowed */
	struct daemon_bell *bell; /* rung when a reply is queued */
	guint echo_grace; /* 0: OUTBOX_ECHO_GRACE */
};

struct outbox_sender;

struct outbox_sender *outbox_start(const struct outbox_options *opts,
				   GError **error);
void outbox_stop(struct outbox_sender *o);

/* Send what is due now, in the calling thread: what the thread does in a
 * loop.  *@sent counts the replies sent. */
gboolean outbox_run_once(const struct outbox_options *opts, struct store *st,
			 guint *sent, GError **error);
