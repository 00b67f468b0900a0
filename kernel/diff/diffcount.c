/* git's diffcore-delta.c: approximate how much of one buffer is copied into
 * another by counting hashed spans.  Only the multiset of (hash, bytes) is
 * observable in git's result, so a sorted array replaces git's open
 * addressing table; the arithmetic is git's exactly. */
#include "kernel/diff/diffcount.h"

#include <string.h>

/* diffcore-delta.c: "a prime rather carefully chosen between 2^16..2^17" */
#define DIFFCOUNT_HASHBASE 107927

/* diff.c FIRST_FEW_BYTES, xdiff-interface.c buffer_is_binary() */
#define DIFFCOUNT_FIRST_FEW_BYTES 8000

struct diffcount_span {
	guint32 hashval;
	guint32 cnt;
};

struct diffcount_spans {
	gsize nr;
	struct diffcount_span span[];
};

gboolean diffcount_is_binary(const guint8 *data, gsize size)
{
	if (size > DIFFCOUNT_FIRST_FEW_BYTES)
		size = DIFFCOUNT_FIRST_FEW_BYTES;
	return size && memchr(data, 0, size) != NULL;
}

/* Sort @n spans by hashval (< 2^18) in two stable 9-bit counting passes
 * through @tmp: the order of equal hashes does not matter, as they are
 * merged, and this is several times faster than qsort() with a callback. */
static void spans_sort(struct diffcount_span *span, struct diffcount_span *tmp,
		       gsize n)
{
	struct diffcount_span *from = span, *to = tmp;

	G_STATIC_ASSERT(DIFFCOUNT_HASHBASE <= 1 << 18);
	for (int shift = 0; shift < 18; shift += 9) {
		gsize count[513] = { 0 };

		for (gsize i = 0; i < n; i++)
			count[((from[i].hashval >> shift) & 511) + 1]++;
		for (int k = 1; k <= 512; k++)
			count[k] += count[k - 1];
		for (gsize i = 0; i < n; i++)
			to[count[(from[i].hashval >> shift) & 511]++] = from[i];
		from = to;
		to = from == span ? tmp : span;
	}
	/* two passes: the result is back in @span */
}

struct diffcount_spans *diffcount_spans_new(const guint8 *data, gsize size,
					    gboolean is_text)
{
	gsize cap = size / 32 + 16, len = 0;
	struct diffcount_span *spans = g_new(struct diffcount_span, cap);
	struct diffcount_spans *out;
	guint32 accum1 = 0, accum2 = 0;
	guint32 n = 0;
	gsize nr = 0;

	/* hash_chars(): the same rolling accumulators and span boundaries */
	while (size) {
		guint32 c = *data++;
		guint32 old_1 = accum1;

		size--;
		/* ignore CR in CRLF sequence if text */
		if (is_text && c == '\r' && size && *data == '\n')
			continue;
		accum1 = (accum1 << 7) ^ (accum2 >> 25);
		accum2 = (accum2 << 7) ^ (old_1 >> 25);
		accum1 += c;
		if (++n < 64 && c != '\n')
			continue;
		if (len == cap) {
			cap *= 2;
			spans = g_renew(struct diffcount_span, spans, cap);
		}
		spans[len].hashval =
			(accum1 + accum2 * 0x61) % DIFFCOUNT_HASHBASE;
		spans[len].cnt = n;
		len++;
		n = 0;
		accum1 = accum2 = 0;
	}
	/* git drops the last span when it ends neither at LF nor at 64
	 * bytes: bytes after the final newline are never counted as copied
	 * or added */
	out = g_malloc(sizeof(*out) + len * sizeof(struct diffcount_span));
	spans_sort(spans, out->span, len);

	/* merge equal hashes, as git's add_spanhash() does on insertion */
	for (gsize i = 0; i < len; i++) {
		const struct diffcount_span *s = &spans[i];

		if (nr && out->span[nr - 1].hashval == s->hashval)
			out->span[nr - 1].cnt += s->cnt;
		else
			out->span[nr++] = *s;
	}
	g_free(spans);
	out->nr = nr;
	return out;
}

void diffcount_spans_free(struct diffcount_spans *spans)
{
	g_free(spans);
}

void diffcount_changes(const struct diffcount_spans *src,
		       const struct diffcount_spans *dst, guint64 *src_copied,
		       guint64 *literal_added)
{
	guint64 sc = 0, la = 0;
	gsize s = 0, d = 0;

	/* diffcore_count_changes(): walk both sorted histograms */
	for (; s < src->nr; s++) {
		guint32 src_cnt, dst_cnt = 0;

		while (d < dst->nr &&
		       dst->span[d].hashval < src->span[s].hashval)
			la += dst->span[d++].cnt;
		src_cnt = src->span[s].cnt;
		if (d < dst->nr && dst->span[d].hashval == src->span[s].hashval)
			dst_cnt = dst->span[d++].cnt;
		if (src_cnt < dst_cnt) {
			la += dst_cnt - src_cnt;
			sc += src_cnt;
		} else {
			sc += dst_cnt;
		}
	}
	for (; d < dst->nr; d++)
		la += dst->span[d].cnt;
	*src_copied = sc;
	*literal_added = la;
}
