/* git's "GIT binary patch" hunks: base85 lines of deflated data, either
 * the whole postimage ("literal") or a git delta against the preimage
 * ("delta").  Used by kernel/patch/apply.c. */
#pragma once

#include <glib.h>

struct apply_binary_hunk;

/* Parse the forward hunk (and skip the optional reverse hunk) starting at
 * @buf, the line after "GIT binary patch".  Returns NULL with *@why set
 * when corrupt; sets *@used to the bytes consumed. */
struct apply_binary_hunk *apply_binary_parse(const char *buf, gsize size,
					     gsize *used, char **why);

/* The postimage: the literal data, or the delta applied to @preimage.
 * NULL when the delta does not fit @preimage. */
GBytes *apply_binary_hunk_apply(const struct apply_binary_hunk *h,
				GBytes *preimage);

void apply_binary_hunk_free(struct apply_binary_hunk *h);
