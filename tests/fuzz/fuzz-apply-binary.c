/* libFuzzer target for kernel/patch/apply-binary.c: the input is the text after
 * a "GIT binary patch" line.  Parsing never allocates past the stated
 * limit, and a delta hunk is applied to the input itself as preimage, so
 * its copies are checked against a buffer of exactly that length. */
#include <stdint.h>
#include <string.h>

#include "kernel/patch/apply-binary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *buf = g_memdup2(data, size);
	g_autoptr(GBytes) pre = g_bytes_new(data, size);
	g_autoptr(GBytes) post = NULL;
	g_autofree char *why = NULL;
	struct apply_binary_hunk *h;
	gsize used = 0;

	h = apply_binary_parse(buf, size, &used, &why);
	if (!h) {
		if (!why)
			__builtin_trap();
		return 0;
	}
	if (used > size)
		__builtin_trap();
	post = apply_binary_hunk_apply(h, pre);
	apply_binary_hunk_free(h);
	return 0;
}
