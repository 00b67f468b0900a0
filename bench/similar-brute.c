/* bench/similar.sh's peer: the brute-force comparison, without an index,
 * of each query file (the added code) with each sample file: both
 * tokenized and winnowed for every pair, the shared fingerprints counted
 * by sorting.  Prints, per query file, the best sample file and its
 * percentage, then the microseconds all pairs took.
 *
 *   similar-brute QUERY... -- SAMPLE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/similar/ctoken.h"
#include "kernel/similar/winnow.h"

static int cmp32(const void *a, const void *b)
{
	guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

	return x < y ? -1 : x > y;
}

static GArray *hashes_of(const char *path)
{
	g_autofree char *text = NULL;
	gsize len;
	g_autoptr(GArray) t = NULL;
	g_autoptr(GArray) p = NULL;
	GArray *h = g_array_new(FALSE, FALSE, sizeof(guint32));

	if (!g_file_get_contents(path, &text, &len, NULL))
		return h;
	t = ctoken_scan(text, len);
	p = winnow_prints(t);
	for (guint i = 0; i < p->len; i++)
		g_array_append_val(
			h, g_array_index(p, struct winnow_print, i).hash);
	g_array_sort(h, cmp32);
	return h;
}

static guint shared(GArray *a, GArray *b)
{
	guint i = 0, j = 0, n = 0;

	while (i < a->len && j < b->len) {
		guint32 x = g_array_index(a, guint32, i);
		guint32 y = g_array_index(b, guint32, j);

		if (x == y) {
			n++;
			while (i < a->len && g_array_index(a, guint32, i) == x)
				i++;
			while (j < b->len && g_array_index(b, guint32, j) == y)
				j++;
		} else if (x < y) {
			i++;
		} else {
			j++;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	int sep = 1;
	gint64 t0;

	while (sep < argc && strcmp(argv[sep], "--"))
		sep++;
	t0 = g_get_monotonic_time();
	for (int q = 1; q < sep; q++) {
		guint best = 0, total;
		const char *best_path = "-";

		for (int s = sep + 1; s < argc; s++) {
			/* brute force: both sides from scratch, every pair */
			g_autoptr(GArray) a = hashes_of(argv[q]);
			g_autoptr(GArray) b = hashes_of(argv[s]);
			guint n = shared(a, b);

			total = a->len;
			if (n > best) {
				best = n;
				best_path = argv[s];
			}
		}
		{
			g_autoptr(GArray) a = hashes_of(argv[q]);

			total = a->len;
		}
		printf("%s %u%% %s\n", argv[q], total ? best * 100 / total : 0,
		       best_path);
	}
	printf("us %" G_GINT64_FORMAT "\n", g_get_monotonic_time() - t0);
	return 0;
}
