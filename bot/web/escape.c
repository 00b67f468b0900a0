#include "bot/web/escape.h"

#include <stdarg.h>
#include <string.h>

/* The five markup characters as entities */
static const char *const entities[] = {
	['&'] = "&amp;",  ['<'] = "&lt;",   ['>'] = "&gt;",
	['"'] = "&quot;", ['\''] = "&#39;",
};

static void append_char(GString *out, gunichar c)
{
	if (c < G_N_ELEMENTS(entities) && entities[c]) {
		g_string_append(out, entities[c]);
		return;
	}
	/* XML 1.0 2.2: Char excludes most C0 controls and U+FFFE/U+FFFF;
	 * DEL and C1 controls are allowed but HTML calls them errors */
	if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
	    (c >= 0x7f && c < 0xa0) || c == 0xfffe || c == 0xffff)
		c = 0xfffd;
	g_string_append_unichar(out, c);
}

void web_escape_append_len(GString *out, const char *data, gsize len)
{
	const char *p = data;
	const char *end = data + len;

	while (p < end) {
		gunichar c = g_utf8_get_char_validated(p, end - p);

		if (c == (gunichar)-1 || c == (gunichar)-2) {
			/* one byte that does not start a valid sequence */
			g_string_append(out, "\xef\xbf\xbd");
			p++;
			continue;
		}
		append_char(out, c);
		p = g_utf8_next_char(p);
	}
}

void web_escape_append(GString *out, const char *s)
{
	if (s)
		web_escape_append_len(out, s, strlen(s));
}

void web_escape_printf(GString *out, const char *format, ...)
{
	va_list ap;
	const char *p;

	va_start(ap, format);
	while ((p = strchr(format, '%'))) {
		g_string_append_len(out, format, p - format);
		switch (p[1]) {
		case 's':
			web_escape_append(out, va_arg(ap, const char *));
			break;
		case 'd':
			g_string_append_printf(out, "%d", va_arg(ap, int));
			break;
		case 'u':
			g_string_append_printf(out, "%u", va_arg(ap, guint));
			break;
		case '%':
			g_string_append_c(out, '%');
			break;
		default:
			g_warn_if_reached();
			va_end(ap);
			return;
		}
		format = p + 2;
	}
	g_string_append(out, format);
	va_end(ap);
}

void web_escape_append_query(GString *out, const char *s)
{
	g_autofree char *q = g_uri_escape_string(s ? s : "", NULL, FALSE);

	web_escape_append(out, q);
}
