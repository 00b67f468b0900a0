/* Kernel trees: named bare git repositories in the data dir.
 *
 * Each tree lives in DATA/trees/NAME/: `repo.git` is a bare repository and
 * `tree.conf` a small key file describing where the tree comes from (the
 * distro tarball, or a git URL/path and its branches).  Later per-tree
 * configuration (paths owned, lists, checks) adds keys to that file.
 *
 * This is the model every other file of kernel/tree/ builds on: the
 * default tree is the distro tree TREE_DISTRO_NAME, imported from
 * Debian's linux-source-6.1 tarball on first use by tree_open_default()
 * (kernel/tree/import.h).  Other trees are added and fetched through the
 * git layer's libgit2 side (kernel/tree/fetch.h, kernel/git/lg2fetch.h).  kernel/tree/checkout.h brings a persistent
 * directory to a revision for builds. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

#define TREE_DISTRO_NAME "distro-6.1"
#define TREE_DISTRO_PACKAGE "linux-source-6.1"
#define TREE_DISTRO_TARBALL "/usr/src/linux-source-6.1.tar.xz"
/* the branch the distro imports advance; tags are debian/VERSION */
#define TREE_DISTRO_BRANCH "distro"

#define TREE_ERROR (tree_error_quark())
GQuark tree_error_quark(void);

enum tree_error_code {
	TREE_ERROR_FAILED,
	TREE_ERROR_NOT_FOUND, /* no such tree, or no such revision */
	TREE_ERROR_EXISTS, /* tree add of a name already used */
	TREE_ERROR_INVALID, /* bad name, bad tarball entry, bad state */
	TREE_ERROR_GIT, /* libgit2 failed; the message is libgit2's */
	TREE_ERROR_BUSY, /* another process is fetching the tree */
};

enum tree_kind {
	TREE_KIND_DISTRO, /* imported from a source tarball */
	TREE_KIND_GIT, /* fetched from a git URL or local path */
};

struct tree {
	char *name;
	char *dir; /* DATA/trees/NAME */
	char *git_dir; /* DATA/trees/NAME/repo.git */
	char *conf_path; /* DATA/trees/NAME/tree.conf */
	enum tree_kind kind;
	char *url; /* git: the remote URL or absolute path; distro: tarball */
	char **branches; /* git: branches fetched (NULL-terminated, may be
			  * empty: all heads); distro: { "distro" } */
	char *head_branch; /* the branch a series applies to by default */
	char *version; /* distro: the package version imported last */
	/* open, owned by the tree: libgit2's handle, opaque outside
	 * kernel/git/ (kernel/git/lg2repo.h) */
	struct git_repository *repo;
};

/* the typedef only names the type for g_autoptr(kernel_tree) */
typedef struct tree kernel_tree;
void tree_free(struct tree *tree);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(kernel_tree, tree_free)

/* Whether @name can name a tree: [A-Za-z0-9._-]+, not starting with '.'. */
gboolean tree_name_valid(const char *name);

/* Open the existing tree @name of @data_dir.  Returns a new tree, or NULL
 * with TREE_ERROR_NOT_FOUND when there is no such tree. */
struct tree *tree_open(const char *data_dir, const char *name, GError **error);

/* The names of the trees of @data_dir, sorted.  Returns a new
 * NULL-terminated array (g_strfreev), empty when there are none. */
char **tree_list(const char *data_dir, GError **error);

/* The full ref name of the tree's default branch ("refs/heads/distro" for
 * the distro tree).  Newly allocated. */
char *tree_head_ref(const struct tree *tree);

/* The commit at the tip of the tree's default branch. */
gboolean tree_head(struct tree *tree, struct gitoid *out, GError **error);

/* Resolve @rev (any git revision syntax: a branch, tag, commit id, "HEAD",
 * "debian/6.1.192-3"...) to a commit id; NULL means tree_head().  Unknown
 * revisions fail with TREE_ERROR_NOT_FOUND. */
gboolean tree_resolve(struct tree *tree, const char *rev, struct gitoid *out,
		      GError **error);

/* Whether the tree's repository has commit @oid (a series' base-commit). */
gboolean tree_has_commit(struct tree *tree, const struct gitoid *oid);

/* Write the tree's key file from its fields (atomically). */
gboolean tree_save(const struct tree *tree, GError **error);

/* Create the directory and bare repository of a new tree @name (it must not
 * exist).  The key file is written by the caller once the tree has content.
 * Returns the new tree, or NULL with TREE_ERROR_EXISTS/INVALID. */
struct tree *tree_create(const char *data_dir, const char *name,
			 enum tree_kind kind, GError **error);

/* Free @tree, removing its directory when it has no key file yet (a
 * tree_create() whose fetch or import failed). */
void tree_discard(struct tree *tree);

/* Set @error from libgit2's last error, prefixed with @what. */
void tree_set_git_error(GError **error, const char *what);

/* Whether stderr is a terminal (progress is shown only then). */
gboolean tree_progress_wanted(void);

/* How often a long job writes a progress line for a log (standard error
 * not a terminal): $ARMBOT_PROGRESS_INTERVAL seconds (1 to 3600), else
 * 30 s; in microseconds.  armbot check's progress (bot/cli/progress.c)
 * and the tree import use it. */
gint64 tree_progress_log_interval(void);
