/* The fingerprint index of a tree (see simindex.h).
 *
 * The file: "ARMBSIM2", then little-endian u32 counts nfiles, nprints,
 * pathbytes; nfiles records of { blob id (20 bytes), path offset, path
 * length }; the paths, zero-padded to a multiple of 4 bytes; nprints
 * records of { hash, file, first line, last line } sorted by hash then
 * file.  Loading checks the size against the counts and every file number
 * and path against its table.  The records are read where they lie in
 * the mapped file (on a little-endian host; they are 4-byte aligned): a
 * series' query reads the pages it needs of the page cache, which every
 * worker shares, instead of copying the whole index (145 MB for the
 * distro tree) each time. */
#include "kernel/similar/simindex.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "kernel/git/object.h"
#include "kernel/git/repo.h"
#include "kernel/similar/ctoken.h"
#include "kernel/similar/winnow.h"

G_DEFINE_QUARK(simindex - error - quark, simindex_error)

#define MAGIC "ARMBSIM2"
#define MAX_FILES (1u << 20)
#define MAX_PRINTS (1u << 27)
#define MAX_PATHBYTES (1u << 28)
/* a blob larger than this is data, not a driver */
#define MAX_BLOB (4u << 20)

const char *const simindex_default_prefixes[] = { "drivers/", "arch/arm/",
						  "sound/soc/", NULL };

struct sfile {
	struct gitoid blob;
	guint32 path_off, path_len;
};

struct sprint {
	guint32 hash, file, first_line, last_line;
};

struct simindex {
	GArray *files; /* struct sfile */
	GByteArray *paths;
	GArray *prints; /* struct sprint, sorted; empty when mapped */
	GMappedFile *map; /* the file the records are read in, or NULL */
	const struct sprint *pv; /* the records: prints' or the map's */
	guint32 np;
};

/* Point the view at the built records. */
static void view_array(struct simindex *ix)
{
	ix->pv = (const struct sprint *)ix->prints->data;
	ix->np = ix->prints->len;
}

static int cmp_print(const void *a, const void *b)
{
	const struct sprint *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->file < y->file ? -1 : x->file > y->file;
}

static struct simindex *simindex_new(void)
{
	struct simindex *ix = g_new0(struct simindex, 1);

	ix->files = g_array_new(FALSE, FALSE, sizeof(struct sfile));
	ix->paths = g_byte_array_new();
	ix->prints = g_array_new(FALSE, FALSE, sizeof(struct sprint));
	return ix;
}

void simindex_free(struct simindex *ix)
{
	if (!ix)
		return;
	g_array_unref(ix->files);
	g_byte_array_unref(ix->paths);
	g_array_unref(ix->prints);
	g_clear_pointer(&ix->map, g_mapped_file_unref);
	g_free(ix);
}

guint simindex_files(const struct simindex *ix)
{
	return ix->files->len;
}

guint simindex_prints(const struct simindex *ix)
{
	return ix->np;
}

static char *file_path(const struct simindex *ix, guint32 file)
{
	const struct sfile *f = &g_array_index(ix->files, struct sfile, file);

	return g_strndup((const char *)ix->paths->data + f->path_off,
			 f->path_len);
}

static void put32(GByteArray *b, guint32 v)
{
	guint32 le = GUINT32_TO_LE(v);

	g_byte_array_append(b, (const guint8 *)&le, 4);
}

/* The zero bytes after @n bytes of paths: the records start 4-aligned. */
static guint pad4(guint64 n)
{
	return (4 - n % 4) % 4;
}

static guint32 get32(const guint8 *p)
{
	guint32 v;

	memcpy(&v, p, 4);
	return GUINT32_FROM_LE(v);
}

gboolean simindex_save(const struct simindex *ix, const char *path,
		       GError **error)
{
	g_autoptr(GByteArray) b = g_byte_array_new();

	g_byte_array_append(b, (const guint8 *)MAGIC, 8);
	put32(b, ix->files->len);
	put32(b, ix->np);
	put32(b, ix->paths->len);
	for (guint i = 0; i < ix->files->len; i++) {
		const struct sfile *f =
			&g_array_index(ix->files, struct sfile, i);

		g_byte_array_append(b, f->blob.id, GITOID_RAWSZ);
		put32(b, f->path_off);
		put32(b, f->path_len);
	}
	g_byte_array_append(b, ix->paths->data, ix->paths->len);
	g_byte_array_append(b, (const guint8 *)"\0\0\0", pad4(ix->paths->len));
	for (guint i = 0; i < ix->np; i++) {
		const struct sprint *p = &ix->pv[i];

		put32(b, p->hash);
		put32(b, p->file);
		put32(b, p->first_line);
		put32(b, p->last_line);
	}
	/* written to a temporary file renamed over @path: a reader sees
	 * the whole file or none */
	return g_file_set_contents(path, (const char *)b->data, b->len, error);
}

static struct simindex *corrupt(const char *path, const char *why,
				GError **error)
{
	g_set_error(error, SIMINDEX_ERROR, SIMINDEX_ERROR_CORRUPT,
		    "%s: not a similarity index: %s", path, why);
	return NULL;
}

struct simindex *simindex_load(const char *path, GError **error)
{
	g_autoptr(GMappedFile) map = g_mapped_file_new(path, FALSE, error);
	const guint8 *data, *p;
	gsize len;
	guint32 nfiles, nprints, pathbytes;
	guint64 need;
	g_autoptr(simindex) ix = NULL;

	if (!map)
		return NULL;
	data = (const guint8 *)g_mapped_file_get_contents(map);
	len = g_mapped_file_get_length(map);
	if (len < 20 || memcmp(data, MAGIC, 8))
		return corrupt(path, "bad header", error);
	p = data + 8;
	nfiles = get32(p);
	nprints = get32(p + 4);
	pathbytes = get32(p + 8);
	if (nfiles > MAX_FILES || nprints > MAX_PRINTS ||
	    pathbytes > MAX_PATHBYTES)
		return corrupt(path, "counts out of bounds", error);
	need = 20 + (guint64)nfiles * 28 + pathbytes + pad4(pathbytes) +
	       (guint64)nprints * 16;
	if (need != len)
		return corrupt(path, "size does not match the counts", error);
	p += 12;
	ix = simindex_new();
	g_array_set_size(ix->files, nfiles);
	for (guint i = 0; i < nfiles; i++, p += 28) {
		struct sfile *f = &g_array_index(ix->files, struct sfile, i);

		memcpy(f->blob.id, p, GITOID_RAWSZ);
		f->path_off = get32(p + 20);
		f->path_len = get32(p + 24);
		if ((guint64)f->path_off + f->path_len > pathbytes)
			return corrupt(path, "path out of bounds", error);
	}
	g_byte_array_append(ix->paths, p, pathbytes);
	p += pathbytes + pad4(pathbytes);
	if (G_BYTE_ORDER == G_LITTLE_ENDIAN && nprints &&
	    (gsize)(p - data) % G_ALIGNOF(struct sprint) == 0) {
		/* the file's records as they are (mappings are page
		 * aligned) */
		ix->map = g_mapped_file_ref(map);
		ix->pv = (const struct sprint *)p;
		ix->np = nprints;
	} else {
		g_array_set_size(ix->prints, nprints);
		for (guint i = 0; i < nprints; i++, p += 16) {
			struct sprint *s =
				&g_array_index(ix->prints, struct sprint, i);

			s->hash = get32(p);
			s->file = get32(p + 4);
			s->first_line = get32(p + 8);
			s->last_line = get32(p + 12);
		}
		view_array(ix);
	}
	for (guint i = 0; i < ix->np; i++)
		if (ix->pv[i].file >= nfiles ||
		    (i && cmp_print(&ix->pv[i - 1], &ix->pv[i]) > 0))
			return corrupt(path, "fingerprints out of order",
				       error);
	return g_steal_pointer(&ix);
}

/* Building: the fingerprints of an older index by blob, for reuse. */
struct reuse {
	const struct simindex *old;
	GHashTable *by_blob; /* gitoid -> GArray of struct sprint (file 0) */
};

static void reuse_init(struct reuse *r, const struct simindex *old)
{
	r->old = old;
	r->by_blob = g_hash_table_new_full(gitoid_key_hash, gitoid_key_equal,
					   NULL, (GDestroyNotify)g_array_unref);
	if (!old)
		return;
	for (guint i = 0; i < old->files->len; i++)
		g_hash_table_insert(
			r->by_blob,
			&g_array_index(old->files, struct sfile, i).blob,
			g_array_new(FALSE, FALSE, sizeof(struct sprint)));
	for (guint i = 0; i < old->np; i++) {
		const struct sprint *s = &old->pv[i];
		GArray *a = g_hash_table_lookup(
			r->by_blob,
			&g_array_index(old->files, struct sfile, s->file).blob);

		g_array_append_val(a, *s);
	}
}

struct build {
	struct gitrepo *repo;
	const char *const *prefixes;
	struct simindex *ix;
	struct reuse reuse;
	struct simindex_stats *stats;
};

static gboolean wanted(const struct build *b, const char *path, gboolean is_dir)
{
	gsize n = strlen(path);

	for (guint i = 0; b->prefixes[i]; i++) {
		gsize m = strlen(b->prefixes[i]);

		/* a folder on the way to a prefix, or under one */
		if (is_dir ? !strncmp(path, b->prefixes[i], MIN(n, m)) :
			     !strncmp(path, b->prefixes[i], m))
			return TRUE;
	}
	return FALSE;
}

static void add_file(struct build *b, const struct gitoid *blob,
		     const char *path, GArray *prints_of_file)
{
	struct sfile f = { *blob, b->ix->paths->len, strlen(path) };
	guint32 id = b->ix->files->len;

	g_array_append_val(b->ix->files, f);
	g_byte_array_append(b->ix->paths, (const guint8 *)path, f.path_len);
	for (guint i = 0; i < prints_of_file->len; i++) {
		struct sprint s =
			g_array_index(prints_of_file, struct sprint, i);

		s.file = id;
		g_array_append_val(b->ix->prints, s);
	}
}

static gboolean index_blob(struct build *b, const struct gitoid *blob,
			   const char *path, GError **error)
{
	GArray *old = g_hash_table_lookup(b->reuse.by_blob, blob);
	g_autoptr(GBytes) data = NULL;
	g_autoptr(GArray) tokens = NULL;
	g_autoptr(GArray) prints = NULL;
	g_autoptr(GArray) sp = NULL;
	enum gitobj_type type;
	gsize size;

	b->stats->files++;
	if (old) {
		b->stats->reused++;
		add_file(b, blob, path, old);
		return TRUE;
	}
	if (!gitodb_read_header(b->repo->odb, blob, &type, &size, error))
		return FALSE;
	sp = g_array_new(FALSE, FALSE, sizeof(struct sprint));
	if (size <= MAX_BLOB) {
		gsize len;
		const char *text;

		data = gitodb_read(b->repo->odb, blob, &type, error);
		if (!data)
			return FALSE;
		text = g_bytes_get_data(data, &len);
		tokens = ctoken_scan(text, len);
		prints = winnow_prints(tokens);
		for (guint i = 0; i < prints->len; i++) {
			const struct winnow_print *w =
				&g_array_index(prints, struct winnow_print, i);
			struct sprint s = { w->hash, 0, w->first_line,
					    w->last_line };

			g_array_append_val(sp, s);
		}
	}
	add_file(b, blob, path, sp);
	return TRUE;
}

static gboolean walk(struct build *b, const struct gitoid *tree,
		     const char *dir, guint depth, GError **error)
{
	g_autoptr(GBytes) data = NULL;
	struct gittree_iter it;
	struct gittree_entry e;
	enum gitobj_type type;

	if (depth > 64) {
		g_set_error(error, SIMINDEX_ERROR, SIMINDEX_ERROR_CORRUPT,
			    "%s: trees nested too deep", dir);
		return FALSE;
	}
	data = gitodb_read(b->repo->odb, tree, &type, error);
	if (!data)
		return FALSE;
	if (type != GITOBJ_TREE) {
		g_set_error(error, SIMINDEX_ERROR, SIMINDEX_ERROR_CORRUPT,
			    "%s: not a tree", dir);
		return FALSE;
	}
	gittree_iter_init(&it, data);
	while (gittree_iter_next(&it, &e, error)) {
		g_autofree char *path = g_strdup_printf(
			"%s%.*s%s", dir, (int)e.name_len, e.name,
			e.mode == GITMODE_TREE ? "/" : "");
		gsize n = strlen(path);

		if (e.mode == GITMODE_TREE) {
			if (wanted(b, path, TRUE) &&
			    !walk(b, e.oid, path, depth + 1, error))
				return FALSE;
		} else if ((e.mode == GITMODE_BLOB ||
			    e.mode == GITMODE_BLOB_EXECUTABLE) &&
			   n > 2 && !strcmp(path + n - 2, ".c") &&
			   wanted(b, path, FALSE)) {
			if (!index_blob(b, e.oid, path, error))
				return FALSE;
		}
	}
	return !(error && *error);
}

/* The cache file's name: the commit and a hash of the folders. */
static char *cache_name(const struct gitoid *commit,
			const char *const *prefixes)
{
	GString *s = g_string_new(NULL);
	g_autofree char *key = NULL;

	for (guint i = 0; prefixes[i]; i++)
		g_string_append_printf(s, "%s\n", prefixes[i]);
	key = g_compute_checksum_for_string(G_CHECKSUM_SHA1, s->str, s->len);
	g_string_free(s, TRUE);
	return g_strdup_printf("%s-%.8s.idx", gitoid_hex(commit), key);
}

/* Keep the SIMINDEX_KEEP newest index files of the same folders in @dir
 * (one is some 150 MB for the distro tree): older trees are gone. */
static void prune(const char *dir, const char *name)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) times = g_array_new(FALSE, FALSE, sizeof(gint64));
	const char *ent, *suffix = name + GITOID_HEXSZ;

	if (!d)
		return;
	while ((ent = g_dir_read_name(d))) {
		GStatBuf st;
		char *path;

		if (strlen(ent) != strlen(name) ||
		    strcmp(ent + GITOID_HEXSZ, suffix))
			continue;
		path = g_build_filename(dir, ent, NULL);
		if (g_stat(path, &st) == 0) {
			gint64 t = st.st_mtime;

			g_ptr_array_add(paths, path);
			g_array_append_val(times, t);
		} else {
			g_free(path);
		}
	}
	while (paths->len > SIMINDEX_KEEP) {
		guint oldest = G_MAXUINT;

		/* the oldest, never the one just written */
		for (guint i = 0; i < paths->len; i++)
			if (!g_str_has_suffix(paths->pdata[i], name) &&
			    (oldest == G_MAXUINT ||
			     g_array_index(times, gint64, i) <
				     g_array_index(times, gint64, oldest)))
				oldest = i;
		if (oldest == G_MAXUINT)
			break;
		g_unlink(paths->pdata[oldest]);
		g_ptr_array_remove_index(paths, oldest);
		g_array_remove_index(times, oldest);
	}
}

/* The newest index file in @dir for the same folders, for reuse. */
static struct simindex *newest_older(const char *dir, const char *name)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *ent, *suffix = name + GITOID_HEXSZ;
	g_autofree char *best = NULL;
	gint64 best_time = 0;

	if (!d)
		return NULL;
	while ((ent = g_dir_read_name(d))) {
		g_autofree char *path = NULL;
		GStatBuf st;

		if (strlen(ent) != strlen(name) ||
		    strcmp(ent + GITOID_HEXSZ, suffix))
			continue;
		path = g_build_filename(dir, ent, NULL);
		if (g_stat(path, &st) == 0 && st.st_mtime >= best_time) {
			best_time = st.st_mtime;
			g_free(best);
			best = g_steal_pointer(&path);
		}
	}
	return best ? simindex_load(best, NULL) : NULL;
}

struct simindex *simindex_open(struct gitrepo *repo,
			       const struct gitoid *commit,
			       const char *const *prefixes,
			       const char *cache_dir,
			       struct simindex_stats *stats, GError **error)
{
	struct simindex_stats local = { 0 };
	g_autofree char *name = NULL;
	g_autofree char *path = NULL;
	g_autoptr(simindex) old = NULL;
	struct gitcommit c = { 0 };
	struct build b;
	gboolean ok;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	if (!prefixes)
		prefixes = simindex_default_prefixes;
	name = cache_name(commit, prefixes);
	if (cache_dir) {
		path = g_build_filename(cache_dir, name, NULL);
		if (g_file_test(path, G_FILE_TEST_EXISTS)) {
			struct simindex *ix = simindex_load(path, NULL);

			if (ix) {
				stats->from_cache = TRUE;
				stats->files = ix->files->len;
				return ix;
			}
		}
		old = newest_older(cache_dir, name);
	}
	if (!gitrepo_commit(repo, commit, &c, error))
		return NULL;
	b = (struct build){ repo, prefixes, simindex_new(), { 0 }, stats };
	reuse_init(&b.reuse, old);
	ok = walk(&b, &c.tree, "", 0, error);
	gitcommit_clear(&c);
	g_hash_table_unref(b.reuse.by_blob);
	if (!ok) {
		simindex_free(b.ix);
		return NULL;
	}
	g_array_sort(b.ix->prints, cmp_print);
	view_array(b.ix);
	if (cache_dir) {
		if (g_mkdir_with_parents(cache_dir, 0755) < 0 ||
		    !simindex_save(b.ix, path, error)) {
			if (error && !*error)
				g_set_error(error, SIMINDEX_ERROR,
					    SIMINDEX_ERROR_IO,
					    "cannot create %s", cache_dir);
			simindex_free(b.ix);
			return NULL;
		}
		prune(cache_dir, name);
	}
	return b.ix;
}

/* The first print of @hash in the sorted table, or len. */
static guint lower_bound(const struct simindex *ix, guint32 hash)
{
	guint lo = 0, hi = ix->np;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (ix->pv[mid].hash < hash)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct cand {
	guint shared;
	guint32 first_line, last_line;
	guint32 last_hash; /* counted once per query fingerprint */
	gboolean counted;
};

gboolean simindex_query(const struct simindex *ix, const char *text, gsize len,
			const char *skip_path, struct simindex_match *out)
{
	g_autoptr(GArray) tokens = ctoken_scan(text, len);
	g_autoptr(GArray) prints = winnow_prints(tokens);
	g_autoptr(GHashTable)
		cands = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	g_autoptr(GHashTable) seen = g_hash_table_new(NULL, NULL);
	guint total = 0, best_shared = 0;
	gpointer best = NULL;
	GHashTableIter it;
	gpointer k, v;

	memset(out, 0, sizeof(*out));
	for (guint i = 0; i < prints->len; i++) {
		guint32 h = g_array_index(prints, struct winnow_print, i).hash;
		guint lo, hi, nfiles = 0;
		guint32 last_file = G_MAXUINT32;

		if (!g_hash_table_add(seen, GUINT_TO_POINTER(h)))
			continue;
		lo = lower_bound(ix, h);
		for (hi = lo; hi < ix->np && ix->pv[hi].hash == h; hi++) {
			guint32 f = ix->pv[hi].file;

			if (f != last_file)
				nfiles++;
			last_file = f;
		}
		if (nfiles > SIMINDEX_COMMON_FILES)
			continue;
		total++;
		for (guint j = lo; j < hi; j++) {
			const struct sprint *s = &ix->pv[j];
			struct cand *c = g_hash_table_lookup(
				cands, GUINT_TO_POINTER(s->file + 1));

			if (!c) {
				c = g_new0(struct cand, 1);
				c->first_line = s->first_line;
				c->last_line = s->last_line;
				g_hash_table_insert(
					cands, GUINT_TO_POINTER(s->file + 1),
					c);
			}
			if (!c->counted || c->last_hash != h) {
				c->shared++;
				c->counted = TRUE;
				c->last_hash = h;
			}
			c->first_line = MIN(c->first_line, s->first_line);
			c->last_line = MAX(c->last_line, s->last_line);
		}
	}
	if (total < SIMINDEX_MIN_PRINTS)
		return FALSE;
	g_hash_table_iter_init(&it, cands);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct cand *c = v;

		if (skip_path) {
			g_autofree char *p =
				file_path(ix, GPOINTER_TO_UINT(k) - 1);

			if (!strcmp(p, skip_path))
				continue;
		}
		if (c->shared > best_shared ||
		    (c->shared == best_shared && best &&
		     GPOINTER_TO_UINT(k) < GPOINTER_TO_UINT(best))) {
			best_shared = c->shared;
			best = k;
		}
	}
	if (!best)
		return FALSE;
	{
		struct cand *c = g_hash_table_lookup(cands, best);

		out->path = file_path(ix, GPOINTER_TO_UINT(best) - 1);
		out->shared = c->shared;
		out->total = total;
		out->percent = c->shared * 100 / total;
		out->first_line = c->first_line;
		out->last_line = c->last_line;
	}
	return TRUE;
}

void simindex_match_clear(struct simindex_match *m)
{
	g_clear_pointer(&m->path, g_free);
}
