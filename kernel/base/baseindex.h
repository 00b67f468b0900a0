/* The blob index of a branch: which blob stands at which path, and from
 * which commit to which, along the branch's first-parent chain.
 *
 * Base discovery (kernel/base/baseguess.h) asks "the newest commit whose tree
 * has these blobs at these paths"; a `git log` walk answers that in
 * seconds over a long history, this index in microseconds.  The chain of
 * a branch is its first-parent history, oldest first: commit number
 * (seq) 0 is the root.  For every path, the index keeps the seqs where
 * the path's blob changes (the first-parent diff of that commit touches
 * it) and the blob it has from there on (the zero id: the path is gone),
 * so the blobs of a path form intervals of seqs.
 *
 * One file per branch, DIR/BRANCH.idx (BRANCH with '/' written as '~'),
 * written whole and renamed into place (readers never see half a file),
 * read by mmap: opening it costs nothing whatever its size.  An update
 * appends the commits the branch gained; a branch that was rewound or
 * rebased (linux-next every day) keeps the part of its chain the new one
 * shares and drops the rest. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

#define BASEINDEX_ERROR (baseindex_error_quark())
GQuark baseindex_error_quark(void);
enum baseindex_error {
	BASEINDEX_ERROR_CORRUPT, /* a file that is not a valid index */
	BASEINDEX_ERROR_GIT, /* the repository could not be read */
};

/* One change point of a path: from commit @seq of the chain on, the path
 * holds @blob (all zero: the path does not exist). */
struct baseindex_change {
	guint32 seq;
	guint8 blob[GITOID_RAWSZ];
};

struct baseindex;

/* Open the index file @path.  NULL with BASEINDEX_ERROR_CORRUPT for a
 * file that is not one (truncated, wrong magic, offsets out of bounds);
 * with G_FILE_ERROR_NOENT when there is none. */
struct baseindex *baseindex_open(const char *path, GError **error);
void baseindex_free(struct baseindex *idx);
typedef struct baseindex baseindex;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(baseindex, baseindex_free)

/* The number of commits of the chain; the tip is the last. */
guint baseindex_n_commits(const struct baseindex *idx);

/* Commit @seq of the chain (seq < baseindex_n_commits()).  Points into
 * the index. */
const struct gitoid *baseindex_commit(const struct baseindex *idx, guint seq);

/* The change points of @path, in increasing seq order, or NULL (and
 * *@n = 0) when the path never existed on the chain.  Points into the
 * index. */
const struct baseindex_change *
baseindex_path_changes(const struct baseindex *idx, const char *path, guint *n);

/* The seq of @commit in the chain, or -1.  Linear in the chain's length
 * (used once per guess for a base-commit, not per path). */
gint64 baseindex_find_commit(const struct baseindex *idx,
			     const struct gitoid *commit);

struct baseindex_stats {
	guint commits; /* in the chain after the update */
	guint added; /* commits indexed by this update */
	guint dropped; /* commits of the old chain no longer on it */
	guint paths, changes;
	double seconds;
	gboolean rebuilt; /* no usable old index: built from the root */
};

/* Bring the index file @path of the branch whose tip is @tip in the
 * repository @git_dir up to date (creating it, or the directory it is in,
 * as needed).  The commits of the chain that the old index already has
 * are kept; the rest are read with armbot's own object reader
 * (kernel/git/repo.h), one first-parent tree diff each.  A corrupt old
 * index is rebuilt, never trusted. */
gboolean baseindex_update(const char *git_dir, const struct gitoid *tip,
			  const char *path, struct baseindex_stats *out,
			  GError **error);

/* The index file of branch @branch ("master", "for-next/soc") in @dir.
 * Newly allocated. */
char *baseindex_path_for(const char *dir, const char *branch);
