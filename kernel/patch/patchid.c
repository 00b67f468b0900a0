/* git patch-id of a patch text (builtin/patch-id.c of git 2.39.5,
 * get_one_patchid() and generate_id_list(), line for line) and of a
 * commit (its diff rendered as format-patch renders it: diff.c
 * run_diff(), fill_metainfo(), builtin_diff()).  See kernel/patch/patchid.h. */
#include "kernel/patch/patchid.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/diff/diffrename.h"
#include "kernel/git/lg2repo.h"
#include "kernel/git/object.h"
#include "kernel/git/repo.h"
#include "kernel/tree/tree.h"
#include "kernel/diff/treediff.h"

#define PATCHID_ERROR (g_quark_from_static_string("patchid-error"))

/* GIT_MAX_HEXSZ: git copies at most this much of each id of an index
 * line (strlcpy into GIT_MAX_HEXSZ + 1 bytes) */
#define INDEX_ID_MAX 64

struct patchid_parser {
	enum patchid_mode mode;
	GChecksum *ctx;
	struct gitoid result; /* the sum of the files' hashes so far */
	struct gitoid commit; /* generate_id_list()'s oid: the current patch's */
	guint64 patchlen; /* bytes hashed; 0: nothing to print */
	int before, after; /* -1: in a file's header */
	gboolean diff_is_binary;
	char pre_oid[INDEX_ID_MAX + 1], post_oid[INDEX_ID_MAX + 1];
	GByteArray *scratch; /* a line without its whitespace */
	GString *partial; /* the incomplete last line of a feed */
	gboolean failed;
};

/* git's sane_ctype (ctype.c) decides, not the locale: space is only
 * these four (not \v or \f), letters only ASCII ones. */
static gboolean git_isspace(guchar c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static gboolean has_prefix(const char *line, gsize len, const char *prefix)
{
	gsize n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

/* git's get_oid_hex(): 40 hex digits at @s, whatever follows them. */
static gboolean oid_from_hex(struct gitoid *out, const char *s, gsize len)
{
	if (len < GITOID_HEXSZ)
		return FALSE;
	for (gsize i = 0; i < GITOID_RAWSZ; i++) {
		int hi = g_ascii_xdigit_value(s[2 * i]);
		int lo = g_ascii_xdigit_value(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return FALSE;
		out->id[i] = (unsigned char)(hi << 4 | lo);
	}
	return TRUE;
}

/* diff.c flush_one_hunk(): add the hash of what was hashed since the last
 * flush to the result, as a 20-byte little-endian sum whose last carry is
 * dropped, and start a new hash. */
static void flush_one_hunk(struct patchid_parser *p)
{
	guint8 hash[GITOID_RAWSZ];
	gsize n = sizeof(hash);
	unsigned carry = 0;

	g_checksum_get_digest(p->ctx, hash, &n);
	g_checksum_reset(p->ctx);
	for (int i = 0; i < GITOID_RAWSZ; i++) {
		carry += p->result.id[i] + hash[i];
		p->result.id[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

/* The state get_one_patchid() starts each call with.  git leaves its two
 * index id buffers uninitialised: in practice a call finds there what the
 * last one left (a binary patch without an index line hashes the ids of
 * the patch before), and the first call whatever was on the stack.  Here
 * they carry over from patch to patch and start empty. */
static void patch_start(struct patchid_parser *p)
{
	g_checksum_reset(p->ctx);
	memset(&p->result, 0, sizeof(p->result));
	p->patchlen = 0;
	p->before = p->after = -1;
	p->diff_is_binary = FALSE;
}

/* The end of get_one_patchid() and one round of generate_id_list(): the
 * last flush, the line printed if anything was hashed, and @next (NULL:
 * all zeros, as after a patch that ended without a commit line) the
 * commit of the next patch. */
static void patch_end(struct patchid_parser *p, GArray *out,
		      const struct gitoid *next)
{
	flush_one_hunk(p);
	if (p->patchlen) {
		struct patchid_result r = { p->result, p->commit };

		g_array_append_val(out, r);
	}
	if (next)
		p->commit = *next;
	else
		memset(&p->commit, 0, sizeof(p->commit));
	patch_start(p);
}

struct patchid_parser *patchid_parser_new(enum patchid_mode mode)
{
	struct patchid_parser *p = g_new0(struct patchid_parser, 1);

	p->mode = mode;
	p->ctx = g_checksum_new(G_CHECKSUM_SHA1);
	p->scratch = g_byte_array_new();
	p->partial = g_string_new(NULL);
	patch_start(p);
	return p;
}

void patchid_parser_free(struct patchid_parser *p)
{
	if (!p)
		return;
	g_checksum_free(p->ctx);
	g_byte_array_unref(p->scratch);
	g_string_free(p->partial, TRUE);
	g_free(p);
}

/* git's scan_hunk_header() after the fix of git 2.39 (a count left out
 * is 1), on the NUL-terminated @line, with atoi() as git calls it (it
 * takes a sign and leading blanks; the digits checked are strspn's). */
static void scan_hunk_header(const char *line, int *p_before, int *p_after)
{
	static const char digits[] = "0123456789";
	const char *q = line + 4, *r;
	gsize n = strspn(q, digits);

	if (q[n] == ',') {
		q += n + 1;
		*p_before = atoi(q);
		n = strspn(q, digits);
	} else {
		*p_before = 1;
	}
	if (n == 0 || q[n] != ' ' || q[n + 1] != '+')
		return;
	r = q + n + 2;
	n = strspn(r, digits);
	if (r[n] == ',') {
		r += n + 1;
		*p_after = atoi(r);
	} else {
		*p_after = 1;
	}
}

/* An index line: git keeps the text between "index " and ".." and the
 * text after ".." up to the next space, or up to the last character of
 * the line (its newline, or a real character on an unterminated last
 * line), at most INDEX_ID_MAX bytes of each.  A line without ".." leaves
 * the ids of the last index line. */
static void index_ids(struct patchid_parser *p, const char *line, gsize len)
{
	const char *end = line + len;
	const char *dots = g_strstr_len(line, len, "..");
	const char *oid2_end;
	gsize n;

	if (!dots)
		return;
	oid2_end = memchr(dots, ' ', end - dots);
	if (!oid2_end)
		oid2_end = end - 1;
	n = MIN((gsize)(dots - (line + 6)), INDEX_ID_MAX);
	memcpy(p->pre_oid, line + 6, n);
	p->pre_oid[n] = '\0';
	n = oid2_end > dots + 2 ? (gsize)(oid2_end - (dots + 2)) : 0;
	n = MIN(n, INDEX_ID_MAX);
	memcpy(p->post_oid, dots + 2, n);
	p->post_oid[n] = '\0';
}

/* Hash @line as git does: without its whitespace (remove_space()), or
 * whole with --verbatim. */
static void hash_line(struct patchid_parser *p, const char *line, gsize len)
{
	if (p->mode == PATCHID_VERBATIM) {
		g_checksum_update(p->ctx, (const guchar *)line, len);
		p->patchlen += len;
		return;
	}
	g_byte_array_set_size(p->scratch, 0);
	for (gsize i = 0; i < len; i++)
		if (!git_isspace(line[i]))
			g_byte_array_append(p->scratch,
					    (const guint8 *)line + i, 1);
	g_checksum_update(p->ctx, p->scratch->data, p->scratch->len);
	p->patchlen += p->scratch->len;
}

/* One line of input, with its newline if it has one: the body of
 * get_one_patchid()'s loop.  git reads each line as a C string, so a NUL
 * ends it there. */
static void parser_line(struct patchid_parser *p, const char *line, gsize len,
			GArray *out)
{
	const char *nul = memchr(line, '\0', len);
	const char *hex = line;
	struct gitoid next;

	if (nul)
		len = nul - line;
	/* possibly skip over the prefix added by "log" or "format-patch";
	 * "\ No newline at end of file" is not hashed */
	if (has_prefix(line, len, "commit "))
		hex = line + strlen("commit ");
	else if (has_prefix(line, len, "From "))
		hex = line + strlen("From ");
	else if (has_prefix(line, len, "\\ ") && len > 12) {
		if (p->mode == PATCHID_VERBATIM)
			g_checksum_update(p->ctx, (const guchar *)line, len);
		return;
	}
	/* any line starting with an id starts the next patch */
	if (oid_from_hex(&next, hex, len - (hex - line))) {
		patch_end(p, out, &next);
		return;
	}
	/* ignore commit comments */
	if (!p->patchlen && !has_prefix(line, len, "diff "))
		return;
	/* parsing a diff header? */
	if (p->before == -1) {
		if (has_prefix(line, len, "GIT binary patch") ||
		    has_prefix(line, len, "Binary files")) {
			/* the ids of the index line stand for the content */
			p->diff_is_binary = TRUE;
			p->before = 0;
			g_checksum_update(p->ctx, (const guchar *)p->pre_oid,
					  strlen(p->pre_oid));
			g_checksum_update(p->ctx, (const guchar *)p->post_oid,
					  strlen(p->post_oid));
			if (p->mode != PATCHID_UNSTABLE)
				flush_one_hunk(p);
			return;
		} else if (has_prefix(line, len, "index ")) {
			index_ids(p, line, len);
			return;
		} else if (has_prefix(line, len, "--- ")) {
			p->before = p->after = 1;
		} else if (!len || !g_ascii_isalpha(line[0])) {
			patch_end(p, out, NULL);
			return;
		}
	}
	/* the rest of a binary patch, and the "diff " line after it, are
	 * not hashed */
	if (p->diff_is_binary) {
		if (has_prefix(line, len, "diff ")) {
			p->diff_is_binary = FALSE;
			p->before = -1;
		}
		return;
	}
	/* looking for a valid hunk header? */
	if (p->before == 0 && p->after == 0) {
		if (has_prefix(line, len, "@@ -")) {
			/* parse the next hunk, but ignore line numbers */
			g_byte_array_set_size(p->scratch, 0);
			g_byte_array_append(p->scratch, (const guint8 *)line,
					    len);
			g_byte_array_append(p->scratch, (const guint8 *)"", 1);
			scan_hunk_header((const char *)p->scratch->data,
					 &p->before, &p->after);
			return;
		}
		/* split at the end of the patch */
		if (!has_prefix(line, len, "diff ")) {
			patch_end(p, out, NULL);
			return;
		}
		/* else another file's header */
		if (p->mode != PATCHID_UNSTABLE)
			flush_one_hunk(p);
		p->before = p->after = -1;
	}
	/* inside a hunk; git's int counters wrap as two's complement */
	if (len && (line[0] == '-' || line[0] == ' '))
		p->before = (int)((unsigned)p->before - 1);
	if (len && (line[0] == '+' || line[0] == ' '))
		p->after = (int)((unsigned)p->after - 1);
	hash_line(p, line, len);
}

gboolean patchid_parser_feed(struct patchid_parser *p, const char *data,
			     gsize len, GArray *out, GError **error)
{
	const char *end = data + len;

	if (p->failed) {
		g_set_error(error, PATCHID_ERROR, 1,
			    "patch-id: no more input taken (the stream ended "
			    "or had a line too long)");
		return FALSE;
	}
	while (data < end) {
		const char *nl = memchr(data, '\n', end - data);
		gsize n = nl ? (gsize)(nl + 1 - data) : (gsize)(end - data);

		if (p->partial->len + n > PATCHID_LINE_MAX) {
			p->failed = TRUE;
			g_set_error(error, PATCHID_ERROR, 1,
				    "patch-id: line too long (more than %u "
				    "bytes)",
				    PATCHID_LINE_MAX);
			return FALSE;
		}
		if (!nl) {
			g_string_append_len(p->partial, data, n);
			break;
		}
		if (p->partial->len) {
			g_string_append_len(p->partial, data, n);
			parser_line(p, p->partial->str, p->partial->len, out);
			g_string_truncate(p->partial, 0);
		} else {
			parser_line(p, data, n, out);
		}
		data += n;
	}
	return TRUE;
}

void patchid_parser_finish(struct patchid_parser *p, GArray *out)
{
	if (p->failed)
		return;
	if (p->partial->len)
		parser_line(p, p->partial->str, p->partial->len, out);
	g_string_truncate(p->partial, 0);
	patch_end(p, out, NULL);
	p->failed = TRUE; /* finished: no more input */
}

GArray *patchid_stream(const char *text, gsize len, enum patchid_mode mode)
{
	g_autoptr(patchid_parser) p = patchid_parser_new(mode);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct patchid_result));
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', end - text);
		gsize n = nl ? (gsize)(nl + 1 - text) : (gsize)(end - text);

		parser_line(p, text, n, out);
		text += n;
	}
	patch_end(p, out, NULL);
	return out;
}

gboolean patchid_text(const char *text, gsize len, enum patchid_mode mode,
		      struct gitoid *out)
{
	g_autoptr(GArray) ids = patchid_stream(text, len, mode);

	if (!ids->len)
		return FALSE;
	*out = g_array_index(ids, struct patchid_result, 0).patch_id;
	return TRUE;
}

/* ---- a commit as format-patch writes it ---- */

/* quote.c cq_lookup with core.quotePath on (git's default): the escape
 * letter of @c, 0 for an octal escape, -1 when @c needs no quoting. */
static int cq_escape(guchar c)
{
	static const char letters[] = "\aa\bb\tt\nn\vv\ff\rr\"\"\\\\";

	for (const char *l = letters; *l; l += 2)
		if ((guchar)*l == c)
			return (guchar)l[1];
	return c < 0x20 || c >= 0x7f ? 0 : -1;
}

static gboolean needs_quote(const char *s)
{
	for (; *s; s++)
		if (cq_escape(*s) >= 0)
			return TRUE;
	return FALSE;
}

static void quote_body(GString *out, const char *s)
{
	for (; *s; s++) {
		guchar c = *s;
		int e = cq_escape(c);

		if (e < 0)
			g_string_append_c(out, c);
		else if (e)
			g_string_append_printf(out, "\\%c", e);
		else
			g_string_append_printf(out, "\\%o%o%o", c >> 6,
					       (c >> 3) & 7, c & 7);
	}
}

/* quote_two(): @prefix@name, in double quotes with C escapes when either
 * needs them.  quote_c_style() is quote_two("", name). */
static char *quote_two(const char *prefix, const char *name)
{
	GString *out = g_string_new(NULL);

	if (!needs_quote(prefix) && !needs_quote(name)) {
		g_string_append(out, prefix);
		g_string_append(out, name);
	} else {
		g_string_append_c(out, '"');
		quote_body(out, prefix);
		quote_body(out, name);
		g_string_append_c(out, '"');
	}
	return g_string_free(out, FALSE);
}

/* The hunks of @a against @b as git diff shows them: libgit2's copy of
 * git's xdiff, Myers with the indent heuristic (diff.indentHeuristic is
 * on by default since git 2.14), three lines of context and hunks joined
 * when their context touches.  The hunk headers carry no function name
 * (patch-id ignores them). */
static gboolean diff_hunks(GBytes *a, GBytes *b, GString *hunks, GError **error)
{
	if (!lg2repo_diff_hunks(a, b, hunks)) {
		tree_set_git_error(error, "cannot diff");
		return FALSE;
	}
	return TRUE;
}

/* One file pair as builtin_diff() writes it with format-patch's options
 * (--binary, renames detected).  @renamed: a rename of similarity @score.
 * A binary change is written as "Binary files ... differ" after an index
 * line with the full ids, where format-patch writes "GIT binary patch"
 * and the data: patch-id reads both the same way (the ids, not the
 * data). */
static gboolean render_filepair(GString *t, struct treediff *q,
				struct treediff_spec *one,
				struct treediff_spec *two, gboolean renamed,
				int score, GError **error)
{
	g_autofree char *a_one = quote_two("a/", one->path);
	g_autofree char *b_two = quote_two("b/", two->path);
	const char *lbl0 = one->valid ? a_one : "/dev/null";
	const char *lbl1 = two->valid ? b_two : "/dev/null";
	g_autoptr(GString) header = g_string_new(NULL);
	g_autoptr(GString) meta = g_string_new(NULL);
	g_autoptr(GString) hunks = g_string_new(NULL);
	gboolean must_show_header = FALSE;
	gboolean bin_one, bin_two;
	gsize a_len, b_len;
	const void *a_data, *b_data;
	gboolean ok = TRUE;

	g_string_append_printf(header, "diff --git %s %s\n", a_one, b_two);
	/* fill_metainfo() */
	if (renamed) {
		g_autofree char *from = quote_two("", one->path);
		g_autofree char *to = quote_two("", two->path);

		g_string_append_printf(meta,
				       "similarity index %d%%\n"
				       "rename from %s\nrename to %s\n",
				       score * 100 / DIFFRENAME_MAX_SCORE, from,
				       to);
		must_show_header = TRUE;
	}
	if (!gitoid_equal(&one->oid, &two->oid)) {
		char hex_one[GITOID_HEXSZ + 1], hex_two[GITOID_HEXSZ + 1];

		/* abbreviated for text files, full for binary ones; patch-id
		 * reads only the latter: all are written full here */
		gitoid_to_hex(&one->oid, hex_one);
		gitoid_to_hex(&two->oid, hex_two);
		g_string_append_printf(meta, "index %s..%s", hex_one, hex_two);
		if (one->mode == two->mode)
			g_string_append_printf(meta, " %06o", one->mode);
		g_string_append_c(meta, '\n');
	}
	/* builtin_diff() */
	if (!one->valid) {
		g_string_append_printf(header, "new file mode %06o\n",
				       two->mode);
		must_show_header = TRUE;
	} else if (!two->valid) {
		g_string_append_printf(header, "deleted file mode %06o\n",
				       one->mode);
		must_show_header = TRUE;
	} else if (one->mode != two->mode) {
		g_string_append_printf(header, "old mode %06o\nnew mode %06o\n",
				       one->mode, two->mode);
		must_show_header = TRUE;
	}
	g_string_append_len(header, meta->str, meta->len);
	/* rename detection may have unloaded what it looked at */
	if (!treediff_spec_is_binary(q, one, &bin_one, error) ||
	    !treediff_spec_is_binary(q, two, &bin_two, error) ||
	    !treediff_spec_load(q, one, error) ||
	    !treediff_spec_load(q, two, error))
		return FALSE;
	a_data = g_bytes_get_data(one->data, &a_len);
	b_data = g_bytes_get_data(two->data, &b_len);
	if (bin_one || bin_two) {
		/* "quite common confusing case": the same bytes */
		if (a_len == b_len && !memcmp(a_data, b_data, a_len)) {
			if (must_show_header)
				g_string_append_len(t, header->str,
						    header->len);
		} else {
			g_string_append_len(t, header->str, header->len);
			g_string_append_printf(
				t, "Binary files %s and %s differ\n", lbl0,
				lbl1);
		}
	} else {
		ok = diff_hunks(one->data, two->data, hunks, error);
		if (ok && (must_show_header || hunks->len))
			g_string_append_len(t, header->str, header->len);
		/* the labels, tab-terminated when they hold a space */
		if (ok && hunks->len)
			g_string_append_printf(
				t, "--- %s%s\n+++ %s%s\n%s", lbl0,
				strchr(lbl0, ' ') ? "\t" : "", lbl1,
				strchr(lbl1, ' ') ? "\t" : "", hunks->str);
	}
	treediff_spec_unload(one);
	treediff_spec_unload(two);
	return ok;
}

/* run_diff(): a pair that changes between file, symlink and gitlink is
 * written as a deletion and a creation. */
static gboolean render_pair(GString *t, struct treediff *q,
			    struct treediff_pair *p, GError **error)
{
	struct treediff_spec *one = p->one, *two = p->two;

	if (one->valid && two->valid &&
	    (one->mode & S_IFMT) != (two->mode & S_IFMT)) {
		return render_filepair(t, q, one,
				       treediff_spec_add(q, two->path, NULL, 0,
							 FALSE),
				       FALSE, 0, error) &&
		       render_filepair(t, q,
				       treediff_spec_add(q, one->path, NULL, 0,
							 FALSE),
				       two, FALSE, 0, error);
	}
	return render_filepair(t, q, one, two, p->renamed, p->score, error);
}

/* The diff of @commit as format-patch writes it into @t; *@found FALSE
 * for a merge. */
static gboolean commit_text(struct gitrepo *gr, const struct gitoid *commit,
			    GString *t, gboolean *found, GError **error)
{
	struct diffrename_options ropts = DIFFRENAME_OPTIONS_INIT;
	struct gitcommit c = { 0 };
	struct gitoid parent_tree;
	g_autoptr(treediff) q = NULL;
	gboolean ok = FALSE;

	*found = FALSE;
	if (!gitrepo_commit(gr, commit, &c, error))
		return FALSE;
	/* patch-ids.c patch_id_defined(): 0 or 1 parents */
	if (c.parents->len > 1) {
		ok = TRUE;
		goto done;
	}
	if (c.parents->len == 1 &&
	    !gitrepo_peel(gr, &g_array_index(c.parents, struct gitoid, 0),
			  GITOBJ_TREE, &parent_tree, error))
		goto done;
	q = treediff_new(gr, c.parents->len ? &parent_tree : NULL, &c.tree,
			 error);
	/* format-patch detects renames (diff.renames defaults to true since
	 * git 2.9), not copies, with diff.renameLimit's 1000 */
	if (!q || !diffrename_detect(q, &ropts, error))
		goto done;
	for (guint i = 0; i < q->pairs->len; i++)
		if (!render_pair(t, q, g_ptr_array_index(q->pairs, i), error))
			goto done;
	*found = TRUE;
	ok = TRUE;
done:
	gitcommit_clear(&c);
	return ok;
}

/* The objects of @repo read by kernel/git/odb.c, where the rename
 * detection that matches git's lives. */
static struct gitrepo *open_objects(struct git_repository *repo, GError **error)
{
	const char *dir = lg2repo_path(repo);
	struct gitrepo *gr = gitrepo_open(dir, error);

	if (!gr)
		g_prefix_error(error, "cannot read repository '%s': ", dir);
	return gr;
}

static gboolean commit_patchid(struct gitrepo *gr, const struct gitoid *commit,
			       enum patchid_mode mode, struct gitoid *out,
			       gboolean *found, GError **error)
{
	g_autoptr(GString) t = g_string_new(NULL);
	gboolean has_diff;

	if (!commit_text(gr, commit, t, &has_diff, error)) {
		g_prefix_error(error, "commit %s: ", gitoid_hex(commit));
		return FALSE;
	}
	*found = has_diff && patchid_text(t->str, t->len, mode, out);
	return TRUE;
}

gboolean patchid_commit(struct git_repository *repo,
			const struct gitoid *commit, enum patchid_mode mode,
			struct gitoid *out, gboolean *found, GError **error)
{
	g_autoptr(gitrepo) gr = open_objects(repo, error);

	return gr && commit_patchid(gr, commit, mode, out, found, error);
}

GArray *patchid_commits(struct git_repository *repo,
			const struct gitoid *commits, gsize n,
			enum patchid_mode mode, GError **error)
{
	g_autoptr(gitrepo) gr = open_objects(repo, error);
	g_autoptr(GArray) out = NULL;

	if (!gr)
		return NULL;
	out = g_array_new(FALSE, FALSE, sizeof(struct patchid_result));
	for (gsize i = 0; i < n; i++) {
		struct patchid_result r = { .commit = commits[i] };
		gboolean found;

		if (!commit_patchid(gr, &commits[i], mode, &r.patch_id, &found,
				    error))
			return NULL;
		if (found)
			g_array_append_val(out, r);
	}
	return g_steal_pointer(&out);
}

GArray *patchid_range(struct git_repository *repo, const char *range,
		      enum patchid_mode mode, GError **error)
{
	g_autoptr(lg2walk) walk = NULL;
	g_autoptr(GArray)
		ids = g_array_new(FALSE, FALSE, sizeof(struct gitoid));

	if (!strstr(range, "..") || strstr(range, "...")) {
		g_set_error(error, PATCHID_ERROR, 1, "'%s' is not a range A..B",
			    range);
		return NULL;
	}
	walk = lg2repo_walk_new(repo, FALSE);
	if (!walk || !lg2repo_walk_push_range(walk, range)) {
		g_autofree char *what =
			g_strdup_printf("bad range '%s'", range);

		tree_set_git_error(error, what);
		return NULL;
	}
	if (!lg2repo_walk_all(walk, ids)) {
		g_autofree char *what =
			g_strdup_printf("cannot walk '%s'", range);

		tree_set_git_error(error, what);
		return NULL;
	}
	return patchid_commits(repo, (const struct gitoid *)(void *)ids->data,
			       ids->len, mode, error);
}
