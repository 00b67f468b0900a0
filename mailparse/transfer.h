/* Content-Transfer-Encoding (RFC 2045 6.7 quoted-printable, 6.8 base64)
 * undone the way git mailinfo does it, one line at a time, with git's
 * tolerance for broken input; the "Q" and "B" encodings of RFC 2047 encoded
 * words (mailparse/rfc2047.h) use the same two.
 *
 * base64 is GLib's (g_base64_decode_step()), fed only what git's
 * decode_b_segment() reads.  Quoted-printable is git's decode_q_segment():
 * GLib has no decoder and libetpan's (mailmime_quoted_printable_body_parse())
 * differs from git's: it turns "=ZZ" into a byte where git keeps the text,
 * takes "=\r\n" as a soft line break, keeps a lone "=" at the end and
 * writes every "\n" as "\r\n". */
#pragma once

#include <glib.h>

/* Quoted-printable: "=XX" (either case) is that byte, any other "=" is
 * kept as it is, "=" then a newline or the end drops both and ends the
 * line; with @rfc2047 "_" is a space (RFC 2047 4.2 (2)).  Stops at a NUL.
 * Returns a new string, which may hold NUL bytes. */
GString *transfer_decode_qp(const char *in, gboolean rfc2047);

/* Base64: every byte outside the alphabet ("=" padding, blanks, garbage)
 * skipped; a last group of two or three letters still gives its one or two
 * bytes, a lone letter none.  Stops at a NUL.  Returns a new string, which
 * may hold NUL bytes. */
GString *transfer_decode_base64(const char *in);
