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
	/* libgit2 refuses a path of a tree it is to write (its verify_path:
	 * ".git", "..", NTFS spellings); the message is libgit2's */
	LG2REPO_ERROR_REFUSED_PATH,
};

/* The bare repository at @git_dir, opened; NULL and an error naming
 * @git_dir when libgit2 cannot open it.  Free with lg2repo_free(). */
struct git_repository *lg2repo_open_bare(const char *git_dir, GError **error);

/* A new bare repository at @git_dir (an existing one is reopened, as
 * `git init --bare` does). */
struct git_repository *lg2repo_init_bare(const char *git_dir, GError **error);

/* The repository at @path, the work tree's or a bare one; with @search,
 * found from @path upwards as git does.  The error's message is
 * libgit2's. */
struct git_repository *lg2repo_open(const char *path, gboolean search,
				    GError **error);

void lg2repo_free(struct git_repository *repo);
/* the typedef only names the type for g_autoptr(lg2repo) */
typedef struct git_repository lg2repo;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(lg2repo, lg2repo_free)

/* The repository's git directory, as libgit2 found it (with a trailing
 * '/').  Owned by @repo. */
const char *lg2repo_path(struct git_repository *repo);

/* The hunks of @a against @b as git diff shows them, appended to @hunks:
 * libgit2's copy of git's xdiff, Myers with the indent heuristic
 * (diff.indentHeuristic is on by default since git 2.14), three lines of
 * context and hunks joined when their context touches, text forced.  The
 * hunk headers carry no function name.  FALSE (lg2repo_last_error()) on
 * failure. */
gboolean lg2repo_diff_hunks(GBytes *a, GBytes *b, GString *hunks);

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

/* Point @refname at @oid, creating or overwriting it, with @log_message
 * in its reflog.  The error's message is libgit2's. */
gboolean lg2repo_ref_set(struct git_repository *repo, const char *refname,
			 const struct gitoid *oid, const char *log_message,
			 GError **error);

/* Delete the ref @refname.  The error's message is libgit2's. */
gboolean lg2repo_ref_delete(struct git_repository *repo, const char *refname,
			    GError **error);

/* Point HEAD at @refname (a symbolic ref). */
gboolean lg2repo_set_head(struct git_repository *repo, const char *refname,
			  GError **error);

/* A ref and the id it points to. */
struct lg2repo_ref {
	char *name; /* full name */
	struct gitoid oid;
};

/* The direct refs matching @glob (symbolic ones are skipped), in
 * libgit2's order: a GPtrArray of struct lg2repo_ref owned by the caller,
 * NULL (lg2repo_last_error()) when they cannot be listed. */
GPtrArray *lg2repo_refs_direct(struct git_repository *repo, const char *glob);

/* The object database of @repo, for many existence checks in a row;
 * NULL on failure.  Free with lg2repo_odb_free(). */
struct git_odb;
struct git_odb *lg2repo_odb(struct git_repository *repo);
void lg2repo_odb_free(struct git_odb *odb);
/* Whether @odb has @oid, without looking for new packs (libgit2's
 * GIT_ODB_LOOKUP_NO_REFRESH). */
gboolean lg2repo_odb_has(struct git_odb *odb, const struct gitoid *oid);

/* Look for packs written behind libgit2's back (git_odb_refresh()). */
gboolean lg2repo_refresh(struct git_repository *repo);

/* Whether @oid is a tree of @repo. */
gboolean lg2repo_has_tree(struct git_repository *repo,
			  const struct gitoid *oid);

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

/* The root tree of commit @commit, for reading paths in it; NULL
 * (lg2repo_last_error() says why) when it cannot be read.  Free with
 * lg2repo_tree_free(). */
struct git_tree;
struct git_tree *lg2repo_commit_root(struct git_repository *repo,
				     const struct gitoid *commit);
void lg2repo_tree_free(struct git_tree *tree);
typedef struct git_tree lg2tree;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(lg2tree, lg2repo_tree_free)

/* The content of the blob at @path (a '/'-separated path) of @tree,
 * owned by the caller; NULL (lg2repo_last_error()) when there is none. */
GBytes *lg2repo_tree_blob(struct git_tree *tree, const char *path);

/* An entry of a tree. */
struct lg2repo_entry {
	struct gitoid oid;
	guint32 mode; /* GITMODE_* (kernel/git/object.h), as libgit2
			 normalises it (git_tree_entry_filemode()) */
	enum gitobj_type type; /* from the raw mode, as libgit2 reads it:
				  GITOBJ_COMMIT, GITOBJ_TREE or GITOBJ_BLOB */
};

/* The entry at @path (a '/'-separated path) of @tree: 1 with the entry in
 * @out, 0 when @tree has no such entry, -1 (lg2repo_last_error()) when it
 * cannot be read. */
int lg2repo_tree_entry(struct git_tree *tree, const char *path,
		       struct lg2repo_entry *out);

/* Whether @path of @tree is a directory. */
gboolean lg2repo_tree_is_dir(struct git_tree *tree, const char *path);

/* The summary of commit @oid (its subject, lines joined, as libgit2's
 * git_commit_summary()), newly allocated; NULL when it cannot be read. */
char *lg2repo_commit_summary(struct git_repository *repo,
			     const struct gitoid *oid);

/* The content of blob @oid, owned by the caller; NULL
 * (lg2repo_last_error()) when there is none. */
GBytes *lg2repo_blob(struct git_repository *repo, const struct gitoid *oid);

/* The content of the one blob of @repo whose id starts with the first
 * @len hex digits of @prefix (4 to 40), owned by the caller; NULL when
 * there is none, or more than one. */
GBytes *lg2repo_blob_prefix(struct git_repository *repo,
			    const struct gitoid *prefix, gsize len);

/* Called by lg2repo_tree_walk() for each entry that is not a tree: its
 * path from the root, id and mode (GITMODE_*, kernel/git/object.h);
 * FALSE stops the walk. */
typedef gboolean (*lg2repo_walk_fn)(const char *path, const struct gitoid *oid,
				    guint32 mode, gpointer data);

/* Every entry of @tree but subtrees, parents before children, as
 * git_tree_walk(GIT_TREEWALK_PRE) visits them.  FALSE when @fn stopped
 * the walk or a tree could not be read (lg2repo_last_error() then). */
gboolean lg2repo_tree_walk(struct git_tree *tree, lg2repo_walk_fn fn,
			   gpointer data);

/* A file that differs between two trees. */
struct lg2repo_change {
	char status; /* git's letter: 'A', 'D', 'M', 'T', 'R', ... */
	char *old_path;
	char *new_path;
	struct gitoid old_id, new_id;
	guint32 old_mode, new_mode; /* GITMODE_*, 0 for none */
};

/* The files that differ between @a and @b, recursive, no rename
 * detection, in path order; with @typechange a file that becomes a
 * symlink (or back) is one 'T' change, else a deletion and an addition
 * (GIT_DIFF_INCLUDE_TYPECHANGE).  A GPtrArray of struct lg2repo_change
 * owned by the caller; NULL (lg2repo_last_error()) on failure. */
GPtrArray *lg2repo_diff_trees(struct git_repository *repo, struct git_tree *a,
			      struct git_tree *b, gboolean typechange);

/* The files that differ between the root trees of commits @a and @b, as
 * git_diff_tree_to_tree() with its default options lists them (recursive,
 * no rename detection, in path order): a GPtrArray of struct
 * lg2repo_change, owned by the caller; NULL (lg2repo_last_error() says
 * why) when a commit cannot be read. */
GPtrArray *lg2repo_diff_commits(struct git_repository *repo,
				const struct gitoid *a, const struct gitoid *b);

/* The names of @repo's local branches (without "refs/heads/"), in
 * libgit2's order; empty when they cannot be listed.  Owned by the
 * caller. */
GPtrArray *lg2repo_branches(struct git_repository *repo);

/* The committer time of commit @oid (Unix seconds); 0 when it cannot be
 * read. */
gint64 lg2repo_commit_time(struct git_repository *repo,
			   const struct gitoid *oid);

/* The first parent of commit @oid; FALSE for a root commit or one that
 * cannot be read. */
gboolean lg2repo_commit_first_parent(struct git_repository *repo,
				     const struct gitoid *oid,
				     struct gitoid *out);

/* A revision walk (libgit2's git_revwalk): the commits reachable from the
 * pushed ones and not from the hidden ones, newest first by committer
 * time, or in topological order (children before parents) with
 * @topological.  NULL (lg2repo_last_error()) on failure. */
struct git_revwalk;
struct git_revwalk *lg2repo_walk_new(struct git_repository *repo,
				     gboolean topological);
void lg2repo_walk_push(struct git_revwalk *walk, const struct gitoid *oid);
void lg2repo_walk_hide(struct git_revwalk *walk, const struct gitoid *oid);
/* The next commit of the walk; FALSE at the end (or on an error). */
gboolean lg2repo_walk_next(struct git_revwalk *walk, struct gitoid *out);
/* Push the range "A..B" (git_revwalk_push_range()). */
gboolean lg2repo_walk_push_range(struct git_revwalk *walk, const char *range);
/* Every commit left in the walk, appended to @out (of struct gitoid);
 * FALSE (lg2repo_last_error()) when the walk fails before its end. */
gboolean lg2repo_walk_all(struct git_revwalk *walk, GArray *out);
void lg2repo_walk_free(struct git_revwalk *walk);
typedef struct git_revwalk lg2walk;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(lg2walk, lg2repo_walk_free)

/* Who made a commit, and when. */
struct lg2repo_ident {
	const char *name;
	const char *email;
	gboolean now; /* the current time, else: */
	gint64 time; /* Unix seconds */
	int offset; /* from UTC, in minutes */
};

/* Whether libgit2 takes @ident for a commit (git_signature_new()); the
 * reason is lg2repo_last_error(). */
gboolean lg2repo_ident_valid(const struct lg2repo_ident *ident);

/* Write the commit of @tree with one parent @parent (none when NULL),
 * @author, @committer and @message into @repo, without moving any ref.
 * The error says which of tree, committer and the write failed. */
gboolean lg2repo_commit_create(struct git_repository *repo, struct gitoid *out,
			       const struct lg2repo_ident *author,
			       const struct lg2repo_ident *committer,
			       const char *message, const struct gitoid *tree,
			       const struct gitoid *parent, GError **error);

/* The first ref matching @glob (fnmatch, as git_reference_foreach_glob()
 * visits them) that points to @target; its full name, newly allocated,
 * or NULL when none does. */
char *lg2repo_ref_glob_find(struct git_repository *repo, const char *glob,
			    const struct gitoid *target);
