/* libFuzzer target for kernel/diff/linediff.c: the input after its first
 * byte, split at the first occurrence of that byte's value, is two
 * texts.  The counts never exceed the lines of each side, the lines
 * both keep are as many on each side, and a text against itself has no
 * change. */
#include <stdint.h>
#include <string.h>

#include "kernel/diff/linediff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* records as xdiff makes them: a last line without '\n' counts */
static guint64 count_lines(const char *p, gsize len)
{
	guint64 n = 0;

	for (gsize i = 0; i < len; i++)
		n += p[i] == '\n';
	return n + (len && p[len - 1] != '\n');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *a = NULL, *b = NULL;
	const guint8 *sep;
	gsize a_len, b_len;
	guint64 added = 0, deleted = 0, la, lb;

	if (size < 1)
		return 0;
	sep = memchr(data + 1, data[0], size - 1);
	a_len = sep ? (gsize)(sep - (data + 1)) : size - 1;
	b_len = sep ? size - 1 - a_len - 1 : 0;
	/* copies of exactly their length: ASan sees any read past them */
	a = g_memdup2(data + 1, a_len);
	b = g_memdup2(sep ? sep + 1 : data, b_len);
	la = count_lines(a, a_len);
	lb = count_lines(b, b_len);

	linediff_count(a, a_len, b, b_len, &added, &deleted);
	if (added > lb || deleted > la || la - deleted != lb - added)
		__builtin_trap();
	linediff_count(b, b_len, a, a_len, &added, &deleted);
	if (added > la || deleted > lb || lb - deleted != la - added)
		__builtin_trap();
	linediff_count(a, a_len, a, a_len, &added, &deleted);
	if (added || deleted)
		__builtin_trap();
	return 0;
}
