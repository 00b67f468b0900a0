/* Composing the bot's own mail: a plain-text UTF-8 message with the
 * headers RFC 5322 asks for, written the same way for every mail the bot
 * sends (the series reply of bot/daemon/report.c, the opt-in replies and the
 * list subscription mails of bot/control/control.c).
 *
 * Headers are folded at 78 columns (RFC 5322 2.1.1, 2.2.3); display names
 * and text that are not plain ASCII become RFC 2047 "Q" encoded words in
 * UTF-8; the date is always UTC with English names.  Addresses and
 * Message-IDs that could inject a header or an SMTP command (white space,
 * control characters, angle brackets) are refused, never written. */
#pragma once

#include <glib.h>

#define MAIL_COMPOSE_ERROR mail_compose_error_quark()
GQuark mail_compose_error_quark(void);

enum mail_compose_error_code {
	MAIL_COMPOSE_ERROR_INVALID, /* a missing or unwritable field */
};

/* RFC 3834 5: how automatic the mail is. */
enum mail_compose_auto {
	MAIL_COMPOSE_AUTO_GENERATED, /* "auto-generated": reports, requests */
	MAIL_COMPOSE_AUTO_REPLIED, /* "auto-replied": answers to a mail */
};

struct mail_compose {
	const char *from_name; /* may be NULL */
	const char *from_address;
	const char *to_name; /* may be NULL */
	const char *to_address;
	const char *const *cc; /* NULL-terminated addresses, or NULL */
	const char *
		subject; /* written as given (see mail_compose_reply_subject) */
	gint64 date; /* Unix time */
	const char *message_id; /* without angle brackets */
	const char *in_reply_to; /* NULL: no In-Reply-To nor References */
	GPtrArray *references; /* of the mail answered (char *), or NULL */
	enum mail_compose_auto auto_submitted;
};

/* Can @s stand in a header or an SMTP command as an address or a
 * Message-ID (no white space, control character or angle bracket)? */
gboolean mail_compose_token_ok(const char *s);

/* The domain of @address, lowercase, or the reserved "armbot.invalid"
 * (RFC 2606) when it has none.  Newly allocated. */
char *mail_compose_domain(const char *address);

/* A Message-ID for a mail of the bot that must be queued once however
 * often it is made: "armbot-KIND-<32 hex digits of SHA-256 of @key>@DOMAIN"
 * with the domain of @bot_address.  @kind is a word ("optin", "subscribe",
 * "confirm").  Newly allocated, without angle brackets. */
char *mail_compose_message_id(const char *kind, const char *key,
			      const char *bot_address);

/* "Re: " before @subject unless it is a reply already (RFC 5322 3.6.5);
 * folded white space becomes spaces.  Newly allocated. */
char *mail_compose_reply_subject(const char *subject);

/* RFC 5322 3.3 date-time of @when in UTC.  Newly allocated. */
char *mail_compose_date(gint64 when);

/* Append the header of @m to @out, each line ending in "\n", without the
 * blank line after it; @eight_bit says whether the body is 8bit.  FALSE
 * with @error (and @out unchanged) for a missing or unwritable field. */
gboolean mail_compose_headers(GString *out, const struct mail_compose *m,
			      gboolean eight_bit, GError **error);

/* The whole mail: the header of @m, a blank line and @body (UTF-8, lines
 * over 998 octets cut, RFC 5322 2.1.1).  NULL with @error as above. */
GBytes *mail_compose(const struct mail_compose *m, const char *body,
		     GError **error);

/* Cut lines of @body longer than 998 octets at a character boundary. */
void mail_compose_limit_lines(GString *body);
