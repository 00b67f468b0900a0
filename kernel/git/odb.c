/* A git object database read from disk as git's object-file.c,
 * packfile.c and patch-delta.c read it.  See kernel/git/odb.h.
 *
 * Everything read from the repository is untrusted: every length and
 * offset is checked against the mapping it points into, and sizes are
 * checked for plausibility before anything is allocated, so that a
 * hostile pack gives an error and never a huge allocation or an
 * out-of-bounds read. */
#include "kernel/git/odb.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "kernel/git/quote.h"

G_DEFINE_QUARK(armbot - gitodb - error - quark, gitodb_error)

/* git's pack.h and cache.h */
#define PACK_OFS_DELTA 6
#define PACK_REF_DELTA 7
#define IDX_HEADER_SIZE 8
#define IDX_FANOUT_SIZE (4 * 256)
/* git's core.deltaBaseCacheLimit default */
#define DELTA_BASE_CACHE_LIMIT (96 * 1024 * 1024)
/* Longer than any chain pack-objects writes (its --depth is capped at
 * 4095); only a REF_DELTA loop inside one hostile pack gets there. */
#define MAX_DELTA_CHAIN 10000
/* REF_DELTA bases read from another pack, loose or an alternate. */
#define MAX_EXTERNAL_DEPTH 64
/* git's link_alt_odb_entries(): "nesting too deep" beyond this */
#define MAX_ALTERNATE_DEPTH 5
/* deflate cannot expand more than 1032:1 (zlib's technical details), so
 * a size beyond this for the compressed bytes available is corrupt */
#define MAX_DEFLATE_RATIO 1032

struct gitodb_pack {
	char *pack_path;
	char *idx_path;
	const guint8 *idx;
	gsize idx_size;
	const guint8 *pack; /* mapped on first use */
	gsize pack_size;
	gboolean pack_checked;
	char *pack_error; /* why the .pack cannot be used */
	guint32 nr;
	const guint8 *fanout, *oids, *off32, *off64;
	gsize n64;
};

/* One cached object: a delta base by its place in a pack, or (@pack
 * NULL) a commit, tag or tree read by id. */
struct cache_entry {
	const struct gitodb_pack *pack;
	guint64 offset;
	struct gitoid oid;
	GBytes *data;
	enum gitobj_type type;
	GList link;
};

struct gitodb {
	GPtrArray *sources; /* char *: the objects dir, then alternates */
	GPtrArray *packs; /* struct gitodb_pack * of every source */
	GHashTable *pack_names; /* idx paths in packs */
	GPtrArray *idx_errors; /* char *: indexes that could not be used */
	gboolean packs_scanned;
	struct gitodb_pack *last_pack; /* where the last object was */
	z_stream zs;
	struct libdeflate_decompressor *inflater;
	GHashTable *cache; /* struct cache_entry * -> itself */
	GQueue lru; /* of cache_entry.link, least recent first */
	gsize cache_bytes;
};

/* where a packed object lives */
struct objloc {
	struct gitodb_pack *pack;
	guint64 offset;
};

static const char hexdigits[] = "0123456789abcdef";

gboolean gitoid_equal(const struct gitoid *a, const struct gitoid *b)
{
	return memcmp(a->id, b->id, GITOID_RAWSZ) == 0;
}

guint gitoid_key_hash(gconstpointer oid)
{
	guint h;

	memcpy(&h, ((const struct gitoid *)oid)->id, sizeof(h));
	return h;
}

gboolean gitoid_key_equal(gconstpointer a, gconstpointer b)
{
	return gitoid_equal(a, b);
}

/* hex digit values plus one; 0 for anything else (NUL included) */
static const guint8 hexval1[256] = {
	['0'] = 1,  ['1'] = 2,	['2'] = 3,  ['3'] = 4,	['4'] = 5,  ['5'] = 6,
	['6'] = 7,  ['7'] = 8,	['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
	['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
	['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

gboolean gitoid_from_hex(struct gitoid *out, const char *hex)
{
	const guint8 *h = (const guint8 *)hex;

	for (guint i = 0; i < GITOID_RAWSZ; i++) {
		int hi = hexval1[h[2 * i]] - 1;
		int lo = hi < 0 ? -1 : hexval1[h[2 * i + 1]] - 1;

		if (lo < 0)
			return FALSE;
		out->id[i] = (guint8)(hi << 4 | lo);
	}
	return hex[GITOID_HEXSZ] == '\0';
}

void gitoid_to_hex(const struct gitoid *oid, char hex[GITOID_HEXSZ + 1])
{
	for (guint i = 0; i < GITOID_RAWSZ; i++) {
		hex[2 * i] = hexdigits[oid->id[i] >> 4];
		hex[2 * i + 1] = hexdigits[oid->id[i] & 15];
	}
	hex[GITOID_HEXSZ] = '\0';
}

gboolean gitoid_from_hexn(struct gitoid *out, const char *hex, gsize len)
{
	const guint8 *h = (const guint8 *)hex;

	if (len > GITOID_HEXSZ)
		return FALSE;
	memset(out, 0, sizeof(*out));
	for (gsize i = 0; i < len; i++) {
		int v = hexval1[h[i]] - 1;

		if (v < 0)
			return FALSE;
		out->id[i / 2] |= (guint8)(i % 2 ? v : v << 4);
	}
	return TRUE;
}

const char *gitoid_hex(const struct gitoid *oid)
{
	static _Thread_local char ring[4][GITOID_HEXSZ + 1];
	static _Thread_local guint next;
	char *hex = ring[next++ % G_N_ELEMENTS(ring)];

	gitoid_to_hex(oid, hex);
	return hex;
}

gboolean gitoid_is_zero(const struct gitoid *oid)
{
	static const struct gitoid zero;

	return gitoid_equal(oid, &zero);
}

int gitoid_cmp(const struct gitoid *a, const struct gitoid *b)
{
	return memcmp(a->id, b->id, GITOID_RAWSZ);
}

const char *gitobj_type_name(enum gitobj_type type)
{
	switch (type) {
	case GITOBJ_COMMIT:
		return "commit";
	case GITOBJ_TREE:
		return "tree";
	case GITOBJ_BLOB:
		return "blob";
	case GITOBJ_TAG:
		return "tag";
	default:
		return "bad";
	}
}

static guint32 get_be32(const guint8 *p)
{
	return (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 |
	       p[3];
}

static guint64 get_be64(const guint8 *p)
{
	return (guint64)get_be32(p) << 32 | get_be32(p + 4);
}

static gsize plausible_size(gsize compressed)
{
	if (compressed > G_MAXSIZE / MAX_DEFLATE_RATIO - 64)
		return G_MAXSIZE;
	return compressed * MAX_DEFLATE_RATIO + 64;
}

/* ---- zlib ---- */

/* Inflate from @in into @out with the odb's stream (already reset),
 * feeding zlib's 32-bit counters in slices; returns zlib's last status
 * and how much of each side was used.  Z_FINISH when @out can hold the
 * whole stream lets zlib skip its window copy (git's
 * unpack_compressed_entry() does the same). */
static int zinflate(struct gitodb *odb, const guint8 *in, gsize in_len,
		    guint8 *out, gsize out_len, int flush, gsize *in_used,
		    gsize *out_used)
{
	z_stream *zs = &odb->zs;
	gsize in_pos = 0, out_pos = 0;
	int ret;

	for (;;) {
		uInt ain = (uInt)MIN(in_len - in_pos, UINT_MAX);
		uInt aout = (uInt)MIN(out_len - out_pos, UINT_MAX);

		zs->next_in = (Bytef *)(in + in_pos);
		zs->avail_in = ain;
		zs->next_out = out + out_pos;
		zs->avail_out = aout;
		ret = inflate(zs, flush);
		in_pos += ain - zs->avail_in;
		out_pos += aout - zs->avail_out;
		if (ret != Z_OK)
			break;
	}
	*in_used = in_pos;
	*out_used = out_pos;
	return ret;
}

/* Inflate exactly @size bytes of one zlib stream at @in into a new
 * buffer (NUL-terminated beyond @size, as git's xmallocz()); anything
 * else is an error.  The size is known, so libdeflate, which wants the
 * whole output buffer at once, does it: it inflates about twice as fast
 * as zlib, which was 86% of reading the kernel's objects. */
static guint8 *inflate_exact(struct gitodb *odb, const guint8 *in, gsize in_len,
			     gsize size, gsize *in_used, const char *what,
			     GError **error)
{
	g_autofree guint8 *buf = NULL;
	gsize used_in = 0, used_out = 0;
	enum libdeflate_result ret;

	if (size > plausible_size(in_len) || !(buf = g_try_malloc(size + 1))) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
			    "%s: implausible size %" G_GSIZE_FORMAT, what,
			    size);
		return NULL;
	}
	ret = libdeflate_zlib_decompress_ex(odb->inflater, in, in_len, buf,
					    size, &used_in, &used_out);
	if (ret != LIBDEFLATE_SUCCESS || used_out != size) {
		g_set_error(
			error, GITODB_ERROR, GITODB_ERROR_CORRUPT, "%s: %s",
			what,
			ret == LIBDEFLATE_SUCCESS ||
					ret == LIBDEFLATE_INSUFFICIENT_SPACE ?
				"inflated size does not match the header" :
				"zlib stream is corrupt or truncated");
		return NULL;
	}
	buf[size] = 0;
	if (in_used)
		*in_used = used_in;
	return g_steal_pointer(&buf);
}

/* ---- delta base cache (git's delta_base_cache), and objects by id ---- */

/* Commits, tags and trees read are kept by id too, as git keeps parsed
 * objects: a revision is peeled, a commit's tree read and, in a batch of
 * ranges, each tree compared twice; a loose object costs an open, a map
 * and an inflate each time. */

static guint cache_hash(gconstpointer key)
{
	const struct cache_entry *e = key;
	guint64 h;

	if (!e->pack) {
		memcpy(&h, e->oid.id, sizeof(h));
		return (guint)(h ^ h >> 32);
	}
	h = (guint64)(guintptr)e->pack ^ (e->offset * 0x9e3779b97f4a7c15);
	return (guint)(h ^ h >> 32);
}

static gboolean cache_equal(gconstpointer a, gconstpointer b)
{
	const struct cache_entry *x = a, *y = b;

	if (!x->pack || !y->pack)
		return x->pack == y->pack && gitoid_equal(&x->oid, &y->oid);
	return x->pack == y->pack && x->offset == y->offset;
}

static void cache_entry_free(gpointer p)
{
	struct cache_entry *e = p;

	g_bytes_unref(e->data);
	g_free(e);
}

static GBytes *cache_lookup(struct gitodb *odb, const struct cache_entry *key,
			    enum gitobj_type *type)
{
	struct cache_entry *e = g_hash_table_lookup(odb->cache, key);

	if (!e)
		return NULL;
	g_queue_unlink(&odb->lru, &e->link);
	g_queue_push_tail_link(&odb->lru, &e->link);
	*type = e->type;
	return g_bytes_ref(e->data);
}

static GBytes *cache_get(struct gitodb *odb, const struct gitodb_pack *pack,
			 guint64 offset, enum gitobj_type *type)
{
	struct cache_entry key = { .pack = pack, .offset = offset };

	return cache_lookup(odb, &key, type);
}

static GBytes *cache_get_object(struct gitodb *odb, const struct gitoid *oid,
				enum gitobj_type *type)
{
	struct cache_entry key = { .oid = *oid };

	return cache_lookup(odb, &key, type);
}

static void cache_remove(struct gitodb *odb, struct cache_entry *e)
{
	g_queue_unlink(&odb->lru, &e->link);
	odb->cache_bytes -= g_bytes_get_size(e->data);
	g_hash_table_remove(odb->cache, e);
}

static void cache_insert(struct gitodb *odb, const struct cache_entry *key,
			 GBytes *data, enum gitobj_type type)
{
	struct cache_entry *e;
	gsize size = g_bytes_get_size(data);

	if (size > DELTA_BASE_CACHE_LIMIT ||
	    g_hash_table_contains(odb->cache, key))
		return;
	while (odb->cache_bytes + size > DELTA_BASE_CACHE_LIMIT &&
	       odb->lru.head)
		cache_remove(odb, odb->lru.head->data);
	e = g_memdup2(key, sizeof(*e));
	e->data = g_bytes_ref(data);
	e->type = type;
	e->link = (GList){ .data = e };
	g_queue_push_tail_link(&odb->lru, &e->link);
	odb->cache_bytes += size;
	g_hash_table_add(odb->cache, e);
}

static void cache_put(struct gitodb *odb, const struct gitodb_pack *pack,
		      guint64 offset, GBytes *data, enum gitobj_type type)
{
	struct cache_entry key = { .pack = pack, .offset = offset };

	cache_insert(odb, &key, data, type);
}

static void cache_put_object(struct gitodb *odb, const struct gitoid *oid,
			     GBytes *data, enum gitobj_type type)
{
	struct cache_entry key = { .oid = *oid };

	if (type != GITOBJ_BLOB)
		cache_insert(odb, &key, data, type);
}

/* ---- pack indexes ---- */

static void pack_free(gpointer data)
{
	struct gitodb_pack *p = data;

	if (p->idx)
		munmap((void *)p->idx, p->idx_size);
	if (p->pack)
		munmap((void *)p->pack, p->pack_size);
	g_free(p->pack_path);
	g_free(p->idx_path);
	g_free(p->pack_error);
	g_free(p);
}

static const guint8 *map_file(const char *path, gsize *size, GError **error)
{
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int saved = errno;

		g_set_error(error, GITODB_ERROR,
			    saved == ENOENT ? GITODB_ERROR_NOT_FOUND :
					      GITODB_ERROR_IO,
			    "cannot open %s: %s", path, g_strerror(saved));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
			    "%s is empty", path);
		close(fd);
		return NULL;
	}
	map = mmap(NULL, (gsize)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_IO,
			    "cannot map %s: %s", path, g_strerror(errno));
		return NULL;
	}
	*size = (gsize)st.st_size;
	return map;
}

/* git's load_idx() for index version 2. */
static gboolean pack_load_idx(struct gitodb_pack *p, GError **error)
{
	gsize min_size, max_size;
	guint32 nr = 0;

	p->idx = map_file(p->idx_path, &p->idx_size, error);
	if (!p->idx)
		return FALSE;
	if (p->idx_size < IDX_HEADER_SIZE + IDX_FANOUT_SIZE + 2 * GITOID_RAWSZ)
		goto corrupt_small;
	if (memcmp(p->idx, "\377tOc", 4) != 0 || get_be32(p->idx + 4) != 2) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
			    "index file %s is not an index of version 2",
			    p->idx_path);
		return FALSE;
	}
	p->fanout = p->idx + IDX_HEADER_SIZE;
	for (guint i = 0; i < 256; i++) {
		guint32 n = get_be32(p->fanout + 4 * i);

		if (n < nr) {
			g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
				    "non-monotonic index %s", p->idx_path);
			return FALSE;
		}
		nr = n;
	}
	/* header, fanout, ids, CRCs, offsets, the two checksums; then
	 * perhaps 8-byte offsets, at most one per object but the first */
	min_size = IDX_HEADER_SIZE + IDX_FANOUT_SIZE +
		   (gsize)nr * (GITOID_RAWSZ + 4 + 4) + 2 * GITOID_RAWSZ;
	max_size = min_size + (nr ? (gsize)(nr - 1) * 8 : 0);
	if (p->idx_size < min_size || p->idx_size > max_size) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
			    "wrong index v2 file size in %s", p->idx_path);
		return FALSE;
	}
	if ((p->idx_size - min_size) % 8)
		goto corrupt_small;
	p->nr = nr;
	p->oids = p->fanout + IDX_FANOUT_SIZE;
	p->off32 = p->oids + (gsize)nr * (GITOID_RAWSZ + 4);
	p->off64 = p->off32 + (gsize)nr * 4;
	p->n64 = (p->idx_size - min_size) / 8;
	return TRUE;

corrupt_small:
	g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
		    "index file %s is too small", p->idx_path);
	return FALSE;
}

/* git's open_packed_git_1(): the .pack matches its index. */
static gboolean pack_open(struct gitodb_pack *p, GError **error)
{
	g_autoptr(GError) local = NULL;
	guint32 version;

	if (p->pack_checked) {
		if (p->pack_error) {
			g_set_error_literal(error, GITODB_ERROR,
					    GITODB_ERROR_CORRUPT,
					    p->pack_error);
			return FALSE;
		}
		return TRUE;
	}
	p->pack_checked = TRUE;
	p->pack = map_file(p->pack_path, &p->pack_size, &local);
	if (!p->pack) {
		p->pack_error = g_strdup(local->message);
	} else if (p->pack_size < 12 + GITOID_RAWSZ) {
		p->pack_error = g_strdup_printf(
			"file %s is far too short to be a packfile",
			p->pack_path);
	} else if (memcmp(p->pack, "PACK", 4) != 0) {
		p->pack_error = g_strdup_printf("file %s is not a GIT packfile",
						p->pack_path);
	} else if ((version = get_be32(p->pack + 4)) != 2 && version != 3) {
		p->pack_error = g_strdup_printf(
			"packfile %s is version %u and not supported",
			p->pack_path, version);
	} else if (get_be32(p->pack + 8) != p->nr) {
		p->pack_error = g_strdup_printf(
			"packfile %s claims to have %u objects while index indicates %u objects",
			p->pack_path, get_be32(p->pack + 8), p->nr);
	} else if (memcmp(p->pack + p->pack_size - GITOID_RAWSZ,
			  p->idx + p->idx_size - 2 * GITOID_RAWSZ,
			  GITOID_RAWSZ) != 0) {
		p->pack_error = g_strdup_printf(
			"packfile %s does not match index", p->pack_path);
	}
	return pack_open(p, error);
}

/* Position of @id in the index, or of the first id after it. */
static gboolean pack_bsearch(const struct gitodb_pack *p, const guint8 *id,
			     gsize n, guint32 *pos)
{
	guint32 lo = id[0] ? get_be32(p->fanout + 4 * (id[0] - 1)) : 0;
	guint32 hi = get_be32(p->fanout + 4 * id[0]);

	while (lo < hi) {
		guint32 mid = lo + (hi - lo) / 2;
		int cmp = memcmp(p->oids + (gsize)mid * GITOID_RAWSZ, id, n);

		if (cmp == 0 && n == GITOID_RAWSZ) {
			*pos = mid;
			return TRUE;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pos = lo;
	return FALSE;
}

/* The pack offset of the @pos-th object: 31 bits, or with the MSB set an
 * index into the table of 8-byte offsets.  Checked against the pack. */
static gboolean pack_nth_offset(struct gitodb_pack *p, guint32 pos,
				guint64 *out, GError **error)
{
	guint32 v = get_be32(p->off32 + (gsize)pos * 4);
	guint64 off = v;

	if (v & 0x80000000u) {
		v &= 0x7fffffffu;
		if (v >= p->n64) {
			g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
				    "bad large offset in index %s",
				    p->idx_path);
			return FALSE;
		}
		off = get_be64(p->off64 + (gsize)v * 8);
	}
	if (!pack_open(p, error))
		return FALSE;
	if (off < 12 || off >= p->pack_size - GITOID_RAWSZ) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
			    "offset %" G_GUINT64_FORMAT
			    " beyond the end of packfile %s",
			    off, p->pack_path);
		return FALSE;
	}
	*out = off;
	return TRUE;
}

static gint pack_cmp_name(gconstpointer a, gconstpointer b)
{
	const struct gitodb_pack *x = *(struct gitodb_pack *const *)a;
	const struct gitodb_pack *y = *(struct gitodb_pack *const *)b;

	/* names differ only by checksum: any stable order will do */
	return g_strcmp0(x->idx_path, y->idx_path);
}

/* Add the packs of @objects_dir/pack not seen yet (git's
 * prepare_packed_git_one()): an index needs its .pack beside it. */
static void scan_packs(struct gitodb *odb, const char *objects_dir)
{
	g_autofree char *dir_path = g_build_filename(objects_dir, "pack", NULL);
	g_autoptr(GDir) dir = g_dir_open(dir_path, 0, NULL);
	g_autoptr(GPtrArray) found = g_ptr_array_new();
	const char *name;

	while (dir && (name = g_dir_read_name(dir))) {
		g_autoptr(GError) local = NULL;
		g_autofree char *idx_path = NULL;
		struct gitodb_pack *p;

		if (!g_str_has_prefix(name, "pack-") ||
		    !g_str_has_suffix(name, ".idx"))
			continue;
		idx_path = g_build_filename(dir_path, name, NULL);
		if (g_hash_table_contains(odb->pack_names, idx_path))
			continue;
		p = g_new0(struct gitodb_pack, 1);
		p->idx_path = g_steal_pointer(&idx_path);
		p->pack_path = g_strdup_printf("%.*s.pack",
					       (int)(strlen(p->idx_path) - 4),
					       p->idx_path);
		if (access(p->pack_path, F_OK) != 0) {
			pack_free(p);
			continue;
		}
		if (!pack_load_idx(p, &local)) {
			g_ptr_array_add(odb->idx_errors,
					g_strdup(local->message));
			g_hash_table_add(odb->pack_names,
					 g_strdup(p->idx_path));
			pack_free(p);
			continue;
		}
		g_hash_table_add(odb->pack_names, g_strdup(p->idx_path));
		g_ptr_array_add(found, p);
	}
	g_ptr_array_sort(found, pack_cmp_name);
	for (guint i = 0; i < found->len; i++)
		g_ptr_array_add(odb->packs, found->pdata[i]);
}

static void rescan_packs(struct gitodb *odb)
{
	for (guint i = 0; i < odb->sources->len; i++)
		scan_packs(odb, odb->sources->pdata[i]);
	odb->packs_scanned = TRUE;
}

/* 1: found, 0: not in any pack, -1: an index is corrupt there. */
static int find_packed(struct gitodb *odb, const struct gitoid *oid,
		       struct objloc *loc, GError **error)
{
	guint32 pos;

	if (!odb->packs_scanned)
		rescan_packs(odb);
	if (odb->last_pack &&
	    pack_bsearch(odb->last_pack, oid->id, GITOID_RAWSZ, &pos)) {
		loc->pack = odb->last_pack;
		return pack_nth_offset(loc->pack, pos, &loc->offset, error) ?
			       1 :
			       -1;
	}
	for (guint i = 0; i < odb->packs->len; i++) {
		struct gitodb_pack *p = odb->packs->pdata[i];

		if (p == odb->last_pack ||
		    !pack_bsearch(p, oid->id, GITOID_RAWSZ, &pos))
			continue;
		odb->last_pack = p;
		loc->pack = p;
		return pack_nth_offset(p, pos, &loc->offset, error) ? 1 : -1;
	}
	return 0;
}

static char *loose_path(const char *objects_dir, const struct gitoid *oid)
{
	char hex[GITOID_HEXSZ + 1];

	gitoid_to_hex(oid, hex);
	return g_strdup_printf("%s/%.2s/%s", objects_dir, hex, hex + 2);
}

static void set_not_found(struct gitodb *odb, const struct gitoid *oid,
			  GError **error)
{
	char hex[GITOID_HEXSZ + 1];

	gitoid_to_hex(oid, hex);
	if (odb->idx_errors->len)
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND,
			    "object %s not found (%s)", hex,
			    (char *)odb->idx_errors->pdata[0]);
	else
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND,
			    "object %s not found", hex);
}

/* ---- loose objects ---- */

static enum gitobj_type type_from_name(const char *name, gsize len)
{
	static const char *const names[] = { NULL, "commit", "tree", "blob",
					     "tag" };

	for (guint t = GITOBJ_COMMIT; t <= GITOBJ_TAG; t++)
		if (strlen(names[t]) == len && memcmp(names[t], name, len) == 0)
			return (enum gitobj_type)t;
	return GITOBJ_NONE;
}

/* git's parse_loose_header(): "<type> <decimal size>\0"; @hdr holds
 * @len inflated bytes.  Returns the length of the header with its NUL. */
static gsize parse_loose_header(const guint8 *hdr, gsize len,
				enum gitobj_type *type, gsize *size)
{
	const guint8 *sp = memchr(hdr, ' ', len);
	const guint8 *nul = memchr(hdr, '\0', len);
	const guint8 *p;
	gsize n = 0;

	if (!sp || !nul || sp > nul)
		return 0;
	*type = type_from_name((const char *)hdr, (gsize)(sp - hdr));
	if (*type == GITOBJ_NONE)
		return 0;
	p = sp + 1;
	if (p == nul)
		return 0;
	for (; p < nul; p++) {
		if (*p < '0' || *p > '9' || n > (G_MAXSIZE - 9) / 10)
			return 0;
		n = n * 10 + (gsize)(*p - '0');
	}
	*size = n;
	return (gsize)(nul - hdr) + 1;
}

/* Read the loose object @oid of source @source: its header only when
 * @data is NULL. */
static gboolean loose_read(struct gitodb *odb, guint source,
			   const struct gitoid *oid, enum gitobj_type *type,
			   gsize *size, GBytes **data, GError **error)
{
	g_autofree char *path = loose_path(odb->sources->pdata[source], oid);
	g_autoptr(GError) local = NULL;
	/* git's MAX_HEADER_LEN is 32; a size of up to 20 digits fits */
	guint8 hdr[40];
	gsize map_size = 0, in_used, out_used, hdr_len, sz = 0, have;
	const guint8 *map = map_file(path, &map_size, &local);
	g_autofree guint8 *buf = NULL;
	const char *why = NULL;
	enum gitobj_type t = GITOBJ_NONE;
	int ret;

	if (!map) {
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	inflateReset(&odb->zs);
	ret = zinflate(odb, map, map_size, hdr, sizeof(hdr), Z_NO_FLUSH,
		       &in_used, &out_used);
	if (ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
		why = "zlib stream is corrupt";
		goto fail;
	}
	hdr_len = parse_loose_header(hdr, out_used, &t, &sz);
	if (!hdr_len) {
		why = "bad object header";
		goto fail;
	}
	*type = t;
	*size = sz;
	if (!data)
		goto done;
	have = out_used - hdr_len;
	if (have > sz || sz > plausible_size(map_size) ||
	    !(buf = g_try_malloc(sz + 1))) {
		why = "inflated size does not match the header";
		goto fail;
	}
	memcpy(buf, hdr + hdr_len, have);
	if (ret == Z_STREAM_END) {
		if (have != sz) {
			why = "inflated size does not match the header";
			goto fail;
		}
	} else {
		gsize in2, out2;

		ret = zinflate(odb, map + in_used, map_size - in_used,
			       buf + have, sz - have + 1,
			       sz < UINT_MAX ? Z_FINISH : Z_NO_FLUSH, &in2,
			       &out2);
		if (ret == Z_BUF_ERROR && out2 < sz - have + 1) {
			why = "truncated zlib stream";
			goto fail;
		}
		if (ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
			why = "zlib stream is corrupt";
			goto fail;
		}
		if (ret != Z_STREAM_END || have + out2 != sz) {
			why = "inflated size does not match the header";
			goto fail;
		}
		in_used += in2;
	}
	/* git's unpack_loose_rest(): "garbage at end of loose object" */
	if (in_used != map_size) {
		why = "garbage at end of loose object";
		goto fail;
	}
	buf[sz] = 0;
	*data = g_bytes_new_take(g_steal_pointer(&buf), sz);
done:
	munmap((void *)map, map_size);
	return TRUE;
fail:
	munmap((void *)map, map_size);
	g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
		    "corrupt loose object %s: %s", path, why);
	return FALSE;
}

/* ---- pack entries ---- */

struct pack_entry {
	int type; /* 1-4, or PACK_OFS_DELTA, PACK_REF_DELTA */
	gsize size; /* inflated size of the data (the delta for deltas) */
	guint64 data; /* offset of the zlib stream */
	guint64 base; /* OFS_DELTA: offset of the base */
	struct gitoid base_oid; /* REF_DELTA */
};

static gboolean corrupt_entry(struct gitodb_pack *p, guint64 offset,
			      const char *why, GError **error)
{
	g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
		    "corrupt entry at offset %" G_GUINT64_FORMAT
		    " in packfile %s: %s",
		    offset, p->pack_path, why);
	return FALSE;
}

/* The base of the delta at @offset could not be read (@why): a missing
 * base is a broken pack, not a missing object. */
static gboolean missing_base(struct gitodb_pack *p, guint64 offset,
			     const GError *why, GError **error)
{
	g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
		    "delta base of entry at offset %" G_GUINT64_FORMAT
		    " in packfile %s: %s",
		    offset, p->pack_path, why->message);
	return FALSE;
}

/* git's unpack_object_header_buffer() and get_delta_base(). */
static gboolean pack_entry_parse(struct gitodb_pack *p, guint64 offset,
				 struct pack_entry *out, GError **error)
{
	const guint8 *end = p->pack + p->pack_size - GITOID_RAWSZ;
	const guint8 *b = p->pack + offset;
	guint64 size;
	guint shift = 4;
	guint8 c;

	if (offset < 12 || b >= end)
		return corrupt_entry(p, offset, "offset out of range", error);
	c = *b++;
	out->type = (c >> 4) & 7;
	size = c & 15;
	while (c & 0x80) {
		if (b >= end || shift >= 64)
			return corrupt_entry(p, offset, "bad object header",
					     error);
		c = *b++;
		if (shift > 57 && (c & 0x7f) >> (64 - shift))
			return corrupt_entry(p, offset, "bad object header",
					     error);
		size |= (guint64)(c & 0x7f) << shift;
		shift += 7;
	}
	if (size > G_MAXSIZE - 1)
		return corrupt_entry(p, offset, "bad object header", error);
	out->size = (gsize)size;
	switch (out->type) {
	case GITOBJ_COMMIT:
	case GITOBJ_TREE:
	case GITOBJ_BLOB:
	case GITOBJ_TAG:
		break;
	case PACK_OFS_DELTA: {
		/* git's offset encoding: each continuation adds one so that
		 * no two encodings mean the same distance */
		guint64 dist;

		if (b >= end)
			return corrupt_entry(p, offset, "truncated delta base",
					     error);
		c = *b++;
		dist = c & 127;
		while (c & 128) {
			dist += 1;
			if (b >= end || dist >> (64 - 7))
				return corrupt_entry(p, offset,
						     "bad delta base offset",
						     error);
			c = *b++;
			dist = (dist << 7) + (c & 127);
		}
		if (dist == 0 || dist >= offset)
			return corrupt_entry(p, offset,
					     "delta base offset out of bound",
					     error);
		out->base = offset - dist;
		break;
	}
	case PACK_REF_DELTA:
		if ((gsize)(end - b) < GITOID_RAWSZ)
			return corrupt_entry(p, offset, "truncated delta base",
					     error);
		memcpy(out->base_oid.id, b, GITOID_RAWSZ);
		b += GITOID_RAWSZ;
		break;
	default:
		return corrupt_entry(p, offset, "unknown object type", error);
	}
	out->data = (guint64)(b - p->pack);
	return TRUE;
}

static guint8 *pack_inflate(struct gitodb *odb, struct gitodb_pack *p,
			    guint64 offset, const struct pack_entry *e,
			    GError **error)
{
	g_autofree char *what = g_strdup_printf(
		"corrupt entry at offset %" G_GUINT64_FORMAT " in packfile %s",
		offset, p->pack_path);

	return inflate_exact(odb, p->pack + e->data,
			     p->pack_size - GITOID_RAWSZ - e->data, e->size,
			     NULL, what, error);
}

/* A delta header's varint (git's get_delta_hdr_size()). */
static gboolean delta_varint(const guint8 **data, const guint8 *top,
			     guint64 *out)
{
	guint64 v = 0;
	guint shift = 0;
	guint8 c;

	do {
		if (*data >= top || shift > 63)
			return FALSE;
		c = *(*data)++;
		v |= (guint64)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*out = v;
	return TRUE;
}

/* git's patch_delta(): copy ops take up to 4 offset and 3 size bytes (a
 * size of 0 means 0x10000), insert ops 1 to 127 literal bytes, opcode 0
 * is reserved.  Every bound is checked. */
static GBytes *delta_apply(GBytes *base, const guint8 *delta, gsize delta_len,
			   GError **error)
{
	gsize src_len;
	const guint8 *src = g_bytes_get_data(base, &src_len);
	const guint8 *data = delta, *top = delta + delta_len;
	g_autofree guint8 *dst = NULL;
	guint64 src_size, dst_size, limit;
	guint8 *out;
	gsize left;

	if (!delta_varint(&data, top, &src_size) ||
	    !delta_varint(&data, top, &dst_size))
		goto bad_length;
	if (src_size != src_len) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
			    "delta source size %" G_GUINT64_FORMAT
			    " does not match its base (%" G_GSIZE_FORMAT ")",
			    src_size, src_len);
		return NULL;
	}
	/* every op of the rest makes at most 0xffffff bytes */
	limit = (guint64)(top - data) * 0xffffff;
	if (dst_size > limit || dst_size > G_MAXSIZE - 1 ||
	    !(dst = g_try_malloc(dst_size + 1)))
		goto bad_length;
	out = dst;
	left = (gsize)dst_size;
	while (data < top) {
		guint8 cmd = *data++;

		if (cmd & 0x80) {
			guint32 cp_off = 0, cp_size = 0;

			for (guint i = 0; i < 4; i++)
				if (cmd & (1u << i)) {
					if (data >= top)
						goto bad_length;
					cp_off |= (guint32)*data++ << (8 * i);
				}
			for (guint i = 0; i < 3; i++)
				if (cmd & (0x10u << i)) {
					if (data >= top)
						goto bad_length;
					cp_size |= (guint32)*data++ << (8 * i);
				}
			if (cp_size == 0)
				cp_size = 0x10000;
			if ((guint64)cp_off + cp_size > src_len ||
			    cp_size > left)
				goto bad_length;
			memcpy(out, src + cp_off, cp_size);
			out += cp_size;
			left -= cp_size;
		} else if (cmd) {
			if (cmd > left || cmd > (gsize)(top - data))
				goto bad_length;
			memcpy(out, data, cmd);
			out += cmd;
			data += cmd;
			left -= cmd;
		} else {
			g_set_error_literal(error, GITODB_ERROR,
					    GITODB_ERROR_CORRUPT,
					    "unexpected delta opcode 0");
			return NULL;
		}
	}
	if (left != 0)
		goto bad_length;
	dst[dst_size] = 0;
	return g_bytes_new_take(g_steal_pointer(&dst), (gsize)dst_size);

bad_length:
	g_set_error_literal(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
			    "delta replay has gone wild");
	return NULL;
}

static GBytes *odb_read(struct gitodb *odb, const struct gitoid *oid,
			guint depth, enum gitobj_type *type, GError **error);

struct delta_frame {
	guint64 offset; /* of the delta entry */
	struct pack_entry entry;
};

/* git's unpack_entry(): walk down the delta chain from @offset to a
 * base that is cached or whole, then apply the deltas back up, caching
 * each base on the way (the object asked for is not cached). */
static GBytes *pack_read(struct gitodb *odb, struct gitodb_pack *p,
			 guint64 offset, guint depth, enum gitobj_type *type,
			 GError **error)
{
	g_autoptr(GArray)
		stack = g_array_new(FALSE, FALSE, sizeof(struct delta_frame));
	g_autoptr(GBytes) base = NULL;
	g_autoptr(GError) local = NULL;
	enum gitobj_type t = GITOBJ_NONE;
	guint64 cur = offset;
	gboolean base_in_pack = TRUE;

	for (;;) {
		struct delta_frame f;
		guint32 pos;

		base = cache_get(odb, p, cur, &t);
		if (base)
			break;
		if (!pack_entry_parse(p, cur, &f.entry, error))
			return NULL;
		if (f.entry.type <= GITOBJ_TAG) {
			guint8 *buf =
				pack_inflate(odb, p, cur, &f.entry, error);

			if (!buf)
				return NULL;
			base = g_bytes_new_take(buf, f.entry.size);
			t = (enum gitobj_type)f.entry.type;
			break;
		}
		if (stack->len >= MAX_DELTA_CHAIN) {
			corrupt_entry(p, offset, "delta chain too long", error);
			return NULL;
		}
		f.offset = cur;
		g_array_append_val(stack, f);
		if (f.entry.type == PACK_OFS_DELTA) {
			cur = f.entry.base;
			continue;
		}
		if (pack_bsearch(p, f.entry.base_oid.id, GITOID_RAWSZ, &pos)) {
			if (!pack_nth_offset(p, pos, &cur, error))
				return NULL;
			continue;
		}
		/* not a thin pack in a repository, but git reads such a
		 * base from wherever it is */
		if (depth >= MAX_EXTERNAL_DEPTH) {
			corrupt_entry(p, cur, "delta chain too deep", error);
			return NULL;
		}
		base = odb_read(odb, &f.entry.base_oid, depth + 1, &t, &local);
		if (!base) {
			missing_base(p, cur, local, error);
			return NULL;
		}
		base_in_pack = FALSE;
		break;
	}
	while (stack->len) {
		struct delta_frame *f = &g_array_index(
			stack, struct delta_frame, stack->len - 1);
		g_autofree guint8 *delta =
			pack_inflate(odb, p, f->offset, &f->entry, error);
		GBytes *result;

		if (!delta)
			return NULL;
		result = delta_apply(base, delta, f->entry.size, error);
		if (!result) {
			g_prefix_error(
				error,
				"corrupt entry at offset %" G_GUINT64_FORMAT
				" in packfile %s: ",
				f->offset, p->pack_path);
			return NULL;
		}
		if (base_in_pack)
			cache_put(odb, p, cur, base, t);
		g_bytes_unref(base);
		base = result;
		cur = f->offset;
		base_in_pack = TRUE;
		g_array_set_size(stack, stack->len - 1);
	}
	*type = t;
	return g_steal_pointer(&base);
}

static gboolean odb_read_header(struct gitodb *odb, const struct gitoid *oid,
				guint depth, enum gitobj_type *type,
				gsize *size, GError **error);

/* git's packed_object_info(): the size from the entry header or, for a
 * delta, from the first bytes of the delta (get_size_from_delta()); the
 * type by following the chain to its base (packed_to_object_type()). */
static gboolean pack_read_header(struct gitodb *odb, struct gitodb_pack *p,
				 guint64 offset, guint depth,
				 enum gitobj_type *type, gsize *size,
				 GError **error)
{
	struct pack_entry e;
	guint64 cur = offset;

	if (!pack_entry_parse(p, offset, &e, error))
		return FALSE;
	if (size && e.type > GITOBJ_TAG) {
		guint8 head[20];
		const guint8 *d = head;
		gsize in_used, out_used;
		guint64 src_size, dst_size;
		int ret;

		inflateReset(&odb->zs);
		ret = zinflate(odb, p->pack + e.data,
			       p->pack_size - GITOID_RAWSZ - e.data, head,
			       MIN(sizeof(head), e.size), Z_NO_FLUSH, &in_used,
			       &out_used);
		if ((ret != Z_STREAM_END && ret != Z_BUF_ERROR) ||
		    !delta_varint(&d, head + out_used, &src_size) ||
		    !delta_varint(&d, head + out_used, &dst_size) ||
		    dst_size > G_MAXSIZE - 1)
			return corrupt_entry(p, offset,
					     "delta data unpack-initial failed",
					     error);
		*size = (gsize)dst_size;
	} else if (size) {
		*size = e.size;
	}
	if (!type)
		return TRUE;
	for (guint n = 0; e.type > GITOBJ_TAG; n++) {
		guint32 pos;

		if (n >= MAX_DELTA_CHAIN)
			return corrupt_entry(p, offset, "delta chain too long",
					     error);
		if (e.type == PACK_OFS_DELTA) {
			cur = e.base;
		} else if (pack_bsearch(p, e.base_oid.id, GITOID_RAWSZ, &pos)) {
			if (!pack_nth_offset(p, pos, &cur, error))
				return FALSE;
		} else {
			if (depth >= MAX_EXTERNAL_DEPTH)
				return corrupt_entry(
					p, cur, "delta chain too deep", error);
			g_autoptr(GError) local = NULL;

			if (odb_read_header(odb, &e.base_oid, depth + 1, type,
					    NULL, &local))
				return TRUE;
			return missing_base(p, cur, local, error);
		}
		if (!pack_entry_parse(p, cur, &e, error))
			return FALSE;
	}
	*type = (enum gitobj_type)e.type;
	return TRUE;
}

/* ---- the database ---- */

/* The loose object @oid in the first source that has it: 1, or 0 when
 * none has, or -1 with @error when one is unreadable.  The file is opened
 * straight away, as git's open_loose_object() does, without a stat. */
static int loose_find_read(struct gitodb *odb, const struct gitoid *oid,
			   enum gitobj_type *type, gsize *size, GBytes **data,
			   GError **error)
{
	for (guint i = 0; i < odb->sources->len; i++) {
		g_autoptr(GError) local = NULL;

		if (loose_read(odb, i, oid, type, size, data, &local))
			return 1;
		if (!g_error_matches(local, GITODB_ERROR,
				     GITODB_ERROR_NOT_FOUND)) {
			g_propagate_error(error, g_steal_pointer(&local));
			return -1;
		}
	}
	return 0;
}

/* Read @oid whole (@data) or its header only (@data NULL): packs first,
 * then loose objects, then packs again after a rescan, as git's
 * oid_object_info_extended() looks. */
static gboolean odb_lookup(struct gitodb *odb, const struct gitoid *oid,
			   guint depth, enum gitobj_type *type, gsize *size,
			   GBytes **data, GError **error)
{
	struct objloc loc;
	int r = find_packed(odb, oid, &loc, error);

	if (r == 0) {
		r = loose_find_read(odb, oid, type, size, data, error);
		if (r != 0)
			return r > 0;
		rescan_packs(odb);
		r = find_packed(odb, oid, &loc, error);
	}
	if (r < 0)
		return FALSE;
	if (r == 0) {
		set_not_found(odb, oid, error);
		return FALSE;
	}
	if (!data)
		return pack_read_header(odb, loc.pack, loc.offset, depth, type,
					size, error);
	*data = pack_read(odb, loc.pack, loc.offset, depth, type, error);
	if (*data && size)
		*size = g_bytes_get_size(*data);
	return *data != NULL;
}

static GBytes *odb_read(struct gitodb *odb, const struct gitoid *oid,
			guint depth, enum gitobj_type *type, GError **error)
{
	GBytes *data = NULL;
	gsize size;

	if (!odb_lookup(odb, oid, depth, type, &size, &data, error))
		return NULL;
	return data;
}

static gboolean odb_read_header(struct gitodb *odb, const struct gitoid *oid,
				guint depth, enum gitobj_type *type,
				gsize *size, GError **error)
{
	enum gitobj_type t;
	gsize s;

	if (!odb_lookup(odb, oid, depth, &t, &s, NULL, error))
		return FALSE;
	if (type)
		*type = t;
	if (size)
		*size = s;
	return TRUE;
}

/* A failed read of @oid: a missing object says so as it is, anything
 * else is prefixed with the object's id. */
static void propagate_read_error(GError **error, GError **local,
				 const struct gitoid *oid)
{
	char hex[GITOID_HEXSZ + 1];

	gitoid_to_hex(oid, hex);
	if ((*local)->code != GITODB_ERROR_NOT_FOUND)
		g_prefix_error(local, "cannot read object %s: ", hex);
	g_propagate_error(error, g_steal_pointer(local));
}

GBytes *gitodb_read(struct gitodb *odb, const struct gitoid *oid,
		    enum gitobj_type *type, GError **error)
{
	g_autoptr(GError) local = NULL;
	enum gitobj_type t;
	GBytes *data = cache_get_object(odb, oid, &t);

	if (!data) {
		data = odb_read(odb, oid, 0, &t, &local);
		if (data)
			cache_put_object(odb, oid, data, t);
	}
	if (!data) {
		propagate_read_error(error, &local, oid);
		return NULL;
	}
	if (type)
		*type = t;
	return data;
}

gboolean gitodb_read_header(struct gitodb *odb, const struct gitoid *oid,
			    enum gitobj_type *type, gsize *size, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(GBytes) cached = NULL;
	enum gitobj_type t;

	cached = cache_get_object(odb, oid, &t);
	if (cached) {
		if (type)
			*type = t;
		if (size)
			*size = g_bytes_get_size(cached);
		return TRUE;
	}
	if (!odb_read_header(odb, oid, 0, type, size, &local)) {
		propagate_read_error(error, &local, oid);
		return FALSE;
	}
	return TRUE;
}

/* ---- prefixes ---- */

struct prefix_match {
	guint8 id[GITOID_RAWSZ]; /* the prefix's whole bytes */
	gsize len; /* hex digits */
	guint found;
	struct gitoid oid;
};

static gboolean prefix_matches(const struct prefix_match *m, const guint8 *id)
{
	gsize bytes = m->len / 2;

	if (memcmp(id, m->id, bytes) != 0)
		return FALSE;
	return !(m->len & 1) || (id[bytes] >> 4) == (m->id[bytes] >> 4);
}

static void prefix_add(struct prefix_match *m, const guint8 *id)
{
	if (m->found && memcmp(m->oid.id, id, GITOID_RAWSZ) == 0)
		return;
	if (!m->found)
		memcpy(m->oid.id, id, GITOID_RAWSZ);
	m->found++;
}

static void prefix_in_packs(struct gitodb *odb, struct prefix_match *m)
{
	for (guint i = 0; i < odb->packs->len && m->found < 2; i++) {
		const struct gitodb_pack *p = odb->packs->pdata[i];
		guint32 pos;

		pack_bsearch(p, m->id, (m->len + 1) / 2, &pos);
		/* an odd length compares its last nibble as zero: the
		 * matches start there */
		for (; pos < p->nr && m->found < 2; pos++) {
			const guint8 *id = p->oids + (gsize)pos * GITOID_RAWSZ;

			if (!prefix_matches(m, id))
				break;
			prefix_add(m, id);
		}
	}
}

static void prefix_in_loose(struct gitodb *odb, struct prefix_match *m,
			    const char *hex)
{
	for (guint i = 0; i < odb->sources->len && m->found < 2; i++) {
		g_autofree char *path = g_strdup_printf(
			"%s/%.2s", (char *)odb->sources->pdata[i], hex);
		g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);
		const char *name;

		while (dir && m->found < 2 && (name = g_dir_read_name(dir))) {
			char full[GITOID_HEXSZ + 1];
			struct gitoid oid;

			if (strlen(name) != GITOID_HEXSZ - 2)
				continue;
			memcpy(full, hex, 2);
			memcpy(full + 2, name, GITOID_HEXSZ - 2 + 1);
			if (!gitoid_from_hex(&oid, full) ||
			    !prefix_matches(m, oid.id))
				continue;
			prefix_add(m, oid.id);
		}
	}
}

gboolean gitodb_resolve_prefix(struct gitodb *odb, const char *hex,
			       struct gitoid *out, GError **error)
{
	struct prefix_match m = { .len = strlen(hex) };
	g_autofree char *lower = g_ascii_strdown(hex, -1);

	if (m.len < 4 || m.len > GITOID_HEXSZ) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND,
			    "short object ID %s is too short or too long", hex);
		return FALSE;
	}
	for (gsize i = 0; i < m.len; i++) {
		int v = g_ascii_xdigit_value(hex[i]);

		if (v < 0) {
			g_set_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND,
				    "%s is not a hexadecimal object ID", hex);
			return FALSE;
		}
		m.id[i / 2] |= (guint8)(i & 1 ? v : v << 4);
	}
	for (guint attempt = 0; attempt < 2 && m.found == 0; attempt++) {
		if (attempt || !odb->packs_scanned)
			rescan_packs(odb);
		prefix_in_packs(odb, &m);
		prefix_in_loose(odb, &m, lower);
	}
	if (m.found > 1) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_AMBIGUOUS,
			    "short object ID %s is ambiguous", hex);
		return FALSE;
	}
	if (m.found == 0) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_NOT_FOUND,
			    "short object ID %s not found", hex);
		return FALSE;
	}
	*out = m.oid;
	return TRUE;
}

/* ---- alternates ---- */

/* git's strchrnul(s, '\n') */
static const char *line_end(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl ? nl : s + strlen(s);
}

/* git's normalize_path_copy() for an absolute path: collapse slashes,
 * drop "." and resolve ".." lexically; NULL when ".." climbs above the
 * root. */
static char *normalize_path(const char *path)
{
	g_auto(GStrv) parts = g_strsplit(path, "/", -1);
	g_autoptr(GPtrArray) kept = g_ptr_array_new();
	GString *out = g_string_new(NULL);

	for (guint i = 0; parts[i]; i++) {
		if (!*parts[i] || strcmp(parts[i], ".") == 0)
			continue;
		if (strcmp(parts[i], "..") == 0) {
			if (!kept->len) {
				g_string_free(out, TRUE);
				return NULL;
			}
			g_ptr_array_set_size(kept, kept->len - 1);
			continue;
		}
		g_ptr_array_add(kept, parts[i]);
	}
	for (guint i = 0; i < kept->len; i++) {
		g_string_append_c(out, '/');
		g_string_append(out, kept->pdata[i]);
	}
	if (!out->len)
		g_string_append_c(out, '/');
	return g_string_free(out, FALSE);
}

static void read_info_alternates(struct gitodb *odb, const char *base,
				 guint depth, const char *normalized_objdir);

/* git's link_alt_odb_entry(): relative to the real path of the objects
 * dir that lists it, normalized, an existing directory, neither the
 * repository's own objects dir nor one already linked. */
static void link_alt_odb_entry(struct gitodb *odb, const char *entry,
			       const char *relative_base, guint depth,
			       const char *normalized_objdir)
{
	g_autofree char *joined = NULL;
	g_autofree char *path = NULL;
	gsize len;

	if (!g_path_is_absolute(entry)) {
		g_autofree char *real = realpath(relative_base, NULL);

		if (!real)
			return;
		joined = g_strconcat(real, "/", entry, NULL);
	} else {
		joined = g_strdup(entry);
	}
	path = normalize_path(joined);
	if (!path)
		return;
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	if (!g_file_test(path, G_FILE_TEST_IS_DIR) ||
	    strcmp(path, normalized_objdir) == 0)
		return;
	for (guint i = 0; i < odb->sources->len; i++)
		if (strcmp(odb->sources->pdata[i], path) == 0)
			return;
	g_ptr_array_add(odb->sources, g_strdup(path));
	read_info_alternates(odb, path, depth + 1, normalized_objdir);
}

/* git's read_info_alternates() and link_alt_odb_entries(): one entry a
 * line, '#' starts a comment line, a line starting with '"' is C-quoted
 * (broken quoting falls back to the line as it is). */
static void read_info_alternates(struct gitodb *odb, const char *base,
				 guint depth, const char *normalized_objdir)
{
	g_autofree char *path =
		g_build_filename(base, "info", "alternates", NULL);
	g_autofree char *contents = NULL;
	g_autoptr(GString) entry = g_string_new(NULL);
	const char *alt;

	if (!g_file_get_contents(path, &contents, NULL, NULL) || !*contents)
		return;
	if (depth > MAX_ALTERNATE_DEPTH)
		return; /* git: "ignoring alternate object stores, nesting
			 * too deep" */
	alt = contents;
	while (*alt) {
		const char *end;

		g_string_truncate(entry, 0);
		if (*alt == '#') {
			end = line_end(alt);
		} else if (*alt == '"' &&
			   gitquote_unquote(entry, alt, FALSE, &end)) {
			/* unquoted into entry, end after the quote */
		} else {
			end = line_end(alt);
			g_string_append_len(entry, alt, end - alt);
		}
		if (*end)
			end++;
		alt = end;
		if (entry->len)
			link_alt_odb_entry(odb, entry->str, base, depth,
					   normalized_objdir);
	}
}

struct gitodb *gitodb_open(const char *objects_dir, GError **error)
{
	struct gitodb *odb;
	g_autofree char *real = NULL;

	if (!g_file_test(objects_dir, G_FILE_TEST_IS_DIR) ||
	    !(real = realpath(objects_dir, NULL))) {
		g_set_error(error, GITODB_ERROR, GITODB_ERROR_IO,
			    "object directory %s does not exist", objects_dir);
		return NULL;
	}
	odb = g_new0(struct gitodb, 1);
	if (inflateInit(&odb->zs) != Z_OK) {
		g_free(odb);
		g_set_error_literal(error, GITODB_ERROR, GITODB_ERROR_IO,
				    "cannot initialise zlib");
		return NULL;
	}
	odb->inflater = libdeflate_alloc_decompressor();
	if (!odb->inflater) {
		inflateEnd(&odb->zs);
		g_free(odb);
		g_set_error_literal(error, GITODB_ERROR, GITODB_ERROR_IO,
				    "cannot initialise libdeflate");
		return NULL;
	}
	odb->sources = g_ptr_array_new_with_free_func(g_free);
	odb->packs = g_ptr_array_new_with_free_func(pack_free);
	odb->pack_names =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	odb->idx_errors = g_ptr_array_new_with_free_func(g_free);
	odb->cache = g_hash_table_new_full(cache_hash, cache_equal,
					   cache_entry_free, NULL);
	g_queue_init(&odb->lru);
	g_ptr_array_add(odb->sources, g_strdup(objects_dir));
	read_info_alternates(odb, objects_dir, 0, real);
	return odb;
}

void gitodb_free(struct gitodb *odb)
{
	if (!odb)
		return;
	inflateEnd(&odb->zs);
	libdeflate_free_decompressor(odb->inflater);
	g_hash_table_destroy(odb->cache);
	g_ptr_array_free(odb->packs, TRUE);
	g_ptr_array_free(odb->sources, TRUE);
	g_hash_table_destroy(odb->pack_names);
	g_ptr_array_free(odb->idx_errors, TRUE);
	g_free(odb);
}
