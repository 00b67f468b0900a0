/* git's diffcore-delta.c: approximate how much of one buffer is copied into
 * another by counting hashed spans.  Only the multiset of (hash, bytes) is
 * observable in git's result, so a sorted array replaces git's open
 * addressing table; the arithmetic is git's exactly. */
#include "kernel/diffcount.h"

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

static int span_compare(const void *a_, const void *b_)
{
	const struct diffcount_span *a = a_, *b = b_;

	return a->hashval < b->hashval ? -1 : a->hashval > b->hashval;
}

struct diffcount_spans *diffcount_spans_new(const guint8 *data, gsize size,
					    gboolean is_text)
{
	g_autoptr(GArray) spans = g_array_sized_new(
		FALSE, FALSE, sizeof(struct diffcount_span), size / 32 + 1);
	struct diffcount_spans *out;
	guint32 accum1 = 0, accum2 = 0;
	guint32 n = 0;
	gsize nr = 0;

	/* hash_chars(): the same rolling accumulators and span boundaries */
	while (size) {
		guint32 c = *data++;
		guint32 old_1 = accum1;
		struct diffcount_span s;

		size--;
		/* ignore CR in CRLF sequence if text */
		if (is_text && c == '\r' && size && *data == '\n')
			continue;
		accum1 = (accum1 << 7) ^ (accum2 >> 25);
		accum2 = (accum2 << 7) ^ (old_1 >> 25);
		accum1 += c;
		if (++n < 64 && c != '\n')
			continue;
		s.hashval = (accum1 + accum2 * 0x61) % DIFFCOUNT_HASHBASE;
		s.cnt = n;
		g_array_append_val(spans, s);
		n = 0;
		accum1 = accum2 = 0;
	}
	/* git drops the last span when it ends neither at LF nor at 64
	 * bytes: bytes after the final newline are never counted as copied
	 * or added */
	if (spans->len)
		qsort(spans->data, spans->len, sizeof(struct diffcount_span),
		      span_compare);

	/* merge equal hashes, as git's add_spanhash() does on insertion */
	out = g_malloc(sizeof(*out) +
		       spans->len * sizeof(struct diffcount_span));
	for (guint i = 0; i < spans->len; i++) {
		struct diffcount_span *s =
			&g_array_index(spans, struct diffcount_span, i);

		if (nr && out->span[nr - 1].hashval == s->hashval)
			out->span[nr - 1].cnt += s->cnt;
		else
			out->span[nr++] = *s;
	}
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
