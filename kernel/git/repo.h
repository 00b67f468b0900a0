/* A git repository as `git -C PATH` finds and reads it, for armbot's
 * dirstat without libgit2: discovery (a .git directory or "gitdir:" file,
 * linked worktrees with their commondir, bare repositories), refs (loose,
 * symbolic, packed-refs), the revision syntax `git diff` takes, merge
 * bases and commit ranges.  Objects come from gitodb. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

#define GITREPO_ERROR (gitrepo_error_quark())
GQuark gitrepo_error_quark(void);
enum gitrepo_error {
	GITREPO_ERROR_NOT_A_REPOSITORY,
	GITREPO_ERROR_UNSUPPORTED, /* object format, syntax like ":path" */
	GITREPO_ERROR_BAD_REVISION, /* does not resolve */
	GITREPO_ERROR_CORRUPT, /* config, packed-refs, wrong object type */
	GITREPO_ERROR_NO_MERGE_BASE,
};

struct gitrepo {
	char *git_dir; /* HEAD and index live here (a linked worktree's own) */
	char *common_dir; /* objects, refs, packed-refs */
	char *work_tree; /* with a trailing '/', or NULL when bare */
	struct gitodb *odb;
};

/* The repository @path is in, found as git's setup_git_directory() does:
 * from @path upwards, a ".git" directory or a ".git" file ("gitdir: X"),
 * or @path itself when it is a bare repository (or a .git directory).
 * GIT_DIR and GIT_CEILING_DIRECTORIES are not consulted.  Refuses a
 * repository whose extensions.objectFormat is not sha1. */
struct gitrepo *gitrepo_open(const char *path, GError **error);
void gitrepo_free(struct gitrepo *repo);
typedef struct gitrepo gitrepo;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(gitrepo, gitrepo_free)

/* Whether @refname is a well-formed ref name, as git's
 * check_refname_format(refname, REFNAME_ALLOW_ONELEVEL) decides: no
 * "..", "@{", control characters, " ~^:?[*\\", empty or dot-led
 * components, ".lock" or "." at a component's end, and not "@". */
gboolean gitrepo_refname_valid(const char *refname);

/* The work tree's index, read on first use and kept with @repo (a batch
 * of ranges reads it once); NULL for a bare repository or when there is
 * no readable index.  Owned by @repo. */
struct gitindex;
const struct gitindex *gitrepo_index(struct gitrepo *repo);

/* git's get_oid() for the revisions `git diff` takes: a full or
 * abbreviated hex id, "HEAD" or "@", a ref name looked up by git's rules
 * (NAME, refs/NAME, refs/tags/NAME, refs/heads/NAME, refs/remotes/NAME,
 * refs/remotes/NAME/HEAD, in that order, loose before packed, symbolic
 * refs followed), and the suffixes ~N, ^N, ^, ^{}, ^{commit}, ^{tree},
 * ^{blob}, ^{tag}, ^{object}, repeated, and describe output
 * ("NAME-gHEX").  As in git, a full 40-digit id is taken without
 * looking the object up, and a ref wins over an abbreviated id.  The
 * error (GITREPO_ERROR_BAD_REVISION) says what did not resolve, as
 * git's "bad revision 'X'"; ":path", "^{/text}" and "@{...}" are
 * GITREPO_ERROR_UNSUPPORTED. */
gboolean gitrepo_revparse(struct gitrepo *repo, const char *spec,
			  struct gitoid *out, GError **error);

/* Follow tags from @oid until an object of @type; a commit peels to its
 * tree when @type is GITOBJ_TREE.  An error when it cannot.
 * GITOBJ_NONE follows tags to the first object that is not one
 * (NAME^{}). */
gboolean gitrepo_peel(struct gitrepo *repo, const struct gitoid *oid,
		      enum gitobj_type type, struct gitoid *out,
		      GError **error);

/* The commit's parsed tree and parents (see gitcommit_parse()). */
struct gitcommit;
gboolean gitrepo_commit(struct gitrepo *repo, const struct gitoid *oid,
			struct gitcommit *out, GError **error);

/* The merge base `git merge-base A B` prints (the first when there are
 * several, as `git diff A...B` takes); an error when there is none. */
gboolean gitrepo_merge_base(struct gitrepo *repo, const struct gitoid *a,
			    const struct gitoid *b, struct gitoid *out,
			    GError **error);

/* The commits reachable from @to and not from @from, parents before
 * children, as `git rev-list --topo-order --reverse FROM..TO` lists
 * them.  Returns a GArray of struct gitoid owned by the caller. */
GArray *gitrepo_range(struct gitrepo *repo, const struct gitoid *from,
		      const struct gitoid *to, GError **error);
