/* Parsing the content of git objects read by gitodb: tree entries, a
 * commit's tree and parents, a tag's target (git's tree-walk.c,
 * commit.c parse_commit_buffer(), tag.c parse_tag_buffer()).  The input
 * is untrusted: a malformed object is an error, never a crash. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

/* tree entry modes as git writes them */
#define GITMODE_TREE 0040000
#define GITMODE_BLOB 0100644
#define GITMODE_BLOB_EXECUTABLE 0100755
#define GITMODE_LINK 0120000
#define GITMODE_COMMIT 0160000 /* gitlink: a submodule's commit */

/* One entry, pointing into the tree's buffer (valid while it lives). */
struct gittree_entry {
	const char *name; /* not NUL-terminated: use name_len */
	gsize name_len;
	guint32 mode; /* canonicalised as git's canon_mode() */
	const struct gitoid *oid;
};

struct gittree_iter {
	const guint8 *p, *end;
};

/* Walk the entries of a tree object's content in stored order (git
 * keeps them sorted, a subtree compared as if its name ended in '/'). */
void gittree_iter_init(struct gittree_iter *it, GBytes *tree);
/* The next entry: FALSE at the end, or FALSE with @error set when the
 * tree is malformed (bad mode, missing NUL, short id, empty name). */
gboolean gittree_iter_next(struct gittree_iter *it, struct gittree_entry *out,
			   GError **error);

struct gitcommit {
	struct gitoid tree;
	GArray *parents; /* of struct gitoid, in order */
	gint64 committer_time; /* seconds since the epoch */
};

/* The tree, parents and committer time of a commit object's content.
 * @out is cleared first; release with gitcommit_clear(). */
gboolean gitcommit_parse(struct gitcommit *out, GBytes *data,
			 GError **error);
void gitcommit_clear(struct gitcommit *commit);

/* The object a tag object's content points at, and its type. */
gboolean gittag_parse(struct gitoid *out, enum gitobj_type *type,
		      GBytes *data, GError **error);
