#include "kernel/diff/json.h"

void json_append_string(GString *out, const char *s)
{
	if (!s) {
		g_string_append(out, "null");
		return;
	}
	g_string_append_c(out, '"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			g_string_append_printf(out, "\\%c", c);
		else if (c == '\n')
			g_string_append(out, "\\n");
		else if (c == '\t')
			g_string_append(out, "\\t");
		else if (c < 0x20)
			/* RFC 8259 7: control characters must be escaped */
			g_string_append_printf(out, "\\u%04x", c);
		else
			g_string_append_c(out, c);
	}
	g_string_append_c(out, '"');
}
