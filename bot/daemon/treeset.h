/* The trees armbot tests on: the tree files of trees.d (config/treefile.h)
 * and the active trees maintainers registered by mail in the store
 * (bot/store/trees.h), one list for tree selection (bot/daemon/tree-pick.h). */
#pragma once

#include <glib.h>

#include "bot/store/store.h"
#include "config/config.h"
#include "config/treefile.h"

struct treeset {
	GPtrArray *trees; /* const struct treefile *, by name; the config's
			   * and @owned's */
	GPtrArray *owned; /* struct treefile *, the store's */
	struct treefile *distro; /* the distro tree when no tree file
				  * configures it */
};

/* The trees of @config and the active ones of @st (may be NULL).  A
 * registered tree whose name a tree file has, or whose text no longer
 * parses, is left out with its error appended to @errors (char *; may be
 * NULL).  Returns NULL with @error only when the store cannot be read. */
struct treeset *treeset_load(const struct armbot_config *config,
			     struct store *st, GPtrArray *errors,
			     GError **error);

/* The tree file of @name (the distro tree's included), or NULL. */
const struct treefile *treeset_find(const struct treeset *ts, const char *name);

void treeset_free(struct treeset *ts);
typedef struct treeset treeset;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(treeset, treeset_free)

/* The store of @data_dir when there is one (it is never created here):
 * TRUE with *@out NULL when there is none. */
gboolean treeset_open_store(const char *data_dir, struct store **out,
			    GError **error);

struct store_series;
struct tree_pick_result;

/* Choose the tree of stored series @s among @ts (bot/daemon/tree-pick.h),
 * reading its cover letter and patches from @st; base-commits are looked
 * up in the trees of @data_dir.  @out->tree points into @ts.  FALSE with
 * @error only when a message cannot be read back. */
gboolean treeset_pick_series(const struct treeset *ts, struct store *st,
			     const struct store_series *s, const char *data_dir,
			     struct tree_pick_result *out, GError **error);
