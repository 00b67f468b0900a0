/* Writing objects with libgit2 behind the git layer; see
 * kernel/git/lg2write.h. */
#include "kernel/git/lg2write.h"

#include "kernel/git/lg2repo.h"
#include "kernel/git/libgit2.h"

void lg2write_blob_id(const void *data, gsize len, struct gitoid *out)
{
	git_odb_hash(libgit2_oid(out), data, len, GIT_OBJECT_BLOB);
}

gboolean lg2write_blob(struct git_repository *repo, const void *data, gsize len,
		       struct gitoid *out)
{
	return git_blob_create_from_buffer(libgit2_oid(out), repo, data, len) ==
	       0;
}

gboolean lg2write_tree_update(struct git_repository *repo,
			      struct git_tree *base,
			      const struct lg2write_update *updates, gsize n,
			      struct gitoid *out, GError **error)
{
	g_autofree git_tree_update *u = g_new0(git_tree_update, n ? n : 1);

	for (gsize i = 0; i < n; i++) {
		u[i].path = updates[i].path;
		if (updates[i].remove) {
			u[i].action = GIT_TREE_UPDATE_REMOVE;
		} else {
			u[i].action = GIT_TREE_UPDATE_UPSERT;
			u[i].id = *libgit2_oid(&updates[i].oid);
			u[i].filemode = updates[i].mode;
		}
	}
	if (git_tree_create_updated(libgit2_oid(out), repo, base, n, u) < 0) {
		const git_error *e = git_error_last();

		/* an entry name libgit2 refuses (its verify_path) */
		g_set_error_literal(error, LG2REPO_ERROR,
				    e && e->klass == GIT_ERROR_TREE ?
					    LG2REPO_ERROR_REFUSED_PATH :
					    LG2REPO_ERROR_FAILED,
				    lg2repo_last_error());
		return FALSE;
	}
	return TRUE;
}
