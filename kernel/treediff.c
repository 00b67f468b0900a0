/* Tree-to-tree file pairs for diffcore: libgit2 walks the trees, the
 * pairs keep git's filespec semantics for the rename and dirstat code. */
#include "kernel/treediff.h"

#include <string.h>

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

struct treediff *treediff_new(git_repository *repo, git_tree *old_tree,
			      git_tree *new_tree, GError **error)
{
	git_diff_options opts;
	g_autoptr(treediff) q = treediff_alloc(repo);
	git_diff *diff = NULL;
	size_t n;

	/* a blob that becomes a symlink is one 'T' pair in git, while a
	 * blob that becomes a tree is a deletion plus creations, as here;
	 * no blob is read to decide binary-ness at this stage */
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_SKIP_BINARY_CHECK;
	if (git_diff_tree_to_tree(&diff, repo, old_tree, new_tree, &opts) < 0) {
		const git_error *e = git_error_last();

		g_set_error(error, TREEDIFF_ERROR, 1, "cannot diff trees: %s",
			    e ? e->message : "unknown error");
		return NULL;
	}
	n = git_diff_num_deltas(diff);
	for (size_t i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		gboolean old_valid = d->status != GIT_DELTA_ADDED;
		gboolean new_valid = d->status != GIT_DELTA_DELETED;
		const char *path = new_valid ? d->new_file.path :
					       d->old_file.path;

		pair_add(q,
			 treediff_spec_add(q, path, &d->old_file.id,
					   old_valid ? d->old_file.mode : 0,
					   old_valid),
			 treediff_spec_add(q, path, &d->new_file.id,
					   new_valid ? d->new_file.mode : 0,
					   new_valid));
	}
	git_diff_free(diff);
	return g_steal_pointer(&q);
}

gboolean treediff_spec_load(struct treediff *q, struct treediff_spec *spec,
			    GError **error)
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
	spec->size = g_bytes_get_size(spec->data);
	spec->has_size = TRUE;
	return TRUE;
}

gboolean treediff_spec_size(struct treediff *q, struct treediff_spec *spec,
			    gsize *out, GError **error)
{
	if (!spec->has_size && !treediff_spec_load(q, spec, error))
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
	       git_oid_equal(&p->one->oid, &p->two->oid) &&
	       !strcmp(p->one->path, p->two->path);
}
