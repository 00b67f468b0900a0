/* Re-coding text between charsets the way git does (utf8.c:
 * same_encoding(), reencode_string_len()): iconv, with git's spelling
 * fallbacks ("utf8" is UTF-8, "latin-1" is ISO-8859-1), and any invalid or
 * incomplete input is a failure, never a lossy conversion. */
#pragma once

#include <glib.h>

typedef struct charset_converter charset_converter;

/* A cache of iconv descriptors, so that re-coding a mail line by line does
 * not open one per line.  Not thread-safe: one per parser. */
struct charset_converter *charset_converter_new(void);
void charset_converter_free(struct charset_converter *conv);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(charset_converter, charset_converter_free)

/* git's same_encoding(): case-insensitive, "UTF8" == "utf-8"; NULL is
 * UTF-8. */
gboolean charset_same_encoding(const char *a, const char *b);

/* Re-code @len bytes of @in from @from to @to, as git's
 * reencode_string_len().  Returns NULL when the charset is unknown or the
 * input is not valid in it; else a NUL-terminated buffer, its length in
 * *@out_len. */
char *charset_convert(struct charset_converter *conv, const char *in, gsize len,
		      const char *to, const char *from, gsize *out_len);
