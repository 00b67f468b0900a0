/* Trees fetched from git repositories: `tree add` and `tree update`.
 *
 * The tree's bare repository mirrors the branches it follows: remote
 * "origin" with one forced refspec per branch, +refs/heads/B:refs/heads/B
 * (all heads when no branch is named), so that a series' base-commit and
 * the branch heads are local objects.  See kernel/tree.h. */
#include "kernel/tree.h"

#include <stdio.h>
#include <string.h>

static int fetch_progress(const git_indexer_progress *stats, void *payload)
{
	gint64 *last = payload;
	gboolean done = stats->received_objects == stats->total_objects &&
			stats->indexed_deltas == stats->total_deltas;

	if (!done && g_get_monotonic_time() - *last < 250000)
		return 0;
	*last = g_get_monotonic_time();
	fprintf(stderr, "\rreceiving objects: %u/%u, %u KiB%s",
		stats->received_objects, stats->total_objects,
		(guint)(stats->received_bytes >> 10), done ? ", done.\n" : "");
	return 0;
}

/* The refspecs of @tree's branches. */
static GPtrArray *fetch_refspecs(const struct tree *tree)
{
	GPtrArray *specs = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; tree->branches[i]; i++)
		g_ptr_array_add(specs,
				g_strdup_printf("+refs/heads/%s:refs/heads/%s",
						tree->branches[i],
						tree->branches[i]));
	if (!specs->len)
		g_ptr_array_add(specs, g_strdup("+refs/heads/*:refs/heads/*"));
	return specs;
}

/* Fetch @tree's refspecs from its URL into its repository. */
static gboolean fetch_tree(struct tree *tree, GError **error)
{
	g_autoptr(git_remote) remote = NULL;
	g_autoptr(GPtrArray) specs = fetch_refspecs(tree);
	git_fetch_options opts;
	git_remote_create_options create;
	git_strarray refspecs = { (char **)specs->pdata, specs->len };
	gint64 last = 0;
	g_autofree char *what = g_strdup_printf("cannot fetch '%s'", tree->url);

	git_fetch_options_init(&opts, GIT_FETCH_OPTIONS_VERSION);
	/* an anonymous remote; url.*.insteadOf is skipped: the tree's URL is
	 * used as written (and libgit2 1.5 leaks the regex match data of that
	 * config lookup) */
	git_remote_create_options_init(&create,
				       GIT_REMOTE_CREATE_OPTIONS_VERSION);
	create.repository = tree->repo;
	create.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF;
	if (git_remote_create_with_opts(&remote, tree->url, &create) < 0) {
		tree_set_git_error(error, what);
		return FALSE;
	}
	if (tree_progress_wanted()) {
		opts.callbacks.transfer_progress = fetch_progress;
		opts.callbacks.payload = &last;
	}
	opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_AUTO;
	/* the refspecs force-update like a mirror: a rebased branch is
	 * followed, not refused */
	if (git_remote_fetch(remote, &refspecs, &opts, "armbot: fetch") < 0) {
		tree_set_git_error(error, what);
		return FALSE;
	}
	/* the remote's default branch, when no branch was named */
	if (!tree->head_branch) {
		git_buf buf = GIT_BUF_INIT;

		if (git_remote_default_branch(&buf, remote) == 0 &&
		    g_str_has_prefix(buf.ptr, "refs/heads/"))
			tree->head_branch =
				g_strdup(buf.ptr + strlen("refs/heads/"));
		git_buf_dispose(&buf);
	}
	return TRUE;
}

static struct tree *add_fetch(struct tree *tree, const char *url,
			      const char *const *branches, GError **error);

/* git's rule (connect.c, url_is_local_not_ssh): "scheme://" is a URL and
 * "host:path" with the colon before any slash is scp-style ssh; anything
 * else is a local path. */
static gboolean url_is_remote(const char *url)
{
	const char *colon = strchr(url, ':');
	const char *slash = strchr(url, '/');

	return strstr(url, "://") || (colon && (!slash || colon < slash));
}

struct tree *tree_add(const char *data_dir, const char *name, const char *url,
		      const char *const *branches, GError **error)
{
	struct tree *tree = tree_create(data_dir, name, TREE_KIND_GIT, error);
	struct tree *added;

	if (!tree)
		return NULL;
	added = add_fetch(tree, url, branches, error);
	if (!added)
		tree_discard(tree);
	return added;
}

/* Fetch a new @tree from @url and save it; returns @tree, or NULL. */
static struct tree *add_fetch(struct tree *tree, const char *url,
			      const char *const *branches, GError **error)
{
	const char *name = tree->name;
	g_autofree char *head_ref = NULL;
	git_oid head;

	/* a local path is kept absolute so the tree does not depend on the
	 * directory `tree add` ran in */
	if (url_is_remote(url))
		tree->url = g_strdup(url);
	else
		tree->url = g_canonicalize_filename(url, NULL);
	g_strfreev(tree->branches);
	tree->branches = g_strdupv((char **)(branches ? branches : NULL));
	if (!tree->branches)
		tree->branches = g_new0(char *, 1);
	if (tree->branches[0])
		tree->head_branch = g_strdup(tree->branches[0]);
	if (!fetch_tree(tree, error)) {
		g_prefix_error(error, "tree '%s': ", name);
		return NULL;
	}
	if (!tree->head_branch) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND,
			    "tree '%s': '%s' has no default branch; name one "
			    "with --branch",
			    name, tree->url);
		return NULL;
	}
	if (!tree_head(tree, &head, error))
		return NULL;
	head_ref = tree_head_ref(tree);
	if (git_repository_set_head(tree->repo, head_ref) < 0) {
		tree_set_git_error(error, head_ref);
		return NULL;
	}
	if (!tree_save(tree, error))
		return NULL;
	return tree;
}

gboolean tree_update(struct tree *tree, GError **error)
{
	git_oid head;

	if (tree->kind == TREE_KIND_DISTRO) {
		g_autoptr(GError) local = NULL;
		g_autofree char *data_dir = NULL;
		g_autofree char *trees_dir = NULL;
		g_autofree char *installed =
			tree_package_version(TREE_DISTRO_PACKAGE, &local);
		struct tree *fresh;

		if (!installed || !g_strcmp0(installed, tree->version))
			return TRUE; /* nothing newer installed */
		trees_dir = g_path_get_dirname(tree->dir);
		data_dir = g_path_get_dirname(trees_dir);
		fresh = tree_import_distro(data_dir, tree->url, installed, NULL,
					   error);
		if (!fresh)
			return FALSE;
		g_free(tree->version);
		tree->version = g_strdup(fresh->version);
		tree_free(fresh);
		return TRUE;
	}
	if (!fetch_tree(tree, error)) {
		g_prefix_error(error, "tree '%s': ", tree->name);
		return FALSE;
	}
	return tree_head(tree, &head, error);
}
