/* Base discovery: on which commit of a tree was a series written?
 *
 * In this order (the first that answers wins):
 *   1. the series is already in the tree: every patch has the patch-id
 *      (git patch-id --stable) of a commit there, found where the tree
 *      first holds the series' resulting blobs: "applied";
 *   2. its `base-commit:` is a commit of the tree: "base-commit"; with
 *      `prerequisite-patch-id:` lines (b4, git format-patch --base), the
 *      newest commit on top of it, on one of the tree's branches, by which
 *      every prerequisite patch is applied (its patch-id is a commit's);
 *   3. the blob ids of its `index abc1234..def5678` lines: the newest
 *      commit of the tree's branches whose tree has every pre-image blob
 *      at its path (abbreviated ids matched by prefix; a new file must be
 *      absent; a path an earlier patch of the series touched needs
 *      nothing, the series makes it), looked up in the branches' blob
 *      indexes (kernel/base/baseindex.h): "blob-ids";
 *   4. only when no patch carries a blob id at all: the head: "head".
 * Otherwise the base is unknown, and the result says which blobs were
 * not found on which branches. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"
#include "kernel/tree/tree.h"

enum baseguess_how {
	BASEGUESS_UNKNOWN, /* blob ids given, no commit has them all */
	BASEGUESS_APPLIED, /* already in the tree */
	BASEGUESS_COMMIT, /* base-commit: */
	BASEGUESS_BLOBS, /* guessed from blob ids */
	BASEGUESS_HEAD, /* no blob ids: the head */
};

/* "unknown", "applied", "base-commit", "blob-ids", "head".  Static. */
const char *baseguess_how_name(enum baseguess_how how);

/* A series as base discovery sees it. */
struct baseguess_series {
	GPtrArray *patches; /* char *: each patch's diff text, in order */
	char *base_commit; /* hex, or NULL */
	GPtrArray *prerequisites; /* char *: prerequisite-patch-id: values */
};

/* Read the series from mailbox @path as git am would (git mailinfo per
 * mail; mails without a patch give none), with the base-commit: and
 * prerequisite-patch-id: lines found in any of its mails. */
struct baseguess_series *baseguess_series_from_mbox(const char *path,
						    GError **error);
void baseguess_series_free(struct baseguess_series *s);
typedef struct baseguess_series baseguess_series;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(baseguess_series, baseguess_series_free)

/* One blob a commit must hold for the series: @blob (hex prefix) at
 * @path, or @path absent when @blob is "". */
struct baseguess_need {
	char *path;
	char *blob;
};

/* The pre-image needs of @s (struct baseguess_need *), and through
 * @without_ids the number of file diffs that carry no blob id.  NULL with
 * @error when a patch cannot be parsed. */
GPtrArray *baseguess_preimage(const struct baseguess_series *s,
			      guint *without_ids, GError **error);

/* The blobs the series leaves: per path touched, its last post-image
 * (absent when deleted).  NULL when a file diff has no blob id. */
GPtrArray *baseguess_postimage(const struct baseguess_series *s,
			       GError **error);

struct baseindex;

/* Where on the chain of @idx every need of @needs holds.  @found: all
 * hold at some commit; then @seq is the newest such commit and @first the
 * oldest commit of that run (where the last of them arrived).  Otherwise
 * @best is the most needs that hold at one commit and @seq the newest
 * commit where they do.  @missing (char *, "path blob") gets the needs
 * that hold nowhere on the chain; may be NULL. */
struct baseguess_match {
	gboolean found;
	guint32 seq, first;
	guint best;
};
void baseguess_match(const struct baseindex *idx, GPtrArray *needs,
		     struct baseguess_match *out, GPtrArray *missing);

struct baseguess_result {
	enum baseguess_how how;
	struct gitoid commit; /* the base (applied: the tree's head) */
	char *branch; /* the branch it was found on, or NULL */
	/* one sentence for the reply and the web page: how the base was
	 * found, or why it was not */
	char *reason;
	GPtrArray *applied; /* applied: char *, per patch "commit-id" */
	guint needs, matched; /* blob ids: how many, how many found */
	/* base-commit: with prerequisite-patch-id: lines whose patches are
	 * not commits on top of it in the tree: the series is applied to
	 * the base-commit alone, and a failure may be theirs */
	guint prerequisites_missing;
	double seconds;
};

void baseguess_result_clear(struct baseguess_result *r);

/* The base of @s in @tree, indexing its branches first where their
 * indexes are behind (DATA/trees/NAME/baseindex/).  FALSE with @error
 * only when the tree cannot be read; an unknown base is a result. */
gboolean baseguess_run(struct tree *tree, const struct baseguess_series *s,
		       struct baseguess_result *out, GError **error);

/* Bring the blob index of every branch of @tree up to date; @on_branch
 * (may be NULL) hears of each. */
struct baseindex_stats;
typedef void (*baseguess_index_fn)(const char *branch,
				   const struct baseindex_stats *stats,
				   gpointer user_data);
gboolean baseguess_index_tree(struct tree *tree, baseguess_index_fn on_branch,
			      gpointer user_data, GError **error);
