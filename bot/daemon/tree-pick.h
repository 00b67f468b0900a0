/* Choosing the tree a series is tested on.
 *
 * In this order, the first step that decides wins:
 *  1. a subject prefix naming a tree: "[PATCH soc-next v2 1/3]" (a topic
 *     word of the cover letter's subject, else of the first patch's,
 *     equal to a tree's name, case ignored);
 *  2. the series' "base-commit:" (git format-patch --base) found in a
 *     tree's repository; when several trees have it, step 3 ranks them,
 *     then the name;
 *  3. the paths the series touches against each tree's [paths] patterns,
 *     the most specific tree winning (below);
 *  4. the list it came from: its List-Id, else a To/Cc address, among a
 *     tree's lists;
 *  5. the distro tree.
 *
 * Specificity (step 3), from the MAINTAINERS depth of kernel/tree/maintainers.h:
 * for each file the series touches (old and new names of a rename), each
 * tree's match is its most specific F:/N: pattern matching the file and
 * not excluded by its X: (the greatest depth, then the longest literal
 * start), or none.  A tree "owns" a file when its match there is the most
 * specific of all trees' (ties: every tree with an equal match owns it).
 * Trees are ranked by, in order: the number of files they own, the sum
 * of their depths over the files they match, the sum of the literal
 * starts of those matches, the number of files they match, their name.  So a series under arch/arm/mach-omap2/
 * goes to the tree with F: arch/arm/mach-omap2/ (depth 3) rather than one
 * with F: arch/arm/ (depth 2), and a series mostly in one tree's paths
 * goes there even if one file is more specific elsewhere. */
#pragma once

#include <glib.h>

#include "config/treefile.h"
#include "mailparse/message.h"

/* What selection looks at in a series. */
struct tree_pick_series {
	GPtrArray *topics; /* char *: subject topic words, cover's first */
	char *prefix; /* the bracket they were in, "[PATCH soc-next]" */
	char *base_commit; /* full or abbreviated hex, or NULL */
	GPtrArray *files; /* char *: paths touched, each once, in order */
	GPtrArray *list_ids; /* char *: List-Id ids, lowercase */
	GPtrArray *recipients; /* char *: To/Cc addresses, lowercase */
};

/* Read @messages (struct message *: the cover letter, if any, then the
 * patches in order).  Returns a new struct. */
struct tree_pick_series *tree_pick_series_new(GPtrArray *messages);
void tree_pick_series_free(struct tree_pick_series *s);
typedef struct tree_pick_series tree_pick_series;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(tree_pick_series, tree_pick_series_free)

/* How the choice was made. */
enum tree_pick_by {
	TREE_PICK_PREFIX,
	TREE_PICK_BASE_COMMIT,
	TREE_PICK_PATHS,
	TREE_PICK_LIST,
	TREE_PICK_DISTRO,
};

struct tree_pick_result {
	const struct treefile *tree; /* one of the trees given, not owned */
	enum tree_pick_by by;
	char *reason; /* "touches arch/arm/mach-omap2/pm.c (F:
		       * arch/arm/mach-omap2/ in trees.d/omap.conf)" */
};

void tree_pick_result_clear(struct tree_pick_result *r);

/* Whether tree @tf has commit @hex (a base-commit); @data is the
 * caller's. */
typedef gboolean (*tree_pick_has_commit_fn)(const struct treefile *tf,
					    const char *hex, gpointer data);

/* tree_pick_has_commit_fn over the trees of data dir @data (a const char
 * *): a tree not yet fetched there has no commit. */
gboolean tree_pick_has_commit_in_data_dir(const struct treefile *tf,
					  const char *hex, gpointer data);

/* Choose among @trees (struct treefile *) for @series; @has_commit (may
 * be NULL: step 2 skipped) answers base-commit lookups.  When @trees has
 * no tree named TREE_DISTRO_NAME, @distro (required) is the distro tree
 * of step 5.  Never fails. */
void tree_pick(const struct tree_pick_series *series, GPtrArray *trees,
	       const struct treefile *distro,
	       tree_pick_has_commit_fn has_commit, gpointer data,
	       struct tree_pick_result *out);

const char *tree_pick_by_name(enum tree_pick_by by);
