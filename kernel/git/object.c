/* Parsing git objects' content: trees as git's tree-walk.c decodes them,
 * commits as commit.c parse_commit_buffer(), tags as tag.c
 * parse_tag_buffer().  See kernel/git/object.h. */
#include "kernel/git/object.h"

#include <string.h>

/* S_IFMT and friends as git stores them, whatever the host's are */
#define GIT_S_IFMT 0170000
#define GIT_S_IFREG 0100000

/* git's canon_mode() */
static guint32 canon_mode(guint32 mode)
{
	switch (mode & GIT_S_IFMT) {
	case GIT_S_IFREG:
		return mode & 0100 ? GITMODE_BLOB_EXECUTABLE : GITMODE_BLOB;
	case GITMODE_LINK:
		return GITMODE_LINK;
	case GITMODE_TREE:
		return GITMODE_TREE;
	default:
		return GITMODE_COMMIT;
	}
}

void gittree_iter_init(struct gittree_iter *it, GBytes *tree)
{
	gsize len = 0;
	const guint8 *data = tree ? g_bytes_get_data(tree, &len) : NULL;

	it->p = data;
	it->end = data ? data + len : NULL;
}

static gboolean tree_error(struct gittree_iter *it, const char *why,
			   GError **error)
{
	it->p = it->end; /* stop here */
	g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
		    "malformed tree object: %s", why);
	return FALSE;
}

/* git's decode_tree_entry(): "<octal mode> <name>\0<20-byte id>". */
gboolean gittree_iter_next(struct gittree_iter *it, struct gittree_entry *out,
			   GError **error)
{
	const guint8 *p = it->p, *end = it->end, *nul;
	guint32 mode = 0;

	if (!p || p >= end)
		return FALSE;
	if (*p == ' ')
		return tree_error(it, "malformed mode in tree entry", error);
	for (; p < end && *p != ' '; p++) {
		/* git's get_mode(): octal digits only; more than would fit
		 * in the mode is not a mode either */
		if (*p < '0' || *p > '7' || mode > 0777777)
			return tree_error(it, "malformed mode in tree entry",
					  error);
		mode = (mode << 3) + (guint32)(*p - '0');
	}
	if (p >= end)
		return tree_error(it, "too-short tree object", error);
	p++;
	nul = memchr(p, '\0', (gsize)(end - p));
	if (!nul)
		return tree_error(it, "too-short tree object", error);
	if (nul == p)
		return tree_error(it, "empty filename in tree entry", error);
	if ((gsize)(end - nul - 1) < GITOID_RAWSZ)
		return tree_error(it, "too-short tree object", error);
	out->name = (const char *)p;
	out->name_len = (gsize)(nul - p);
	out->mode = canon_mode(mode);
	out->oid = (const struct gitoid *)(nul + 1);
	it->p = nul + 1 + GITOID_RAWSZ;
	return TRUE;
}

/* 40 hex digits at @p (no terminator needed) */
static gboolean parse_hex(struct gitoid *out, const char *p)
{
	char hex[GITOID_HEXSZ + 1];

	memcpy(hex, p, GITOID_HEXSZ);
	hex[GITOID_HEXSZ] = '\0';
	return gitoid_from_hex(out, hex);
}

/* git's parse_commit_date(): the number after the last '>' of the
 * committer line that follows the author line; 0 when there is none
 * (git does not reject such a commit). */
static gint64 parse_commit_date(const char *buf, const char *tail)
{
	const char *eol, *date;

	if (buf + 6 >= tail || memcmp(buf, "author", 6) != 0)
		return 0;
	while (buf < tail && *buf++ != '\n')
		;
	if (buf + 9 >= tail || memcmp(buf, "committer", 9) != 0)
		return 0;
	eol = memchr(buf, '\n', (gsize)(tail - buf));
	if (!eol)
		return 0;
	date = eol;
	while (date > buf && date[-1] != '>')
		date--;
	if (date == buf || date == eol)
		return 0;
	/* strtoumax() as git's parse_timestamp(): it stops at the '\n' */
	return (gint64)g_ascii_strtoull(date, NULL, 10);
}

void gitcommit_clear(struct gitcommit *commit)
{
	g_clear_pointer(&commit->parents, g_array_unref);
	memset(commit, 0, sizeof(*commit));
}

gboolean gitcommit_parse(struct gitcommit *out, GBytes *data, GError **error)
{
	gsize size = 0;
	const char *buf = data ? g_bytes_get_data(data, &size) : NULL;
	const char *tail;
	const gsize tree_len = 5 + GITOID_HEXSZ; /* "tree " + hex */
	const gsize parent_len = 7 + GITOID_HEXSZ; /* "parent " + hex */

	memset(out, 0, sizeof(*out));
	out->parents = g_array_new(FALSE, FALSE, sizeof(struct gitoid));
	if (!buf) /* GBytes has no data pointer when empty */
		buf = "", size = 0;
	tail = buf + size;
	if (size <= tree_len + 1 || memcmp(buf, "tree ", 5) != 0 ||
	    buf[tree_len] != '\n') {
		g_set_error_literal(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
				    "bogus commit object");
		goto fail;
	}
	if (!parse_hex(&out->tree, buf + 5)) {
		g_set_error_literal(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
				    "bad tree pointer in commit");
		goto fail;
	}
	buf += tree_len + 1;
	while (buf + parent_len < tail && memcmp(buf, "parent ", 7) == 0) {
		struct gitoid parent;

		if (tail <= buf + parent_len + 1 ||
		    !parse_hex(&parent, buf + 7) || buf[parent_len] != '\n') {
			g_set_error_literal(error, GITODB_ERROR,
					    GITODB_ERROR_CORRUPT,
					    "bad parents in commit");
			goto fail;
		}
		g_array_append_val(out->parents, parent);
		buf += parent_len + 1;
	}
	out->committer_time = parse_commit_date(buf, tail);
	return TRUE;
fail:
	gitcommit_clear(out);
	return FALSE;
}

gboolean gittag_parse(struct gitoid *out, enum gitobj_type *type, GBytes *data,
		      GError **error)
{
	gsize size = 0;
	const char *buf = data ? g_bytes_get_data(data, &size) : NULL;
	const char *tail, *name, *nl;
	static const char *const names[] = { NULL, "commit", "tree", "blob",
					     "tag" };

	if (!buf) /* GBytes has no data pointer when empty */
		buf = "", size = 0;
	tail = buf + size;
	/* git's parse_tag_buffer(): "object <hex>\ntype <name>\n" */
	if (size < GITOID_HEXSZ + 24 || memcmp(buf, "object ", 7) != 0 ||
	    !parse_hex(out, buf + 7) || buf[7 + GITOID_HEXSZ] != '\n') {
		g_set_error_literal(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
				    "bad tag object: no object line");
		return FALSE;
	}
	name = buf + 7 + GITOID_HEXSZ + 1;
	if (tail - name < 5 || memcmp(name, "type ", 5) != 0 ||
	    !(nl = memchr(name + 5, '\n', (gsize)(tail - name - 5)))) {
		g_set_error_literal(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
				    "bad tag object: no type line");
		return FALSE;
	}
	name += 5;
	for (guint t = GITOBJ_COMMIT; t <= GITOBJ_TAG; t++) {
		if (strlen(names[t]) == (gsize)(nl - name) &&
		    memcmp(names[t], name, (gsize)(nl - name)) == 0) {
			*type = (enum gitobj_type)t;
			return TRUE;
		}
	}
	g_set_error(error, GITODB_ERROR, GITODB_ERROR_CORRUPT,
		    "unknown tag type '%.*s'", (int)MIN(nl - name, 64), name);
	return FALSE;
}
