/* Persistent worktrees for builds (kernel/tree/checkout.c): a directory
 * brought to a revision of a tree, writing only what differs from the
 * revision it holds. */
#pragma once

#include "kernel/git/odb.h"
#include <glib.h>

#include "kernel/tree/tree.h"

struct tree_checkout_stats {
	guint written; /* files and symlinks written */
	guint removed; /* paths removed */
	guint mode_changed; /* files whose mode only was changed */
	gboolean full; /* no previous state: everything was written */
};

/* Bring directory @dir (created if needed) to the tree of @rev: a first
 * checkout writes every path; later ones diff the recorded commit against
 * the new one and write or remove only the paths that differ, so untouched
 * files keep their mtime (kbuild rebuilds only what changed).  The state is
 * the key file DIR/.armbot-checkout.  Files not in either tree (build
 * output) are left alone. */
gboolean tree_checkout(struct tree *tree, const char *rev, const char *dir,
		       struct tree_checkout_stats *out, GError **error);

/* The commit @dir was last brought to by tree_checkout(), or FALSE with
 * TREE_ERROR_NOT_FOUND when it has none. */
gboolean tree_checkout_current(const char *dir, struct gitoid *out,
			       GError **error);
