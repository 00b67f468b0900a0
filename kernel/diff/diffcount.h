/* git's content-based change counting (diffcore-delta.c): both rename
 * similarity and `--dirstat=changes` measure how many bytes of a preimage
 * survive into a postimage by hashing spans of the two buffers. */
#pragma once

#include <glib.h>

/* The span histogram of one buffer: what git keeps in a filespec's
 * cnt_data so that a file compared with many others is hashed once. */
struct diffcount_spans;

/* git's buffer_is_binary(): a NUL byte within the first 8000 bytes. */
gboolean diffcount_is_binary(const guint8 *data, gsize size);

/* Hash @data as git's hash_chars(): spans end at LF or after 64 bytes, a
 * CR before LF is skipped when the buffer is text, and an unterminated
 * last span is left out.  Caller owns the
 * result (diffcount_spans_free). */
struct diffcount_spans *diffcount_spans_new(const guint8 *data, gsize size,
					    gboolean is_text);
void diffcount_spans_free(struct diffcount_spans *spans);
typedef struct diffcount_spans diffcount_spans;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(diffcount_spans, diffcount_spans_free)

/* git's diffcore_count_changes(): bytes of @src found again in @dst
 * (@src_copied) and bytes of @dst that are new (@literal_added). */
void diffcount_changes(const struct diffcount_spans *src,
		       const struct diffcount_spans *dst, guint64 *src_copied,
		       guint64 *literal_added);
