/* Base discovery (see kernel/base/baseguess.h). */
#include "kernel/base/baseguess.h"

#include <string.h>

#include "kernel/git/lg2repo.h"
#include "kernel/patch/apply.h"
#include "kernel/base/baseindex.h"
#include "kernel/patch/patchid.h"
#include "mailparse/mailbox.h"
#include "mailparse/mailinfo.h"

/* how many commits of a merge's side branch are searched for a patch
 * that is already applied */
#define APPLIED_MAX_SIDE_COMMITS 5000

const char *baseguess_how_name(enum baseguess_how how)
{
	static const char *const names[] = {
		[BASEGUESS_UNKNOWN] = "unknown",
		[BASEGUESS_APPLIED] = "applied",
		[BASEGUESS_COMMIT] = "base-commit",
		[BASEGUESS_BLOBS] = "blob-ids",
		[BASEGUESS_HEAD] = "head",
	};
	return how <= BASEGUESS_HEAD ? names[how] : "?";
}

void baseguess_series_free(struct baseguess_series *s)
{
	if (!s)
		return;
	g_ptr_array_unref(s->patches);
	g_ptr_array_unref(s->prerequisites);
	g_free(s->base_commit);
	g_free(s);
}

/* The "base-commit:" and "prerequisite-patch-id:" lines git format-patch
 * --base (and b4) write after the first message's text. */
static void scan_base_lines(struct baseguess_series *s, const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (guint i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (g_str_has_prefix(l, "base-commit: ") && !s->base_commit) {
			s->base_commit = g_strstrip(
				g_strdup(l + strlen("base-commit: ")));
		} else if (g_str_has_prefix(l, "prerequisite-patch-id: ")) {
			char *id = g_strstrip(g_strdup(
				l + strlen("prerequisite-patch-id: ")));

			g_ptr_array_add(s->prerequisites, id);
		}
	}
}

struct baseguess_series *baseguess_series_from_mbox(const char *path,
						    GError **error)
{
	struct mailbox_options mopts = MAILBOX_OPTIONS_INIT;
	struct mailinfo_options miopts = MAILINFO_OPTIONS_INIT;
	g_autoptr(mailbox) mb = mailbox_open(path, &mopts, error);
	g_autoptr(baseguess_series) s = g_new0(struct baseguess_series, 1);

	if (!mb)
		return NULL;
	s->patches = g_ptr_array_new_with_free_func(g_free);
	s->prerequisites = g_ptr_array_new_with_free_func(g_free);
	for (;;) {
		g_autoptr(GBytes) msg = NULL;
		g_autoptr(mailinfo_result) mi = NULL;

		if (!mailbox_next(mb, &msg, error))
			return NULL;
		if (!msg)
			break;
		if (!mailinfo_parse(&mi, msg, &miopts, NULL))
			continue; /* git am stops there; am reports it */
		scan_base_lines(s, mi->msg->str);
		scan_base_lines(s, mi->patch->str);
		if (mi->patch->len)
			g_ptr_array_add(s->patches, g_strndup(mi->patch->str,
							      mi->patch->len));
	}
	return g_steal_pointer(&s);
}

static void need_free(struct baseguess_need *n)
{
	g_free(n->path);
	g_free(n->blob);
	g_free(n);
}

static void add_need(GPtrArray *needs, const char *path, const char *blob)
{
	struct baseguess_need *n = g_new0(struct baseguess_need, 1);

	n->path = g_strdup(path);
	/* "0000000": the file does not exist on that side */
	n->blob = strspn(blob, "0") == strlen(blob) ? g_strdup("") :
						      g_ascii_strdown(blob, -1);
	g_ptr_array_add(needs, n);
}

static GPtrArray *needs_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)need_free);
}

/* The file diffs of every patch, in order (GPtrArray of GPtrArray of
 * struct apply_file *). */
static GPtrArray *parse_all(const struct baseguess_series *s, GError **error)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_ptr_array_unref);

	for (guint i = 0; i < s->patches->len; i++) {
		const char *text = s->patches->pdata[i];
		GPtrArray *files = apply_parse_files(text, strlen(text), error);

		if (!files) {
			g_prefix_error(error, "patch %u of %u: ", i + 1,
				       s->patches->len);
			return NULL;
		}
		g_ptr_array_add(all, files);
	}
	return g_steal_pointer(&all);
}

GPtrArray *baseguess_preimage(const struct baseguess_series *s,
			      guint *without_ids, GError **error)
{
	g_autoptr(GPtrArray) all = parse_all(s, error);
	g_autoptr(GHashTable) made = NULL;
	g_autoptr(GPtrArray) needs = needs_new();

	*without_ids = 0;
	if (!all)
		return NULL;
	made = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < all->len; i++) {
		GPtrArray *files = all->pdata[i];

		for (guint j = 0; j < files->len; j++) {
			const struct apply_file *f = files->pdata[j];
			const char *src = f->is_new ? f->new_path : f->old_path;
			gboolean ids = f->old_blob[0] != '\0';

			if (!ids)
				(*without_ids)++;
			if (ids && !g_hash_table_contains(made, src))
				add_need(needs, src,
					 f->is_new ? "" : f->old_blob);
			/* a rename or copy must not find its target there */
			if (ids && (f->is_rename || f->is_copy) &&
			    !g_hash_table_contains(made, f->new_path))
				add_need(needs, f->new_path, "");
			if (f->old_path)
				g_hash_table_add(made, f->old_path);
			if (f->new_path)
				g_hash_table_add(made, f->new_path);
		}
	}
	return g_steal_pointer(&needs);
}

GPtrArray *baseguess_postimage(const struct baseguess_series *s, GError **error)
{
	g_autoptr(GPtrArray) all = parse_all(s, error);
	g_autoptr(GHashTable) last = NULL;
	g_autoptr(GPtrArray) order = g_ptr_array_new();
	GPtrArray *needs;

	if (!all)
		return NULL;
	last = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < all->len; i++) {
		GPtrArray *files = all->pdata[i];

		for (guint j = 0; j < files->len; j++) {
			const struct apply_file *f = files->pdata[j];

			if (!f->new_blob[0])
				return needs_new(); /* no ids: nothing */
			if (f->is_rename && f->old_path) {
				if (!g_hash_table_contains(last, f->old_path))
					g_ptr_array_add(order, f->old_path);
				g_hash_table_insert(last, f->old_path, "");
			}
			if (f->new_path) {
				if (!g_hash_table_contains(last, f->new_path))
					g_ptr_array_add(order, f->new_path);
				g_hash_table_insert(last, f->new_path,
						    (char *)f->new_blob);
			} else {
				if (!g_hash_table_contains(last, f->old_path))
					g_ptr_array_add(order, f->old_path);
				g_hash_table_insert(last, f->old_path, "");
			}
		}
	}
	needs = needs_new();
	for (guint i = 0; i < order->len; i++)
		add_need(needs, order->pdata[i],
			 g_hash_table_lookup(last, order->pdata[i]));
	return needs;
}

/* ---- matching on a chain ---- */

static gboolean blob_matches(const guint8 *blob, const char *prefix)
{
	static const guint8 zero[GITOID_RAWSZ];
	char hex[GITOID_HEXSZ + 1];

	if (!*prefix)
		return !memcmp(blob, zero, GITOID_RAWSZ);
	gitoid_to_hex((const struct gitoid *)blob, hex);
	return g_str_has_prefix(hex, prefix);
}

struct event {
	guint32 pos;
	int delta;
};

static int event_cmp(gconstpointer a, gconstpointer b)
{
	const struct event *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->delta - y->delta; /* ends before starts: half-open */
}

/* Add the intervals [start, end) of the chain where @need holds. */
static gboolean need_intervals(const struct baseindex *idx,
			       const struct baseguess_need *need, GArray *ev)
{
	guint32 n_commits = baseindex_n_commits(idx);
	guint n = 0;
	const struct baseindex_change *c =
		baseindex_path_changes(idx, need->path, &n);
	gboolean any = FALSE;

	/* absent before its first change point */
	if (!*need->blob && (!n || c[0].seq > 0)) {
		struct event s = { 0, +1 },
			     e = { n ? c[0].seq : n_commits, -1 };

		g_array_append_val(ev, s);
		g_array_append_val(ev, e);
		any = TRUE;
	}
	for (guint i = 0; i < n; i++) {
		if (!blob_matches(c[i].blob, need->blob))
			continue;
		{
			struct event s = { c[i].seq, +1 };
			struct event e = { i + 1 < n ? c[i + 1].seq : n_commits,
					   -1 };

			g_array_append_val(ev, s);
			g_array_append_val(ev, e);
			any = TRUE;
		}
	}
	return any;
}

void baseguess_match(const struct baseindex *idx, GPtrArray *needs,
		     struct baseguess_match *out, GPtrArray *missing)
{
	g_autoptr(GArray) ev = g_array_new(FALSE, FALSE, sizeof(struct event));
	guint count = 0, prev_count = 0;
	guint32 prev_end = 0, run_start = 0;
	guint i = 0;

	memset(out, 0, sizeof(*out));
	if (!needs->len) {
		out->found = TRUE;
		out->seq = baseindex_n_commits(idx) - 1;
		return;
	}
	for (guint k = 0; k < needs->len; k++) {
		const struct baseguess_need *need = needs->pdata[k];

		if (!need_intervals(idx, need, ev) && missing)
			g_ptr_array_add(missing,
					g_strdup_printf("%s %s", need->path,
							*need->blob ?
								need->blob :
								"(absent)"));
	}
	g_array_sort(ev, event_cmp);
	/* sweep the segments between event positions: [pos, next) holds
	 * @count needs; the newest segment with the most wins, and a run of
	 * adjacent segments with that count starts where its first does */
	while (i < ev->len) {
		guint32 pos = g_array_index(ev, struct event, i).pos, next;

		while (i < ev->len &&
		       g_array_index(ev, struct event, i).pos == pos)
			count += g_array_index(ev, struct event, i++).delta;
		next = i < ev->len ? g_array_index(ev, struct event, i).pos :
				     pos;
		if (next <= pos || !count)
			continue;
		if (!(prev_count == count && prev_end == pos))
			run_start = pos;
		if (count >= out->best) {
			out->best = count;
			out->seq = next - 1;
			out->first = run_start;
		}
		prev_count = count;
		prev_end = next;
	}
	out->found = out->best == needs->len;
}

/* ---- the tree's branches and their indexes ---- */

void baseguess_result_clear(struct baseguess_result *r)
{
	g_free(r->branch);
	g_free(r->reason);
	g_clear_pointer(&r->applied, g_ptr_array_unref);
	memset(r, 0, sizeof(*r));
}

/* The branches to search: the tree's own list, else every local branch,
 * the head branch first. */
static GPtrArray *tree_branches(struct tree *tree)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) all = NULL;

	if (tree->head_branch)
		g_ptr_array_add(out, g_strdup(tree->head_branch));
	for (guint i = 0; tree->branches && tree->branches[i]; i++)
		if (!g_ptr_array_find_with_equal_func(out, tree->branches[i],
						      g_str_equal, NULL))
			g_ptr_array_add(out, g_strdup(tree->branches[i]));
	if (tree->branches && tree->branches[0])
		return out;
	all = lg2repo_branches(tree->repo);
	for (guint i = 0; i < all->len; i++)
		if (!g_ptr_array_find_with_equal_func(out, all->pdata[i],
						      g_str_equal, NULL))
			g_ptr_array_add(out, g_strdup(all->pdata[i]));
	return out;
}

static char *index_dir(const struct tree *tree)
{
	return g_build_filename(tree->dir, "baseindex", NULL);
}

/* Update the index of @branch and open it; NULL with @error when the
 * branch does not resolve or the repository cannot be read. */
static struct baseindex *branch_index(struct tree *tree, const char *branch,
				      struct baseindex_stats *stats,
				      GError **error)
{
	g_autofree char *ref = g_strconcat("refs/heads/", branch, NULL);
	g_autofree char *dir = index_dir(tree);
	g_autofree char *path = baseindex_path_for(dir, branch);
	struct gitoid tip;

	if (!tree_resolve(tree, ref, &tip, error))
		return NULL;
	if (!baseindex_update(tree->git_dir, &tip, path, stats, error))
		return NULL;
	return baseindex_open(path, error);
}

gboolean baseguess_index_tree(struct tree *tree, baseguess_index_fn on_branch,
			      gpointer user_data, GError **error)
{
	g_autoptr(GPtrArray) branches = tree_branches(tree);

	for (guint i = 0; i < branches->len; i++) {
		struct baseindex_stats stats;
		g_autoptr(baseindex) idx =
			branch_index(tree, branches->pdata[i], &stats, error);

		if (!idx) {
			g_prefix_error(error, "branch %s: ",
				       (char *)branches->pdata[i]);
			return FALSE;
		}
		if (on_branch)
			on_branch(branches->pdata[i], &stats, user_data);
	}
	return TRUE;
}

static void set_commit(struct baseguess_result *out, const struct gitoid *c)
{
	out->commit = *c;
}

static gint64 commit_time(struct tree *tree, const struct gitoid *id)
{
	return lg2repo_commit_time(tree->repo, id);
}

/* Is every patch of @s a commit of @tree: the commit at @where (where
 * the tree first holds the series' resulting blobs) or, when that is a
 * merge, one of the commits it merged?  Fills @applied with the commit
 * of each patch. */
static gboolean find_applied(struct tree *tree,
			     const struct baseguess_series *s,
			     const struct gitoid *where, GPtrArray *applied)
{
	g_autoptr(GHashTable) wanted =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GPtrArray) commits = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(lg2walk) walk = NULL;
	struct gitoid at, oid, parent;
	guint found = 0, seen = 0;

	for (guint i = 0; i < s->patches->len; i++) {
		const char *text = s->patches->pdata[i];
		struct gitoid id;
		char hex[GITOID_HEXSZ + 1];

		if (!patchid_text(text, strlen(text), PATCHID_STABLE, &id))
			return FALSE;
		gitoid_to_hex(&id, hex);
		/* two patches with one patch-id: the first is found */
		if (!g_hash_table_contains(wanted, hex))
			g_hash_table_insert(wanted, g_strdup(hex),
					    GUINT_TO_POINTER(i + 1));
		g_ptr_array_add(commits, NULL);
	}
	at = *where;
	if (!lg2repo_has_commit(tree->repo, &at) ||
	    !(walk = lg2repo_walk_new(tree->repo, FALSE)))
		return FALSE;
	/* the commit itself and, for a merge, what it brought in */
	lg2repo_walk_push(walk, &at);
	if (lg2repo_commit_first_parent(tree->repo, &at, &parent))
		lg2repo_walk_hide(walk, &parent);
	while (found < g_hash_table_size(wanted) &&
	       seen++ < APPLIED_MAX_SIDE_COMMITS &&
	       lg2repo_walk_next(walk, &oid)) {
		struct gitoid id;
		char hex[GITOID_HEXSZ + 1];
		gboolean has_id = FALSE;
		guint n;

		if (!patchid_commit(tree->repo, &oid, PATCHID_STABLE, &id,
				    &has_id, NULL) ||
		    !has_id)
			continue;
		gitoid_to_hex(&id, hex);
		n = GPOINTER_TO_UINT(g_hash_table_lookup(wanted, hex));
		if (n && !commits->pdata[n - 1]) {
			commits->pdata[n - 1] = g_strdup(gitoid_hex(&oid));
			found++;
		}
	}
	if (found < g_hash_table_size(wanted))
		return FALSE;
	for (guint i = 0; i < commits->len; i++)
		g_ptr_array_add(applied,
				g_strdup(commits->pdata[i] ? commits->pdata[i] :
							     "(same patch)"));
	return TRUE;
}

/* The newest commit of a branch of @tree on top of @base by which every
 * patch of @prerequisites (git patch-id --stable values) is a commit;
 * FALSE when some are not found within APPLIED_MAX_SIDE_COMMITS commits
 * of each branch.  @missing gets how many were not found on the branch
 * that had the most. */
static gboolean find_prerequisites(struct tree *tree, const struct gitoid *base,
				   GPtrArray *prerequisites,
				   GPtrArray *branches, struct gitoid *out,
				   char **branch, guint *missing)
{
	*missing = prerequisites->len;
	for (guint b = 0; b < branches->len; b++) {
		g_autofree char *ref =
			g_strconcat("refs/heads/", branches->pdata[b], NULL);
		g_autoptr(GHashTable) wanted = g_hash_table_new_full(
			g_str_hash, g_str_equal, g_free, NULL);
		g_autoptr(lg2walk) walk = NULL;
		struct gitoid tip, oid, newest = { { 0 } };
		guint found = 0, seen = 0;

		for (guint i = 0; i < prerequisites->len; i++)
			g_hash_table_add(
				wanted,
				g_ascii_strdown(prerequisites->pdata[i], -1));
		if (!tree_resolve(tree, ref, &tip, NULL) ||
		    !(walk = lg2repo_walk_new(tree->repo, TRUE)))
			continue;
		lg2repo_walk_push(walk, &tip);
		lg2repo_walk_hide(walk, base);
		while (found < g_hash_table_size(wanted) &&
		       seen++ < APPLIED_MAX_SIDE_COMMITS &&
		       lg2repo_walk_next(walk, &oid)) {
			struct gitoid id;
			char hex[GITOID_HEXSZ + 1];
			gboolean has_id = FALSE;

			if (!patchid_commit(tree->repo, &oid, PATCHID_STABLE,
					    &id, &has_id, NULL) ||
			    !has_id)
				continue;
			gitoid_to_hex(&id, hex);
			if (!g_hash_table_remove(wanted, hex))
				continue;
			/* topological from the tip: the first found is the
			 * newest, and has the others below it when they are
			 * its ancestors */
			if (!found++)
				newest = oid;
		}
		if (g_hash_table_size(wanted) < *missing)
			*missing = g_hash_table_size(wanted);
		if (!g_hash_table_size(wanted)) {
			*out = newest;
			*branch = g_strdup(branches->pdata[b]);
			return TRUE;
		}
	}
	return FALSE;
}

/* Step 1: already applied on one of @indexes? */
static gboolean guess_applied(struct tree *tree,
			      const struct baseguess_series *s,
			      GPtrArray *branches, GPtrArray *indexes,
			      struct baseguess_result *out)
{
	g_autoptr(GPtrArray) post = baseguess_postimage(s, NULL);

	if (!post || !post->len)
		return FALSE;
	for (guint b = 0; b < indexes->len; b++) {
		const struct baseindex *idx = indexes->pdata[b];
		struct baseguess_match m;
		g_autoptr(GPtrArray)
			applied = g_ptr_array_new_with_free_func(g_free);

		baseguess_match(idx, post, &m, NULL);
		if (!m.found ||
		    !find_applied(tree, s, baseindex_commit(idx, m.first),
				  applied))
			continue;
		out->how = BASEGUESS_APPLIED;
		set_commit(out, baseindex_commit(idx, m.first));
		out->branch = g_strdup(branches->pdata[b]);
		out->applied = g_steal_pointer(&applied);
		out->reason = g_strdup_printf(
			"already applied on branch %s: every patch has the "
			"patch-id of a commit there (%s%s)",
			out->branch, (char *)out->applied->pdata[0],
			out->applied->len > 1 ? ", ..." : "");
		return TRUE;
	}
	return FALSE;
}

gboolean baseguess_run(struct tree *tree, const struct baseguess_series *s,
		       struct baseguess_result *out, GError **error)
{
	g_autoptr(GPtrArray) branches = tree_branches(tree);
	g_autoptr(GPtrArray) indexes =
		g_ptr_array_new_with_free_func((GDestroyNotify)baseindex_free);
	g_autoptr(GPtrArray) needs = NULL;
	g_autoptr(GPtrArray) missing = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) parse_error = NULL;
	gint64 t0 = g_get_monotonic_time();
	gint64 best_time = -1;
	guint without_ids = 0, best_matched = 0;
	struct gitoid oid;

	memset(out, 0, sizeof(*out));
	for (guint i = 0; i < branches->len; i++) {
		struct baseindex_stats stats;
		struct baseindex *idx =
			branch_index(tree, branches->pdata[i], &stats, error);

		if (!idx) {
			g_prefix_error(error, "branch %s: ",
				       (char *)branches->pdata[i]);
			return FALSE;
		}
		g_ptr_array_add(indexes, idx);
	}

	/* 1. already applied */
	if (guess_applied(tree, s, branches, indexes, out))
		goto done;

	/* 2. base-commit: */
	if (s->base_commit &&
	    gitoid_from_hexn(&oid, s->base_commit, strlen(s->base_commit)) &&
	    tree_has_commit(tree, &oid)) {
		struct gitoid with;
		guint lacking = 0;

		out->how = BASEGUESS_COMMIT;
		out->commit = oid;
		if (!s->prerequisites->len) {
			out->reason = g_strdup_printf(
				"the series' base-commit: %.12s",
				s->base_commit);
		} else if (find_prerequisites(tree, &oid, s->prerequisites,
					      branches, &with, &out->branch,
					      &lacking)) {
			out->commit = with;
			out->reason = g_strdup_printf(
				"the series' base-commit: %.12s and its %u "
				"prerequisite patch%s, found as commits of "
				"branch %s up to %.12s",
				s->base_commit, s->prerequisites->len,
				s->prerequisites->len == 1 ? "" : "es",
				out->branch, gitoid_hex(&with));
		} else {
			out->prerequisites_missing = lacking;
			out->reason = g_strdup_printf(
				"the series' base-commit: %.12s, without %u of "
				"its %u prerequisite patches "
				"(prerequisite-patch-id:), which no branch has "
				"on top of it",
				s->base_commit, lacking, s->prerequisites->len);
		}
		goto done;
	}

	/* 3. blob ids */
	needs = baseguess_preimage(s, &without_ids, &parse_error);
	if (!needs) {
		out->how = BASEGUESS_UNKNOWN;
		out->reason = g_strdup_printf("the patches cannot be read: %s",
					      parse_error->message);
		goto done;
	}
	out->needs = needs->len;
	if (needs->len) {
		for (guint b = 0; b < indexes->len; b++) {
			const struct baseindex *idx = indexes->pdata[b];
			struct baseguess_match m;
			g_autoptr(GPtrArray)
				miss = g_ptr_array_new_with_free_func(g_free);
			struct gitoid c;
			gint64 t;

			baseguess_match(idx, needs, &m, miss);
			if (!m.found) {
				if (m.best > best_matched || !b) {
					best_matched = m.best;
					g_ptr_array_set_size(missing, 0);
					g_ptr_array_extend_and_steal(
						missing,
						g_steal_pointer(&miss));
				}
				continue;
			}
			c = *baseindex_commit(idx, m.seq);
			t = commit_time(tree, &c);
			if (t > best_time) {
				best_time = t;
				out->how = BASEGUESS_BLOBS;
				out->commit = c;
				g_free(out->branch);
				out->branch = g_strdup(branches->pdata[b]);
			}
		}
		if (out->how == BASEGUESS_BLOBS) {
			out->matched = needs->len;
			out->reason = g_strdup_printf(
				"the newest commit of "
				"branch %s whose files have the %u pre-image "
				"blob%s of the patches",
				out->branch, needs->len,
				needs->len == 1 ? "" : "s");
			goto done;
		}
		out->how = BASEGUESS_UNKNOWN;
		out->matched = best_matched;
		{
			GString *r = g_string_new(NULL);

			if (s->base_commit)
				g_string_append_printf(
					r,
					"base-commit %.12s is not in the "
					"tree; ",
					s->base_commit);
			g_string_append_printf(
				r,
				"no commit of %s (branch%s %s) has the "
				"pre-image blobs of the patches (at most %u "
				"of %u at one commit)",
				tree->name, branches->len == 1 ? "" : "es",
				branches->len ? (char *)branches->pdata[0] :
						"none",
				best_matched, needs->len);
			if (missing->len) {
				g_string_append(r, "; not found anywhere: ");
				for (guint i = 0; i < missing->len && i < 5;
				     i++)
					g_string_append_printf(
						r, "%s%s", i ? ", " : "",
						(char *)missing->pdata[i]);
				if (missing->len > 5)
					g_string_append_printf(
						r, " and %u more",
						missing->len - 5);
			}
			out->reason = g_string_free(r, FALSE);
		}
		goto done;
	}

	/* 4. no blob ids at all: the head */
	if (!tree_head(tree, &out->commit, error))
		return FALSE;
	out->how = BASEGUESS_HEAD;
	out->branch = g_strdup(tree->head_branch);
	out->reason = g_strdup_printf(
		"%sthe patches carry no blob ids: the head of branch %s",
		s->base_commit ? "base-commit not in the tree and " : "",
		tree->head_branch ? tree->head_branch : "HEAD");
	(void)without_ids;
done:
	out->seconds = (g_get_monotonic_time() - t0) / 1e6;
	return TRUE;
}
