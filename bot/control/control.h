/* Mail addressed to the bot itself, as opposed to the list traffic it
 * checks: maintainers' opt-in, opt-out and set requests and their token
 * confirmations (bot/control/optin.h), and the confirmation requests of the lists
 * the bot asked to join or leave (bot/control/subscription.h).
 *
 * A message is the bot's when one of its To/Cc addresses is the [bot]
 * address, it is not from the bot itself, and it is no automatic mail
 * (Auto-Submitted other than "no", RFC 3834 5; Precedence bulk, junk or
 * list) -- except a list's confirmation request, which Mailman 3 marks
 * "Auto-Submitted: auto-generated".  A list confirmation is answered only
 * for a pending request of that list and only when it comes from that
 * list's own request or confirm address; a forged or replayed one is
 * logged and left unanswered (no backscatter).  Every reply is queued in
 * the store's outbox (store_outbox_add) with a Message-ID derived from
 * what it answers, so handling a message twice queues one mail. */
#pragma once

#include <glib.h>

#include "bot/sources/source.h"
#include "bot/store/store.h"
#include "config/config.h"
#include "kernel/tree/maintainers.h"

struct control_options {
	const struct armbot_config *config;
	const char *data_dir; /* the distro tree's MAINTAINERS */
	/* instead of the distro tree's MAINTAINERS (tests), or NULL */
	const struct maintainers *maintainers;
	gint64 now; /* Unix time; 0: the current time */
	gint64 token_lifetime; /* opt-in tokens; 0: the default, or
				* $ARMBOT_OPTIN_TOKEN_LIFETIME seconds */
	const char *source; /* the source URL the mail came through, or
			     * NULL: its position in the store */
};

/* Handle message @message_id of the store: TRUE (and *@queued, may be
 * NULL, the mails queued) whatever the mail was; FALSE with @error when
 * the store fails.  A message handled before is skipped. */
gboolean control_handle_message(struct store *st,
				const struct control_options *opts,
				const char *message_id, guint *queued,
				GError **error);

/* The daemon's hook after each batch: handle every new message of
 * @batch that is the bot's; errors are logged, never fatal.  Returns the
 * number of mails queued (the caller rings the outbox). */
guint control_handle_batch(struct store *st, const struct armbot_config *config,
			   const char *data_dir,
			   const struct source_batch *batch);

/* On start: mail to the bot received since @since that the last run
 * stored but did not get to handle (it stopped between the two) is
 * handled now; mail already handled is recorded as such and left alone.
 * Returns how many mails were queued. */
guint control_handle_recent(struct store *st,
			    const struct armbot_config *config,
			    const char *data_dir, gint64 since);
