/* Subscribing the bot to mailing lists by mail, the way GNU Mailman asks
 * a subscriber to: a request to the list's robot address, then a reply to
 * the confirmation mail the list sends back.
 *
 *   Mailman 2.1: the request goes to LIST-request@HOST with the subject
 *   "subscribe" (or "unsubscribe"); the confirmation (templates/en/
 *   verify.txt, unsub.txt; MailList.AddMember) comes From LIST-request@HOST
 *   with "Subject: confirm COOKIE", or with VERP_CONFIRMATIONS From and
 *   Reply-To LIST-confirm+COOKIE@HOST and "Your confirmation is required
 *   to join the LIST mailing list"; it is answered by a reply to that
 *   address keeping the subject.
 *
 *   Mailman 3: the request goes to LIST-join@HOST (LIST-leave@HOST); the
 *   confirmation (templates list:user:action:subscribe, app/subscriptions.py
 *   _handle_confirmation_needed_events) comes From LIST-confirm+TOKEN@HOST,
 *   "Subject: Your confirmation is needed to join the LIST@HOST mailing
 *   list." and Auto-Submitted: auto-generated; it is answered by a mail to
 *   LIST-confirm+TOKEN@HOST (runners/command.py takes the token from the
 *   To address and reads nothing else).
 *
 * Both bodies carry the line "confirm TOKEN".  This file is pure: it
 * composes and recognises; bot/control/control.c decides (pending request, sender,
 * replays) and the store keeps the state (bot/store/lists.h). */
#pragma once

#include <glib.h>

#include "mailparse/message.h"

#define SUBSCRIPTION_ERROR subscription_error_quark()
GQuark subscription_error_quark(void);

enum subscription_via {
	SUBSCRIPTION_MAILMAN2,
	SUBSCRIPTION_MAILMAN3,
};

/* "mailman2" / "mailman3", and back (FALSE for another word). */
const char *subscription_via_name(enum subscription_via via);
gboolean subscription_via_parse(const char *name, enum subscription_via *out);

/* Split list address @address ("LIST@HOST") into its lowercase local
 * part and host; FALSE with @error for anything else (display names,
 * several '@', characters a robot address could not carry). */
gboolean subscription_list_parse(const char *address, char **local, char **host,
				 GError **error);

/* The request mail: where it goes and its subject (the body is empty:
 * Mailman reads commands from the subject and body alike). */
struct subscription_request {
	char *to;
	char *subject;
};

void subscription_request_clear(struct subscription_request *r);

void subscription_request_make(const char *local, const char *host,
			       enum subscription_via via, gboolean join,
			       struct subscription_request *out);

/* What a mail says when it looks like a list's confirmation request. */
enum subscription_asks {
	SUBSCRIPTION_ASKS_UNKNOWN, /* "confirm TOKEN": join or leave */
	SUBSCRIPTION_ASKS_JOIN,
	SUBSCRIPTION_ASKS_LEAVE,
};

struct subscription_confirmation {
	char *list; /* LIST@HOST of the robot address it came from, or NULL
		     * when the sender is no list robot address */
	char *token; /* the token (all the places it appears agree) */
	enum subscription_asks asks;
	char *reply_to; /* where to answer: LIST-confirm+TOKEN@HOST when
			 * it came from there, else LIST-request@HOST */
	char *reply_subject; /* "Re: " + its subject, or "confirm TOKEN"
			      * when answering to -request without one */
	char *problem; /* why it cannot be answered (tokens that differ),
			* or NULL */
};

void subscription_confirmation_clear(struct subscription_confirmation *c);

/* Does @msg look like a list's confirmation request (a "confirm TOKEN"
 * subject or body line, a LIST-confirm+TOKEN sender, or Mailman's
 * "Your confirmation is ..." subject)?  FALSE when it does not (then
 * @out is cleared).  Whether it is genuine is the caller's question: a
 * pending request for out->list, and no out->problem. */
gboolean subscription_confirmation_parse(const struct message *msg,
					 struct subscription_confirmation *out);
