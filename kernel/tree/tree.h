/* Kernel trees: named bare libgit2 repositories in the data dir.
 *
 * Each tree lives in DATA/trees/NAME/: `repo.git` is a bare repository and
 * `tree.conf` a small key file describing where the tree comes from (the
 * distro tarball, or a git URL/path and its branches).  Later per-tree
 * configuration (paths owned, lists, checks) adds keys to that file.
 *
 * The default tree is the distro tree TREE_DISTRO_NAME, imported from
 * Debian's linux-source-6.1 tarball (kernel/tree/import.c) on first use by
 * tree_open_default().  Other trees are added and fetched with libgit2
 * (kernel/tree/fetch.c).  kernel/tree/checkout.c brings a persistent
 * directory to a revision for builds. */
#pragma once

#include <gio/gio.h>
#include <git2.h>
#include <glib.h>

/* libgit2 handles under g_autoptr: every kernel/ file uses these */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_repository, git_repository_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_odb, git_odb_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_object, git_object_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_commit, git_commit_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_tree, git_tree_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_blob, git_blob_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_reference, git_reference_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_signature, git_signature_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_remote, git_remote_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_diff, git_diff_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_index, git_index_free)

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
	git_repository *repo; /* open, owned by the tree */
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

/* Open the distro tree, importing the installed linux-source-6.1 tarball
 * first when the tree is missing or the installed package version differs
 * from the last import (progress on stderr when it is a terminal).  If the
 * package is not installed but the tree exists, the tree is opened as is.
 * Every command that needs "the tree" by default calls this.  The tarball
 * is $ARMBOT_DISTRO_TARBALL when set (tests), else TREE_DISTRO_TARBALL. */
struct tree *tree_open_default(const char *data_dir, GError **error);

/* Open @name, or the default tree (importing it if needed) when @name is
 * NULL or TREE_DISTRO_NAME. */
struct tree *tree_open_or_default(const char *data_dir, const char *name,
				  GError **error);

/* The names of the trees of @data_dir, sorted.  Returns a new
 * NULL-terminated array (g_strfreev), empty when there are none. */
char **tree_list(const char *data_dir, GError **error);

/* The full ref name of the tree's default branch ("refs/heads/distro" for
 * the distro tree).  Newly allocated. */
char *tree_head_ref(const struct tree *tree);

/* The commit at the tip of the tree's default branch. */
gboolean tree_head(struct tree *tree, git_oid *out, GError **error);

/* Resolve @rev (any git revision syntax: a branch, tag, commit id, "HEAD",
 * "debian/6.1.192-3"...) to a commit id; NULL means tree_head().  Unknown
 * revisions fail with TREE_ERROR_NOT_FOUND. */
gboolean tree_resolve(struct tree *tree, const char *rev, git_oid *out,
		      GError **error);

/* Whether the tree's repository has commit @oid (a series' base-commit). */
gboolean tree_has_commit(struct tree *tree, const git_oid *oid);

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

/* ---- kernel/tree/import.c: source tarballs ---- */

struct tree_import_result {
	git_oid commit; /* the new commit, or the existing head if unchanged */
	git_oid tree; /* its root tree */
	guint files; /* blobs in the tarball (regular files and symlinks) */
	guint objects_written; /* objects new to the repository */
	gboolean unchanged; /* the tree already had this version */
};

/* Import @tarball (any format and compression libarchive reads) into
 * @repo as one commit on refs/heads/@branch whose parent is that branch's
 * previous tip, tagged refs/tags/@tag_prefix@version, with @version in
 * the message.  The first path component is stripped when every entry
 * shares it (linux-source-6.1/...).  Ignore rules are not applied: every
 * regular file and symlink is recorded with git's modes, exactly what `git
 * add -A -f` would stage.  Blobs and trees are written as one new pack.
 * When refs/tags/@tag_prefix@version exists already nothing is imported
 * and @out->unchanged is set. */
gboolean tree_import_tarball(git_repository *repo, const char *tarball,
			     const char *version, const char *branch,
			     const char *tag_prefix,
			     struct tree_import_result *out, GError **error);

/* Compute only the root tree id @tarball would import to, without a
 * repository (no objects written): for checks and tests. */
gboolean tree_import_tarball_tree_id(const char *tarball, git_oid *out,
				     GError **error);

/* The installed version of Debian package @package (from dpkg's status
 * file, or $ARMBOT_DPKG_STATUS), or NULL with TREE_ERROR_NOT_FOUND when
 * the package is not installed. */
char *tree_package_version(const char *package, GError **error);

/* Import the distro tree: create or open DATA/trees/distro-6.1 and import
 * @tarball (NULL: TREE_DISTRO_TARBALL) at @version (NULL: the installed
 * package's).  Returns the tree, or NULL. */
struct tree *tree_import_distro(const char *data_dir, const char *tarball,
				const char *version,
				struct tree_import_result *out, GError **error);

/* ---- kernel/tree/fetch.c: git trees ---- */

/* One branch of a tree: refs/heads/@branch at @commit. */
struct tree_head {
	char *branch;
	git_oid commit;
};

void tree_head_free(struct tree_head *head);

/* The branches of @tree with their commits (struct tree_head *, owned),
 * sorted by name; empty for a repository without branches. */
GPtrArray *tree_heads(struct tree *tree, GError **error);

/* How far a fetch is, from libgit2's git_indexer_progress. */
struct tree_fetch_stats {
	guint total_objects; /* objects the remote sends (0: none needed) */
	guint received_objects;
	guint indexed_objects;
	guint total_deltas; /* of those, deltas to resolve */
	guint indexed_deltas;
	guint64 received_bytes;
	gboolean done; /* every object received and indexed */
};

typedef void (*tree_fetch_progress_fn)(const struct tree_fetch_stats *stats,
				       gpointer user_data);

struct tree_fetch_options {
	/* Called while objects arrive, at most once per @progress_interval
	 * (the first time one interval after they started), and once more
	 * when they are all received and indexed (@stats->done).  NULL: a
	 * progress line on stderr when it is a terminal. */
	tree_fetch_progress_fn progress;
	gpointer user_data;
	gint64 progress_interval; /* microseconds; 0: 250 ms */
	/* Once cancelled, the fetch stops at its next progress report and
	 * fails with G_IO_ERROR_CANCELLED; no branch moves. */
	GCancellable *cancellable;
};

#define TREE_FETCH_OPTIONS_INIT     \
	{                           \
		NULL, NULL, 0, NULL \
	}

/* Add tree @name fetched from @url (a URL, or a local path made absolute)
 * with @branches (NULL or empty: every branch; the remote's default branch
 * becomes the head), and fetch it.  @opts may be NULL (the defaults);
 * @stats (may be NULL) gets what was received, also when the fetch
 * failed.  Returns the tree, or NULL (and no tree is left behind). */
struct tree *tree_add(const char *data_dir, const char *name, const char *url,
		      const char *const *branches,
		      const struct tree_fetch_options *opts,
		      struct tree_fetch_stats *stats, GError **error);

/* Fetch the tree's branches again (forced updates, like a mirror).  All or
 * nothing: when the fetch fails (the remote is gone, the connection
 * breaks, a ref cannot be written) every branch is left at, or put back
 * to, the commit it had.  One fetch of a tree at a time, across
 * processes: while another holds DATA/trees/NAME/fetch.lock this fails
 * with TREE_ERROR_BUSY.  The distro tree re-imports the tarball if the
 * package version changed (@opts and @stats are not used then). */
gboolean tree_update(struct tree *tree, const struct tree_fetch_options *opts,
		     struct tree_fetch_stats *stats, GError **error);

/* ---- kernel/tree/checkout.c: persistent worktrees ---- */

struct tree_checkout_stats {
	guint written; /* files and symlinks written */
	guint removed; /* paths removed */
	guint mode_changed; /* files whose mode only was changed */
	gboolean full; /* no previous state: everything was written */
};

/* Bring directory @dir (created if needed) to the tree of @rev: a first
 * checkout writes every path; later ones diff the recorded commit against
 * the new one and write or remove only the paths that differ, so untouched
 * files keep their mtime (kbuild rebuilds only what changed).  The state is
 * the key file DIR/.armbot-checkout.  Files not in either tree (build
 * output) are left alone. */
gboolean tree_checkout(struct tree *tree, const char *rev, const char *dir,
		       struct tree_checkout_stats *out, GError **error);

/* The commit @dir was last brought to by tree_checkout(), or FALSE with
 * TREE_ERROR_NOT_FOUND when it has none. */
gboolean tree_checkout_current(const char *dir, git_oid *out, GError **error);
