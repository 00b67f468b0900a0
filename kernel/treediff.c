/* Tree-to-tree file pairs for diffcore, walked as git's diff_tree() does;
 * the pairs keep git's filespec semantics for the rename and dirstat code. */
#include "kernel/treediff.h"

#include <string.h>
#include <sys/stat.h>

#define TREEDIFF_ERROR (g_quark_from_static_string("treediff-error"))

static void spec_free(struct treediff_spec *spec)
{
	g_free(spec->path);
	if (spec->data)
		g_bytes_unref(spec->data);
	diffcount_spans_free(spec->spans);
	g_free(spec);
}

struct treediff_spec *treediff_spec_add(struct treediff *q, const char *path,
					const git_oid *oid, guint32 mode,
					gboolean valid)
{
	struct treediff_spec *spec = g_new0(struct treediff_spec, 1);

	spec->path = g_strdup(path);
	if (oid)
		git_oid_cpy(&spec->oid, oid);
	spec->mode = mode;
	spec->valid = valid;
	spec->is_binary = -1;
	g_ptr_array_add(q->specs, spec);
	return spec;
}

static struct treediff *treediff_alloc(git_repository *repo)
{
	struct treediff *q = g_new0(struct treediff, 1);

	q->repo = repo;
	q->specs = g_ptr_array_new_with_free_func((GDestroyNotify)spec_free);
	q->pairs = g_ptr_array_new_with_free_func(g_free);
	return q;
}

void treediff_free(struct treediff *q)
{
	if (!q)
		return;
	g_ptr_array_unref(q->pairs);
	g_ptr_array_unref(q->specs);
	git_odb_free(q->odb);
	git_index_free(q->index);
	g_free(q);
}

static struct treediff_pair *pair_add(struct treediff *q,
				      struct treediff_spec *one,
				      struct treediff_spec *two)
{
	struct treediff_pair *p = g_new0(struct treediff_pair, 1);

	p->one = one;
	p->two = two;
	g_ptr_array_add(q->pairs, p);
	return p;
}

/* git's base_name_compare(): tree entries sort by name, a subtree as if
 * its name ended in '/'.  Walking both trees in this order yields the pairs
 * in full-path order, as git's diff_tree() does. */
static gboolean is_tree(const git_tree_entry *e)
{
	return e && git_tree_entry_type(e) == GIT_OBJECT_TREE;
}

static int entry_compare(const git_tree_entry *a, const git_tree_entry *b)
{
	const char *na = git_tree_entry_name(a), *nb = git_tree_entry_name(b);
	size_t la = strlen(na), lb = strlen(nb), len = MIN(la, lb);
	int cmp = memcmp(na, nb, len);
	unsigned char ca, cb;

	if (cmp)
		return cmp;
	ca = la > len ? (unsigned char)na[len] : is_tree(a) ? '/' : 0;
	cb = lb > len ? (unsigned char)nb[len] : is_tree(b) ? '/' : 0;
	return (int)ca - (int)cb;
}

static gboolean walk(struct treediff *q, const char *prefix, git_tree *old_tree,
		     git_tree *new_tree, GError **error);

/* A whole subtree added (@old_side FALSE) or deleted (TRUE). */
static gboolean walk_one_side(struct treediff *q, const char *path,
			      const git_tree_entry *e, gboolean old_side,
			      GError **error)
{
	git_object *obj = NULL;
	gboolean ok;

	if (git_tree_entry_to_object(&obj, q->repo, e) < 0) {
		const git_error *err = git_error_last();

		g_set_error(error, TREEDIFF_ERROR, 1,
			    "cannot read tree '%s': %s", path,
			    err ? err->message : "unknown error");
		return FALSE;
	}
	ok = old_side ? walk(q, path, (git_tree *)obj, NULL, error) :
			walk(q, path, NULL, (git_tree *)obj, error);
	git_object_free(obj);
	return ok;
}

/* Compare two trees below @prefix, descending only into subtrees whose ids
 * differ (git's diff_tree(); libgit2's git_diff_tree_to_tree reads every
 * tree of both sides, 80 ms on the kernel even for identical trees).  A
 * blob that becomes a symlink or gitlink is one 'T' pair, a blob that
 * becomes a tree a deletion plus creations, as in git.  No blob is read. */
static gboolean walk(struct treediff *q, const char *prefix, git_tree *old_tree,
		     git_tree *new_tree, GError **error)
{
	size_t n_old = old_tree ? git_tree_entrycount(old_tree) : 0;
	size_t n_new = new_tree ? git_tree_entrycount(new_tree) : 0;
	size_t i = 0, j = 0;

	while (i < n_old || j < n_new) {
		const git_tree_entry *o =
			i < n_old ? git_tree_entry_byindex(old_tree, i) : NULL;
		const git_tree_entry *n =
			j < n_new ? git_tree_entry_byindex(new_tree, j) : NULL;
		int cmp = !o ? 1 : !n ? -1 : entry_compare(o, n);
		const git_tree_entry *e = cmp <= 0 ? o : n;
		g_autofree char *path =
			*prefix ? g_strconcat(prefix, "/",
					      git_tree_entry_name(e), NULL) :
				  g_strdup(git_tree_entry_name(e));

		if (cmp < 0) {
			i++;
			if (is_tree(o)) {
				if (!walk_one_side(q, path, o, TRUE, error))
					return FALSE;
			} else {
				pair_add(q,
					 treediff_spec_add(
						 q, path, git_tree_entry_id(o),
						 git_tree_entry_filemode(o),
						 TRUE),
					 treediff_spec_add(q, path, NULL, 0,
							   FALSE));
			}
			continue;
		}
		if (cmp > 0) {
			j++;
			if (is_tree(n)) {
				if (!walk_one_side(q, path, n, FALSE, error))
					return FALSE;
			} else {
				pair_add(q,
					 treediff_spec_add(q, path, NULL, 0,
							   FALSE),
					 treediff_spec_add(
						 q, path, git_tree_entry_id(n),
						 git_tree_entry_filemode(n),
						 TRUE));
			}
			continue;
		}
		i++;
		j++;
		if (git_oid_equal(git_tree_entry_id(o), git_tree_entry_id(n)) &&
		    git_tree_entry_filemode(o) == git_tree_entry_filemode(n))
			continue;
		if (is_tree(o)) {
			git_object *ot = NULL, *nt = NULL;
			gboolean ok;

			if (git_tree_entry_to_object(&ot, q->repo, o) < 0 ||
			    git_tree_entry_to_object(&nt, q->repo, n) < 0) {
				const git_error *err = git_error_last();

				git_object_free(ot);
				g_set_error(error, TREEDIFF_ERROR, 1,
					    "cannot read tree '%s': %s", path,
					    err ? err->message :
						  "unknown error");
				return FALSE;
			}
			ok = walk(q, path, (git_tree *)ot, (git_tree *)nt,
				  error);
			git_object_free(ot);
			git_object_free(nt);
			if (!ok)
				return FALSE;
			continue;
		}
		pair_add(q,
			 treediff_spec_add(q, path, git_tree_entry_id(o),
					   git_tree_entry_filemode(o), TRUE),
			 treediff_spec_add(q, path, git_tree_entry_id(n),
					   git_tree_entry_filemode(n), TRUE));
	}
	return TRUE;
}

struct treediff *treediff_new(git_repository *repo, git_tree *old_tree,
			      git_tree *new_tree, GError **error)
{
	g_autoptr(treediff) q = treediff_alloc(repo);

	if (!walk(q, "", old_tree, new_tree, error))
		return NULL;
	return g_steal_pointer(&q);
}

static gboolean size_from_header(struct treediff *q,
				 struct treediff_spec *spec);

/* git's reuse_worktree_file() (diff.c): the work tree file of a blob the
 * index records at the same path, stat-clean, is read instead of
 * inflating the object (git diff-tree reads the index).  As git, not for
 * an "assume unchanged" or skip-worktree entry; a racily clean entry
 * (not older than the index) and a file whose size is not the blob's (a
 * conversion on checkout) are read from the object instead, where git
 * would compare or convert the contents. */
static GBytes *worktree_data(struct treediff *q, struct treediff_spec *spec)
{
	const git_index_entry *ce;
	const char *workdir;
	g_autofree char *file = NULL;
	struct stat st;
	char *contents;
	gsize len, size;

	if (q->no_worktree || !S_ISREG(spec->mode))
		return NULL;
	workdir = git_repository_workdir(q->repo);
	if (!q->index) {
		if (!workdir || git_repository_index(&q->index, q->repo) < 0 ||
		    !git_index_path(q->index) ||
		    stat(git_index_path(q->index), &st) < 0) {
			git_error_clear();
			q->no_worktree = TRUE;
			return NULL;
		}
		q->index_mtime = st.st_mtim;
	}
	ce = git_index_get_bypath(q->index, spec->path, 0);
	if (!ce || !git_oid_equal(&ce->id, &spec->oid) || !S_ISREG(ce->mode) ||
	    (ce->flags & GIT_INDEX_ENTRY_VALID) ||
	    (ce->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE))
		return NULL;
	file = g_strconcat(workdir, spec->path, NULL);
	/* ie_match_stat(): the stat data the index recorded */
	if (lstat(file, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (st.st_mode & 0100) != (ce->mode & 0100) ||
	    (guint64)st.st_size != ce->file_size ||
	    st.st_mtime != ce->mtime.seconds ||
	    (guint32)st.st_mtim.tv_nsec != ce->mtime.nanoseconds ||
	    st.st_ctime != ce->ctime.seconds || (guint32)st.st_ino != ce->ino ||
	    (guint32)st.st_dev != ce->dev || st.st_uid != ce->uid ||
	    st.st_gid != ce->gid || st.st_mtim.tv_sec > q->index_mtime.tv_sec ||
	    (st.st_mtim.tv_sec == q->index_mtime.tv_sec &&
	     st.st_mtim.tv_nsec >= q->index_mtime.tv_nsec))
		return NULL;
	if (!size_from_header(q, spec) ||
	    (size = spec->size) != (gsize)st.st_size ||
	    !g_file_get_contents(file, &contents, &len, NULL))
		return NULL;
	if (len != size) {
		g_free(contents);
		return NULL;
	}
	return g_bytes_new_take(contents, len);
}

static gboolean spec_load(struct treediff *q, struct treediff_spec *spec,
			  gboolean worktree, GError **error)
{
	git_blob *blob = NULL;

	if (spec->data)
		return TRUE;
	if (!spec->valid) {
		spec->data = g_bytes_new_static("", 0);
		spec->has_size = TRUE;
		return TRUE;
	}
	if (spec->mode == GIT_FILEMODE_COMMIT) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &spec->oid);
		spec->data = g_bytes_new_take(
			g_strdup_printf("Subproject commit %s\n", hex),
			strlen("Subproject commit \n") + GIT_OID_HEXSZ);
		spec->size = g_bytes_get_size(spec->data);
		spec->has_size = TRUE;
		return TRUE;
	}
	if (worktree) {
		spec->data = worktree_data(q, spec);
		if (spec->data) {
			spec->size = g_bytes_get_size(spec->data);
			spec->has_size = TRUE;
			return TRUE;
		}
	}
	if (git_blob_lookup(&blob, q->repo, &spec->oid) < 0) {
		const git_error *e = git_error_last();

		g_set_error(error, TREEDIFF_ERROR, 1,
			    "cannot read blob for '%s': %s", spec->path,
			    e ? e->message : "unknown error");
		return FALSE;
	}
	/* the blob is freed with the GBytes: no copy of its content */
	spec->data = g_bytes_new_with_free_func(git_blob_rawcontent(blob),
						(gsize)git_blob_rawsize(blob),
						(GDestroyNotify)git_blob_free,
						blob);
	spec->blob = blob;
	spec->size = g_bytes_get_size(spec->data);
	spec->has_size = TRUE;
	return TRUE;
}

/* The size of a blob not loaded is read from its object header only, as
 * git's diff_populate_filespec() with CHECK_SIZE_ONLY does: rename
 * detection rejects most candidates on their sizes without inflating
 * them. */
static gboolean size_from_header(struct treediff *q, struct treediff_spec *spec)
{
	size_t size;
	git_object_t type;

	if (!spec->has_size && spec->valid &&
	    spec->mode != GIT_FILEMODE_COMMIT &&
	    (q->odb || git_repository_odb(&q->odb, q->repo) == 0) &&
	    git_odb_read_header(&size, &type, q->odb, &spec->oid) == 0) {
		spec->size = size;
		spec->has_size = TRUE;
	}
	return spec->has_size;
}

gboolean treediff_spec_load(struct treediff *q, struct treediff_spec *spec,
			    GError **error)
{
	return spec_load(q, spec, TRUE, error);
}

gboolean treediff_spec_load_blob(struct treediff *q, struct treediff_spec *spec,
				 GError **error)
{
	if (spec->data && !spec->blob && spec->valid &&
	    spec->mode != GIT_FILEMODE_COMMIT)
		treediff_spec_unload(spec);
	return spec_load(q, spec, FALSE, error);
}

gboolean treediff_spec_size(struct treediff *q, struct treediff_spec *spec,
			    gsize *out, GError **error)
{
	if (!size_from_header(q, spec) && !treediff_spec_load(q, spec, error))
		return FALSE;
	*out = spec->size;
	return TRUE;
}

gboolean treediff_spec_is_binary(struct treediff *q, struct treediff_spec *spec,
				 gboolean *out, GError **error)
{
	if (spec->is_binary < 0) {
		gsize size;
		const guint8 *data;

		if (!treediff_spec_load(q, spec, error))
			return FALSE;
		data = g_bytes_get_data(spec->data, &size);
		spec->is_binary = diffcount_is_binary(data, size);
	}
	*out = spec->is_binary;
	return TRUE;
}

const struct diffcount_spans *treediff_spec_spans(struct treediff *q,
						  struct treediff_spec *spec,
						  GError **error)
{
	gboolean binary;
	gsize size;
	const guint8 *data;

	if (spec->spans)
		return spec->spans;
	if (!treediff_spec_is_binary(q, spec, &binary, error))
		return NULL;
	data = g_bytes_get_data(spec->data, &size);
	spec->spans = diffcount_spans_new(data, size, !binary);
	return spec->spans;
}

void treediff_spec_unload(struct treediff_spec *spec)
{
	if (spec->data && spec->valid) {
		g_bytes_unref(spec->data);
		spec->data = NULL;
		spec->blob = NULL;
	}
}

gboolean treediff_pair_unmodified(const struct treediff_pair *p)
{
	/* diff.c diff_unmodified_pair(): both sides valid, same mode, same
	 * object, same path */
	return p->one->valid && p->two->valid && p->one->mode == p->two->mode &&
	       git_oid_equal(&p->one->oid, &p->two->oid) &&
	       !strcmp(p->one->path, p->two->path);
}
