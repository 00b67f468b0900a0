/* Winnowing (see winnow.h). */
#include "kernel/similar/winnow.h"

#include "kernel/similar/ctoken.h"

static guint32 mix(guint32 h)
{
	/* murmur3's finaliser: k-gram hashes spread over 32 bits */
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

GArray *winnow_prints(const GArray *tokens)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct winnow_print));
	const struct ctoken *t = (const struct ctoken *)tokens->data;
	guint n = tokens->len;
	g_autofree guint32 *grams = NULL;
	guint ngrams, last = G_MAXUINT;

	if (n < WINNOW_K)
		return out;
	ngrams = n - WINNOW_K + 1;
	grams = g_new(guint32, ngrams);
	for (guint i = 0; i < ngrams; i++) {
		guint32 h = 0;

		for (guint j = 0; j < WINNOW_K; j++)
			h = h * 31u + t[i + j].hash;
		grams[i] = mix(h);
	}
	/* a document shorter than one window still has its minimum */
	for (guint w = 0; w + WINNOW_W <= MAX(ngrams, WINNOW_W); w++) {
		guint end = MIN(w + WINNOW_W, ngrams), best = w;

		for (guint i = w; i < end; i++)
			if (grams[i] <= grams[best])
				best = i;
		if (best != last) {
			struct winnow_print p = { grams[best], t[best].line,
						  t[best + WINNOW_K - 1].line };

			g_array_append_val(out, p);
			last = best;
		}
		if (end == ngrams)
			break;
	}
	return out;
}
