/* The blob index of a branch (see kernel/base/baseindex.h).
 *
 * File layout, little-endian, every section 4-byte aligned:
 *
 *   header   magic "ARMBIX1\n", n_commits, n_paths, n_changes, names_size
 *   commits  n_commits x 20 bytes: the chain, oldest first
 *   paths    n_paths x { name_off, first, count }: sorted by name (bytes)
 *   changes  n_changes x { seq, blob[20] }: by path, then seq
 *   names    names_size bytes of NUL-terminated paths
 */
#include "kernel/base/baseindex.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/git/object.h"
#include "kernel/git/repo.h"
#include "kernel/diff/treediff.h"

G_DEFINE_QUARK(baseindex - error - quark, baseindex_error)

#define MAGIC "ARMBIX1\n"

struct header {
	char magic[8];
	guint32 n_commits, n_paths, n_changes, names_size;
};

struct path_entry {
	guint32 name_off, first, count;
};

struct baseindex {
	guint8 *map;
	gsize size;
	const struct header *h;
	const struct gitoid *commits;
	const struct path_entry *paths;
	const struct baseindex_change *changes;
	const char *names;
};

G_STATIC_ASSERT(sizeof(struct header) == 24);
G_STATIC_ASSERT(sizeof(struct path_entry) == 12);
G_STATIC_ASSERT(sizeof(struct baseindex_change) == 24);
G_STATIC_ASSERT(sizeof(struct gitoid) == GITOID_RAWSZ);

void baseindex_free(struct baseindex *idx)
{
	if (!idx)
		return;
	if (idx->map)
		munmap(idx->map, idx->size);
	g_free(idx);
}

static gboolean corrupt(GError **error, const char *path, const char *why)
{
	g_set_error(error, BASEINDEX_ERROR, BASEINDEX_ERROR_CORRUPT,
		    "'%s' is not a blob index: %s", path, why);
	return FALSE;
}

/* Every offset and count checked against the file's size, every path
 * terminated inside the names and the paths sorted, so that a lookup
 * can trust what it reads. */
static gboolean validate(struct baseindex *idx, const char *path,
			 GError **error)
{
	const struct header *h = (const struct header *)idx->map;
	guint64 need = sizeof(*h);
	guint32 changes_seen = 0;

	if (idx->size < sizeof(*h) || memcmp(h->magic, MAGIC, 8))
		return corrupt(error, path, "bad magic");
	need += (guint64)h->n_commits * GITOID_RAWSZ +
		(guint64)h->n_paths * sizeof(struct path_entry) +
		(guint64)h->n_changes * sizeof(struct baseindex_change) +
		h->names_size;
	if (need != idx->size)
		return corrupt(error, path, "wrong size");
	if (h->names_size && idx->map[idx->size - 1] != '\0')
		return corrupt(error, path, "names not terminated");
	idx->h = h;
	idx->commits = (const struct gitoid *)(idx->map + sizeof(*h));
	idx->paths = (const struct path_entry *)(idx->commits + h->n_commits);
	idx->changes =
		(const struct baseindex_change *)(idx->paths + h->n_paths);
	idx->names = (const char *)(idx->changes + h->n_changes);
	for (guint32 i = 0; i < h->n_paths; i++) {
		const struct path_entry *p = &idx->paths[i];

		if (p->name_off >= h->names_size || p->first != changes_seen ||
		    !p->count || p->count > h->n_changes - changes_seen)
			return corrupt(error, path, "bad path entry");
		changes_seen += p->count;
		if (i && strcmp(idx->names + idx->paths[i - 1].name_off,
				idx->names + p->name_off) >= 0)
			return corrupt(error, path, "paths not sorted");
		for (guint32 j = 0; j < p->count; j++) {
			const struct baseindex_change *c =
				&idx->changes[p->first + j];

			if (c->seq >= h->n_commits ||
			    (j && c->seq <= c[-1].seq))
				return corrupt(error, path, "bad change");
		}
	}
	if (changes_seen != h->n_changes)
		return corrupt(error, path, "changes left over");
	return TRUE;
}

struct baseindex *baseindex_open(const char *path, GError **error)
{
	g_autoptr(baseindex) idx = g_new0(struct baseindex, 1);
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
			    "cannot open '%s': %s", path, g_strerror(e));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		close(fd);
		corrupt(error, path, "empty");
		return NULL;
	}
	idx->size = st.st_size;
	idx->map = mmap(NULL, idx->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (idx->map == MAP_FAILED) {
		idx->map = NULL;
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot map '%s': %s", path, g_strerror(errno));
		return NULL;
	}
	if (!validate(idx, path, error))
		return NULL;
	return g_steal_pointer(&idx);
}

guint baseindex_n_commits(const struct baseindex *idx)
{
	return idx->h->n_commits;
}

const struct gitoid *baseindex_commit(const struct baseindex *idx, guint seq)
{
	g_return_val_if_fail(seq < idx->h->n_commits, NULL);
	return &idx->commits[seq];
}

const struct baseindex_change *
baseindex_path_changes(const struct baseindex *idx, const char *path, guint *n)
{
	guint lo = 0, hi = idx->h->n_paths;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		const struct path_entry *p = &idx->paths[mid];
		int cmp = strcmp(path, idx->names + p->name_off);

		if (!cmp) {
			*n = p->count;
			return &idx->changes[p->first];
		}
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	*n = 0;
	return NULL;
}

gint64 baseindex_find_commit(const struct baseindex *idx,
			     const struct gitoid *commit)
{
	for (guint32 i = idx->h->n_commits; i-- > 0;)
		if (gitoid_equal(&idx->commits[i], commit))
			return i;
	return -1;
}

char *baseindex_path_for(const char *dir, const char *branch)
{
	g_autofree char *name = g_strdup(branch);

	g_strdelimit(name, "/", '~');
	return g_strdup_printf("%s/%s.idx", dir, name);
}

/* ---- building ---- */

/* The index while it is being updated: per path its change points. */
struct building {
	GHashTable *paths; /* char * -> GArray of struct baseindex_change */
	GArray *commits; /* struct gitoid */
	guint changes;
};

static void change_array_free(gpointer p)
{
	g_array_unref(p);
}

static void building_init(struct building *b)
{
	b->paths = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 change_array_free);
	b->commits = g_array_new(FALSE, FALSE, sizeof(struct gitoid));
	b->changes = 0;
}

static void building_clear(struct building *b)
{
	g_clear_pointer(&b->paths, g_hash_table_unref);
	g_clear_pointer(&b->commits, g_array_unref);
}

static void add_change(struct building *b, const char *path, guint32 seq,
		       const struct gitoid *blob)
{
	GArray *a = g_hash_table_lookup(b->paths, path);
	struct baseindex_change c = { .seq = seq };

	if (!a) {
		a = g_array_new(FALSE, FALSE, sizeof(c));
		g_hash_table_insert(b->paths, g_strdup(path), a);
	}
	if (blob)
		memcpy(c.blob, blob->id, GITOID_RAWSZ);
	g_array_append_val(a, c);
	b->changes++;
}

/* The old index's first @keep commits and their changes. */
static void load_old(struct building *b, const struct baseindex *old,
		     guint32 keep)
{
	g_array_append_vals(b->commits, old->commits, keep);
	for (guint32 i = 0; i < old->h->n_paths; i++) {
		const struct path_entry *p = &old->paths[i];
		GArray *a = NULL;

		for (guint32 j = 0; j < p->count; j++) {
			const struct baseindex_change *c =
				&old->changes[p->first + j];

			if (c->seq >= keep)
				break;
			if (!a)
				a = g_array_sized_new(FALSE, FALSE, sizeof(*c),
						      p->count);
			g_array_append_vals(a, c, 1);
		}
		if (a) {
			b->changes += a->len;
			g_hash_table_insert(b->paths,
					    g_strdup(old->names + p->name_off),
					    a);
		}
	}
}

/* Record what commit @seq changed against its first parent, whose tree
 * is @parent_tree (NULL: the root commit, everything is new). */
static gboolean index_commit(struct building *b, struct gitrepo *repo,
			     guint32 seq, const struct gitoid *parent_tree,
			     const struct gitoid *tree, GError **error)
{
	g_autoptr(treediff) q = treediff_new(repo, parent_tree, tree, error);

	if (!q)
		return FALSE;
	for (guint i = 0; i < q->pairs->len; i++) {
		const struct treediff_pair *p = q->pairs->pdata[i];

		if (p->one->valid && p->two->valid &&
		    gitoid_equal(&p->one->oid, &p->two->oid))
			continue; /* a mode change keeps the blob */
		if (p->two->valid)
			add_change(b, p->two->path, seq, &p->two->oid);
		else
			add_change(b, p->one->path, seq, NULL);
	}
	return TRUE;
}

static int compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static gboolean write_index(struct building *b, const char *path,
			    GError **error)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	g_autoptr(GByteArray) out = g_byte_array_new();
	g_autoptr(GString) strings = g_string_new(NULL);
	g_autoptr(GArray)
		entries = g_array_new(FALSE, FALSE, sizeof(struct path_entry));
	struct header h = { .n_commits = b->commits->len,
			    .n_changes = b->changes };
	GHashTableIter it;
	gpointer key;
	guint32 first = 0;

	g_hash_table_iter_init(&it, b->paths);
	while (g_hash_table_iter_next(&it, &key, NULL))
		g_ptr_array_add(names, key);
	g_ptr_array_sort(names, compare_names);
	memcpy(h.magic, MAGIC, 8);
	h.n_paths = names->len;
	for (guint i = 0; i < names->len; i++) {
		GArray *a = g_hash_table_lookup(b->paths, names->pdata[i]);
		struct path_entry e = { strings->len, first, a->len };

		g_string_append_len(strings, names->pdata[i],
				    strlen(names->pdata[i]) + 1);
		g_array_append_val(entries, e);
		first += a->len;
	}
	while (strings->len % 4)
		g_string_append_c(strings, '\0');
	h.names_size = strings->len;
	g_byte_array_append(out, (const guint8 *)&h, sizeof(h));
	g_byte_array_append(out, (const guint8 *)b->commits->data,
			    b->commits->len * GITOID_RAWSZ);
	g_byte_array_append(out, (const guint8 *)entries->data,
			    entries->len * sizeof(struct path_entry));
	for (guint i = 0; i < names->len; i++) {
		GArray *a = g_hash_table_lookup(b->paths, names->pdata[i]);

		g_byte_array_append(out, (const guint8 *)a->data,
				    a->len * sizeof(struct baseindex_change));
	}
	g_byte_array_append(out, (const guint8 *)strings->str, strings->len);
	return g_file_set_contents_full(path, (const char *)out->data, out->len,
					G_FILE_SET_CONTENTS_CONSISTENT, 0644,
					error);
}

gboolean baseindex_update(const char *git_dir, const struct gitoid *tip,
			  const char *path, struct baseindex_stats *out,
			  GError **error)
{
	g_autoptr(gitrepo) repo = NULL;
	g_autoptr(baseindex) old = NULL;
	g_autoptr(GError) old_error = NULL;
	g_autoptr(GArray)
		fresh = g_array_new(FALSE, FALSE, sizeof(struct gitoid));
	g_autoptr(GHashTable) old_seq = NULL;
	g_autofree char *dir = g_path_get_dirname(path);
	struct building b;
	struct gitoid c = *tip, parent_tree, *have_parent = NULL;
	gint64 t0 = g_get_monotonic_time();
	gint64 keep = 0;
	gboolean ok = FALSE;

	memset(out, 0, sizeof(*out));
	repo = gitrepo_open(git_dir, error);
	if (!repo)
		return FALSE;
	if (g_mkdir_with_parents(dir, 0755) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create '%s': %s", dir, g_strerror(errno));
		return FALSE;
	}
	old = baseindex_open(path, &old_error);
	if (old && baseindex_n_commits(old) &&
	    gitoid_equal(baseindex_commit(old, baseindex_n_commits(old) - 1),
			 tip)) {
		out->commits = baseindex_n_commits(old);
		out->paths = old->h->n_paths;
		out->changes = old->h->n_changes;
		out->seconds = (g_get_monotonic_time() - t0) / 1e6;
		return TRUE;
	}
	if (old) {
		old_seq = g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
						(GDestroyNotify)g_bytes_unref,
						NULL);
		for (guint32 i = 0; i < old->h->n_commits; i++)
			g_hash_table_insert(old_seq,
					    g_bytes_new_static(&old->commits[i],
							       GITOID_RAWSZ),
					    GUINT_TO_POINTER(i + 1));
	}
	/* back along the first parents to a commit the old chain has */
	keep = 0;
	for (;;) {
		struct gitcommit commit = { 0 };
		gpointer seq1 = NULL;

		if (old_seq) {
			g_autoptr(GBytes)
				key = g_bytes_new_static(&c, GITOID_RAWSZ);

			seq1 = g_hash_table_lookup(old_seq, key);
		}
		if (seq1) {
			keep = GPOINTER_TO_UINT(seq1);
			break;
		}
		g_array_append_val(fresh, c);
		if (!gitrepo_commit(repo, &c, &commit, error)) {
			g_prefix_error(error, "cannot index the branch: ");
			goto done_early;
		}
		if (!commit.parents->len) {
			gitcommit_clear(&commit);
			break;
		}
		c = g_array_index(commit.parents, struct gitoid, 0);
		gitcommit_clear(&commit);
	}
	if (old_seq)
		g_hash_table_destroy(g_steal_pointer(&old_seq));
	building_init(&b);
	if (old) {
		load_old(&b, old, keep);
		out->dropped = old->h->n_commits - keep;
	} else {
		out->rebuilt = TRUE;
	}
	if (keep) {
		struct gitoid last =
			g_array_index(b.commits, struct gitoid, keep - 1);

		if (!gitrepo_peel(repo, &last, GITOBJ_TREE, &parent_tree,
				  error))
			goto done;
		have_parent = &parent_tree;
	}
	for (guint i = fresh->len; i-- > 0;) {
		const struct gitoid *commit =
			&g_array_index(fresh, struct gitoid, i);
		struct gitoid tree;

		if (!gitrepo_peel(repo, commit, GITOBJ_TREE, &tree, error) ||
		    !index_commit(&b, repo, b.commits->len, have_parent, &tree,
				  error)) {
			g_prefix_error(error, "cannot index the branch: ");
			goto done;
		}
		g_array_append_val(b.commits, *commit);
		parent_tree = tree;
		have_parent = &parent_tree;
	}
	out->added = fresh->len;
	out->commits = b.commits->len;
	out->paths = g_hash_table_size(b.paths);
	out->changes = b.changes;
	g_clear_pointer(&old, baseindex_free);
	ok = write_index(&b, path, error);
	out->seconds = (g_get_monotonic_time() - t0) / 1e6;
done:
	building_clear(&b);
	return ok;
done_early:
	return FALSE;
}
