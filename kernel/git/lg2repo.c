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

struct git_repository *lg2repo_open(const char *path, gboolean search,
				    GError **error)
{
	git_repository *repo = NULL;

	libgit2_init();
	if (git_repository_open_ext(&repo, path,
				    search ? 0 : GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0) {
		g_set_error_literal(error, LG2REPO_ERROR, LG2REPO_ERROR_FAILED,
				    lg2repo_last_error());
		return NULL;
	}
	return repo;
}

const char *lg2repo_path(struct git_repository *repo)
{
	return git_repository_path(repo);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_patch, git_patch_free)

gboolean lg2repo_diff_hunks(GBytes *a, GBytes *b, GString *hunks)
{
	g_autoptr(git_patch) patch = NULL;
	git_diff_options opts;
	gsize a_len, b_len;
	const void *a_data = g_bytes_get_data(a, &a_len);
	const void *b_data = g_bytes_get_data(b, &b_len);

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_FORCE_TEXT | GIT_DIFF_INDENT_HEURISTIC;
	opts.context_lines = 3;
	opts.interhunk_lines = 0;
	if (git_patch_from_buffers(&patch, a_data, a_len, NULL, b_data, b_len,
				   NULL, &opts) < 0) {
		return FALSE;
	}
	for (gsize h = 0; h < git_patch_num_hunks(patch); h++) {
		const git_diff_hunk *hunk;
		gsize lines;

		if (git_patch_get_hunk(&hunk, &lines, patch, h) < 0) {
			return FALSE;
		}
		/* xdiff's xdl_emit_hunk_hdr(): a count of 1 is left out */
		g_string_append_printf(hunks, "@@ -%d", hunk->old_start);
		if (hunk->old_lines != 1)
			g_string_append_printf(hunks, ",%d", hunk->old_lines);
		g_string_append_printf(hunks, " +%d", hunk->new_start);
		if (hunk->new_lines != 1)
			g_string_append_printf(hunks, ",%d", hunk->new_lines);
		g_string_append(hunks, " @@\n");
		for (gsize i = 0; i < lines; i++) {
			const git_diff_line *l;

			if (git_patch_get_line_in_hunk(&l, patch, h, i) < 0) {
				return FALSE;
			}
			switch (l->origin) {
			case GIT_DIFF_LINE_CONTEXT:
			case GIT_DIFF_LINE_ADDITION:
			case GIT_DIFF_LINE_DELETION:
				g_string_append_c(hunks, l->origin);
				g_string_append_len(hunks, l->content,
						    l->content_len);
				if (!l->content_len ||
				    l->content[l->content_len - 1] != '\n')
					g_string_append_c(hunks, '\n');
				break;
			case GIT_DIFF_LINE_CONTEXT_EOFNL:
			case GIT_DIFF_LINE_ADD_EOFNL:
			case GIT_DIFF_LINE_DEL_EOFNL:
				g_string_append(
					hunks,
					"\\ No newline at end of file\n");
				break;
			default:
				break;
			}
		}
	}
	return TRUE;
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

gboolean lg2repo_ref_set(struct git_repository *repo, const char *refname,
			 const struct gitoid *oid, const char *log_message,
			 GError **error)
{
	g_autoptr(git_reference) ref = NULL;

	if (git_reference_create(&ref, repo, refname, libgit2_oid(oid), 1,
				 log_message) < 0) {
		g_set_error_literal(error, LG2REPO_ERROR, LG2REPO_ERROR_FAILED,
				    lg2repo_last_error());
		return FALSE;
	}
	return TRUE;
}

gboolean lg2repo_ref_delete(struct git_repository *repo, const char *refname,
			    GError **error)
{
	g_autoptr(git_reference) ref = NULL;

	if (git_reference_lookup(&ref, repo, refname) < 0 ||
	    git_reference_delete(ref) < 0) {
		g_set_error_literal(error, LG2REPO_ERROR, LG2REPO_ERROR_FAILED,
				    lg2repo_last_error());
		return FALSE;
	}
	return TRUE;
}

gboolean lg2repo_set_head(struct git_repository *repo, const char *refname,
			  GError **error)
{
	if (git_repository_set_head(repo, refname) < 0) {
		g_set_error_literal(error, LG2REPO_ERROR, LG2REPO_ERROR_FAILED,
				    lg2repo_last_error());
		return FALSE;
	}
	return TRUE;
}

static void ref_free(gpointer data)
{
	struct lg2repo_ref *r = data;

	g_free(r->name);
	g_free(r);
}

GPtrArray *lg2repo_refs_direct(struct git_repository *repo, const char *glob)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(ref_free);
	git_reference_iterator *it = NULL;
	git_reference *ref;
	int rc;

	if (git_reference_iterator_glob_new(&it, repo, glob) < 0)
		return NULL;
	while ((rc = git_reference_next(&ref, it)) == 0) {
		g_autoptr(git_reference) resolved = NULL;

		if (git_reference_type(ref) == GIT_REFERENCE_DIRECT &&
		    git_reference_resolve(&resolved, ref) == 0) {
			struct lg2repo_ref *r = g_new(struct lg2repo_ref, 1);

			r->name = g_strdup(git_reference_name(ref));
			r->oid =
				*libgit2_gitoid(git_reference_target(resolved));
			g_ptr_array_add(out, r);
		}
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	if (rc != GIT_ITEROVER)
		return NULL;
	return g_steal_pointer(&out);
}

struct git_odb *lg2repo_odb(struct git_repository *repo)
{
	git_odb *odb = NULL;

	return git_repository_odb(&odb, repo) < 0 ? NULL : odb;
}

void lg2repo_odb_free(struct git_odb *odb)
{
	git_odb_free(odb);
}

gboolean lg2repo_odb_has(struct git_odb *odb, const struct gitoid *oid)
{
	return git_odb_exists_ext(odb, libgit2_oid(oid),
				  GIT_ODB_LOOKUP_NO_REFRESH) != 0;
}

gboolean lg2repo_refresh(struct git_repository *repo)
{
	g_autoptr(git_odb) odb = NULL;

	return git_repository_odb(&odb, repo) == 0 && git_odb_refresh(odb) == 0;
}

gboolean lg2repo_has_tree(struct git_repository *repo, const struct gitoid *oid)
{
	g_autoptr(git_tree) tree = NULL;

	return git_tree_lookup(&tree, repo, libgit2_oid(oid)) == 0;
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

struct git_tree *lg2repo_commit_root(struct git_repository *repo,
				     const struct gitoid *commit)
{
	g_autoptr(git_commit) c = NULL;
	git_tree *root = NULL;

	if (git_commit_lookup(&c, repo, libgit2_oid(commit)) < 0 ||
	    git_commit_tree(&root, c) < 0)
		return NULL;
	return root;
}

void lg2repo_tree_free(struct git_tree *tree)
{
	git_tree_free(tree);
}

static void blob_free(gpointer blob)
{
	git_blob_free(blob);
}

/* @blob's own buffer, kept alive by the GBytes (which owns @blob): no
 * copy */
static GBytes *blob_bytes(git_blob *blob)
{
	return g_bytes_new_with_free_func(git_blob_rawcontent(blob),
					  git_blob_rawsize(blob), blob_free,
					  blob);
}

GBytes *lg2repo_tree_blob(struct git_tree *tree, const char *path)
{
	git_object *obj = NULL;

	if (git_object_lookup_bypath(&obj, (git_object *)tree, path,
				     GIT_OBJECT_BLOB) < 0)
		return NULL;
	return blob_bytes((git_blob *)obj);
}

int lg2repo_tree_entry(struct git_tree *tree, const char *path,
		       struct lg2repo_entry *out)
{
	git_tree_entry *entry = NULL;
	int rc = git_tree_entry_bypath(&entry, tree, path);

	if (rc == GIT_ENOTFOUND)
		return 0;
	if (rc < 0)
		return -1;
	out->oid = *libgit2_gitoid(git_tree_entry_id(entry));
	out->mode = git_tree_entry_filemode(entry);
	out->type = (enum gitobj_type)git_tree_entry_type(entry);
	git_tree_entry_free(entry);
	return 1;
}

gboolean lg2repo_tree_is_dir(struct git_tree *tree, const char *path)
{
	git_tree_entry *entry = NULL;
	gboolean dir;

	if (git_tree_entry_bypath(&entry, tree, path) < 0)
		return FALSE;
	dir = git_tree_entry_type(entry) == GIT_OBJECT_TREE;
	git_tree_entry_free(entry);
	return dir;
}

char *lg2repo_commit_summary(struct git_repository *repo,
			     const struct gitoid *oid)
{
	g_autoptr(git_commit) commit = NULL;
	const char *summary;

	if (git_commit_lookup(&commit, repo, libgit2_oid(oid)) < 0 ||
	    !(summary = git_commit_summary(commit)))
		return NULL;
	return g_strdup(summary);
}

static void change_free(gpointer data)
{
	struct lg2repo_change *c = data;

	g_free(c->old_path);
	g_free(c->new_path);
	g_free(c);
}

GBytes *lg2repo_blob(struct git_repository *repo, const struct gitoid *oid)
{
	git_blob *blob = NULL;

	if (git_blob_lookup(&blob, repo, libgit2_oid(oid)) < 0)
		return NULL;
	return blob_bytes(blob);
}

GBytes *lg2repo_blob_prefix(struct git_repository *repo,
			    const struct gitoid *prefix, gsize len)
{
	git_object *obj = NULL;

	if (git_object_lookup_prefix(&obj, repo, libgit2_oid(prefix), len,
				     GIT_OBJECT_BLOB) < 0)
		return NULL;
	return blob_bytes((git_blob *)obj);
}

struct walk {
	lg2repo_walk_fn fn;
	gpointer data;
	gboolean stopped;
};

static int walk_one(const char *parent, const git_tree_entry *entry,
		    void *payload)
{
	struct walk *w = payload;
	g_autofree char *path = NULL;
	git_filemode_t mode = git_tree_entry_filemode(entry);

	if (mode == GIT_FILEMODE_TREE)
		return 0;
	path = g_strconcat(parent, git_tree_entry_name(entry), NULL);
	if (!w->fn(path, libgit2_gitoid(git_tree_entry_id(entry)), mode,
		   w->data)) {
		w->stopped = TRUE;
		return -1;
	}
	return 0;
}

gboolean lg2repo_tree_walk(struct git_tree *tree, lg2repo_walk_fn fn,
			   gpointer data)
{
	struct walk w = { fn, data, FALSE };

	return git_tree_walk(tree, GIT_TREEWALK_PRE, walk_one, &w) == 0 &&
	       !w.stopped;
}

GPtrArray *lg2repo_diff_trees(struct git_repository *repo, struct git_tree *a,
			      struct git_tree *b, gboolean typechange)
{
	g_autoptr(git_diff) diff = NULL;
	git_diff_options opts;
	GPtrArray *out;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (typechange)
		opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE;
	if (git_diff_tree_to_tree(&diff, repo, a, b, &opts) < 0)
		return NULL;
	out = g_ptr_array_new_with_free_func(change_free);
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		struct lg2repo_change *c = g_new(struct lg2repo_change, 1);

		c->status = git_diff_status_char(d->status);
		c->old_path = g_strdup(d->old_file.path);
		c->new_path = g_strdup(d->new_file.path);
		c->old_id = *libgit2_gitoid(&d->old_file.id);
		c->new_id = *libgit2_gitoid(&d->new_file.id);
		c->old_mode = d->old_file.mode;
		c->new_mode = d->new_file.mode;
		g_ptr_array_add(out, c);
	}
	return out;
}

GPtrArray *lg2repo_diff_commits(struct git_repository *repo,
				const struct gitoid *a, const struct gitoid *b)
{
	g_autoptr(git_tree) ta = lg2repo_commit_root(repo, a);
	g_autoptr(git_tree) tb = ta ? lg2repo_commit_root(repo, b) : NULL;

	if (!tb)
		return NULL;
	return lg2repo_diff_trees(repo, ta, tb, FALSE);
}

GPtrArray *lg2repo_branches(struct git_repository *repo)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;

	if (git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL) < 0)
		return out;
	while (!git_branch_next(&ref, &type, it)) {
		const char *name = NULL;

		if (!git_branch_name(&name, ref) && name)
			g_ptr_array_add(out, g_strdup(name));
		git_reference_free(ref);
	}
	git_branch_iterator_free(it);
	return out;
}

gint64 lg2repo_commit_time(struct git_repository *repo,
			   const struct gitoid *oid)
{
	g_autoptr(git_commit) c = NULL;

	if (git_commit_lookup(&c, repo, libgit2_oid(oid)) < 0)
		return 0;
	return git_commit_time(c);
}

gboolean lg2repo_commit_first_parent(struct git_repository *repo,
				     const struct gitoid *oid,
				     struct gitoid *out)
{
	g_autoptr(git_commit) c = NULL;

	if (git_commit_lookup(&c, repo, libgit2_oid(oid)) < 0 ||
	    !git_commit_parentcount(c))
		return FALSE;
	*out = *libgit2_gitoid(git_commit_parent_id(c, 0));
	return TRUE;
}

struct git_revwalk *lg2repo_walk_new(struct git_repository *repo,
				     gboolean topological)
{
	git_revwalk *walk = NULL;

	if (git_revwalk_new(&walk, repo) < 0)
		return NULL;
	if (topological)
		git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL);
	return walk;
}

void lg2repo_walk_push(struct git_revwalk *walk, const struct gitoid *oid)
{
	git_revwalk_push(walk, libgit2_oid(oid));
}

void lg2repo_walk_hide(struct git_revwalk *walk, const struct gitoid *oid)
{
	git_revwalk_hide(walk, libgit2_oid(oid));
}

gboolean lg2repo_walk_next(struct git_revwalk *walk, struct gitoid *out)
{
	return git_revwalk_next(libgit2_oid(out), walk) == 0;
}

gboolean lg2repo_walk_push_range(struct git_revwalk *walk, const char *range)
{
	return git_revwalk_push_range(walk, range) == 0;
}

gboolean lg2repo_walk_all(struct git_revwalk *walk, GArray *out)
{
	struct gitoid oid;
	int rc;

	while ((rc = git_revwalk_next(libgit2_oid(&oid), walk)) == 0)
		g_array_append_val(out, oid);
	return rc == GIT_ITEROVER;
}

void lg2repo_walk_free(struct git_revwalk *walk)
{
	git_revwalk_free(walk);
}

static int signature_new(git_signature **out, const struct lg2repo_ident *ident)
{
	if (ident->now)
		return git_signature_now(out, ident->name, ident->email);
	return git_signature_new(out, ident->name, ident->email, ident->time,
				 ident->offset);
}

gboolean lg2repo_ident_valid(const struct lg2repo_ident *ident)
{
	g_autoptr(git_signature) sig = NULL;

	return signature_new(&sig, ident) == 0;
}

static gboolean commit_fail(GError **error, const char *what)
{
	set_error(error, what);
	return FALSE;
}

gboolean lg2repo_commit_create(struct git_repository *repo, struct gitoid *out,
			       const struct lg2repo_ident *author,
			       const struct lg2repo_ident *committer,
			       const char *message, const struct gitoid *tree,
			       const struct gitoid *parent, GError **error)
{
	g_autoptr(git_commit) parent_commit = NULL;
	g_autoptr(git_tree) t = NULL;
	g_autoptr(git_signature) a = NULL;
	g_autoptr(git_signature) c = NULL;

	if (parent &&
	    git_commit_lookup(&parent_commit, repo, libgit2_oid(parent)) < 0)
		return commit_fail(error, "cannot read the parent commit");
	if (git_tree_lookup(&t, repo, libgit2_oid(tree)) < 0)
		return commit_fail(error, "cannot read the new tree");
	if (signature_new(&a, author) < 0)
		return commit_fail(error, "invalid author identity");
	if (signature_new(&c, committer) < 0)
		return commit_fail(error, "invalid committer identity");
	if (git_commit_create(libgit2_oid(out), repo, NULL, a, c, NULL, message,
			      t, parent ? 1 : 0,
			      (const git_commit **)&parent_commit) < 0)
		return commit_fail(error, "cannot create the commit");
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
