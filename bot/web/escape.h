/* Text from mail (subjects, names, Message-IDs, replies) written into
 * HTML, XML and SVG.  Strangers write it, so every byte goes through
 * here: invalid UTF-8 becomes U+FFFD, the five markup characters become
 * entities, and characters XML 1.0 forbids (C0 controls other than tab,
 * LF and CR; U+FFFE, U+FFFF) become U+FFFD, so that the Atom feed stays
 * well-formed (XML 1.0 section 2.2, Char). */
#pragma once

#include <glib.h>

/* Append @s (any bytes, NULL as nothing) to @out escaped for HTML/XML
 * text and for attribute values in double or single quotes. */
void web_escape_append(GString *out, const char *s);

/* The same over @len bytes of @data (not NUL-terminated). */
void web_escape_append_len(GString *out, const char *data, gsize len);

/* Append @format to @out: its text as written (HTML), its conversions
 * %s a string escaped as web_escape_append() does (NULL as nothing), %d
 * an int, %u a guint and %% a '%'.  So that a page is written as its
 * markup with the text from outside in its places. */
void web_escape_printf(GString *out, const char *format, ...)
	G_GNUC_PRINTF(2, 3);

/* Append @s to @out escaped for a URL query value
 * (application/x-www-form-urlencoded, then HTML-escaped). */
void web_escape_append_query(GString *out, const char *s);
