/* A repository as libgit2 opens it, for what the reader (kernel/git/repo.h)
 * does not do: creating repositories, and the objects and refs of the
 * trees that kernel/tree/ fetches and imports through libgit2.  The
 * handle is libgit2's git_repository, opaque here: no file outside
 * kernel/git/ sees libgit2 (README, "One git layer").  libgit2 is set up
 * on first use (libgit2_init()). */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

struct git_repository;

#define LG2REPO_ERROR (lg2repo_error_quark())
GQuark lg2repo_error_quark(void);
enum lg2repo_error {
	LG2REPO_ERROR_FAILED, /* the message is "WHAT: libgit2's message" */
};

/* The bare repository at @git_dir, opened; NULL and an error naming
 * @git_dir when libgit2 cannot open it.  Free with lg2repo_free(). */
struct git_repository *lg2repo_open_bare(const char *git_dir, GError **error);

/* A new bare repository at @git_dir (an existing one is reopened, as
 * `git init --bare` does). */
struct git_repository *lg2repo_init_bare(const char *git_dir, GError **error);

void lg2repo_free(struct git_repository *repo);

/* The message of the calling thread's last libgit2 error, or "unknown
 * libgit2 error": for callers that name what failed themselves. */
const char *lg2repo_last_error(void);

/* The id @refname (a full ref name) points to, symbolic refs followed;
 * FALSE when there is no such ref. */
gboolean lg2repo_ref_id(struct git_repository *repo, const char *refname,
			struct gitoid *out);

/* The commit @rev (any revision libgit2's git_revparse_single() takes)
 * names, tags peeled; FALSE when it names none. */
gboolean lg2repo_revparse_commit(struct git_repository *repo, const char *rev,
				 struct gitoid *out);

/* Whether @oid is a commit of @repo. */
gboolean lg2repo_has_commit(struct git_repository *repo,
			    const struct gitoid *oid);

/* Whether exactly one commit of @repo has an id starting with @hex (4 to
 * 40 hex digits). */
gboolean lg2repo_has_commit_prefix(struct git_repository *repo,
				   const char *hex);

/* The root tree of commit @commit; FALSE (lg2repo_last_error() says why)
 * when it cannot be read. */
gboolean lg2repo_commit_tree(struct git_repository *repo,
			     const struct gitoid *commit, struct gitoid *out);

/* The first ref matching @glob (fnmatch, as git_reference_foreach_glob()
 * visits them) that points to @target; its full name, newly allocated,
 * or NULL when none does. */
char *lg2repo_ref_glob_find(struct git_repository *repo, const char *glob,
			    const struct gitoid *target);
