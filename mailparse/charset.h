/* Re-coding text between charsets the way git does (utf8.c:
 * same_encoding(), reencode_string_len()): iconv, with git's spelling
 * fallbacks ("utf8" is UTF-8, "latin-1" is ISO-8859-1), and any invalid or
 * incomplete input is a failure, never a lossy conversion. */
#pragma once

#include <glib.h>

#define CHARSET_ERROR (charset_error_quark())
GQuark charset_error_quark(void);

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

/* git mailinfo's convert_to_utf8(): re-code @text in place from @from to
 * @to.  Nothing to do when @to is NULL, @from NULL or "", or both name
 * the same encoding.  FALSE with @error "cannot convert from FROM to TO" (git's
 * words) when iconv cannot; @text is then left alone. */
gboolean charset_recode(struct charset_converter *conv, GString *text,
			const char *to, const char *from, GError **error);
