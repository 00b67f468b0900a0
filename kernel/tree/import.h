/* Source tarballs into trees (kernel/tree/import.c): the distro tree
 * TREE_DISTRO_NAME is Debian's linux-source-6.1 tarball imported as one
 * commit per package version, on first use and whenever the installed
 * package changes. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"
#include "kernel/tree/tree.h"

/* libgit2's repository, opaque here (kernel/git/lg2repo.h) */
struct git_repository;

struct tree_import_result {
	struct gitoid
		commit; /* the new commit, or the existing head if unchanged */
	struct gitoid tree; /* its root tree */
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
gboolean tree_import_tarball(struct git_repository *repo, const char *tarball,
			     const char *version, const char *branch,
			     const char *tag_prefix,
			     struct tree_import_result *out, GError **error);

/* Compute only the root tree id @tarball would import to, without a
 * repository (no objects written): for checks and tests. */
gboolean tree_import_tarball_tree_id(const char *tarball, struct gitoid *out,
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
