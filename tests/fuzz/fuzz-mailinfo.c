/* libFuzzer target for mailparse/mailinfo.c: any bytes as a mail, under
 * every option set the first byte selects.  The parser must not crash,
 * leak or grow without bound, and must always produce its three outputs. */
#include <stdint.h>
#include <string.h>

#include "mailparse/mailinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mailinfo_options opts = MAILINFO_OPTIONS_INIT;
	g_autoptr(GBytes) raw = NULL;
	g_autoptr(mailinfo_result) r = NULL;
	g_autoptr(mailinfo_result) parsed = NULL;
	g_autoptr(GError) error = NULL;
	uint8_t flags = 0;

	if (size > 0) {
		flags = data[0];
		data++;
		size--;
	}
	opts.keep_subject = flags & 1;
	opts.keep_non_patch = (flags >> 1) & 1;
	opts.use_scissors = (flags >> 2) & 1 ? 1 : -1;
	opts.use_inbody_headers = !((flags >> 3) & 1);
	opts.add_message_id = (flags >> 4) & 1;
	opts.quoted_cr = (flags >> 5) % 3;
	if ((flags >> 7) & 1)
		opts.charset = NULL;

	raw = g_bytes_new(data, size);
	r = mailinfo_run(raw, &opts);
	if (!r->info || !r->msg || !r->patch)
		__builtin_trap();
	/* the outputs come from the input: never more than a small multiple
	 * of it (re-coding to UTF-8 at most triples a byte, plus headers) */
	if (r->msg->len + r->patch->len > 4 * size + 4096)
		__builtin_trap();
	/* the GError form agrees with the outcome */
	if (mailinfo_parse(&parsed, raw, &opts, &error) == r->failed)
		__builtin_trap();
	if (r->failed ? (parsed || !error) : (!parsed || error))
		__builtin_trap();
	return 0;
}
