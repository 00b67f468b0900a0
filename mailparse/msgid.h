/* The threading headers of a mail (RFC 5322 3.6.4: Message-ID,
 * In-Reply-To, References), their values parsed with libetpan's mailimf
 * msg-id parser.  git
 * mailinfo ignores these headers, so here the RFC is the rule: comments,
 * folding and angle brackets are handled by libetpan and the ids come out
 * bare ("id@host", without "<>"). */
#pragma once

#include <glib.h>

struct msgid_headers {
	char *message_id; /* or NULL */
	char *in_reply_to; /* the first id of In-Reply-To, or NULL */
	GPtrArray *references; /* of char *, oldest first; never NULL */
};

/* Parse the header block of @raw, a mail as git mailsplit writes it (an
 * mbox "From " line first is skipped).  Headers libetpan cannot parse are
 * left out; never fails.  Fills @out, which the caller clears with
 * msgid_headers_clear(). */
void msgid_headers_parse(GBytes *raw, struct msgid_headers *out);

void msgid_headers_clear(struct msgid_headers *h);
