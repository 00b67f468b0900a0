/* Tree-to-tree file pairs for diffcore, walked as git's diff_tree() does;
 * the pairs keep git's filespec semantics for the rename and dirstat code. */
#include "kernel/diff/treediff.h"

#include <string.h>
#include <sys/stat.h>

#include "kernel/git/index.h"
#include "kernel/git/object.h"

#define TREEDIFF_ERROR (g_quark_from_static_string("treediff-error"))

static void spec_free(struct treediff_spec *spec)
{
	g_free(spec->path);
	g_clear_pointer(&spec->data, g_bytes_unref);
	diffcount_spans_free(spec->spans);
	g_free(spec);
}

struct treediff_spec *treediff_spec_add(struct treediff *q, const char *path,
					const struct gitoid *oid, guint32 mode,
					gboolean valid)
{
	struct treediff_spec *spec = g_new0(struct treediff_spec, 1);

	spec->path = g_strdup(path);
	if (oid)
		spec->oid = *oid;
	spec->mode = mode;
	spec->valid = valid;
	spec->is_binary = -1;
	g_ptr_array_add(q->specs, spec);
	return spec;
}

static struct treediff *treediff_alloc(struct gitrepo *repo)
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

/* One tree being walked: its content and the entry under the cursor. */
struct tree_cursor {
	GBytes *data; /* NULL for the empty tree */
	struct gittree_iter it;
	struct gittree_entry e;
	gboolean has_entry;
};

static gboolean cursor_next(struct tree_cursor *c, const char *path,
			    GError **error)
{
	g_autoptr(GError) local = NULL;

	c->has_entry = c->data && gittree_iter_next(&c->it, &c->e, &local);
	if (local) {
		g_set_error(error, TREEDIFF_ERROR, 1,
			    "cannot read tree '%s': %s", *path ? path : ".",
			    local->message);
		return FALSE;
	}
	return TRUE;
}

static gboolean cursor_open(struct tree_cursor *c, struct treediff *q,
			    const char *path, const struct gitoid *oid,
			    GError **error)
{
	g_autoptr(GError) local = NULL;
	enum gitobj_type type;

	memset(c, 0, sizeof(*c));
	if (!oid)
		return TRUE;
	c->data = gitodb_read(q->repo->odb, oid, &type, &local);
	if (c->data && type != GITOBJ_TREE) {
		char hex[GITOID_HEXSZ + 1];

		gitoid_to_hex(oid, hex);
		g_set_error(&local, TREEDIFF_ERROR, 1, "object %s is a %s", hex,
			    gitobj_type_name(type));
	}
	if (local) {
		g_set_error(error, TREEDIFF_ERROR, 1,
			    "cannot read tree '%s': %s", *path ? path : ".",
			    local->message);
		return FALSE;
	}
	gittree_iter_init(&c->it, c->data);
	return cursor_next(c, path, error);
}

static void cursor_close(struct tree_cursor *c)
{
	g_clear_pointer(&c->data, g_bytes_unref);
}

/* git's base_name_compare(): tree entries sort by name, a subtree as if
 * its name ended in '/'.  Walking both trees in this order yields the pairs
 * in full-path order, as git's diff_tree() does. */
static gboolean is_tree(const struct gittree_entry *e)
{
	return e && e->mode == GITMODE_TREE;
}

static int entry_compare(const struct gittree_entry *a,
			 const struct gittree_entry *b)
{
	gsize len = MIN(a->name_len, b->name_len);
	int cmp = memcmp(a->name, b->name, len);
	unsigned char ca, cb;

	if (cmp)
		return cmp;
	ca = a->name_len > len ? (unsigned char)a->name[len] :
	     is_tree(a)	       ? '/' :
				 0;
	cb = b->name_len > len ? (unsigned char)b->name[len] :
	     is_tree(b)	       ? '/' :
				 0;
	return (int)ca - (int)cb;
}

/* Compare two trees below @prefix, descending only into subtrees whose ids
 * differ (git's diff_tree(); libgit2's git_diff_tree_to_tree reads every
 * tree of both sides, 80 ms on the kernel even for identical trees).  A
 * blob that becomes a symlink or gitlink is one 'T' pair, a blob that
 * becomes a tree a deletion plus creations, as in git.  No blob is read. */
static gboolean walk(struct treediff *q, const char *prefix,
		     const struct gitoid *old_tree,
		     const struct gitoid *new_tree, GError **error)
{
	struct tree_cursor o, n;
	gboolean ok = FALSE;

	if (!cursor_open(&o, q, prefix, old_tree, error))
		return FALSE;
	if (!cursor_open(&n, q, prefix, new_tree, error))
		goto done;
	while (o.has_entry || n.has_entry) {
		int cmp = !o.has_entry ? 1 :
			  !n.has_entry ? -1 :
					 entry_compare(&o.e, &n.e);
		const struct gittree_entry *e = cmp <= 0 ? &o.e : &n.e;
		g_autofree char *path =
			*prefix ? g_strdup_printf("%s/%.*s", prefix,
						  (int)e->name_len, e->name) :
				  g_strndup(e->name, e->name_len);

		if (cmp < 0) {
			if (is_tree(&o.e)) {
				if (!walk(q, path, o.e.oid, NULL, error))
					goto done;
			} else {
				pair_add(q,
					 treediff_spec_add(q, path, o.e.oid,
							   o.e.mode, TRUE),
					 treediff_spec_add(q, path, NULL, 0,
							   FALSE));
			}
			if (!cursor_next(&o, prefix, error))
				goto done;
			continue;
		}
		if (cmp > 0) {
			if (is_tree(&n.e)) {
				if (!walk(q, path, NULL, n.e.oid, error))
					goto done;
			} else {
				pair_add(q,
					 treediff_spec_add(q, path, NULL, 0,
							   FALSE),
					 treediff_spec_add(q, path, n.e.oid,
							   n.e.mode, TRUE));
			}
			if (!cursor_next(&n, prefix, error))
				goto done;
			continue;
		}
		if (!gitoid_equal(o.e.oid, n.e.oid) || o.e.mode != n.e.mode) {
			if (is_tree(&o.e)) {
				if (!walk(q, path, o.e.oid, n.e.oid, error))
					goto done;
			} else {
				pair_add(q,
					 treediff_spec_add(q, path, o.e.oid,
							   o.e.mode, TRUE),
					 treediff_spec_add(q, path, n.e.oid,
							   n.e.mode, TRUE));
			}
		}
		if (!cursor_next(&o, prefix, error) ||
		    !cursor_next(&n, prefix, error))
			goto done;
	}
	ok = TRUE;
done:
	cursor_close(&o);
	cursor_close(&n);
	return ok;
}

struct treediff *treediff_new(struct gitrepo *repo,
			      const struct gitoid *old_tree,
			      const struct gitoid *new_tree, GError **error)
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
	const struct gitindex *index;
	const struct gitindex_entry *ce;
	g_autofree char *file = NULL;
	struct stat st;
	char *contents;
	gsize len, size;

	if (!S_ISREG(spec->mode) || !(index = gitrepo_index(q->repo)))
		return NULL;
	ce = gitindex_find(index, spec->path);
	if (!ce || !gitoid_equal(&ce->oid, &spec->oid) || !S_ISREG(ce->mode) ||
	    (ce->flags & GITINDEX_ASSUME_VALID) ||
	    (ce->flags_extended & GITINDEX_SKIP_WORKTREE))
		return NULL;
	file = g_strconcat(q->repo->work_tree, spec->path, NULL);
	/* ie_match_stat(): the stat data the index recorded */
	if (lstat(file, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (st.st_mode & 0100) != (ce->mode & 0100) ||
	    (guint32)st.st_size != ce->size ||
	    (guint32)st.st_mtime != ce->mtime_sec ||
	    (guint32)st.st_mtim.tv_nsec != ce->mtime_nsec ||
	    (guint32)st.st_ctime != ce->ctime_sec ||
	    (guint32)st.st_ino != ce->ino || (guint32)st.st_dev != ce->dev ||
	    st.st_uid != ce->uid || st.st_gid != ce->gid ||
	    st.st_mtim.tv_sec > index->mtime.tv_sec ||
	    (st.st_mtim.tv_sec == index->mtime.tv_sec &&
	     st.st_mtim.tv_nsec >= index->mtime.tv_nsec))
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

gboolean treediff_spec_load(struct treediff *q, struct treediff_spec *spec,
			    GError **error)
{
	g_autoptr(GError) local = NULL;
	enum gitobj_type type;

	if (spec->data)
		return TRUE;
	if (!spec->valid) {
		spec->data = g_bytes_new_static("", 0);
		spec->has_size = TRUE;
		return TRUE;
	}
	if (spec->mode == GITMODE_COMMIT) {
		char hex[GITOID_HEXSZ + 1];

		gitoid_to_hex(&spec->oid, hex);
		spec->data = g_bytes_new_take(
			g_strdup_printf("Subproject commit %s\n", hex),
			strlen("Subproject commit \n") + GITOID_HEXSZ);
		spec->size = g_bytes_get_size(spec->data);
		spec->has_size = TRUE;
		return TRUE;
	}
	spec->data = worktree_data(q, spec);
	if (!spec->data)
		spec->data =
			gitodb_read(q->repo->odb, &spec->oid, &type, &local);
	if (!spec->data) {
		g_set_error(error, TREEDIFF_ERROR, 1,
			    "cannot read blob for '%s': %s", spec->path,
			    local->message);
		return FALSE;
	}
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
	gsize size;

	if (!spec->has_size && spec->valid && spec->mode != GITMODE_COMMIT &&
	    gitodb_read_header(q->repo->odb, &spec->oid, NULL, &size, NULL)) {
		spec->size = size;
		spec->has_size = TRUE;
	}
	return spec->has_size;
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
	}
}

gboolean treediff_pair_unmodified(const struct treediff_pair *p)
{
	/* diff.c diff_unmodified_pair(): both sides valid, same mode, same
	 * object, same path */
	return p->one->valid && p->two->valid && p->one->mode == p->two->mode &&
	       gitoid_equal(&p->one->oid, &p->two->oid) &&
	       !strcmp(p->one->path, p->two->path);
}
