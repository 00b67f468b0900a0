/* The pipeline's similarity step: near-copies and drivers in the wrong
 * place (kernel/similar/) for a series' mailbox, against the base of the
 * tree it was tested on, with the tree's fingerprint index in
 * $ARMBOT_CACHE_DIR/similar.  What it finds goes into the reply after the
 * dirstat; it never changes the verdict. */
#pragma once

#include <glib.h>

/* similar_format()'s lines for the patches of @mbox_path against
 * @base_hex (NULL: HEAD) of the repository @git_dir; NULL with @error
 * unset when there is nothing to say. */
char *similar_check(const char *git_dir, const char *base_hex,
		    const char *mbox_path, GError **error);
