/* git's C-style quoting; see kernel/git/quote.h. */
#include "kernel/git/quote.h"

#include <string.h>

gboolean gitquote_unquote(GString *out, const char *quoted, gboolean one_line,
			  const char **endp)
{
	gsize oldlen = out->len;

	if (*quoted++ != '"')
		return FALSE;
	for (;;) {
		gsize len = strcspn(quoted, one_line ? "\"\\\n" : "\"\\");
		int ch, ac;

		g_string_append_len(out, quoted, (gssize)len);
		quoted += len;
		switch (*quoted++) {
		case '"':
			*endp = quoted;
			return TRUE;
		case '\\':
			break;
		default:
			goto error;
		}
		switch ((ch = *quoted++)) {
		case 'a':
			ch = '\a';
			break;
		case 'b':
			ch = '\b';
			break;
		case 'f':
			ch = '\f';
			break;
		case 'n':
			ch = '\n';
			break;
		case 'r':
			ch = '\r';
			break;
		case 't':
			ch = '\t';
			break;
		case 'v':
			ch = '\v';
			break;
		case '\\':
		case '"':
			break;
		case '0':
		case '1':
		case '2':
		case '3':
			/* octal values with first digit over 4 overflow */
			ac = (ch - '0') << 6;
			if ((ch = *quoted++) < '0' || '7' < ch)
				goto error;
			ac |= (ch - '0') << 3;
			if ((ch = *quoted++) < '0' || '7' < ch)
				goto error;
			ac |= ch - '0';
			ch = ac;
			break;
		default:
			goto error;
		}
		g_string_append_c(out, (char)ch);
	}
error:
	g_string_truncate(out, oldlen);
	return FALSE;
}
