/* libFuzzer target for kernel/git/object.c: any bytes as a tree (every
 * entry walked, each inside the buffer), as a commit and as a tag.  A
 * malformed object is an error with a GError, never a crash. */
#include <stdint.h>
#include <string.h>

#include "kernel/git/object.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_tree(GBytes *bytes, const guint8 *buf, gsize size)
{
	struct gittree_iter it;
	struct gittree_entry e;
	g_autoptr(GError) error = NULL;
	gsize n = 0;

	gittree_iter_init(&it, bytes);
	while (gittree_iter_next(&it, &e, &error)) {
		const guint8 *name = (const guint8 *)e.name;
		const guint8 *oid = e.oid->id;

		/* the name, its NUL and the id lie inside the buffer */
		if (!e.name_len || name < buf ||
		    name + e.name_len >= buf + size)
			__builtin_trap();
		if (memchr(name, '\0', e.name_len) || name[e.name_len] != '\0')
			__builtin_trap();
		if (oid != name + e.name_len + 1 ||
		    oid + GITOID_RAWSZ > buf + size)
			__builtin_trap();
		if (e.mode != GITMODE_TREE && e.mode != GITMODE_BLOB &&
		    e.mode != GITMODE_BLOB_EXECUTABLE &&
		    e.mode != GITMODE_LINK && e.mode != GITMODE_COMMIT)
			__builtin_trap();
		/* every entry takes at least "0 x\0" and an id */
		if (++n > size / (4 + GITOID_RAWSZ))
			__builtin_trap();
	}
	/* the end, or an error that stops the walk for good */
	if (error && gittree_iter_next(&it, &e, NULL))
		__builtin_trap();
}

static void fuzz_commit(GBytes *bytes, gsize size)
{
	struct gitcommit commit;
	g_autoptr(GError) error = NULL;

	if (gitcommit_parse(&commit, bytes, &error)) {
		if (error || !commit.parents ||
		    commit.parents->len > size / (7 + GITOID_HEXSZ + 1))
			__builtin_trap();
		gitcommit_clear(&commit);
	} else if (!error || commit.parents) {
		__builtin_trap();
	}
}

static void fuzz_tag(GBytes *bytes)
{
	struct gitoid oid;
	enum gitobj_type type = GITOBJ_NONE;
	g_autoptr(GError) error = NULL;

	if (gittag_parse(&oid, &type, bytes, &error)) {
		if (error || type < GITOBJ_COMMIT || type > GITOBJ_TAG)
			__builtin_trap();
	} else if (!error) {
		__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly @size bytes: ASan sees any read past it */
	g_autofree guint8 *copy = g_memdup2(data, size);
	g_autoptr(GBytes) bytes = g_bytes_new_static(copy, size);

	fuzz_tree(bytes, copy, size);
	fuzz_commit(bytes, size);
	fuzz_tag(bytes);
	return 0;
}
