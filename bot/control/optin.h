/* Maintainers opt their trees in and out, and change them, by mail.
 *
 * A request is a mail to the bot with the subject
 *   armbot opt-in NAME        (key: value lines: url, branch, paths,
 *                              checks, reply; url and paths required;
 *                              url https://, http:// or git:// only)
 *   armbot opt-out NAME
 *   armbot set NAME KEY VALUE (or key: value lines in the body)
 * ("Re:" and bracketed prefixes are ignored).  The body's other lines are
 * "key: value", blank, or after a "-- " signature; anything else refuses
 * the request.  paths are MAINTAINERS F: patterns (blank or comma
 * separated), branch may repeat or list several, checks is a list of
 * apply, dirstat, sparse, boot, rpm, boards, reply one of always, problems,
 * never, optionally followed by "to list" or "to author".
 *
 * The sender must be an M: entry, in the MAINTAINERS file of the distro
 * tree, of a section covering every path of the tree (the requested
 * paths for opt-in and a set of paths, the tree's paths otherwise):
 * get_maintainer.pl's notion, kernel/tree/maintainers.h.  An accepted request
 * is kept with a random token (only its SHA-256 is stored) that is mailed
 * to the sender; nothing changes until a mail from the same address
 * quotes the token ("confirm: TOKEN") before it expires.  Then the change
 * is applied to the tree's entry in the store and recorded (who, when,
 * what).  Every refusal says why and changes nothing.
 *
 * Sending is the caller's: each handled message gives "reply with this
 * text to this address" (struct optin_reply).  The caller hands over the
 * mails addressed to the bot itself (its [bot] address in To/Cc), not
 * the list traffic. */
#pragma once

#include <glib.h>

#include "bot/store/store.h"
#include "config/config.h"
#include "kernel/tree/maintainers.h"
#include "mailparse/message.h"

struct optin_context {
	struct store *store;
	const struct armbot_config *config;
	/* the distro tree's MAINTAINERS (maintainers_load_git) */
	const struct maintainers *maintainers;
	gint64 now; /* Unix time; 0: the current time */
	gint64 token_lifetime; /* seconds; 0: 48 hours */
};

enum optin_outcome {
	OPTIN_NOT_FOR_US, /* neither a request nor a confirmation */
	OPTIN_REFUSED, /* with the reason in the reply; nothing changed */
	OPTIN_TOKEN_SENT, /* a request accepted, waiting for its token */
	OPTIN_APPLIED, /* a confirmation: the change is made */
	/* a request over a rate limit: not answered (the reason is for the
	 * log), or anyone could make the bot mail anyone */
	OPTIN_LIMITED,
};

/* At most this many token mails to one address in 24 hours, and to
 * anyone in an hour (counted in the store's optin_requests). */
#define OPTIN_LIMIT_SENDER_DAY 3
#define OPTIN_LIMIT_HOUR 20

/* The mail to send back; every field newly allocated. */
struct optin_reply {
	enum optin_outcome outcome;
	char *to; /* the sender's address */
	char *subject; /* "Re: <the request's subject>" */
	char *in_reply_to; /* the request's Message-ID */
	char *body; /* the text: the reason, the token, or what changed */
	char *reason; /* one line: why refused / what was done */
};

void optin_reply_clear(struct optin_reply *r);

/* Handle @msg: a request, a confirmation, or neither (OPTIN_NOT_FOR_US,
 * nothing to send).  FALSE with @error only when the store fails (the
 * caller retries the message later); refusals are outcomes. */
gboolean optin_handle(const struct optin_context *ctx,
		      const struct message *msg, struct optin_reply *out,
		      GError **error);

const char *optin_outcome_name(enum optin_outcome outcome);
