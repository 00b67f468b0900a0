/* diffcore-rename.c of git 2.39, for `git diff` without copies or break
 * detection: the order of passes, the tie-breaks and the integer
 * arithmetic are git's, so that the same pairs come out. */
#include "kernel/diff/diffrename.h"

#include <string.h>
#include <sys/stat.h>

#define NUM_CANDIDATE_PER_DST 4 /* diffcore-rename.c */

struct rename_dst {
	struct treediff_pair *p; /* the creation */
	struct treediff_pair *renamed; /* its rename, once found */
};

struct diff_score {
	int src; /* index in rename_src */
	int dst; /* index in rename_dst */
	unsigned short score;
	short name_score;
};

struct renamer {
	struct treediff *q;
	GPtrArray *src; /* treediff_pair of deletions, queue order */
	GArray *dst; /* struct rename_dst, queue order */
};

static int basename_same(const struct treediff_spec *src,
			 const struct treediff_spec *dst)
{
	int src_len = strlen(src->path), dst_len = strlen(dst->path);

	while (src_len && dst_len) {
		char c1 = src->path[--src_len];
		char c2 = dst->path[--dst_len];

		if (c1 != c2)
			return 0;
		if (c1 == '/')
			return 1;
	}
	return (!src_len || src->path[src_len - 1] == '/') &&
	       (!dst_len || dst->path[dst_len - 1] == '/');
}

static const char *get_basename(const char *path)
{
	const char *base = strrchr(path, '/');

	return base ? base + 1 : path;
}

/* estimate_similarity(): how much of @dst comes from @src, 0..MAX_SCORE;
 * only regular files, and not when the sizes differ too much. */
static gboolean estimate_similarity(struct treediff *q,
				    struct treediff_spec *src,
				    struct treediff_spec *dst,
				    int minimum_score, int *out, GError **error)
{
	gsize src_size, dst_size, max_size, base_size, delta_size;
	const struct diffcount_spans *s, *d;
	guint64 src_copied, literal_added;

	*out = 0;
	if (!S_ISREG(src->mode) || !S_ISREG(dst->mode))
		return TRUE;
	if (!treediff_spec_size(q, src, &src_size, error) ||
	    !treediff_spec_size(q, dst, &dst_size, error))
		return FALSE;
	max_size = MAX(src_size, dst_size);
	base_size = MIN(src_size, dst_size);
	delta_size = max_size - base_size;
	/* git compares against max_size although its comment says min */
	if ((guint64)max_size * (DIFFRENAME_MAX_SCORE - minimum_score) <
	    (guint64)delta_size * DIFFRENAME_MAX_SCORE)
		return TRUE;
	s = treediff_spec_spans(q, src, error);
	if (!s)
		return FALSE;
	d = treediff_spec_spans(q, dst, error);
	if (!d)
		return FALSE;
	diffcount_changes(s, d, &src_copied, &literal_added);
	if (dst_size)
		*out = (int)(src_copied * DIFFRENAME_MAX_SCORE / max_size);
	return TRUE;
}

/* record_rename_pair() */
static void record_rename_pair(struct renamer *r, int dst_index, int src_index,
			       int score)
{
	struct treediff_pair *src = g_ptr_array_index(r->src, src_index);
	struct rename_dst *dst =
		&g_array_index(r->dst, struct rename_dst, dst_index);
	struct treediff_pair *dp = g_new0(struct treediff_pair, 1);

	src->one->rename_used++;
	dp->one = src->one;
	dp->two = dst->p->two;
	dp->renamed = TRUE;
	/* a rename onto the same path keeps the source's break score, which
	 * is 0 without break detection */
	dp->score = strcmp(src->one->path, dp->two->path) ? score : 0;
	dst->renamed = dp;
}

/* score_compare(): most similar first, unused slots sink */
static int score_compare(const void *a_, const void *b_)
{
	const struct diff_score *a = a_, *b = b_;

	if (a->dst < 0)
		return 0 <= b->dst;
	else if (b->dst < 0)
		return -1;
	if (a->score == b->score)
		return b->name_score - a->name_score;
	return b->score - a->score;
}

static int score_compare_data(gconstpointer a, gconstpointer b, gpointer data)
{
	return score_compare(a, b);
}

static void record_if_better(struct diff_score m[], struct diff_score *o)
{
	int i, worst = 0;

	for (i = 1; i < NUM_CANDIDATE_PER_DST; i++)
		if (score_compare(&m[i], &m[worst]) > 0)
			worst = i;
	if (score_compare(&m[worst], o) > 0)
		m[worst] = *o;
}

/* find_exact_renames() / find_identical_files(): for each destination in
 * order, the first unused source with the same object (and mode, for
 * non-regular files), preferring one with the same basename; sources are
 * met in their queue order and at most 100 are looked at. */
static int find_exact_renames(struct renamer *r)
{
	g_autoptr(GHashTable) by_oid = g_hash_table_new_full(
		(GHashFunc)g_bytes_hash, (GEqualFunc)g_bytes_equal,
		(GDestroyNotify)g_bytes_unref, (GDestroyNotify)g_array_unref);
	int renames = 0;

	for (guint i = 0; i < r->src->len; i++) {
		struct treediff_pair *p = g_ptr_array_index(r->src, i);
		GBytes *key = g_bytes_new(p->one->oid.id, GITOID_RAWSZ);
		GArray *list = g_hash_table_lookup(by_oid, key);
		int idx = i;

		if (!list) {
			list = g_array_new(FALSE, FALSE, sizeof(int));
			g_hash_table_insert(by_oid, g_bytes_ref(key), list);
		}
		g_array_append_val(list, idx);
		g_bytes_unref(key);
	}
	for (guint i = 0; i < r->dst->len; i++) {
		struct rename_dst *dst =
			&g_array_index(r->dst, struct rename_dst, i);
		struct treediff_spec *target = dst->p->two;
		g_autoptr(GBytes)
			key = g_bytes_new(target->oid.id, GITOID_RAWSZ);
		GArray *list = g_hash_table_lookup(by_oid, key);
		int best = -1, best_score = -1, budget = 100;

		for (guint k = 0; list && k < list->len; k++) {
			int idx = g_array_index(list, int, k);
			struct treediff_pair *sp =
				g_ptr_array_index(r->src, idx);
			struct treediff_spec *source = sp->one;
			int score;

			if (!S_ISREG(source->mode) || !S_ISREG(target->mode)) {
				if (source->mode != target->mode)
					continue;
			}
			if (source->rename_used)
				continue;
			score = 1 + basename_same(source, target);
			if (score > best_score) {
				best = idx;
				best_score = score;
				if (score == 2)
					break;
			}
			if (!--budget)
				break;
		}
		if (best >= 0) {
			record_rename_pair(r, i, best, DIFFRENAME_MAX_SCORE);
			renames++;
		}
	}
	return renames;
}

/* remove_unneeded_paths_from_src(): sources already renamed go */
static void remove_used_sources(struct renamer *r)
{
	guint kept = 0;

	for (guint i = 0; i < r->src->len; i++) {
		struct treediff_pair *p = g_ptr_array_index(r->src, i);

		if (!p->one->rename_used)
			r->src->pdata[kept++] = p;
	}
	g_ptr_array_set_size(r->src, kept);
}

/* find_basename_matches(): a source whose basename is unique among the
 * remaining sources is compared with the destination whose basename is the
 * same and unique among the remaining destinations; without directory
 * rename information (plain diff) nothing else is tried. */
static gboolean find_basename_matches(struct renamer *r, int minimum_score,
				      int *renames, GError **error)
{
	g_autoptr(GHashTable)
		sources = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable) dests = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < r->src->len; i++) {
		struct treediff_pair *p = g_ptr_array_index(r->src, i);
		const char *base = get_basename(p->one->path);

		g_hash_table_insert(
			sources, (gpointer)base,
			GINT_TO_POINTER(g_hash_table_contains(sources, base) ?
						-1 :
						(int)i));
	}
	for (guint i = 0; i < r->dst->len; i++) {
		struct rename_dst *dst =
			&g_array_index(r->dst, struct rename_dst, i);
		const char *base;

		if (dst->renamed)
			continue;
		base = get_basename(dst->p->two->path);
		g_hash_table_insert(
			dests, (gpointer)base,
			GINT_TO_POINTER(g_hash_table_contains(dests, base) ?
						-1 :
						(int)i));
	}
	for (guint i = 0; i < r->src->len; i++) {
		struct treediff_pair *p = g_ptr_array_index(r->src, i);
		const char *base = get_basename(p->one->path);
		gpointer value;
		int src_index, dst_index, score;
		struct rename_dst *dst;

		src_index = GPOINTER_TO_INT(g_hash_table_lookup(sources, base));
		if (!g_hash_table_lookup_extended(dests, base, NULL, &value))
			continue;
		dst_index = GPOINTER_TO_INT(value);
		/* idx_possible_rename() needs directory rename info, which
		 * a plain diff does not set up: it answers -1 */
		if (src_index == -1 || dst_index == -1)
			continue;
		dst = &g_array_index(r->dst, struct rename_dst, dst_index);
		if (dst->renamed)
			continue;
		if (!estimate_similarity(r->q, p->one, dst->p->two,
					 minimum_score, &score, error))
			return FALSE;
		if (score < minimum_score)
			continue;
		record_rename_pair(r, dst_index, src_index, score);
		(*renames)++;
		treediff_spec_unload(p->one);
		treediff_spec_unload(dst->p->two);
	}
	return TRUE;
}

/* too_many_rename_candidates() without -C -C: the matrix may not exceed
 * rename_limit squared */
static gboolean too_many_candidates(int num_destinations, int num_sources,
				    int rename_limit)
{
	if (rename_limit <= 0)
		return FALSE;
	return (guint64)num_destinations * (guint64)num_sources >
	       (guint64)rename_limit * (guint64)rename_limit;
}

static gboolean find_inexact_renames(struct renamer *r, int minimum_score,
				     int num_destinations, GError **error)
{
	g_autofree struct diff_score *mx =
		g_new0(struct diff_score,
		       (gsize)NUM_CANDIDATE_PER_DST * num_destinations);
	int dst_cnt = 0;

	for (guint i = 0; i < r->dst->len; i++) {
		struct rename_dst *dst =
			&g_array_index(r->dst, struct rename_dst, i);
		struct treediff_spec *two = dst->p->two;
		struct diff_score *m;

		if (dst->renamed)
			continue;
		m = &mx[dst_cnt * NUM_CANDIDATE_PER_DST];
		for (int j = 0; j < NUM_CANDIDATE_PER_DST; j++)
			m[j].dst = -1;
		for (guint j = 0; j < r->src->len; j++) {
			struct treediff_pair *sp = g_ptr_array_index(r->src, j);
			struct diff_score this_src;
			int score;

			if (!estimate_similarity(r->q, sp->one, two,
						 minimum_score, &score, error))
				return FALSE;
			this_src.score = score;
			this_src.name_score = basename_same(sp->one, two);
			this_src.dst = i;
			this_src.src = j;
			record_if_better(m, &this_src);
			treediff_spec_unload(sp->one);
		}
		/* as git, keep only the span counts and sizes of both */
		treediff_spec_unload(two);
		dst_cnt++;
	}
	/* git: STABLE_QSORT(mx, ..., score_compare); GLib's is stable */
	g_qsort_with_data(mx, dst_cnt * NUM_CANDIDATE_PER_DST,
			  sizeof(struct diff_score), score_compare_data, NULL);
	/* find_renames() */
	for (int i = 0; i < dst_cnt * NUM_CANDIDATE_PER_DST; i++) {
		struct rename_dst *dst;
		struct treediff_pair *sp;

		if (mx[i].dst < 0 || mx[i].score < minimum_score)
			break;
		dst = &g_array_index(r->dst, struct rename_dst, mx[i].dst);
		if (dst->renamed)
			continue;
		sp = g_ptr_array_index(r->src, mx[i].src);
		if (sp->one->rename_used)
			continue;
		record_rename_pair(r, mx[i].dst, mx[i].src, mx[i].score);
	}
	return TRUE;
}

static gboolean renamer_run(struct renamer *r,
			    const struct diffrename_options *opts,
			    GError **error)
{
	int minimum_score = opts->minimum_score ? opts->minimum_score :
						  DIFFRENAME_DEFAULT_SCORE;
	int min_basename_score;
	int rename_count, num_destinations;

	if (!r->dst->len || !r->src->len)
		return TRUE;
	rename_count = find_exact_renames(r);
	if (minimum_score == DIFFRENAME_MAX_SCORE)
		return TRUE;
	/* halfway between the minimum score and an exact match
	 * (GIT_BASENAME_FACTOR unset: 50) */
	min_basename_score = minimum_score + (int)(0.5 * (DIFFRENAME_MAX_SCORE -
							  minimum_score));
	remove_used_sources(r);
	if (!find_basename_matches(r, min_basename_score, &rename_count, error))
		return FALSE;
	remove_used_sources(r);
	num_destinations = r->dst->len - rename_count;
	if (!num_destinations || !r->src->len)
		return TRUE;
	if (too_many_candidates(num_destinations, r->src->len,
				opts->rename_limit))
		return TRUE;
	return find_inexact_renames(r, minimum_score, num_destinations, error);
}

gboolean diffrename_detect(struct treediff *q,
			   const struct diffrename_options *opts,
			   GError **error)
{
	struct renamer r = { q, g_ptr_array_new(),
			     g_array_new(FALSE, FALSE,
					 sizeof(struct rename_dst)) };
	g_autoptr(GPtrArray) outq = g_ptr_array_new_with_free_func(g_free);
	gboolean ok;
	guint d = 0;

	/* diffcore_rename_extended(): creations are destinations,
	 * deletions sources (empty files too: rename_empty is on) */
	for (guint i = 0; i < q->pairs->len; i++) {
		struct treediff_pair *p = g_ptr_array_index(q->pairs, i);

		if (!p->one->valid && p->two->valid) {
			struct rename_dst dst = { p, NULL };

			g_array_append_val(r.dst, dst);
		} else if (p->one->valid && !p->two->valid) {
			g_ptr_array_add(r.src, p);
		}
	}
	ok = renamer_run(&r, opts, error);
	/* write back to the queue: a creation that was renamed is replaced
	 * by its rename, a deletion whose path moved goes away */
	for (guint i = 0; ok && i < q->pairs->len; i++) {
		struct treediff_pair *p = g_ptr_array_index(q->pairs, i);

		if (!p->one->valid && p->two->valid) {
			struct rename_dst *dst =
				&g_array_index(r.dst, struct rename_dst, d++);

			if (dst->renamed) {
				g_ptr_array_add(outq, dst->renamed);
				dst->renamed = NULL;
				continue;
			}
		} else if (p->one->valid && !p->two->valid) {
			if (p->one->rename_used)
				continue;
		} else if (treediff_pair_unmodified(p)) {
			continue;
		}
		g_ptr_array_add(outq, g_steal_pointer(&q->pairs->pdata[i]));
	}
	for (guint i = 0; i < r.dst->len; i++)
		g_free(g_array_index(r.dst, struct rename_dst, i).renamed);
	g_ptr_array_unref(r.src);
	g_array_unref(r.dst);
	if (!ok)
		return FALSE;
	g_ptr_array_unref(q->pairs);
	q->pairs = g_steal_pointer(&outq);
	return TRUE;
}

int diffrename_parse_score(const char *arg)
{
	/* diff.c parse_rename_score(): digits, optionally with one dot
	 * (a fraction) or a trailing '%' */
	int num = 0, scale = 1, dot = 0;
	const char *cp = arg;

	for (; *cp; cp++) {
		char ch = *cp;

		if (!dot && ch == '.') {
			scale = 1;
			dot = 1;
		} else if (ch == '%') {
			scale = dot ? scale * 100 : 100;
			cp++;
			break;
		} else if (ch >= '0' && ch <= '9') {
			if (scale < 100000) {
				scale *= 10;
				num = num * 10 + ch - '0';
			}
		} else {
			break;
		}
	}
	if (*cp)
		return -1;
	if (num >= scale)
		return DIFFRENAME_MAX_SCORE;
	return (int)((gint64)DIFFRENAME_MAX_SCORE * num / scale);
}
