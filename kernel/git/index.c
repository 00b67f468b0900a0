/* The index file as git's read-cache.c reads it (do_read_index(),
 * create_from_disk()), with every read bounds-checked: a truncated or
 * hostile index is an error.  See kernel/git/index.h. */
#include "kernel/git/index.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

G_DEFINE_QUARK(armbot - gitindex - error - quark, gitindex_error)

#define INDEX_SIGNATURE 0x44495243 /* "DIRC" */
#define INDEX_HEADER_SIZE 12
/* ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size, the
 * object id and the 16-bit flags: git's ondisk_cache_entry */
#define ENTRY_FIXED_SIZE (40 + GITOID_RAWSZ + 2)
#define CE_NAMEMASK 0x0fff
#define CE_STAGEMASK 0x3000
#define CE_EXTENDED 0x4000
/* the bits of flags2 git knows: CE_INTENT_TO_ADD and CE_SKIP_WORKTREE
 * (cache.h CE_EXTENDED_FLAGS >> 16) */
#define CE_EXTENDED_KNOWN 0x6000

static guint32 get_be32(const guint8 *p)
{
	return (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 |
	       p[3];
}

static guint16 get_be16(const guint8 *p)
{
	return (guint16)(p[0] << 8 | p[1]);
}

/* The public struct first; the entries and their paths live in two
 * blocks (an index has tens of thousands: one allocation each would
 * cost more than reading the file). */
struct index_private {
	struct gitindex pub;
	struct gitindex_entry *block;
	GStringChunk *paths;
};

void gitindex_free(struct gitindex *index)
{
	struct index_private *p = (struct index_private *)index;

	if (!index)
		return;
	g_clear_pointer(&index->entries, g_ptr_array_unref);
	g_free(p->block);
	g_clear_pointer(&p->paths, g_string_chunk_free);
	g_free(p);
}

/* git's decode_varint() (varint.c): 7 bits a byte, most significant
 * first, each continuation adding one so that every value has exactly
 * one encoding.  FALSE on overflow or when the buffer ends. */
static gboolean decode_varint(const guint8 **pp, const guint8 *end,
			      guint64 *out)
{
	const guint8 *p = *pp;
	guint64 val;
	guint8 c;

	if (p >= end)
		return FALSE;
	c = *p++;
	val = c & 127;
	while (c & 128) {
		val += 1;
		if (!val || (val >> (64 - 7)))
			return FALSE;
		if (p >= end)
			return FALSE;
		c = *p++;
		val = (val << 7) + (c & 127);
	}
	*pp = p;
	*out = val;
	return TRUE;
}

/* Entry @e from @p (at most @end), its path kept in @paths; @prev is
 * the previous entry's path (v4 strips from it).  Sets *@size to the
 * bytes the entry takes. */
static gboolean read_entry(struct gitindex_entry *e, GStringChunk *paths,
			   const guint8 *p, const guint8 *end, guint32 version,
			   const char *prev, gsize *size, GError **error)
{
	const guint8 *name;
	guint16 flags;
	gsize len, copy_len = 0, prev_len = prev ? strlen(prev) : 0;
	const guint8 *nul;

	if ((gsize)(end - p) < ENTRY_FIXED_SIZE) {
		g_set_error(error, GITINDEX_ERROR, GITINDEX_ERROR_CORRUPT,
			    "truncated index entry");
		return FALSE;
	}
	e->ctime_sec = get_be32(p);
	e->ctime_nsec = get_be32(p + 4);
	e->mtime_sec = get_be32(p + 8);
	e->mtime_nsec = get_be32(p + 12);
	e->dev = get_be32(p + 16);
	e->ino = get_be32(p + 20);
	e->mode = get_be32(p + 24);
	e->uid = get_be32(p + 28);
	e->gid = get_be32(p + 32);
	e->size = get_be32(p + 36);
	memcpy(e->oid.id, p + 40, GITOID_RAWSZ);
	flags = get_be16(p + 40 + GITOID_RAWSZ);
	e->flags = flags;
	e->flags_extended = 0;
	name = p + ENTRY_FIXED_SIZE;
	if (flags & CE_EXTENDED) {
		if (end - name < 2) {
			g_set_error(error, GITINDEX_ERROR,
				    GITINDEX_ERROR_CORRUPT,
				    "truncated index entry");
			return FALSE;
		}
		e->flags_extended = get_be16(name);
		/* read-cache.c: "unknown index entry format" */
		if (e->flags_extended & ~CE_EXTENDED_KNOWN) {
			g_set_error(error, GITINDEX_ERROR,
				    GITINDEX_ERROR_UNSUPPORTED,
				    "unknown index entry format 0x%08x",
				    (guint32)e->flags_extended << 16);
			return FALSE;
		}
		name += 2;
	}
	if (version == 4) {
		guint64 strip;

		if (!decode_varint(&name, end, &strip)) {
			g_set_error(error, GITINDEX_ERROR,
				    GITINDEX_ERROR_CORRUPT,
				    "malformed name field in the index");
			return FALSE;
		}
		/* the first entry has no previous name to strip from */
		if (prev) {
			if (strip > prev_len) {
				g_set_error(error, GITINDEX_ERROR,
					    GITINDEX_ERROR_CORRUPT,
					    "malformed name field in the "
					    "index, near path '%s'",
					    prev);
				return FALSE;
			}
			copy_len = prev_len - (gsize)strip;
		}
	}
	nul = memchr(name, '\0', end - name);
	if (!nul) {
		g_set_error(error, GITINDEX_ERROR, GITINDEX_ERROR_CORRUPT,
			    "unterminated path in the index");
		return FALSE;
	}
	len = flags & CE_NAMEMASK;
	/* a name of 0xfff bytes or more is measured (create_from_disk());
	 * a shorter one must end where its length says */
	if (len != CE_NAMEMASK && len != copy_len + (gsize)(nul - name)) {
		g_set_error(error, GITINDEX_ERROR, GITINDEX_ERROR_CORRUPT,
			    "index entry name length %zu does not match "
			    "its path",
			    len);
		return FALSE;
	}
	len = copy_len + (gsize)(nul - name);
	if (!len) {
		g_set_error(error, GITINDEX_ERROR, GITINDEX_ERROR_CORRUPT,
			    "empty path in the index");
		return FALSE;
	}
	if (version == 4) {
		/* no padding: the entry ends after the NUL */
		*size = (gsize)(nul + 1 - p);
	} else {
		/* ondisk_ce_size(): 1 to 8 NULs pad to a multiple of 8 */
		*size = ((gsize)(name - p) + len + 8) & ~(gsize)7;
		if (*size > (gsize)(end - p)) {
			g_set_error(error, GITINDEX_ERROR,
				    GITINDEX_ERROR_CORRUPT,
				    "truncated index entry '%.*s'", (int)len,
				    name);
			return FALSE;
		}
	}
	if (copy_len) {
		g_autofree char *path = g_malloc(len + 1);

		memcpy(path, prev, copy_len);
		memcpy(path + copy_len, name, nul - name + 1);
		e->path = g_string_chunk_insert_len(paths, path, len);
	} else {
		e->path = g_string_chunk_insert_len(paths, (const char *)name,
						    len);
	}
	return TRUE;
}

/* Skip the extensions between @p and @end (git's read_index_extension():
 * an unknown extension whose signature starts with a capital is
 * optional; "link" means a split index whose entries live elsewhere). */
static gboolean skip_extensions(const guint8 *p, const guint8 *end,
				GError **error)
{
	while ((gsize)(end - p) >= 8) {
		guint32 size = get_be32(p + 4);

		if (!memcmp(p, "link", 4)) {
			g_set_error(error, GITINDEX_ERROR,
				    GITINDEX_ERROR_UNSUPPORTED,
				    "split index is not supported");
			return FALSE;
		}
		if ((p[0] < 'A' || p[0] > 'Z') && memcmp(p, "sdir", 4)) {
			g_set_error(error, GITINDEX_ERROR,
				    GITINDEX_ERROR_UNSUPPORTED,
				    "index uses %.4s extension, which we do "
				    "not understand",
				    (const char *)p);
			return FALSE;
		}
		p += 8;
		if (size > (gsize)(end - p)) {
			g_set_error(error, GITINDEX_ERROR,
				    GITINDEX_ERROR_CORRUPT,
				    "truncated index extension");
			return FALSE;
		}
		p += size;
	}
	if (p != end) {
		g_set_error(error, GITINDEX_ERROR, GITINDEX_ERROR_CORRUPT,
			    "garbage after the index entries");
		return FALSE;
	}
	return TRUE;
}

struct gitindex *gitindex_parse(const void *data, gsize size, GError **error)
{
	const guint8 *buf = data;
	struct index_private *priv = g_new0(struct index_private, 1);
	g_autoptr(gitindex) index = &priv->pub;
	const guint8 *p, *end;
	guint32 version, count, i;
	const char *prev = NULL;

	/* verify_hdr(): the header and the trailing checksum must fit */
	if (size < INDEX_HEADER_SIZE + GITOID_RAWSZ) {
		g_set_error(error, GITINDEX_ERROR, GITINDEX_ERROR_CORRUPT,
			    "index file smaller than expected");
		return NULL;
	}
	if (get_be32(buf) != INDEX_SIGNATURE) {
		g_set_error(error, GITINDEX_ERROR, GITINDEX_ERROR_CORRUPT,
			    "bad signature 0x%08x", get_be32(buf));
		return NULL;
	}
	version = get_be32(buf + 4);
	if (version < 2 || version > 4) {
		g_set_error(error, GITINDEX_ERROR, GITINDEX_ERROR_UNSUPPORTED,
			    "bad index version %u", version);
		return NULL;
	}
	count = get_be32(buf + 8);
	end = buf + size - GITOID_RAWSZ;
	p = buf + INDEX_HEADER_SIZE;
	/* each entry takes at least its fixed part and a NUL: refuse a
	 * count that cannot fit before allocating for it */
	if (count > (gsize)(end - p) / (ENTRY_FIXED_SIZE + 1)) {
		g_set_error(error, GITINDEX_ERROR, GITINDEX_ERROR_CORRUPT,
			    "index claims %u entries, more than fit", count);
		return NULL;
	}
	index->entries = g_ptr_array_sized_new(count);
	priv->block = g_new(struct gitindex_entry, count);
	priv->paths = g_string_chunk_new(MIN(size, 1 << 20));
	for (i = 0; i < count; i++) {
		struct gitindex_entry *e = &priv->block[i];
		gsize len;

		if (!read_entry(e, priv->paths, p, end, version, prev, &len,
				error)) {
			g_prefix_error(error, "entry %u: ", i);
			return NULL;
		}
		g_ptr_array_add(index->entries, e);
		prev = e->path;
		p += len;
	}
	if (!skip_extensions(p, end, error))
		return NULL;
	return g_steal_pointer(&index);
}

struct gitindex *gitindex_read(const char *file, GError **error)
{
	g_autoptr(GMappedFile) map = NULL;
	struct gitindex *index;
	GStatBuf st;

	/* the stat first: an index replaced after it looks older, which
	 * only makes more entries racily clean (git stats the open fd) */
	if (g_stat(file, &st) < 0) {
		int e = errno;

		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
			    "cannot stat '%s': %s", file, g_strerror(e));
		return NULL;
	}
	/* mapped as git's do_read_index() does: no copy of a file that
	 * has about a hundred bytes for each path of the work tree */
	map = g_mapped_file_new(file, FALSE, error);
	if (!map)
		return NULL;
	index = gitindex_parse(g_mapped_file_get_contents(map),
			       g_mapped_file_get_length(map), error);
	if (!index) {
		g_prefix_error(error, "%s: ", file);
		return NULL;
	}
	index->mtime = st.st_mtim;
	return index;
}

const struct gitindex_entry *gitindex_find(const struct gitindex *index,
					   const char *path)
{
	guint lo = 0, hi = index->entries->len;

	/* index_name_stage_pos(): by name, then stage */
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		const struct gitindex_entry *e = index->entries->pdata[mid];
		int cmp = strcmp(path, e->path);

		if (!cmp)
			cmp = 0 - ((e->flags & CE_STAGEMASK) >> 12);
		if (!cmp)
			return e;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
