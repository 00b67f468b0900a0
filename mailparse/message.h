/* One mail, parsed for what the bot needs to know about it: identity and
 * threading (Message-ID, In-Reply-To, References), sender, date, the
 * decoded subject, list and bot headers, and where the body starts.
 *
 * Headers are read with libetpan's mailimf (RFC 5322); encoded words in
 * the subject and display names are decoded (RFC 2047) to UTF-8 as git
 * mailinfo decodes them (mailparse/rfc2047.h).  Header
 * values that do not follow the grammar are recovered leniently (a
 * Message-ID without angle brackets, a From without an address), since
 * real list traffic has them; only a message without any header at all is
 * refused. */
#pragma once

#include <glib.h>

struct message {
	GBytes *raw; /* the whole message, as read */
	char *message_id; /* without angle brackets; synthesised from the
				    SHA-256 of @raw when absent */
	gboolean message_id_synthesised;
	char *in_reply_to; /* first id of In-Reply-To, or NULL */
	GPtrArray *references; /* ids of References, oldest first */
	char *from_name; /* display name, decoded, or NULL */
	char *from_email; /* address, lowercase, or "" */
	GPtrArray *to; /* addresses of To and Cc */
	gint64 date; /* Date as Unix time, read as git am reads it
			(mailparse/date.h); 0 when missing or bad */
	char *subject; /* decoded, unfolded, or "" */
	GPtrArray *headers; /* struct message_header, every header that
				    libetpan does not type (List-Id, X-...) */
	gsize body_offset; /* where the body starts in @raw */
};

#define MESSAGE_ERROR message_error_quark()
GQuark message_error_quark(void);

struct message_header {
	char *name;
	char *value;
};

/* Parse @raw (a message as mailbox_next() gives it; a leading mbox From_
 * line is skipped).  Returns NULL with @error set when it has no header. */
struct message *message_parse(GBytes *raw, GError **error);

/* The first value of header @name (case-insensitive) among the untyped
 * headers, or NULL.  Owned by @msg. */
const char *message_header(const struct message *msg, const char *name);

/* The body, undecoded, and its length.  Owned by @msg. */
const char *message_body(const struct message *msg, gsize *len);

/* The body as git am reads it (git mailinfo, mailparse/mailinfo.h):
 * transfer encodings undone, text re-coded to UTF-8, MIME parts (a patch
 * sent as an attachment) taken in order.  Returns the whole text, the
 * commit message followed by the patch; *@patch (unless NULL) gets the
 * patch alone, from the line git mailinfo starts it at ("" when none).
 * Both newly allocated, valid UTF-8. */
char *message_body_text(const struct message *msg, char **patch);

/* "Name <email>", or the address alone.  Newly allocated. */
char *message_author(const struct message *msg);

/* Decode RFC 2047 encoded words of @value to UTF-8 (invalid bytes
 * replaced), unfolding it first, by git mailinfo's rules
 * (mailparse/rfc2047.h); a value git would not decode comes back
 * undecoded.  Newly allocated. */
char *message_decode_header(const char *value);

/* The text between the last '<' of @value and the '>' after it (the
 * address of "Name <address>", the id of a List-Id), or all of @value when
 * there is none; stripped and in lowercase.  Newly allocated. */
char *message_angle_text(const char *value);

typedef struct message message;

void message_free(struct message *msg);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(message, message_free)
