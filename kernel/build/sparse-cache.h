/* The sparse check's results, kept: what compiling one object with sparse
 * printed (the compiler's and sparse's output, split by kernel/build/
 * sparse-check.c) depends only on the source it was built from, the build
 * dir's configuration, the object and the tools, so it is computed once
 * and read back by every later run on the same source.
 *
 * - At a base (a commit of the tree, built as KBUILD_TRUSTED): per
 *   (commit, config, object), DATA/sparse-base/TREE.
 * - At a series' commits (its head, and each patch with per_patch, built
 *   as KBUILD_SERIES): per (root tree of the commit, config, object),
 *   DATA/sparse-series/TREE.  The root tree's id names every file of the
 *   source, Makefiles and Kconfig included, so the same patches applied
 *   again on the same base (the same series checked again, a resend, a
 *   v2 that only changed its cover letter or commit messages, the same
 *   series on another list) are not compiled or checked again; a series
 *   that changes any file (a header, a .c file) has another root tree
 *   and is built in full.
 *
 *   The make that produced an entry ran the series' own code (its
 *   Makefiles, and host programs built from its files) and could print
 *   anything; armbot writes the entry itself, outside the sandbox, under
 *   a key it computed from the commit armbot made (never from what the
 *   build said).  So an entry can only be read back by a run of exactly
 *   the same source, whose build would run the same code: one series
 *   cannot put words into another's report.  The sandbox cannot reach the
 *   cache (DATA is not shown to it).
 *
 * Keys: the SHA-256 of the key's parts (a format version, the commit or
 * root tree, the config's name and the SHA-256 of its .config in the
 * tree's build dir, the size and mtime of the compiler and of sparse, the
 * object), files DATA/sparse-{base,series}/TREE/XX/KEY.  Written to a
 * temporary file and renamed: a reader sees a whole entry or none; an
 * entry that cannot be read is a miss.  Only the output of a make that
 * succeeded is kept. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

struct sparse_cache;

/* The cache of config @config_name, built in @build_dir, at @base of
 * tree @tree_name; NULL (no caching) when the build dir has no .config. */
struct sparse_cache *sparse_cache_open(const char *data_dir,
				       const char *tree_name,
				       const struct gitoid *base,
				       const char *config_name,
				       const char *build_dir);
/* The same for a series' commit whose root tree is @root_tree. */
struct sparse_cache *sparse_cache_open_series(const char *data_dir,
					      const char *tree_name,
					      const struct gitoid *root_tree,
					      const char *config_name,
					      const char *build_dir);
void sparse_cache_free(struct sparse_cache *sc);
typedef struct sparse_cache sparse_cache;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(sparse_cache, sparse_cache_free)

/* The compiler's and sparse's output for @object ("arch/arm/kernel/
 * setup.o"), TRUE when cached. */
gboolean sparse_cache_get(struct sparse_cache *sc, const char *object,
			  char **gcc, char **sparse);

/* Keep them (a failure to write is no error: the next run computes
 * them again). */
void sparse_cache_put(struct sparse_cache *sc, const char *object,
		      const char *gcc, const char *sparse);
