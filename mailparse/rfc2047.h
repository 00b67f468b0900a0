/* RFC 2047 encoded words ("=?charset?Q?...?=", "=?charset?B?...?=") in a
 * header value, decoded by git mailinfo's rules (decode_header(), git
 * 2.39).  The one decoder of armbot: the subject a commit gets from `git
 * am` (mailparse/mailinfo.h) and the subject the store keeps
 * (mailparse/message.h) are decoded alike.
 *
 * git's rules, not only the RFC's: an encoded word counts anywhere, even
 * inside a word or holding blanks; blanks between two encoded words go;
 * "_" is a space in Q words only; base64 garbage is skipped.  Anything
 * malformed, or a charset iconv does not know, and git keeps the whole
 * header as it was. */
#pragma once

#include <glib.h>

#include "mailparse/charset.h"

#define RFC2047_ERROR (rfc2047_error_quark())
GQuark rfc2047_error_quark(void);

enum rfc2047_error_code {
	/* an "=?" that does not start a whole encoded word (git is
	 * silent about it) */
	RFC2047_ERROR_MALFORMED,
	/* a word in a charset that cannot be re-coded: "cannot convert from
	 * CHARSET to TO", git's words */
	RFC2047_ERROR_CHARSET,
};

/* Decode the encoded words of the @len bytes at @value (NUL-terminated
 * after them) and re-code each to @to (NULL: left in its own charset, git
 * mailinfo -n), through @conv (NULL: a converter of this call's own).
 * Returns a new string, which may hold NUL bytes (from "=00"), or NULL
 * with @error where git gives up on the header. */
GString *rfc2047_decode(const char *value, gsize len, const char *to,
			struct charset_converter *conv, GError **error);
