/* git's binary patches: base85.c, the binary half of apply.c
 * (parse_binary_hunk, apply_binary_fragment) and patch-delta.c. */
#include "kernel/patch/apply-binary.h"

#include <gio/gio.h>
#include <string.h>

enum binary_method { BINARY_DELTA, BINARY_LITERAL };

/* The largest inflated hunk or delta result accepted: the sizes come from
 * an untrusted mail and are allocated before any data is seen. */
#define BINARY_MAX_SIZE ((gsize)64 * 1024 * 1024)
/* zlib's deflate expands at most 1032:1 (zlib FAQ, "maximum compression
 * ratio"), so a hunk of n deflated bytes cannot inflate to more. */
#define ZLIB_MAX_RATIO 1032

struct apply_binary_hunk {
	enum binary_method method;
	GBytes *data; /* inflated */
};

static const char base85_alphabet[] =
	"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	"abcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";

/* git's decode_85: @len output bytes from 5-character groups */
static gboolean decode_85(guint8 *dst, const char *buffer, int len)
{
	while (len) {
		guint32 acc = 0;
		int cnt;

		for (cnt = 0; cnt < 5; cnt++) {
			const char *p = memchr(base85_alphabet, *buffer,
					       sizeof(base85_alphabet) - 1);
			guint32 de;

			if (!*buffer || !p)
				return FALSE;
			de = p - base85_alphabet;
			buffer++;
			if (cnt == 4 && (0xffffffff / 85 < acc ||
					 0xffffffff - de < acc * 85))
				return FALSE;
			acc = acc * 85 + de;
		}
		cnt = len < 4 ? len : 4;
		len -= cnt;
		do {
			acc = (acc << 8) | (acc >> 24);
			*dst++ = acc;
		} while (--cnt);
	}
	return TRUE;
}

static GBytes *inflate_exact(const guint8 *data, gsize size, gsize expect)
{
	g_autoptr(GZlibDecompressor)
		z = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_ZLIB);
	g_autofree guint8 *out = g_malloc(expect + 1);
	gsize read = 0, written = 0;
	GConverterResult r;

	r = g_converter_convert(G_CONVERTER(z), data, size, out, expect + 1,
				G_CONVERTER_INPUT_AT_END, &read, &written,
				NULL);
	if (r != G_CONVERTER_FINISHED || written != expect)
		return NULL;
	return g_bytes_new_take(g_steal_pointer(&out), expect);
}

static gsize linelen(const char *buf, gsize size)
{
	const char *nl = size ? memchr(buf, '\n', size) : NULL;

	return nl ? (gsize)(nl - buf) + 1 : size;
}

/* git's parse_binary_hunk.  Returns NULL without *@why when @buf does not
 * start a hunk. */
static struct apply_binary_hunk *parse_hunk(const char **buf, gsize *size,
					    gsize *used, char **why)
{
	const char *buffer = *buf;
	gsize llen = linelen(buffer, *size), rest = *size;
	enum binary_method method;
	gsize origlen;
	g_autoptr(GByteArray) data = g_byte_array_new();
	struct apply_binary_hunk *h;
	GBytes *inflated;

	*used = llen;
	if (rest >= 6 && !memcmp(buffer, "delta ", 6)) {
		method = BINARY_DELTA;
		origlen = g_ascii_strtoull(buffer + 6, NULL, 10);
	} else if (rest >= 8 && !memcmp(buffer, "literal ", 8)) {
		method = BINARY_LITERAL;
		origlen = g_ascii_strtoull(buffer + 8, NULL, 10);
	} else {
		return NULL;
	}
	if (origlen > BINARY_MAX_SIZE) {
		*why = g_strdup_printf(
			"binary hunk of %" G_GSIZE_FORMAT
			" bytes exceeds the limit of %" G_GSIZE_FORMAT,
			origlen, BINARY_MAX_SIZE);
		return NULL;
	}
	buffer += llen;
	rest -= llen;
	for (;;) {
		int byte_length, max_byte_length;

		llen = linelen(buffer, rest);
		*used += llen;
		if (llen == 1) {
			buffer++;
			rest--;
			break;
		}
		/* "A00000\n" is the shortest line; 5n + 2 bytes */
		if (llen < 7 || (llen - 2) % 5 || buffer[llen - 1] != '\n')
			goto corrupt;
		max_byte_length = (llen - 2) / 5 * 4;
		byte_length = buffer[0];
		if ('A' <= byte_length && byte_length <= 'Z')
			byte_length = byte_length - 'A' + 1;
		else if ('a' <= byte_length && byte_length <= 'z')
			byte_length = byte_length - 'a' + 27;
		else
			goto corrupt;
		if (max_byte_length < byte_length ||
		    byte_length <= max_byte_length - 4)
			goto corrupt;
		g_byte_array_set_size(data, data->len + byte_length);
		if (!decode_85(data->data + data->len - byte_length, buffer + 1,
			       byte_length))
			goto corrupt;
		buffer += llen;
		rest -= llen;
	}
	if (origlen > (gsize)data->len * ZLIB_MAX_RATIO + 64)
		goto corrupt;
	inflated = inflate_exact(data->data, data->len, origlen);
	if (!inflated)
		goto corrupt;
	h = g_new0(struct apply_binary_hunk, 1);
	h->method = method;
	h->data = inflated;
	*buf = buffer;
	*size = rest;
	return h;
corrupt:
	*why = g_strdup("corrupt binary patch");
	return NULL;
}

struct apply_binary_hunk *apply_binary_parse(const char *buf, gsize size,
					     gsize *used, char **why)
{
	struct apply_binary_hunk *forward, *reverse;
	gsize used1 = 0, used2 = 0;

	*why = NULL;
	forward = parse_hunk(&buf, &size, &used1, why);
	if (!forward) {
		if (!*why)
			*why = g_strdup("unrecognized binary patch");
		return NULL;
	}
	reverse = parse_hunk(&buf, &size, &used2, why);
	if (!reverse && *why) {
		apply_binary_hunk_free(forward);
		return NULL;
	}
	*used = used1 + (reverse ? used2 : 0);
	apply_binary_hunk_free(reverse);
	return forward;
}

/* git's get_delta_hdr_size: a little-endian base-128 number */
static gboolean delta_hdr_size(const guint8 **data, const guint8 *top,
			       gsize *out)
{
	const guint8 *p = *data;
	gsize size = 0;
	int shift = 0;
	guint8 cmd;

	do {
		if (p >= top || shift > 56)
			return FALSE;
		cmd = *p++;
		size |= (gsize)(cmd & 0x7f) << shift;
		shift += 7;
	} while (cmd & 0x80);
	*data = p;
	*out = size;
	return TRUE;
}

/* git's patch_delta */
static GBytes *patch_delta(GBytes *src, GBytes *delta)
{
	gsize src_size, delta_size, size, want;
	const guint8 *src_buf = g_bytes_get_data(src, &src_size);
	const guint8 *data = g_bytes_get_data(delta, &delta_size);
	const guint8 *top = data + delta_size;
	g_autofree guint8 *dst = NULL;
	guint8 *out;

	if (!delta_hdr_size(&data, top, &size) || size != src_size)
		return NULL;
	/* a copy makes at most 0x10000 bytes of one byte of delta */
	if (!delta_hdr_size(&data, top, &want) || want > BINARY_MAX_SIZE ||
	    want > (gsize)(top - data) * 0x10000)
		return NULL;
	dst = g_malloc(want + 1);
	out = dst;
	size = want;
	while (data < top) {
		guint8 cmd = *data++;

		if (cmd & 0x80) {
			gsize off = 0, len = 0;

			for (int i = 0; i < 4; i++)
				if (cmd & (1 << i)) {
					if (data >= top)
						return NULL;
					off |= (gsize)*data++ << (8 * i);
				}
			for (int i = 0; i < 3; i++)
				if (cmd & (0x10 << i)) {
					if (data >= top)
						return NULL;
					len |= (gsize)*data++ << (8 * i);
				}
			if (!len)
				len = 0x10000;
			if (off + len < len || off + len > src_size ||
			    len > size)
				return NULL;
			memcpy(out, src_buf + off, len);
			out += len;
			size -= len;
		} else if (cmd) {
			if (cmd > size || data + cmd > top)
				return NULL;
			memcpy(out, data, cmd);
			out += cmd;
			data += cmd;
			size -= cmd;
		} else {
			return NULL;
		}
	}
	if (size)
		return NULL;
	return g_bytes_new_take(g_steal_pointer(&dst), want);
}

GBytes *apply_binary_hunk_apply(const struct apply_binary_hunk *h,
				GBytes *preimage)
{
	if (h->method == BINARY_LITERAL)
		return g_bytes_ref(h->data);
	return patch_delta(preimage, h->data);
}

void apply_binary_hunk_free(struct apply_binary_hunk *h)
{
	if (!h)
		return;
	g_bytes_unref(h->data);
	g_free(h);
}
