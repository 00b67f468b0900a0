/* Writing objects with libgit2 behind the git layer: blobs, and a tree
 * made from another by a list of changes (git_tree_create_updated()).
 * The handles are libgit2's, opaque here (kernel/git/lg2repo.h). */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

struct git_repository;
struct git_tree;

/* The id of @len bytes of @data as a blob, as `git hash-object` computes
 * it, without writing anything. */
void lg2write_blob_id(const void *data, gsize len, struct gitoid *out);

/* Write @len bytes of @data as a blob of @repo, its id in @out.  FALSE
 * (lg2repo_last_error()) when it cannot be written. */
gboolean lg2write_blob(struct git_repository *repo, const void *data, gsize len,
		       struct gitoid *out);

/* One change to a tree: @path (a '/'-separated path) becomes the entry
 * @oid with @mode (GITMODE_*), or, with @remove, goes. */
struct lg2write_update {
	const char *path;
	gboolean remove;
	struct gitoid oid;
	guint32 mode;
};

/* Write the tree that is @base with the @n changes of @updates (leading
 * trees made and dropped as needed), its id in @out.  The error is
 * LG2REPO_ERROR_REFUSED_PATH when libgit2 refuses one of the paths, else
 * LG2REPO_ERROR_FAILED; its message is libgit2's either way. */
gboolean lg2write_tree_update(struct git_repository *repo,
			      struct git_tree *base,
			      const struct lg2write_update *updates, gsize n,
			      struct gitoid *out, GError **error);
