/* The queue of file pairs between two trees, as git's diff-tree leaves it in
 * diff_queued_diff before diffcore runs: one pair per changed path, in path
 * order, each side a filespec whose blob is loaded only when needed. */
#pragma once

#include <glib.h>

#include "kernel/diff/diffcount.h"
#include "kernel/git/repo.h"

/* git's struct diff_filespec: one side of a pair.  @valid is FALSE for the
 * missing side of a creation or deletion (its path is the other side's). */
struct treediff_spec {
	char *path;
	struct gitoid oid;
	guint32 mode;
	gboolean valid;
	int rename_used; /* diffcore-rename: how many pairs use this source */
	/* loaded on demand by treediff_spec_load() */
	GBytes *data;
	gsize size;
	gboolean has_size;
	int is_binary; /* -1 until known */
	struct diffcount_spans *spans;
};

/* git's struct diff_filepair. */
struct treediff_pair {
	struct treediff_spec *one, *two;
	int score; /* similarity of a detected rename, 0..60000 */
	gboolean renamed; /* made by rename detection */
};

struct treediff {
	struct gitrepo *repo; /* borrowed */
	GPtrArray *specs; /* owns every treediff_spec */
	GPtrArray *pairs; /* owns every treediff_pair, in queue order */
};

/* Diff the tree @old_tree against @new_tree (either may be NULL for the
 * empty tree) with exact copies of git's queue semantics.  Caller owns the
 * result; @repo must outlive it. */
struct treediff *treediff_new(struct gitrepo *repo,
			      const struct gitoid *old_tree,
			      const struct gitoid *new_tree, GError **error);
void treediff_free(struct treediff *q);
typedef struct treediff treediff;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(treediff, treediff_free)

/* A new filespec owned by @q. */
struct treediff_spec *treediff_spec_add(struct treediff *q, const char *path,
					const struct gitoid *oid, guint32 mode,
					gboolean valid);

/* Load the content of @spec (empty for an invalid side; "Subproject commit
 * <hex>\n" for a gitlink, as git's diff_populate_gitlink()). */
gboolean treediff_spec_load(struct treediff *q, struct treediff_spec *spec,
			    GError **error);

/* The size of @spec's content (loads it). */
gboolean treediff_spec_size(struct treediff *q, struct treediff_spec *spec,
			    gsize *out, GError **error);

/* git's diff_filespec_is_binary() without attributes: NUL in the first
 * 8000 bytes. */
gboolean treediff_spec_is_binary(struct treediff *q, struct treediff_spec *spec,
				 gboolean *out, GError **error);

/* The span histogram of @spec, computed once (git's cnt_data). */
const struct diffcount_spans *treediff_spec_spans(struct treediff *q,
						  struct treediff_spec *spec,
						  GError **error);

/* Release the loaded content of @spec (git's diff_free_filespec_blob()),
 * keeping the span histogram. */
void treediff_spec_unload(struct treediff_spec *spec);

/* Is @p an unchanged pair (git's diff_unmodified_pair())? */
gboolean treediff_pair_unmodified(const struct treediff_pair *p);
