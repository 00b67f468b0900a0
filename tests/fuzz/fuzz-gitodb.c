/* libFuzzer target for kernel/git/odb.c: the input becomes objects of a
 * repository in a scratch objects directory made once per process.  The
 * first byte chooses what: bit 0 a loose object whose file is the
 * input; bits 1-2 a pack, the input as the entries of a .pack (with a
 * generated header, trailer and valid .idx whose first object is at
 * offset 12) or as the .idx beside a small valid .pack (a blob, an
 * OFS_DELTA and a REF_DELTA on it).  Every id involved is then read
 * whole, by header and by prefix: data or a GError, never a crash or a
 * read out of bounds, and the header agrees with the data. */
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kernel/git/odb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PACK_IDS 4

static char *objects_dir;
static char *loose_file;
static char *pack_file;
static char *idx_file;
/* the loose object's id and the ids the generated .idx lists */
static struct gitoid loose_id;
static struct gitoid pack_ids[PACK_IDS];
/* the small valid pack for an input .idx, without its trailer */
static GByteArray *small_pack;

static void put_be32(GByteArray *a, guint32 v)
{
	guint8 b[4] = { v >> 24, v >> 16, v >> 8, v };

	g_byte_array_append(a, b, 4);
}

/* a pack entry header: type and size (git's encode_in_pack_object_header) */
static void put_entry_header(GByteArray *a, guint type, gsize size)
{
	guint8 c = (guint8)(type << 4 | (size & 15));

	size >>= 4;
	while (size) {
		c |= 0x80;
		g_byte_array_append(a, &c, 1);
		c = size & 0x7f;
		size >>= 7;
	}
	g_byte_array_append(a, &c, 1);
}

static void put_deflated(GByteArray *a, const void *data, gsize len)
{
	uLongf out_len = compressBound(len);
	g_autofree guint8 *out = g_malloc(out_len);

	if (compress(out, &out_len, data, len) != Z_OK)
		abort();
	g_byte_array_append(a, out, out_len);
}

static void write_file(const char *path, const void *data, gsize len)
{
	g_autoptr(GError) error = NULL;

	/* written in place: no temporary file and rename each run */
	if (!g_file_set_contents_full(path, (const char *)data, (gssize)len,
				      G_FILE_SET_CONTENTS_NONE, 0600, &error))
		g_error("%s", error->message);
}

static void setup(void)
{
	g_autoptr(GError) error = NULL;
	char *tmp = g_dir_make_tmp("fuzz-gitodb-XXXXXX", &error);
	static const char blob[] = "hello\nworld\n";
	/* "hello\nworld\n" -> "hello\nworld\nagain\n": copy 12, insert 6 */
	static const guint8 delta[] = { 12,  18,  0x90, 12,  6,	  'a',
					'g', 'a', 'i',	'n', '\n' };
	guint8 base_id[GITOID_RAWSZ];
	g_autofree char *dir = NULL;
	gsize ofs;

	if (!tmp)
		g_error("%s", error->message);
	objects_dir = g_build_filename(tmp, "objects", NULL);
	dir = g_build_filename(objects_dir, "pack", NULL);
	g_mkdir_with_parents(dir, 0700);
	/* loose objects live in the fan-out directory of their first byte */
	memset(loose_id.id, 0xab, GITOID_RAWSZ);
	g_free(dir);
	dir = g_build_filename(objects_dir, "ab", NULL);
	g_mkdir_with_parents(dir, 0700);
	loose_file = g_build_filename(dir,
				      "abababababababababababababababababab"
				      "abab",
				      NULL);
	pack_file =
		g_build_filename(objects_dir, "pack", "pack-fuzz.pack", NULL);
	idx_file = g_build_filename(objects_dir, "pack", "pack-fuzz.idx", NULL);
	/* sorted ids: the first is at offset 12; the last is the loose
	 * object's, so that a REF_DELTA can name a base outside the pack */
	for (guint i = 0; i < PACK_IDS - 1; i++) {
		memset(pack_ids[i].id, 0, GITOID_RAWSZ);
		pack_ids[i].id[0] = (guint8)(0x10 * (i + 1));
		pack_ids[i].id[GITOID_RAWSZ - 1] = (guint8)i;
	}
	pack_ids[PACK_IDS - 1] = loose_id;
	memcpy(base_id, pack_ids[0].id, GITOID_RAWSZ);

	small_pack = g_byte_array_new();
	g_byte_array_append(small_pack, (const guint8 *)"PACK", 4);
	put_be32(small_pack, 2);
	put_be32(small_pack, 3);
	put_entry_header(small_pack, 3, sizeof(blob) - 1);
	put_deflated(small_pack, blob, sizeof(blob) - 1);
	ofs = small_pack->len - 12;
	put_entry_header(small_pack, 6, sizeof(delta));
	g_byte_array_append(small_pack, (const guint8 *)&(guint8){ ofs }, 1);
	put_deflated(small_pack, delta, sizeof(delta));
	put_entry_header(small_pack, 7, sizeof(delta));
	g_byte_array_append(small_pack, base_id, GITOID_RAWSZ);
	put_deflated(small_pack, delta, sizeof(delta));
	g_free(tmp);
}

/* A version 2 .idx of @n objects (the ids of pack_ids) at @offsets, for
 * a pack whose trailer is @trailer. */
static GByteArray *make_idx(guint n, const guint32 *offsets,
			    const guint8 *trailer)
{
	GByteArray *idx = g_byte_array_new();
	guint8 zero[GITOID_RAWSZ] = { 0 };

	g_byte_array_append(idx, (const guint8 *)"\377tOc", 4);
	put_be32(idx, 2);
	for (guint b = 0; b < 256; b++) {
		guint32 count = 0;

		for (guint i = 0; i < n; i++)
			count += pack_ids[i].id[0] <= b;
		put_be32(idx, count);
	}
	for (guint i = 0; i < n; i++)
		g_byte_array_append(idx, pack_ids[i].id, GITOID_RAWSZ);
	for (guint i = 0; i < n; i++)
		put_be32(idx, 0); /* CRCs: not checked on read */
	for (guint i = 0; i < n; i++)
		put_be32(idx, offsets[i]);
	g_byte_array_append(idx, trailer, GITOID_RAWSZ);
	g_byte_array_append(idx, zero, GITOID_RAWSZ);
	return idx;
}

/* The input as the entries of a pack: header and trailer generated, an
 * .idx listing up to PACK_IDS objects, the first at offset 12 and the
 * others where the input's second to fourth bytes say. */
static void write_input_pack(const guint8 *data, gsize size)
{
	g_autoptr(GByteArray) pack = g_byte_array_new();
	g_autoptr(GByteArray) idx = NULL;
	guint8 trailer[GITOID_RAWSZ];
	guint32 offsets[PACK_IDS] = { 12 };
	guint n = 1 + (size ? data[0] % PACK_IDS : 0);

	for (guint i = 1; i < n; i++)
		offsets[i] = 12 + (i < size ? data[i] : 0);
	memset(trailer, 0x5a, sizeof(trailer));
	g_byte_array_append(pack, (const guint8 *)"PACK", 4);
	put_be32(pack, 2);
	put_be32(pack, n);
	g_byte_array_append(pack, data, size);
	g_byte_array_append(pack, trailer, GITOID_RAWSZ);
	idx = make_idx(n, offsets, trailer);
	write_file(pack_file, pack->data, pack->len);
	write_file(idx_file, idx->data, idx->len);
}

/* The input as the .idx of the small pack: the pack's object count and
 * trailer follow the input, so that the index itself is what is tested. */
static void write_input_idx(const guint8 *data, gsize size)
{
	g_autoptr(GByteArray) pack = g_byte_array_new();
	guint32 nr = 3;

	g_byte_array_append(pack, small_pack->data, small_pack->len);
	if (size >= 8 + 1024)
		nr = (guint32)data[8 + 1020] << 24 |
		     (guint32)data[8 + 1021] << 16 |
		     (guint32)data[8 + 1022] << 8 | data[8 + 1023];
	pack->data[8] = nr >> 24;
	pack->data[9] = nr >> 16;
	pack->data[10] = nr >> 8;
	pack->data[11] = nr;
	if (size >= 2 * GITOID_RAWSZ)
		g_byte_array_append(pack, data + size - 2 * GITOID_RAWSZ,
				    GITOID_RAWSZ);
	else
		g_byte_array_append(pack, (const guint8[GITOID_RAWSZ]){ 0 },
				    GITOID_RAWSZ);
	write_file(pack_file, pack->data, pack->len);
	write_file(idx_file, data, size);
}

static void check_object(struct gitodb *odb, const struct gitoid *oid,
			 guint prefix_len)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) bytes = NULL;
	enum gitobj_type htype = GITOBJ_NONE, type = GITOBJ_NONE;
	gsize hsize = 0;
	gboolean header;
	char hex[GITOID_HEXSZ + 1];
	struct gitoid found;

	/* the header first: gitodb_read() caches what it reads */
	header = gitodb_read_header(odb, oid, &htype, &hsize, &error);
	if (header == !!error)
		__builtin_trap();
	g_clear_error(&error);
	bytes = gitodb_read(odb, oid, &type, &error);
	if (!bytes == !error)
		__builtin_trap();
	g_clear_error(&error);
	if (bytes) {
		if (type < GITOBJ_COMMIT || type > GITOBJ_TAG)
			__builtin_trap();
		/* both read: they agree */
		if (header &&
		    (htype != type || hsize != g_bytes_get_size(bytes)))
			__builtin_trap();
	}
	gitoid_to_hex(oid, hex);
	hex[4 + prefix_len % (GITOID_HEXSZ - 3)] = '\0';
	if (gitodb_resolve_prefix(odb, hex, &found, &error) == !!error)
		__builtin_trap();
	if (!error) {
		char found_hex[GITOID_HEXSZ + 1];

		gitoid_to_hex(&found, found_hex);
		if (strncmp(found_hex, hex, strlen(hex)) != 0)
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = NULL;
	guint8 mode;

	if (!objects_dir)
		setup();
	if (size < 1)
		return 0;
	mode = data[0];
	data++;
	size--;
	g_unlink(loose_file);
	g_unlink(pack_file);
	g_unlink(idx_file);
	if (mode & 1)
		write_file(loose_file, data, size);
	if (((mode >> 1) & 3) == 1)
		write_input_pack(data, size);
	else if (((mode >> 1) & 3) == 2)
		write_input_idx(data, size);

	odb = gitodb_open(objects_dir, &error);
	if (!odb)
		g_error("%s", error->message);
	check_object(odb, &loose_id, mode >> 3);
	for (guint i = 0; i < PACK_IDS; i++)
		check_object(odb, &pack_ids[i], mode >> 3);
	/* the ids an input .idx lists */
	if (((mode >> 1) & 3) == 2 && size > 8 + 1024) {
		for (guint i = 0; i < 3; i++) {
			gsize at = 8 + 1024 + (gsize)i * GITOID_RAWSZ;

			if (at + GITOID_RAWSZ <= size)
				check_object(odb, (const void *)(data + at),
					     (mode >> 3) + i);
		}
	}
	return 0;
}
