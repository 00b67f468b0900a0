/* Lines added and removed as git 2.39's xdiff counts them for --numstat
 * (Myers, no whitespace options): see kernel/diff/linediff.h.
 *
 * The steps and constants are those of git's xdiff/xprepare.c
 * (xdl_prepare_env: classify, xdl_trim_ends, xdl_cleanup_records,
 * xdl_clean_mmatch) and xdiff/xdiffi.c (xdl_do_diff, xdl_recs_cmp,
 * xdl_split).  git then runs xdl_change_compact on both sides, but that
 * only slides and merges groups of changed lines inside one file (every
 * move clears one flag and sets another), so the number of changed lines
 * on each side, which is all --numstat prints, is already final here;
 * tests/conformance/linediff-git.t checks that against git itself. */
#include "kernel/diff/linediff.h"

#include <string.h>

/* xdiff/xprepare.c */
#define LINEDIFF_MAX_EQLIMIT 1024
#define LINEDIFF_SIMSCAN_WINDOW 100
#define LINEDIFF_KPDIS_RUN 4
/* xdiff/xdiffi.c */
#define LINEDIFF_MAX_COST_MIN 256
#define LINEDIFF_HEUR_MIN_COST 256
#define LINEDIFF_SNAKE_CNT 20
#define LINEDIFF_K_HEUR 4
#define LINEDIFF_LINE_MAX G_MAXLONG

/* One record: a line with its '\n', or the last line without one. */
struct linediff_line {
	const char *ptr;
	gsize size;
	guint hash;
};

/* One side of the comparison (xdiff's xdfile_t). */
struct linediff_side {
	glong nrec;
	struct linediff_line *lines;
	guint32 *cls; /* equivalence class of each record */
	guint8 *changed; /* per record: counted as added or deleted */
	glong dstart, dend; /* what xdl_trim_ends leaves */
	glong nreff; /* records left for the Myers search ... */
	glong *rindex; /* ... their numbers ... */
	guint32 *ha; /* ... and their classes */
};

/* One box of the divide and conquer (xdl_recs_cmp's arguments). */
struct linediff_box {
	glong off1, lim1, off2, lim2;
	gboolean need_min;
};

/* Where xdl_split cuts a box, and whether each half must be minimal. */
struct linediff_split {
	glong i1, i2;
	gboolean min_lo, min_hi;
};

/* The scratch space of the search: the forward and backward furthest
 * reaching paths, indexed by diagonal (possibly negative). */
struct linediff_env {
	const guint32 *ha1, *ha2;
	glong *kvdf, *kvdb;
	glong mxcost;
};

/* xdl_bogosqrt (xdiff/xutils.c): a power of two near the square root */
static glong linediff_bogosqrt(glong n)
{
	glong i;

	for (i = 1; n > 0; n >>= 2)
		i <<= 1;
	return i;
}

static guint linediff_line_hash(gconstpointer key)
{
	return ((const struct linediff_line *)key)->hash;
}

static gboolean linediff_line_equal(gconstpointer a, gconstpointer b)
{
	const struct linediff_line *la = a, *lb = b;

	return la->size == lb->size && !memcmp(la->ptr, lb->ptr, la->size);
}

/* A hash of one line, eight bytes at a time; any hash would do (classes
 * are decided by comparing the bytes), this one is fast. */
static guint linediff_hash(const char *p, gsize n)
{
	const guint64 k = G_GUINT64_CONSTANT(0x9e3779b97f4a7c15);
	guint64 h = n * k;
	guint64 w;

	if (n >= 8) {
		/* the last word overlaps the one before when n % 8 != 0 */
		for (gsize i = 0; i + 8 < n; i += 8) {
			memcpy(&w, p + i, 8);
			h = (h ^ w) * k;
			h ^= h >> 29;
		}
		memcpy(&w, p + n - 8, 8);
	} else {
		w = 0;
		for (gsize i = 0; i < n; i++)
			w = w << 8 | (guchar)p[i];
	}
	h = (h ^ w) * k;
	h ^= h >> 29;
	return (guint)(h ^ (h >> 32));
}

/* Split @buf into records at '\n' as xdl_hash_record does: the newline
 * belongs to its line, a last line without one is a record of its own.
 * Lines are hashed later, and only those that need it. */
static void linediff_side_split(struct linediff_side *side, const char *buf,
				gsize len)
{
	const char *p = buf, *end = buf + len;
	GArray *lines = g_array_sized_new(
		FALSE, FALSE, sizeof(struct linediff_line), len / 32 + 1);
	glong n;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *next = nl ? nl + 1 : end;
		struct linediff_line line = { p, next - p, 0 };

		g_array_append_val(lines, line);
		p = next;
	}
	n = lines->len;
	side->nrec = n;
	side->lines = (struct linediff_line *)g_array_free(lines, FALSE);
	side->cls = g_new(guint32, n ? n : 1);
	side->changed = g_new0(guint8, n ? n : 1);
	side->rindex = g_new(glong, n ? n : 1);
	side->ha = g_new(guint32, n ? n : 1);
}

static void linediff_side_clear(struct linediff_side *side)
{
	g_free(side->lines);
	g_free(side->cls);
	g_free(side->changed);
	g_free(side->rindex);
	g_free(side->ha);
}

/* xdl_trim_ends: leave out the common head and tail.  git compares the
 * classes; equal bytes are the same thing and need no hashing. */
static void linediff_trim_ends(struct linediff_side *s1,
			       struct linediff_side *s2)
{
	glong lim = MIN(s1->nrec, s2->nrec);
	glong i;

	for (i = 0; i < lim; i++)
		if (!linediff_line_equal(&s1->lines[i], &s2->lines[i]))
			break;
	s1->dstart = s2->dstart = i;
	lim -= i;
	for (i = 0; i < lim; i++)
		if (!linediff_line_equal(&s1->lines[s1->nrec - 1 - i],
					 &s2->lines[s2->nrec - 1 - i]))
			break;
	s1->dend = s1->nrec - i - 1;
	s2->dend = s2->nrec - i - 1;
}

/* Count the lines [@from, @to) of the common head or tail of @s1 on both
 * sides, in the classes the middle has. */
static void linediff_count_common(GHashTable *classes, struct linediff_side *s1,
				  glong from, glong to, guint32 *count1,
				  guint32 *count2)
{
	for (glong i = from; i < to; i++) {
		struct linediff_line *line = &s1->lines[i];
		gpointer v;

		line->hash = linediff_hash(line->ptr, line->size);
		v = g_hash_table_lookup(classes, line);
		if (v) {
			count1[GPOINTER_TO_UINT(v) - 1]++;
			count2[GPOINTER_TO_UINT(v) - 1]++;
		}
	}
}

/* Give every record between the trimmed ends the number of its class of
 * equal lines, shared by both sides (xdl_classify_record), and count how
 * often each class occurs on each side, in the whole file as
 * xdl_cleanup_records does.  The common head and tail are the same lines
 * on both sides: they are hashed once, and only looked up, since a class
 * no record in the middle has is of no interest. */
static void linediff_classify(struct linediff_side *s1,
			      struct linediff_side *s2, guint32 **count1,
			      guint32 **count2)
{
	g_autoptr(GHashTable) classes =
		g_hash_table_new(linediff_line_hash, linediff_line_equal);
	struct linediff_side *sides[2] = { s1, s2 };
	guint32 n = 0;

	for (int s = 0; s < 2; s++) {
		struct linediff_side *side = sides[s];

		for (glong i = side->dstart; i <= side->dend; i++) {
			struct linediff_line *line = &side->lines[i];
			gpointer v;

			line->hash = linediff_hash(line->ptr, line->size);
			v = g_hash_table_lookup(classes, line);
			if (!v) {
				v = GUINT_TO_POINTER(++n);
				g_hash_table_insert(classes, line, v);
			}
			side->cls[i] = GPOINTER_TO_UINT(v) - 1;
		}
	}
	*count1 = g_new0(guint32, n ? n : 1);
	*count2 = g_new0(guint32, n ? n : 1);
	for (glong i = s1->dstart; i <= s1->dend; i++)
		(*count1)[s1->cls[i]]++;
	for (glong i = s2->dstart; i <= s2->dend; i++)
		(*count2)[s2->cls[i]]++;
	if (n) {
		linediff_count_common(classes, s1, 0, s1->dstart, *count1,
				      *count2);
		linediff_count_common(classes, s1, s1->dend + 1, s1->nrec,
				      *count1, *count2);
	}
}

/* xdl_clean_mmatch: whether the line @i with many matches (dis 2) sits in
 * a run of lines without match (dis 0) dense enough to discard it too. */
static gboolean linediff_clean_mmatch(const guint8 *dis, glong i, glong s,
				      glong e)
{
	glong r, rdis0, rpdis0, rdis1, rpdis1;

	if (i - s > LINEDIFF_SIMSCAN_WINDOW)
		s = i - LINEDIFF_SIMSCAN_WINDOW;
	if (e - i > LINEDIFF_SIMSCAN_WINDOW)
		e = i + LINEDIFF_SIMSCAN_WINDOW;
	for (r = 1, rdis0 = 0, rpdis0 = 1; i - r >= s; r++) {
		if (!dis[i - r])
			rdis0++;
		else if (dis[i - r] == 2)
			rpdis0++;
		else
			break;
	}
	/* only lines with many matches before: keep it */
	if (!rdis0)
		return FALSE;
	for (r = 1, rdis1 = 0, rpdis1 = 1; i + r <= e; r++) {
		if (!dis[i + r])
			rdis1++;
		else if (dis[i + r] == 2)
			rpdis1++;
		else
			break;
	}
	if (!rdis1)
		return FALSE;
	rdis1 += rdis0;
	rpdis1 += rpdis0;
	return rpdis1 * LINEDIFF_KPDIS_RUN < rpdis1 + rdis1;
}

/* xdl_cleanup_records for one side: lines of @side without a match on the
 * other side (@other_count) are changed outright, and so are lines with at
 * least "mlim" matches (xdl_bogosqrt of the side's whole record count,
 * trimmed ends included, at most 1024) when xdl_clean_mmatch says so; the
 * others go to the Myers search. */
static void linediff_cleanup_records(struct linediff_side *side,
				     const guint32 *other_count)
{
	glong mlim = MIN(linediff_bogosqrt(side->nrec), LINEDIFF_MAX_EQLIMIT);
	g_autofree guint8 *dis = g_new0(guint8, side->nrec + 1);
	glong nreff = 0;

	for (glong i = side->dstart; i <= side->dend; i++) {
		guint32 nm = other_count[side->cls[i]];

		dis[i] = nm == 0 ? 0 : (glong)nm >= mlim ? 2 : 1;
	}
	for (glong i = side->dstart; i <= side->dend; i++) {
		if (dis[i] == 1 ||
		    (dis[i] == 2 && !linediff_clean_mmatch(dis, i, side->dstart,
							   side->dend))) {
			side->rindex[nreff] = i;
			side->ha[nreff] = side->cls[i];
			nreff++;
		} else {
			side->changed[i] = 1;
		}
	}
	side->nreff = nreff;
}

/* xdl_split: the middle snake of the box [off1, lim1) x [off2, lim2),
 * forward and backward at once; unless @need_min, git's heuristics cut
 * the search short and return a point that is good enough: a long snake
 * far along once the cost passes XDL_HEUR_MIN_COST, else the furthest
 * reaching point once it passes mxcost. */
static void linediff_split(const struct linediff_env *env, glong off1,
			   glong lim1, glong off2, glong lim2,
			   gboolean need_min, struct linediff_split *spl)
{
	const guint32 *ha1 = env->ha1, *ha2 = env->ha2;
	glong *kvdf = env->kvdf, *kvdb = env->kvdb;
	glong dmin = off1 - lim2, dmax = lim1 - off2;
	glong fmid = off1 - off2, bmid = lim1 - lim2;
	gboolean odd = (fmid - bmid) & 1;
	glong fmin = fmid, fmax = fmid;
	glong bmin = bmid, bmax = bmid;
	glong ec, d, i1, i2, prev1, best, dd, v, k;

	kvdf[fmid] = off1;
	kvdb[bmid] = lim1;

	for (ec = 1;; ec++) {
		gboolean got_snake = FALSE;

		/* widen the forward diagonals by one, or step back inside
		 * the box; the value past the edge is a sentinel */
		if (fmin > dmin)
			kvdf[--fmin - 1] = -1;
		else
			++fmin;
		if (fmax < dmax)
			kvdf[++fmax + 1] = -1;
		else
			--fmax;

		for (d = fmax; d >= fmin; d -= 2) {
			if (kvdf[d - 1] >= kvdf[d + 1])
				i1 = kvdf[d - 1] + 1;
			else
				i1 = kvdf[d + 1];
			prev1 = i1;
			i2 = i1 - d;
			while (i1 < lim1 && i2 < lim2 && ha1[i1] == ha2[i2]) {
				i1++;
				i2++;
			}
			if (i1 - prev1 > LINEDIFF_SNAKE_CNT)
				got_snake = TRUE;
			kvdf[d] = i1;
			if (odd && bmin <= d && d <= bmax && kvdb[d] <= i1) {
				spl->i1 = i1;
				spl->i2 = i2;
				spl->min_lo = spl->min_hi = TRUE;
				return;
			}
		}

		if (bmin > dmin)
			kvdb[--bmin - 1] = LINEDIFF_LINE_MAX;
		else
			++bmin;
		if (bmax < dmax)
			kvdb[++bmax + 1] = LINEDIFF_LINE_MAX;
		else
			--bmax;

		for (d = bmax; d >= bmin; d -= 2) {
			if (kvdb[d - 1] < kvdb[d + 1])
				i1 = kvdb[d - 1];
			else
				i1 = kvdb[d + 1] - 1;
			prev1 = i1;
			i2 = i1 - d;
			while (i1 > off1 && i2 > off2 &&
			       ha1[i1 - 1] == ha2[i2 - 1]) {
				i1--;
				i2--;
			}
			if (prev1 - i1 > LINEDIFF_SNAKE_CNT)
				got_snake = TRUE;
			kvdb[d] = i1;
			if (!odd && fmin <= d && d <= fmax && i1 <= kvdf[d]) {
				spl->i1 = i1;
				spl->i2 = i2;
				spl->min_lo = spl->min_hi = TRUE;
				return;
			}
		}

		if (need_min)
			continue;

		/* past the trigger cost, with a snake longer than
		 * XDL_SNAKE_CNT seen in this round: take the diagonal that
		 * got furthest from the corner (less its distance from the
		 * middle diagonal) if it is worth XDL_K_HEUR times the cost
		 * and ends in a snake of XDL_SNAKE_CNT lines */
		if (got_snake && ec > LINEDIFF_HEUR_MIN_COST) {
			for (best = 0, d = fmax; d >= fmin; d -= 2) {
				dd = d > fmid ? d - fmid : fmid - d;
				i1 = kvdf[d];
				i2 = i1 - d;
				v = (i1 - off1) + (i2 - off2) - dd;
				if (v > LINEDIFF_K_HEUR * ec && v > best &&
				    off1 + LINEDIFF_SNAKE_CNT <= i1 &&
				    i1 < lim1 &&
				    off2 + LINEDIFF_SNAKE_CNT <= i2 &&
				    i2 < lim2) {
					for (k = 1; ha1[i1 - k] == ha2[i2 - k];
					     k++) {
						if (k == LINEDIFF_SNAKE_CNT) {
							best = v;
							spl->i1 = i1;
							spl->i2 = i2;
							break;
						}
					}
				}
			}
			if (best > 0) {
				spl->min_lo = TRUE;
				spl->min_hi = FALSE;
				return;
			}

			for (best = 0, d = bmax; d >= bmin; d -= 2) {
				dd = d > bmid ? d - bmid : bmid - d;
				i1 = kvdb[d];
				i2 = i1 - d;
				v = (lim1 - i1) + (lim2 - i2) - dd;
				if (v > LINEDIFF_K_HEUR * ec && v > best &&
				    off1 < i1 &&
				    i1 <= lim1 - LINEDIFF_SNAKE_CNT &&
				    off2 < i2 &&
				    i2 <= lim2 - LINEDIFF_SNAKE_CNT) {
					for (k = 0; ha1[i1 + k] == ha2[i2 + k];
					     k++) {
						if (k ==
						    LINEDIFF_SNAKE_CNT - 1) {
							best = v;
							spl->i1 = i1;
							spl->i2 = i2;
							break;
						}
					}
				}
			}
			if (best > 0) {
				spl->min_lo = FALSE;
				spl->min_hi = TRUE;
				return;
			}
		}

		/* past mxcost: the furthest reaching point in i1 + i2,
		 * forward or backward, whichever went further */
		if (ec >= env->mxcost) {
			glong fbest = -1, fbest1 = -1;
			glong bbest = LINEDIFF_LINE_MAX,
			      bbest1 = LINEDIFF_LINE_MAX;

			for (d = fmax; d >= fmin; d -= 2) {
				i1 = MIN(kvdf[d], lim1);
				i2 = i1 - d;
				if (lim2 < i2) {
					i1 = lim2 + d;
					i2 = lim2;
				}
				if (fbest < i1 + i2) {
					fbest = i1 + i2;
					fbest1 = i1;
				}
			}
			for (d = bmax; d >= bmin; d -= 2) {
				i1 = MAX(off1, kvdb[d]);
				i2 = i1 - d;
				if (i2 < off2) {
					i1 = off2 + d;
					i2 = off2;
				}
				if (i1 + i2 < bbest) {
					bbest = i1 + i2;
					bbest1 = i1;
				}
			}
			if ((lim1 + lim2) - bbest < fbest - (off1 + off2)) {
				spl->i1 = fbest1;
				spl->i2 = fbest - fbest1;
				spl->min_lo = TRUE;
				spl->min_hi = FALSE;
			} else {
				spl->i1 = bbest1;
				spl->i2 = bbest - bbest1;
				spl->min_lo = FALSE;
				spl->min_hi = TRUE;
			}
			return;
		}
	}
}

/* xdl_recs_cmp without recursion: a stack of boxes, the lower half of
 * each split done first as git does; mark the records each box leaves
 * unmatched once one of its sides is empty. */
static void linediff_recs_cmp(const struct linediff_env *env,
			      struct linediff_side *s1,
			      struct linediff_side *s2)
{
	g_autoptr(GArray)
		stack = g_array_new(FALSE, FALSE, sizeof(struct linediff_box));
	struct linediff_box box = { 0, s1->nreff, 0, s2->nreff, FALSE };

	g_array_append_val(stack, box);
	while (stack->len) {
		struct linediff_split spl = { 0, 0, FALSE, FALSE };
		struct linediff_box lo, hi;

		box = g_array_index(stack, struct linediff_box, stack->len - 1);
		g_array_set_size(stack, stack->len - 1);
		while (box.off1 < box.lim1 && box.off2 < box.lim2 &&
		       env->ha1[box.off1] == env->ha2[box.off2]) {
			box.off1++;
			box.off2++;
		}
		while (box.off1 < box.lim1 && box.off2 < box.lim2 &&
		       env->ha1[box.lim1 - 1] == env->ha2[box.lim2 - 1]) {
			box.lim1--;
			box.lim2--;
		}
		if (box.off1 == box.lim1) {
			for (glong i = box.off2; i < box.lim2; i++)
				s2->changed[s2->rindex[i]] = 1;
			continue;
		}
		if (box.off2 == box.lim2) {
			for (glong i = box.off1; i < box.lim1; i++)
				s1->changed[s1->rindex[i]] = 1;
			continue;
		}
		linediff_split(env, box.off1, box.lim1, box.off2, box.lim2,
			       box.need_min, &spl);
		lo = (struct linediff_box){ box.off1, spl.i1, box.off2, spl.i2,
					    spl.min_lo };
		hi = (struct linediff_box){ spl.i1, box.lim1, spl.i2, box.lim2,
					    spl.min_hi };
		g_array_append_val(stack, hi);
		g_array_append_val(stack, lo);
	}
}

static guint64 linediff_side_changed(const struct linediff_side *side)
{
	guint64 n = 0;

	for (glong i = 0; i < side->nrec; i++)
		n += side->changed[i];
	return n;
}

void linediff_count(const char *a, gsize a_len, const char *b, gsize b_len,
		    guint64 *added, guint64 *deleted)
{
	struct linediff_side s1 = { 0 }, s2 = { 0 };
	g_autofree guint32 *count1 = NULL;
	g_autofree guint32 *count2 = NULL;
	g_autofree glong *kvd = NULL;
	struct linediff_env env;
	glong ndiags;

	*added = *deleted = 0;
	/* an empty GBytes has no data pointer, and NULL + 0 is undefined
	 * in C (found by tests/fuzz/fuzz-linediff.c) */
	if (!a)
		a = "";
	if (!b)
		b = "";
	/* git does not diff equal blobs at all */
	if (a_len == b_len && (!a_len || !memcmp(a, b, a_len)))
		return;

	linediff_side_split(&s1, a, a_len);
	linediff_side_split(&s2, b, b_len);
	linediff_trim_ends(&s1, &s2);
	linediff_classify(&s1, &s2, &count1, &count2);
	g_clear_pointer(&s1.lines, g_free);
	g_clear_pointer(&s2.lines, g_free);
	linediff_cleanup_records(&s1, count2);
	linediff_cleanup_records(&s2, count1);

	/* xdl_do_diff: the cost limit is xdl_bogosqrt of the diagonal
	 * count, at least XDL_MAX_COST_MIN */
	ndiags = s1.nreff + s2.nreff + 3;
	kvd = g_new(glong, 2 * ndiags + 2);
	env.ha1 = s1.ha;
	env.ha2 = s2.ha;
	env.kvdf = kvd + s2.nreff + 1;
	env.kvdb = kvd + ndiags + s2.nreff + 1;
	env.mxcost = MAX(linediff_bogosqrt(ndiags), LINEDIFF_MAX_COST_MIN);
	linediff_recs_cmp(&env, &s1, &s2);

	*added = linediff_side_changed(&s2);
	*deleted = linediff_side_changed(&s1);
	linediff_side_clear(&s1);
	linediff_side_clear(&s2);
}
