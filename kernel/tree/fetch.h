/* Trees fetched from git repositories (kernel/tree/fetch.c): `tree add`
 * and `tree update`, and the branches a tree holds. */
#pragma once

#include <gio/gio.h>
#include <glib.h>

#include "kernel/git/lg2fetch.h"
#include "kernel/git/odb.h"
#include "kernel/tree/tree.h"

/* One branch of a tree: refs/heads/@branch at @commit. */
struct tree_head {
	char *branch;
	struct gitoid commit;
};

void tree_head_free(struct tree_head *head);

/* The branches of @tree with their commits (struct tree_head *, owned),
 * sorted by name; empty for a repository without branches. */
GPtrArray *tree_heads(struct tree *tree, GError **error);

/* How far a fetch is: struct lg2fetch_stats (kernel/git/lg2fetch.h). */
typedef void (*tree_fetch_progress_fn)(const struct lg2fetch_stats *stats,
				       gpointer user_data);

struct tree_fetch_options {
	/* Called while objects arrive, at most once per @progress_interval
	 * (the first time one interval after they started), and once more
	 * when they are all received and indexed (@stats->done).  NULL: a
	 * progress line on stderr when it is a terminal. */
	tree_fetch_progress_fn progress;
	gpointer user_data;
	gint64 progress_interval; /* microseconds; 0: 250 ms */
	/* Once cancelled, the fetch stops at its next progress report and
	 * fails with G_IO_ERROR_CANCELLED; no branch moves. */
	GCancellable *cancellable;
};

#define TREE_FETCH_OPTIONS_INIT     \
	{                           \
		NULL, NULL, 0, NULL \
	}

/* Add tree @name fetched from @url (a URL, or a local path made absolute)
 * with @branches (NULL or empty: every branch; the remote's default branch
 * becomes the head), and fetch it.  @opts may be NULL (the defaults);
 * @stats (may be NULL) gets what was received, also when the fetch
 * failed.  Returns the tree, or NULL (and no tree is left behind). */
struct tree *tree_add(const char *data_dir, const char *name, const char *url,
		      const char *const *branches,
		      const struct tree_fetch_options *opts,
		      struct lg2fetch_stats *stats, GError **error);

/* Fetch the tree's branches again (forced updates, like a mirror).  All or
 * nothing: when the fetch fails (the remote is gone, the connection
 * breaks, a ref cannot be written) every branch is left at, or put back
 * to, the commit it had.  One fetch of a tree at a time, across
 * processes: while another holds DATA/trees/NAME/fetch.lock this fails
 * with TREE_ERROR_BUSY.  The distro tree re-imports the tarball if the
 * package version changed (@opts and @stats are not used then). */
gboolean tree_update(struct tree *tree, const struct tree_fetch_options *opts,
		     struct lg2fetch_stats *stats, GError **error);
