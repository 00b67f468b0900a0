/* Trees fetched from git repositories: `tree add` and `tree update`.
 *
 * The tree's bare repository mirrors the branches it follows: remote
 * "origin" with one forced refspec per branch, +refs/heads/B:refs/heads/B
 * (all heads when no branch is named), so that a series' base-commit and
 * the branch heads are local objects.  A fetch holds the flock(2) of
 * DATA/trees/NAME/fetch.lock, and one that fails puts back any branch it
 * moved.  See kernel/tree/fetch.h. */
#include "kernel/tree/fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "kernel/git/lg2fetch.h"
#include "kernel/git/lg2repo.h"
#include "kernel/tree/import.h"

void tree_head_free(struct tree_head *head)
{
	if (!head)
		return;
	g_free(head->branch);
	g_free(head);
}

static gint head_cmp(gconstpointer a, gconstpointer b)
{
	const struct tree_head *x = *(struct tree_head *const *)a;
	const struct tree_head *y = *(struct tree_head *const *)b;

	return strcmp(x->branch, y->branch);
}

GPtrArray *tree_heads(struct tree *tree, GError **error)
{
	g_autoptr(GPtrArray) out =
		g_ptr_array_new_with_free_func((GDestroyNotify)tree_head_free);
	/* a symbolic ref among the branches is not a branch of its own */
	g_autoptr(GPtrArray)
		refs = lg2repo_refs_direct(tree->repo, "refs/heads/*");

	if (!refs) {
		tree_set_git_error(error, "cannot list the branches");
		return NULL;
	}
	for (guint i = 0; i < refs->len; i++) {
		const struct lg2repo_ref *r = refs->pdata[i];
		struct tree_head *h = g_new0(struct tree_head, 1);

		h->branch = g_strdup(r->name + strlen("refs/heads/"));
		h->commit = r->oid;
		g_ptr_array_add(out, h);
	}
	g_ptr_array_sort(out, head_cmp);
	return g_steal_pointer(&out);
}

/* A fetch's progress reports (see struct tree_fetch_options). */
struct progress {
	tree_fetch_progress_fn fn;
	gpointer user_data;
	gint64 interval, last;
	GCancellable *cancellable;
	gboolean reported, done_reported;
	struct lg2fetch_stats stats;
};

/* The default report, on a terminal: one line rewritten in place. */
static void print_progress(const struct lg2fetch_stats *s, gpointer data)
{
	fprintf(stderr,
		"\rreceiving objects: %u/%u, %" G_GUINT64_FORMAT
		" KiB; resolving deltas: %u/%u%s",
		s->received_objects, s->total_objects, s->received_bytes >> 10,
		s->indexed_deltas, s->total_deltas, s->done ? ", done.\n" : "");
}

static gboolean cancelled(const struct progress *p)
{
	return p->cancellable && g_cancellable_is_cancelled(p->cancellable);
}

/* libgit2 calls this for every few objects: the reports are rate-limited
 * here.  FALSE aborts the fetch. */
static gboolean on_transfer(const struct lg2fetch_stats *stats,
			    gpointer payload)
{
	struct progress *p = payload;
	gint64 now;

	p->stats = *stats;
	if (cancelled(p))
		return FALSE;
	if (!p->fn)
		return TRUE;
	if (p->stats.done) {
		if (!p->done_reported)
			p->fn(&p->stats, p->user_data);
		p->done_reported = TRUE;
		return TRUE;
	}
	now = g_get_monotonic_time();
	if (now - p->last < p->interval)
		return TRUE;
	p->last = now;
	p->reported = TRUE;
	p->fn(&p->stats, p->user_data);
	return TRUE;
}

/* The remote's "Counting objects" messages: only a chance to cancel
 * before any object arrives. */
static gboolean on_sideband(gpointer payload)
{
	return !cancelled(payload);
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

/* Take DATA/trees/NAME/fetch.lock for one fetch: returns its descriptor
 * (close() releases it), or -1 with TREE_ERROR_BUSY while another process
 * (or thread) holds it.  flock(2) locks go with the process, so a fetch
 * killed with -9 leaves no stale lock. */
static int fetch_lock(const struct tree *tree, GError **error)
{
	g_autofree char *path = g_build_filename(tree->dir, "fetch.lock", NULL);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	int saved;

	if (fd < 0) {
		saved = errno;
		g_set_error(error, TREE_ERROR, TREE_ERROR_FAILED,
			    "cannot open '%s': %s", path, g_strerror(saved));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	saved = errno;
	close(fd);
	if (saved == EWOULDBLOCK)
		g_set_error(error, TREE_ERROR, TREE_ERROR_BUSY,
			    "another process is fetching it");
	else
		g_set_error(error, TREE_ERROR, TREE_ERROR_FAILED,
			    "cannot lock '%s': %s", path, g_strerror(saved));
	return -1;
}

/* Put every branch of @tree back to @before.  libgit2 moves the refs one
 * by one once the download is complete (git_remote_update_tips()): when
 * one of them cannot be written, the ones before it have moved already
 * and the fetch fails half done.  Branches the fetch created go. */
static gboolean restore_heads(struct tree *tree, const GPtrArray *before,
			      GError **error)
{
	g_autoptr(GPtrArray) now = tree_heads(tree, error);
	g_autoptr(GHashTable) old = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable) cur = g_hash_table_new(g_str_hash, g_str_equal);

	if (!now)
		return FALSE;
	for (guint i = 0; i < before->len; i++) {
		struct tree_head *h = before->pdata[i];

		g_hash_table_insert(old, h->branch, h);
	}
	for (guint i = 0; i < now->len; i++) {
		struct tree_head *h = now->pdata[i];
		g_autofree char *name =
			g_strconcat("refs/heads/", h->branch, NULL);

		g_hash_table_insert(cur, h->branch, h);
		if (g_hash_table_contains(old, h->branch))
			continue;
		if (!lg2repo_ref_delete(tree->repo, name, NULL)) {
			tree_set_git_error(error, name);
			return FALSE;
		}
	}
	for (guint i = 0; i < before->len; i++) {
		struct tree_head *h = before->pdata[i];
		struct tree_head *c = g_hash_table_lookup(cur, h->branch);
		g_autofree char *name =
			g_strconcat("refs/heads/", h->branch, NULL);

		if (c && gitoid_equal(&c->commit, &h->commit))
			continue;
		if (!lg2repo_ref_set(tree->repo, name, &h->commit,
				     "armbot: fetch failed, put back", NULL)) {
			tree_set_git_error(error, name);
			return FALSE;
		}
	}
	return TRUE;
}

/* git's rule (connect.c, url_is_local_not_ssh): "scheme://" is a URL and
 * "host:path" with the colon before any slash is scp-style ssh; anything
 * else is a local path. */
static gboolean url_is_remote(const char *url)
{
	const char *colon = strchr(url, ':');
	const char *slash = strchr(url, '/');

	return strstr(url, "://") || (colon && (!slash || colon < slash));
}

/* Fetch @tree's refspecs from its URL into its repository, all or nothing
 * (see tree_update()). */
static gboolean fetch_tree(struct tree *tree,
			   const struct tree_fetch_options *options,
			   struct lg2fetch_stats *stats, GError **error)
{
	static const struct tree_fetch_options defaults =
		TREE_FETCH_OPTIONS_INIT;
	const struct tree_fetch_options *o = options ? options : &defaults;
	g_autoptr(lg2remote) remote = NULL;
	g_autoptr(GPtrArray) specs = fetch_refspecs(tree);
	g_autoptr(GPtrArray) before = NULL;
	struct progress p = { 0 };
	g_autofree char *what = g_strdup_printf("cannot fetch '%s'", tree->url);
	gboolean fetched;
	int lock;

	if (stats)
		memset(stats, 0, sizeof(*stats));
	lock = fetch_lock(tree, error);
	if (lock < 0)
		return FALSE;
	before = tree_heads(tree, error);
	if (!before) {
		close(lock);
		return FALSE;
	}
	/* an anonymous remote: the tree's URL is used as written */
	remote = lg2fetch_remote_new(tree->repo, tree->url);
	if (!remote) {
		tree_set_git_error(error, what);
		close(lock);
		return FALSE;
	}
	/* libgit2 takes a path that is not there for an unknown URL scheme
	 * ("unsupported URL protocol"): say what is wrong */
	if (!url_is_remote(tree->url) &&
	    !g_file_test(tree->url, G_FILE_TEST_IS_DIR)) {
		g_set_error(error, TREE_ERROR, TREE_ERROR_NOT_FOUND,
			    "%s: no such repository", what);
		close(lock);
		return FALSE;
	}
	p.fn = o->progress;
	p.user_data = o->user_data;
	if (!p.fn && tree_progress_wanted())
		p.fn = print_progress;
	p.interval = o->progress_interval ? o->progress_interval :
					    G_TIME_SPAN_MILLISECOND * 250;
	p.last = g_get_monotonic_time();
	p.cancellable = o->cancellable;
	/* the refspecs force-update like a mirror: a rebased branch is
	 * followed, not refused */
	fetched = lg2fetch_run(remote, (char **)specs->pdata, specs->len,
			       on_transfer, on_sideband, &p, "armbot: fetch");
	if (stats)
		lg2fetch_stats(remote, stats);
	if (p.fn == print_progress && p.reported && !p.done_reported)
		fputc('\n', stderr);
	if (!fetched) {
		g_autoptr(GError) failed = NULL;
		g_autoptr(GError) undo = NULL;

		if (cancelled(&p))
			g_set_error(&failed, G_IO_ERROR, G_IO_ERROR_CANCELLED,
				    "fetch of '%s' cancelled", tree->url);
		else
			tree_set_git_error(&failed, what);
		if (!restore_heads(tree, before, &undo)) {
			g_autoptr(GError) first = g_steal_pointer(&failed);

			g_set_error(&failed, TREE_ERROR, TREE_ERROR_GIT,
				    "%s; and some branches could not be put "
				    "back: %s",
				    first->message, undo->message);
		}
		close(lock);
		g_propagate_error(error, g_steal_pointer(&failed));
		return FALSE;
	}
	close(lock);
	if (stats)
		stats->done = TRUE;
	/* the remote's default branch, when no branch was named */
	if (!tree->head_branch) {
		g_autofree char *branch = lg2fetch_default_branch(remote);

		if (branch && g_str_has_prefix(branch, "refs/heads/"))
			tree->head_branch =
				g_strdup(branch + strlen("refs/heads/"));
	}
	return TRUE;
}

static struct tree *add_fetch(struct tree *tree, const char *url,
			      const char *const *branches,
			      const struct tree_fetch_options *opts,
			      struct lg2fetch_stats *stats, GError **error);

struct tree *tree_add(const char *data_dir, const char *name, const char *url,
		      const char *const *branches,
		      const struct tree_fetch_options *opts,
		      struct lg2fetch_stats *stats, GError **error)
{
	struct tree *tree = tree_create(data_dir, name, TREE_KIND_GIT, error);
	g_autoptr(GError) local = NULL;
	struct tree *added;

	if (stats)
		memset(stats, 0, sizeof(*stats));
	if (!tree)
		return NULL;
	added = add_fetch(tree, url, branches, opts, stats, &local);
	if (added)
		return added;
	/* the half-made tree of another process's add is that process's */
	if (g_error_matches(local, TREE_ERROR, TREE_ERROR_BUSY))
		tree_free(tree);
	else
		tree_discard(tree);
	g_propagate_error(error, g_steal_pointer(&local));
	return NULL;
}

/* Fetch a new @tree from @url and save it; returns @tree, or NULL. */
static struct tree *add_fetch(struct tree *tree, const char *url,
			      const char *const *branches,
			      const struct tree_fetch_options *opts,
			      struct lg2fetch_stats *stats, GError **error)
{
	const char *name = tree->name;
	g_autofree char *head_ref = NULL;
	struct gitoid head;

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
	if (!fetch_tree(tree, opts, stats, error)) {
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
	if (!lg2repo_set_head(tree->repo, head_ref, NULL)) {
		tree_set_git_error(error, head_ref);
		return NULL;
	}
	if (!tree_save(tree, error))
		return NULL;
	return tree;
}

gboolean tree_update(struct tree *tree, const struct tree_fetch_options *opts,
		     struct lg2fetch_stats *stats, GError **error)
{
	struct gitoid head;

	if (stats)
		memset(stats, 0, sizeof(*stats));
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
	if (!fetch_tree(tree, opts, stats, error)) {
		g_prefix_error(error, "tree '%s': ", tree->name);
		return FALSE;
	}
	return tree_head(tree, &head, error);
}
