/* Applying the file diffs of one patch to a tree in the object database,
 * with the semantics of `git apply --index` as `git am` runs it: the patch
 * text is parsed the way git's apply.c parses it (git and traditional
 * unified diffs, renames, copies, mode changes, "GIT binary patch" literal
 * and delta hunks, "\ No newline at end of file"), each hunk is searched
 * for outward from the line it names without fuzz (git's find_pos and
 * match_fragment), and only the blobs of touched paths are read.  The result
 * is written with kernel/git/lg2write.h (libgit2's git_tree_create_updated),
 * never to a working tree.
 *
 * A patch that does not apply is an outcome, not an error: it is reported
 * in struct apply_result.  GError is set only when the repository fails. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

/* libgit2's handles, opaque here (kernel/git/lg2repo.h) */
struct git_repository;
struct git_tree;

struct apply_options {
	/* as `git am -3`: when hunks do not apply, merge three ways using the
	 * preimage blob named on the patch's "index" line, if the repository
	 * has it */
	gboolean threeway;
	/* patches larger than this many bytes are refused (0: no limit) */
	gsize max_patch_size;
};

#define APPLY_MAX_PATCH_SIZE_DEFAULT (16 * 1024 * 1024)
#define APPLY_OPTIONS_INIT                          \
	{                                           \
		FALSE, APPLY_MAX_PATCH_SIZE_DEFAULT \
	}

struct apply_result {
	gboolean applied;
	struct gitoid tree; /* the resulting tree when applied */
	char *path; /* when not applied: the file that failed, or NULL
			     when the patch as a whole was refused */
	char *reason; /* when not applied: why, one line */
	guint files; /* how many file diffs the patch holds */
	gboolean merged; /* applied only through the three-way fallback */
};

/* Apply the unified diff @patch (@len bytes, as `git mailinfo` leaves it in
 * its "patch" file) to @base of @repo.  Returns FALSE with @error set only
 * for repository errors; otherwise fills @out (call apply_result_clear). */
gboolean apply_to_tree(struct apply_result *out, struct git_repository *repo,
		       struct git_tree *base, const char *patch, gsize len,
		       const struct apply_options *opts, GError **error);

void apply_result_clear(struct apply_result *r);

/* What one file diff of a patch names, as git apply parses it: for base
 * discovery (kernel/base/baseguess.h) and anyone else who needs a patch's
 * paths and blob ids without applying it. */
struct apply_file {
	char *old_path; /* NULL for a new file */
	char *new_path; /* NULL for a deleted file */
	/* the abbreviated ids of the "index OLD..NEW" line, "" without
	 * one; a new file's old id (and a deleted one's new id) is zeros */
	char old_blob[GITOID_HEXSZ + 1], new_blob[GITOID_HEXSZ + 1];
	gboolean is_new, is_delete, is_rename, is_copy, is_binary;
};

void apply_file_free(struct apply_file *f);

/* The file diffs of @patch (@len bytes), parsed exactly as
 * apply_to_tree() parses them (struct apply_file *, in patch order).
 * NULL with @error (G_IO_ERROR_INVALID_DATA) when git apply would refuse
 * the text, with git's reason. */
GPtrArray *apply_parse_files(const char *patch, gsize len, GError **error);
