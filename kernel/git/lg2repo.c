/* libgit2's repository handle behind the git layer; see
 * kernel/git/lg2repo.h. */
#include "kernel/git/lg2repo.h"

#include <string.h>

#include "kernel/git/libgit2.h"

G_DEFINE_QUARK(armbot - lg2repo - error - quark, lg2repo_error)

const char *lg2repo_last_error(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

static void set_error(GError **error, const char *what)
{
	g_set_error(error, LG2REPO_ERROR, LG2REPO_ERROR_FAILED, "%s: %s", what,
		    lg2repo_last_error());
}

struct git_repository *lg2repo_open_bare(const char *git_dir, GError **error)
{
	git_repository *repo = NULL;

	libgit2_init();
	if (git_repository_open_bare(&repo, git_dir) < 0) {
		set_error(error, git_dir);
		return NULL;
	}
	return repo;
}

struct git_repository *lg2repo_init_bare(const char *git_dir, GError **error)
{
	git_repository *repo = NULL;

	libgit2_init();
	if (git_repository_init(&repo, git_dir, 1) < 0) {
		set_error(error, git_dir);
		return NULL;
	}
	return repo;
}

void lg2repo_free(struct git_repository *repo)
{
	git_repository_free(repo);
}

gboolean lg2repo_ref_id(struct git_repository *repo, const char *refname,
			struct gitoid *out)
{
	return git_reference_name_to_id(libgit2_oid(out), repo, refname) == 0;
}

gboolean lg2repo_revparse_commit(struct git_repository *repo, const char *rev,
				 struct gitoid *out)
{
	g_autoptr(git_object) obj = NULL;
	g_autoptr(git_object) commit = NULL;

	if (git_revparse_single(&obj, repo, rev) < 0 ||
	    git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0)
		return FALSE;
	*out = *libgit2_gitoid(git_object_id(commit));
	return TRUE;
}

gboolean lg2repo_has_commit(struct git_repository *repo,
			    const struct gitoid *oid)
{
	g_autoptr(git_commit) commit = NULL;

	return git_commit_lookup(&commit, repo, libgit2_oid(oid)) == 0;
}

gboolean lg2repo_has_commit_prefix(struct git_repository *repo, const char *hex)
{
	g_autoptr(git_object) obj = NULL;
	struct gitoid oid;
	gsize len = strlen(hex);

	if (!gitoid_from_hexn(&oid, hex, len))
		return FALSE;
	if (len == GITOID_HEXSZ)
		return lg2repo_has_commit(repo, &oid);
	return git_object_lookup_prefix(&obj, repo, libgit2_oid(&oid), len,
					GIT_OBJECT_COMMIT) == 0;
}

gboolean lg2repo_commit_tree(struct git_repository *repo,
			     const struct gitoid *commit, struct gitoid *out)
{
	g_autoptr(git_commit) c = NULL;

	if (git_commit_lookup(&c, repo, libgit2_oid(commit)) < 0)
		return FALSE;
	*out = *libgit2_gitoid(git_commit_tree_id(c));
	return TRUE;
}

struct glob_find {
	git_repository *repo;
	const struct gitoid *target;
	char *found;
};

static int glob_find_one(const char *name, void *data)
{
	struct glob_find *g = data;
	struct gitoid id;

	if (!g->found &&
	    git_reference_name_to_id(libgit2_oid(&id), g->repo, name) == 0 &&
	    gitoid_equal(&id, g->target))
		g->found = g_strdup(name);
	return 0;
}

char *lg2repo_ref_glob_find(struct git_repository *repo, const char *glob,
			    const struct gitoid *target)
{
	struct glob_find g = { repo, target, NULL };

	git_reference_foreach_glob(repo, glob, glob_find_one, &g);
	return g.found;
}
