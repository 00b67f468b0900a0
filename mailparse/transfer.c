/* Transfer encodings undone as git mailinfo does; see mailparse/transfer.h. */
#include "mailparse/transfer.h"

#include <string.h>

GString *transfer_decode_qp(const char *in, gboolean rfc2047)
{
	GString *out = g_string_sized_new(strlen(in));
	int c;

	while ((c = (unsigned char)*in++) != 0) {
		if (c == '=') {
			int hi, lo;

			if (*in == '\n' || !*in)
				break; /* a soft line break */
			hi = g_ascii_xdigit_value(in[0]);
			lo = hi < 0 ? -1 : g_ascii_xdigit_value(in[1]);
			if (lo >= 0) {
				g_string_append_c(out, (char)(hi << 4 | lo));
				in += 2;
				continue;
			}
			/* garbage: kept as it is */
		}
		if (rfc2047 && c == '_')
			c = ' ';
		g_string_append_c(out, (char)c);
	}
	return out;
}

GString *transfer_decode_base64(const char *in)
{
	g_autoptr(GString) letters = g_string_sized_new(strlen(in) + 3);
	GString *out;
	gsize tail;
	gint state = 0;
	guint save = 0;

	/* git skips what is not a base64 letter, "=" included, and goes on
	 * counting letters after it; GLib would take "=" for padding */
	for (; *in; in++)
		if (g_ascii_isalnum(*in) || *in == '+' || *in == '/')
			g_string_append_c(letters, *in);
	/* GLib decodes whole groups of four only: pad the last one, then
	 * keep the bytes its letters make (two letters one byte, three
	 * two, as git) */
	tail = letters->len % 4;
	if (tail)
		g_string_append_len(letters, "AAA", 4 - tail);
	out = g_string_sized_new(letters->len / 4 * 3);
	if (letters->len)
		out->len = g_base64_decode_step(letters->str, letters->len,
						(guchar *)out->str, &state,
						&save);
	if (tail)
		out->len -= 4 - tail;
	out->str[out->len] = '\0';
	return out;
}
