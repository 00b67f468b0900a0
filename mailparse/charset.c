/* Charset re-coding with git's rules; see mailparse/charset.h. */
#include "mailparse/charset.h"

#include <errno.h>
#include <iconv.h>
#include <string.h>

#define ICONV_NONE ((iconv_t)-1)

G_DEFINE_QUARK(charset - error - quark, charset_error)

struct charset_converter {
	GHashTable *cache; /* "to\nfrom" -> struct cached_iconv */
};

struct cached_iconv {
	iconv_t cd; /* ICONV_NONE when iconv_open() failed */
};

static void cached_iconv_free(gpointer p)
{
	struct cached_iconv *c = p;

	if (c->cd != ICONV_NONE)
		iconv_close(c->cd);
	g_free(c);
}

struct charset_converter *charset_converter_new(void)
{
	struct charset_converter *conv = g_new0(struct charset_converter, 1);

	conv->cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					    cached_iconv_free);
	return conv;
}

void charset_converter_free(struct charset_converter *conv)
{
	if (!conv)
		return;
	g_hash_table_destroy(conv->cache);
	g_free(conv);
}

/* git's same_utf_encoding(): "utf" on both sides, an optional "-", then the
 * same rest ("UTF-8" == "utf8") */
static gboolean same_utf_encoding(const char *a, const char *b)
{
	if (g_ascii_strncasecmp(a, "utf", 3) ||
	    g_ascii_strncasecmp(b, "utf", 3))
		return FALSE;
	a += 3;
	b += 3;
	if (*a == '-')
		a++;
	if (*b == '-')
		b++;
	return !g_ascii_strcasecmp(a, b);
}

gboolean charset_same_encoding(const char *a, const char *b)
{
	if (!a)
		a = "UTF-8";
	if (!b)
		b = "UTF-8";
	return same_utf_encoding(a, b) || !g_ascii_strcasecmp(a, b);
}

/* git's fallback_encoding(): the official spelling, tried when iconv does
 * not know the one given */
static const char *fallback_encoding(const char *name)
{
	if (same_utf_encoding("utf-8", name))
		return "UTF-8";
	if (!g_ascii_strcasecmp(name, "latin-1"))
		return "ISO-8859-1";
	return name;
}

/* Encodings whose decoder keeps more than a shift state (the byte order
 * found in a BOM): opened afresh each time rather than reset, so that every
 * line is converted exactly as by a new iconv_open(), like git does. */
static gboolean is_stateful(const char *name)
{
	g_autofree char *up = g_ascii_strup(name, -1);

	return strstr(up, "16") || strstr(up, "32") || strstr(up, "UCS") ||
	       strstr(up, "UNICODE");
}

static iconv_t open_iconv(const char *to, const char *from)
{
	iconv_t cd = iconv_open(to, from);

	if (cd == ICONV_NONE)
		cd = iconv_open(fallback_encoding(to), fallback_encoding(from));
	return cd;
}

/* git's reencode_string_iconv(): grow the output on E2BIG, fail on any
 * other error (EILSEQ, EINVAL) */
static char *convert_with(iconv_t cd, const char *in, gsize len, gsize *out_len)
{
	gsize alloc = len + 16;
	char *out = g_malloc(alloc + 1);
	char *inp = (char *)in;
	gsize inleft = len;
	char *outp = out;
	gsize outleft = alloc;

	for (;;) {
		gsize done = iconv(cd, &inp, &inleft, &outp, &outleft);

		if (done != (gsize)-1)
			break;
		if (errno != E2BIG) {
			g_free(out);
			return NULL;
		}
		gsize used = outp - out;

		alloc = alloc * 2 + inleft;
		out = g_realloc(out, alloc + 1);
		outp = out + used;
		outleft = alloc - used;
	}
	*outp = '\0';
	*out_len = outp - out;
	return out;
}

char *charset_convert(struct charset_converter *conv, const char *in, gsize len,
		      const char *to, const char *from, gsize *out_len)
{
	struct cached_iconv *c;
	g_autofree char *key = NULL;
	char *out;

	if (!from || !to)
		return NULL;
	/* git utf8.c: UTF-16LE-BOM is the same as UTF-16 for reading */
	if (same_utf_encoding("UTF-16LE-BOM", from))
		from = "UTF-16";
	if (is_stateful(from) || is_stateful(to)) {
		iconv_t cd = open_iconv(to, from);

		if (cd == ICONV_NONE)
			return NULL;
		out = convert_with(cd, in, len, out_len);
		iconv_close(cd);
		return out;
	}
	key = g_strconcat(to, "\n", from, NULL);
	c = g_hash_table_lookup(conv->cache, key);
	if (!c) {
		c = g_new0(struct cached_iconv, 1);
		c->cd = open_iconv(to, from);
		g_hash_table_insert(conv->cache, g_steal_pointer(&key), c);
	}
	if (c->cd == ICONV_NONE)
		return NULL;
	/* back to the initial shift state, as a fresh iconv_open() */
	iconv(c->cd, NULL, NULL, NULL, NULL);
	return convert_with(c->cd, in, len, out_len);
}

gboolean charset_recode(struct charset_converter *conv, GString *text,
			const char *to, const char *from, GError **error)
{
	g_autofree char *out = NULL;
	gsize out_len;

	if (!to || !from || !*from || charset_same_encoding(to, from))
		return TRUE;
	out = charset_convert(conv, text->str, text->len, to, from, &out_len);
	if (!out) {
		g_set_error(error, CHARSET_ERROR, 0,
			    "cannot convert from %s to %s", from, to);
		return FALSE;
	}
	g_string_truncate(text, 0);
	g_string_append_len(text, out, out_len);
	return TRUE;
}
