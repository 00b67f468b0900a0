/* The sparse check's base results, kept: what compiling one object with
 * sparse at a base commit printed (the compiler's and sparse's output,
 * split by kernel/build/sparse-check.c) depends only on the tree's commit,
 * the build dir's configuration, the object and the tools, so it is
 * computed once per (commit, config, object) and read back by every later
 * series on that base.  The head is never cached.
 *
 * Files: DATA/sparse-base/TREE/XX/KEY, KEY the SHA-256 of the key's parts
 * (a format version, the base commit, the config's name and the SHA-256 of
 * its .config, the size and mtime of the compiler and of sparse, the
 * object).  Written to a temporary file and renamed: a reader sees a
 * whole entry or none; an entry that cannot be read is a miss. */
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
