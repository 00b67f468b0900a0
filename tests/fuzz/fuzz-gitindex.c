/* libFuzzer target for kernel/git/index.c: any bytes as an index file.
 * When gitindex_parse() accepts them, every path is a non-empty string
 * that came from the input (so no longer than it) and gitindex_find()
 * finds no entry of another path; in an index sorted as git writes it,
 * it finds each stage-0 entry by its path.  An unsorted index is not an
 * error: git reads it too (read-cache.c checks the order only for fsck,
 * verify_ce_order) and its binary search misses entries alike. */
#include <stdint.h>
#include <string.h>

#include "kernel/git/index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STAGE(e) (((e)->flags >> 12) & 3)

/* read-cache.c check_ce_order() */
static gboolean index_sorted(const struct gitindex *index)
{
	for (guint i = 1; i < index->entries->len; i++) {
		const struct gitindex_entry *a = index->entries->pdata[i - 1];
		const struct gitindex_entry *b = index->entries->pdata[i];
		int cmp = strcmp(a->path, b->path);

		if (cmp > 0 || (!cmp && (!STAGE(a) || STAGE(a) > STAGE(b))))
			return FALSE;
	}
	return TRUE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly @size bytes: ASan sees any read past it */
	g_autofree guint8 *copy = g_memdup2(data, size);
	g_autoptr(GError) error = NULL;
	g_autoptr(gitindex) index = gitindex_parse(copy, size, &error);
	gboolean sorted;

	if (!index) {
		if (!error)
			__builtin_trap();
		return 0;
	}
	if (error || !index->entries)
		__builtin_trap();
	sorted = index_sorted(index);
	for (guint i = 0; i < index->entries->len; i++) {
		const struct gitindex_entry *e = index->entries->pdata[i];
		const struct gitindex_entry *found;
		gsize len;

		if (!e || !e->path)
			__builtin_trap();
		/* a v4 path shares a prefix with the one before it, but
		 * none is longer than the input */
		len = strnlen(e->path, size + 1);
		if (!len || len > size)
			__builtin_trap();
		found = gitindex_find(index, e->path);
		if (found && strcmp(found->path, e->path) != 0)
			__builtin_trap();
		if (found && STAGE(found))
			__builtin_trap();
		if (sorted && !STAGE(e) && found != e)
			__builtin_trap();
	}
	return 0;
}
