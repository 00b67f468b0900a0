/* RFC 2047 encoded words with git mailinfo's rules; see
 * mailparse/rfc2047.h.  A port of git 2.39's decode_header(): where git
 * uses C-string functions on a value that may hold NUL bytes, we do the
 * same, so that a NUL cuts the same things off. */
#include "mailparse/rfc2047.h"

#include <string.h>

#include "mailparse/transfer.h"

G_DEFINE_QUARK(rfc2047 - error - quark, rfc2047_error)

/* git's isspace() (sane_ctype): only space, \t, \n and \r */
static inline gboolean git_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

GString *rfc2047_decode(const char *value, gsize len, const char *to,
			struct charset_converter *conv, GError **error)
{
	g_autoptr(charset_converter) own = NULL;
	g_autoptr(GString) outbuf = g_string_new(NULL);
	const char *in = value;
	const char *ep, *cp;

	if (!conv)
		conv = own = charset_converter_new();
	while ((gsize)(in - value) <= len && (ep = strstr(in, "=?")) != NULL) {
		g_autoptr(GString) dec = NULL;
		g_autoptr(GError) local = NULL;
		g_autofree char *charset_q = NULL;
		g_autofree char *piece = NULL;
		int encoding;

		if (in != ep) {
			/* keep what comes before the encoded word unless it
			 * is only blanks after another encoded word (RFC
			 * 2047 6.2) */
			const char *scan;

			for (scan = in; scan < ep; scan++)
				if (!git_isspace((unsigned char)*scan))
					break;
			if (scan != ep || in == value)
				g_string_append_len(outbuf, in, ep - in);
		}
		ep += 2;
		if ((gsize)(ep - value) >= len || !(cp = strchr(ep, '?')))
			goto malformed;
		if ((gsize)(cp + 3 - value) > len)
			goto malformed;
		charset_q = g_strndup(ep, cp - ep);
		encoding = (unsigned char)cp[1];
		if (!encoding || cp[2] != '?')
			goto malformed;
		ep = strstr(cp + 3, "?=");
		if (!ep)
			goto malformed;
		piece = g_strndup(cp + 3, ep - cp - 3);
		switch (g_ascii_tolower(encoding)) {
		case 'b':
			dec = transfer_decode_base64(piece);
			break;
		case 'q':
			dec = transfer_decode_qp(piece, TRUE);
			break;
		default:
			goto malformed;
		}
		if (!charset_recode(conv, dec, to, charset_q, &local)) {
			g_set_error_literal(error, RFC2047_ERROR,
					    RFC2047_ERROR_CHARSET,
					    local->message);
			return NULL;
		}
		g_string_append_len(outbuf, dec->str, dec->len);
		in = ep + 2;
	}
	g_string_append(outbuf, in);
	return g_steal_pointer(&outbuf);
malformed:
	g_set_error_literal(error, RFC2047_ERROR, RFC2047_ERROR_MALFORMED,
			    "malformed encoded word");
	return NULL;
}
