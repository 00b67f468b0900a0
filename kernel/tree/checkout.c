/* Persistent worktrees for builds: bring a directory to a revision writing
 * only what differs from the revision it holds, so that kbuild, which
 * compares mtimes, rebuilds only what a series changed.  See
 * kernel/tree/checkout.h. */
#include "kernel/tree/checkout.h"

#include "kernel/tree/rmtree.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/git/lg2repo.h"
#include "kernel/git/object.h"

#define CHECKOUT_STATE ".armbot-checkout"
#define CHECKOUT_GROUP "checkout"

static gboolean set_errno_error(GError **error, const char *what,
				const char *path)
{
	int saved = errno;

	g_set_error(error, TREE_ERROR, TREE_ERROR_FAILED, "cannot %s '%s': %s",
		    what, path, g_strerror(saved));
	return FALSE;
}

/* Remove the directories above @path (relative to @root) that became
 * empty, as git does when it deletes the last file of a directory. */
static void prune_empty_parents(const char *root, const char *path)
{
	g_autofree char *rel = g_path_get_dirname(path);

	while (strcmp(rel, ".") != 0) {
		g_autofree char *full = g_build_filename(root, rel, NULL);
		char *up;

		if (g_rmdir(full) < 0)
			return;
		up = g_path_get_dirname(rel);
		g_free(rel);
		rel = up;
	}
}

/* Create the directories leading to @path; a file or symlink in the way
 * (a path that was a file in the old tree) is removed first. */
static gboolean make_parents(const char *root, const char *path, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(path, "/", -1);
	g_autoptr(GString) cur = g_string_new(root);

	for (guint i = 0; parts[i] && parts[i + 1]; i++) {
		GStatBuf st;

		g_string_append_c(cur, '/');
		g_string_append(cur, parts[i]);
		if (g_lstat(cur->str, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				continue;
			if (g_unlink(cur->str) < 0)
				return set_errno_error(error, "remove",
						       cur->str);
		}
		if (g_mkdir(cur->str, 0755) < 0 && errno != EEXIST)
			return set_errno_error(error, "create", cur->str);
	}
	return TRUE;
}

/* Whether @path is safe to write under the checkout root: no empty, "."
 * or ".." component and no ".git" (git's verify_path() refuses the same),
 * so a hostile tree cannot write outside DIR. */
static gboolean checkout_path_ok(const char *path, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(path, "/", -1);

	for (guint i = 0; parts[i]; i++)
		if (!*parts[i] || !strcmp(parts[i], ".") ||
		    !strcmp(parts[i], "..") ||
		    !g_ascii_strcasecmp(parts[i], ".git")) {
			g_set_error(error, TREE_ERROR, TREE_ERROR_INVALID,
				    "refusing to check out '%s'", path);
			return FALSE;
		}
	return TRUE;
}

/* Write blob @oid at @path under @root with git @mode.  The old entry is
 * unlinked first: a new inode never writes through a symlink or a hard
 * link, and a directory in the way goes too. */
static gboolean write_entry(struct git_repository *repo, const char *root,
			    const char *path, const struct gitoid *oid,
			    guint32 mode, GError **error)
{
	g_autofree char *full = g_build_filename(root, path, NULL);
	g_autoptr(GBytes) blob = NULL;
	const char *data;
	gsize size;
	GStatBuf st;
	int fd;

	if (mode == GITMODE_COMMIT)
		return TRUE; /* a submodule: nothing to write, like git */
	if (!checkout_path_ok(path, error))
		return FALSE;
	blob = lg2repo_blob(repo, oid);
	if (!blob) {
		tree_set_git_error(error, path);
		return FALSE;
	}
	data = g_bytes_get_data(blob, &size);
	if (!data)
		data = ""; /* an empty blob */
	if (!make_parents(root, path, error))
		return FALSE;
	if (g_lstat(full, &st) == 0 && !rmtree(full, error))
		return FALSE;
	if (mode == GITMODE_LINK) {
		g_autofree char *target = g_strndup(data, size);

		if (symlink(target, full) < 0)
			return set_errno_error(error, "create", full);
		return TRUE;
	}
	fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  mode == GITMODE_BLOB_EXECUTABLE ? 0777 : 0666);
	if (fd < 0)
		return set_errno_error(error, "create", full);
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			set_errno_error(error, "write", full);
			close(fd);
			return FALSE;
		}
		data += n;
		size -= n;
	}
	if (close(fd) < 0)
		return set_errno_error(error, "write", full);
	return TRUE;
}

struct full_walk {
	struct git_repository *repo;
	const char *root;
	struct tree_checkout_stats *stats;
	GError **error;
};

static gboolean full_walk_cb(const char *path, const struct gitoid *oid,
			     guint32 mode, gpointer data)
{
	struct full_walk *w = data;

	if (!write_entry(w->repo, w->root, path, oid, mode, w->error))
		return FALSE;
	w->stats->written++;
	return TRUE;
}

gboolean tree_checkout_current(const char *dir, struct gitoid *out,
			       GError **error)
{
	g_autofree char *state = g_build_filename(dir, CHECKOUT_STATE, NULL);
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *commit = NULL;

	if (!g_key_file_load_from_file(kf, state, G_KEY_FILE_NONE, NULL) ||
	    !(commit = g_key_file_get_string(kf, CHECKOUT_GROUP, "commit",
					     NULL))) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND,
			    "'%s' holds no checkout", dir);
		return FALSE;
	}
	if (!gitoid_from_hex(out, commit)) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_INVALID,
			    "'%s': bad commit '%s'", state, commit);
		return FALSE;
	}
	return TRUE;
}

/* Record that @dir holds @commit of @tree. */
static gboolean save_state(const struct tree *tree, const char *dir,
			   const struct gitoid *commit, GError **error)
{
	g_autofree char *state = g_build_filename(dir, CHECKOUT_STATE, NULL);
	g_autoptr(GKeyFile) kf = g_key_file_new();
	char hex[GITOID_HEXSZ + 1];

	gitoid_to_hex(commit, hex);
	g_key_file_set_string(kf, CHECKOUT_GROUP, "tree", tree->name);
	g_key_file_set_string(kf, CHECKOUT_GROUP, "commit", hex);
	return g_key_file_save_to_file(kf, state, error);
}

/* Apply the differences between @old_tree and @new_tree to @dir: every
 * removal first (a file may become a directory), then the writes. */
static gboolean checkout_diff(struct tree *tree, struct git_tree *old_tree,
			      struct git_tree *new_tree, const char *dir,
			      struct tree_checkout_stats *stats, GError **error)
{
	g_autoptr(GPtrArray) diff = NULL;

	/* a type change (file <-> symlink) is one delta to rewrite */
	diff = lg2repo_diff_trees(tree->repo, old_tree, new_tree, TRUE);
	if (!diff) {
		tree_set_git_error(error, "cannot diff the trees");
		return FALSE;
	}
	for (guint i = 0; i < diff->len; i++) {
		const struct lg2repo_change *d = diff->pdata[i];
		g_autofree char *full = NULL;

		if (d->status != 'D')
			continue;
		if (!checkout_path_ok(d->old_path, error))
			return FALSE;
		full = g_build_filename(dir, d->old_path, NULL);
		/* already gone is fine: an interrupted checkout is redone
		 * from the same recorded commit */
		if (!rmtree(full, error))
			return FALSE;
		prune_empty_parents(dir, d->old_path);
		stats->removed++;
	}
	for (guint i = 0; i < diff->len; i++) {
		const struct lg2repo_change *d = diff->pdata[i];

		if (d->status == 'D')
			continue;
		if (d->status == 'M' && gitoid_equal(&d->old_id, &d->new_id) &&
		    d->old_mode != GITMODE_LINK &&
		    d->new_mode != GITMODE_LINK) {
			/* only the execute bit changed: chmod keeps the
			 * content's mtime, as git's checkout does */
			g_autofree char *full =
				g_build_filename(dir, d->new_path, NULL);

			if (checkout_path_ok(d->new_path, NULL) &&
			    g_chmod(full,
				    d->new_mode == GITMODE_BLOB_EXECUTABLE ?
					    0755 :
					    0644) == 0) {
				stats->mode_changed++;
				continue;
			}
		}
		if (!write_entry(tree->repo, dir, d->new_path, &d->new_id,
				 d->new_mode, error))
			return FALSE;
		stats->written++;
	}
	return TRUE;
}

gboolean tree_checkout(struct tree *tree, const char *rev, const char *dir,
		       struct tree_checkout_stats *out, GError **error)
{
	struct tree_checkout_stats stats = { 0 };
	g_autoptr(lg2tree) new_tree = NULL;
	g_autoptr(lg2tree) old_tree = NULL;
	g_autoptr(GError) local = NULL;
	struct gitoid id, old_id;

	if (!tree_resolve(tree, rev, &id, error))
		return FALSE;
	new_tree = lg2repo_commit_root(tree->repo, &id);
	if (!new_tree) {
		tree_set_git_error(error, rev ? rev : "HEAD");
		return FALSE;
	}
	if (g_mkdir_with_parents(dir, 0755) < 0)
		return set_errno_error(error, "create", dir);
	/* a recorded commit this tree does not have (another tree's, or
	 * garbage) means a full checkout, as with no state at all */
	if (tree_checkout_current(dir, &old_id, &local) &&
	    (old_tree = lg2repo_commit_root(tree->repo, &old_id))) {
		if (!checkout_diff(tree, old_tree, new_tree, dir, &stats,
				   error))
			return FALSE;
	} else {
		struct full_walk walk = { tree->repo, dir, &stats, error };

		stats.full = TRUE;
		if (!lg2repo_tree_walk(new_tree, full_walk_cb, &walk)) {
			if (error && !*error)
				tree_set_git_error(error, dir);
			return FALSE;
		}
	}
	if (!save_state(tree, dir, &id, error))
		return FALSE;
	if (out)
		*out = stats;
	return TRUE;
}
