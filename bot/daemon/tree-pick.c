/* Choosing the tree for a series; see bot/daemon/tree-pick.h. */
#include "bot/daemon/tree-pick.h"

#include <string.h>

#include "kernel/diff/dirstat.h"
#include "kernel/diff/patchstat.h"
#include "kernel/git/lg2repo.h"
#include "kernel/tree/tree.h"
#include "mailparse/listid.h"
#include "mailparse/series.h"
#include "mailparse/subject.h"

static void add_unique(GPtrArray *a, const char *s)
{
	for (guint i = 0; i < a->len; i++)
		if (!strcmp(a->pdata[i], s))
			return;
	g_ptr_array_add(a, g_strdup(s));
}

struct tree_pick_series *tree_pick_series_new(GPtrArray *messages)
{
	struct tree_pick_series *s = g_new0(struct tree_pick_series, 1);

	s->topics = g_ptr_array_new_with_free_func(g_free);
	s->files = g_ptr_array_new_with_free_func(g_free);
	s->list_ids = g_ptr_array_new_with_free_func(g_free);
	s->recipients = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < messages->len; i++) {
		const struct message *msg = messages->pdata[i];
		struct subject_tags tags = SUBJECT_TAGS_INIT;
		g_autoptr(series_message) info = series_message_from(msg, 0);
		g_autofree char *patch = NULL;
		g_autofree char *body = message_body_text(msg, &patch);
		g_autoptr(GPtrArray) stats = g_ptr_array_new_with_free_func(
			(GDestroyNotify)dirstat_filestat_free);
		const char *lid = message_header(msg, "List-Id");

		subject_tags_parse(&tags, msg->subject);
		if (tags.topic) {
			g_auto(GStrv) words = g_strsplit(tags.topic, " ", -1);

			for (guint j = 0; words[j]; j++)
				if (*words[j])
					add_unique(s->topics, words[j]);
			if (!s->prefix)
				s->prefix = g_strdup(tags.prefixes);
		}
		subject_tags_clear(&tags);
		if (!s->base_commit && info->base_commit)
			s->base_commit = g_strdup(info->base_commit);
		patchstat_parse(patch, strlen(patch), stats);
		for (guint j = 0; j < stats->len; j++) {
			const struct dirstat_filestat *fs = stats->pdata[j];

			if (fs->old_path && strcmp(fs->old_path, fs->path))
				add_unique(s->files, fs->old_path);
			add_unique(s->files, fs->path);
		}
		if (lid) {
			g_autofree char *id = message_angle_text(lid);

			add_unique(s->list_ids, id);
		}
		for (guint j = 0; msg->to && j < msg->to->len; j++) {
			g_autofree char *a =
				g_ascii_strdown(msg->to->pdata[j], -1);

			add_unique(s->recipients, a);
		}
	}
	return s;
}

void tree_pick_series_free(struct tree_pick_series *s)
{
	if (!s)
		return;
	g_ptr_array_unref(s->topics);
	g_free(s->prefix);
	g_free(s->base_commit);
	g_ptr_array_unref(s->files);
	g_ptr_array_unref(s->list_ids);
	g_ptr_array_unref(s->recipients);
	g_free(s);
}

void tree_pick_result_clear(struct tree_pick_result *r)
{
	g_clear_pointer(&r->reason, g_free);
	r->tree = NULL;
}

const char *tree_pick_by_name(enum tree_pick_by by)
{
	static const char *const names[] = {
		[TREE_PICK_PREFIX] = "prefix",
		[TREE_PICK_BASE_COMMIT] = "base-commit",
		[TREE_PICK_PATHS] = "paths",
		[TREE_PICK_LIST] = "list",
		[TREE_PICK_DISTRO] = "distro",
	};

	return names[by];
}

gboolean tree_pick_has_commit_in_data_dir(const struct treefile *tf,
					  const char *hex, gpointer data)
{
	g_autoptr(kernel_tree) tree = tree_open(data, tf->name, NULL);
	size_t len = strlen(hex);

	if (!tree || len < 7 || len > GITOID_HEXSZ)
		return FALSE;
	return lg2repo_has_commit_prefix(tree->repo, hex);
}

/* Step 3's figures for one tree. */
struct path_score {
	const struct treefile *tree;
	guint owned; /* files where it is the most specific */
	gint sum; /* of depths over the files it matches */
	guint literal; /* of the literal starts of those matches */
	guint matched; /* files it matches */
	/* its deepest match, for the reason */
	const char *file;
	const struct maintainers_pattern *pattern;
	int depth;
};

static gint score_cmp(gconstpointer a, gconstpointer b)
{
	const struct path_score *x = a, *y = b;

	if (x->owned != y->owned)
		return x->owned > y->owned ? -1 : 1;
	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	if (x->literal != y->literal)
		return x->literal > y->literal ? -1 : 1;
	if (x->matched != y->matched)
		return x->matched > y->matched ? -1 : 1;
	return strcmp(x->tree->name, y->tree->name);
}

/* Rank @trees by the paths of @series (step 3): a new array of struct
 * path_score, best first, of the trees matching some file. */
static GArray *rank_paths(const struct tree_pick_series *series,
			  GPtrArray *trees)
{
	g_autoptr(GArray) scores = g_array_sized_new(
		FALSE, TRUE, sizeof(struct path_score), trees->len);
	g_autofree int *depths = g_new(int, trees->len);
	g_autofree const struct maintainers_pattern **hits =
		g_new(const struct maintainers_pattern *, trees->len);
	GArray *out = g_array_new(FALSE, TRUE, sizeof(struct path_score));

	g_array_set_size(scores, trees->len);
	for (guint t = 0; t < trees->len; t++)
		g_array_index(scores, struct path_score, t).tree =
			trees->pdata[t];
	for (guint f = 0; f < series->files->len; f++) {
		const char *file = series->files->pdata[f];
		int best = G_MININT;
		guint best_literal = 0;

		for (guint t = 0; t < trees->len; t++) {
			const struct treefile *tf = trees->pdata[t];
			struct path_score *sc =
				&g_array_index(scores, struct path_score, t);

			depths[t] = G_MININT;
			if (!maintainers_section_match(tf->paths, file,
						       &depths[t], &hits[t]))
				continue;
			sc->matched++;
			sc->sum += depths[t];
			sc->literal += hits[t]->literal;
			if (depths[t] > best ||
			    (depths[t] == best &&
			     hits[t]->literal > best_literal)) {
				best = depths[t];
				best_literal = hits[t]->literal;
			}
			if (!sc->pattern || depths[t] > sc->depth ||
			    (depths[t] == sc->depth &&
			     hits[t]->literal > sc->pattern->literal)) {
				sc->file = file;
				sc->pattern = hits[t];
				sc->depth = depths[t];
			}
		}
		if (best == G_MININT)
			continue;
		for (guint t = 0; t < trees->len; t++) {
			struct path_score *sc =
				&g_array_index(scores, struct path_score, t);

			if (depths[t] == best &&
			    hits[t]->literal == best_literal)
				sc->owned++;
		}
	}
	for (guint t = 0; t < trees->len; t++) {
		struct path_score *sc =
			&g_array_index(scores, struct path_score, t);

		if (sc->matched)
			g_array_append_val(out, *sc);
	}
	g_array_sort(out, score_cmp);
	return out;
}

static const char *pattern_tag(const struct maintainers_pattern *p)
{
	return p->kind == MAINTAINERS_N ? "N:" : "F:";
}

/* The reason of a path decision: "touches FILE (F: PATTERN in ORIGIN)",
 * with the other files counted. */
static char *paths_reason(const struct path_score *sc,
			  const struct tree_pick_series *series,
			  const struct path_score *runner_up)
{
	GString *r = g_string_new(NULL);
	guint others = sc->matched - 1;

	g_string_printf(r, "touches %s (%s %s in %s)", sc->file,
			pattern_tag(sc->pattern), sc->pattern->text,
			sc->tree->origin);
	if (others)
		g_string_append_printf(r, " and %u more file%s", others,
				       others == 1 ? "" : "s");
	if (sc->matched < series->files->len)
		g_string_append_printf(r, "; it covers %u of the %u files",
				       sc->matched, series->files->len);
	if (runner_up)
		g_string_append_printf(r, "; wins over %s (%s %s in %s)",
				       runner_up->tree->name,
				       pattern_tag(runner_up->pattern),
				       runner_up->pattern->text,
				       runner_up->tree->origin);
	return g_string_free(r, FALSE);
}

/* A tree list address (linux-omap@vger.kernel.org) and a List-Id
 * (linux-omap.vger.kernel.org): the id is the address with '.' for '@',
 * as vger, infradead and lists.linaro.org name them. */
static gboolean list_matches_id(const char *address, const char *id)
{
	g_autofree char *as_id = listid_from_address(address);

	return !g_ascii_strcasecmp(as_id, id);
}

static const struct treefile *find_list(GPtrArray *trees, GPtrArray *ids,
					gboolean by_id, const char **which,
					const char **list)
{
	for (guint i = 0; i < ids->len; i++)
		for (guint t = 0; t < trees->len; t++) {
			const struct treefile *tf = trees->pdata[t];

			for (guint l = 0; tf->lists[l]; l++) {
				gboolean hit =
					by_id ? list_matches_id(tf->lists[l],
								ids->pdata[i]) :
						!g_ascii_strcasecmp(
							tf->lists[l],
							ids->pdata[i]);

				if (hit) {
					*which = ids->pdata[i];
					*list = tf->lists[l];
					return tf;
				}
			}
		}
	return NULL;
}

void tree_pick(const struct tree_pick_series *series, GPtrArray *trees,
	       const struct treefile *distro,
	       tree_pick_has_commit_fn has_commit, gpointer data,
	       struct tree_pick_result *out)
{
	g_autoptr(GArray) ranked = NULL;
	const struct treefile *tf;
	const char *which = NULL, *list = NULL;

	memset(out, 0, sizeof(*out));
	for (guint t = 0; t < trees->len; t++)
		if (!strcmp(((struct treefile *)trees->pdata[t])->name,
			    TREE_DISTRO_NAME))
			distro = trees->pdata[t];

	/* 1. a subject prefix naming a tree */
	for (guint i = 0; i < series->topics->len; i++)
		for (guint t = 0; t < trees->len; t++) {
			tf = trees->pdata[t];
			if (g_ascii_strcasecmp(tf->name,
					       series->topics->pdata[i]))
				continue;
			out->tree = tf;
			out->by = TREE_PICK_PREFIX;
			out->reason = g_strdup_printf(
				"subject prefix %s names tree %s (%s)",
				series->prefix, tf->name, tf->origin);
			return;
		}
	if (distro && series->topics->len) {
		for (guint i = 0; i < series->topics->len; i++)
			if (!g_ascii_strcasecmp(distro->name,
						series->topics->pdata[i])) {
				out->tree = distro;
				out->by = TREE_PICK_PREFIX;
				out->reason = g_strdup_printf(
					"subject prefix %s names the distro "
					"tree %s",
					series->prefix, distro->name);
				return;
			}
	}

	ranked = rank_paths(series, trees);

	/* 2. the base-commit found in a tree: the best ranked by paths
	 * among those that have it, else the first by name */
	if (series->base_commit && has_commit) {
		g_autoptr(GPtrArray) with = g_ptr_array_new();
		const struct treefile *chosen = NULL;

		for (guint t = 0; t < trees->len; t++)
			if (has_commit(trees->pdata[t], series->base_commit,
				       data))
				g_ptr_array_add(with, trees->pdata[t]);
		if (distro && !g_ptr_array_find(trees, distro, NULL) &&
		    has_commit(distro, series->base_commit, data))
			g_ptr_array_add(with, (gpointer)distro);
		for (guint r = 0; r < ranked->len && !chosen; r++) {
			const struct treefile *c =
				g_array_index(ranked, struct path_score, r).tree;

			if (g_ptr_array_find(with, c, NULL))
				chosen = c;
		}
		if (!chosen && with->len)
			chosen = with->pdata[0];
		if (chosen) {
			out->tree = chosen;
			out->by = TREE_PICK_BASE_COMMIT;
			out->reason = g_strdup_printf(
				"base-commit %.12s found in %s%s",
				series->base_commit, chosen->name,
				with->len > 1 ? " (the best of the trees "
						"that have it by paths, then "
						"name)" :
						"");
			return;
		}
	}

	/* 3. the paths, most specific tree first */
	if (ranked->len) {
		const struct path_score *best =
			&g_array_index(ranked, struct path_score, 0);
		const struct path_score *second =
			ranked->len > 1 ?
				&g_array_index(ranked, struct path_score, 1) :
				NULL;

		out->tree = best->tree;
		out->by = TREE_PICK_PATHS;
		out->reason = paths_reason(best, series, second);
		return;
	}

	/* 4. the list it came from: List-Id, then To/Cc */
	tf = find_list(trees, series->list_ids, TRUE, &which, &list);
	if (!tf)
		tf = find_list(trees, series->recipients, FALSE, &which, &list);
	if (tf) {
		out->tree = tf;
		out->by = TREE_PICK_LIST;
		out->reason = g_strdup_printf("came from list %s (%s in %s)",
					      which, list, tf->origin);
		return;
	}

	/* 5. the distro tree */
	out->tree = distro;
	out->by = TREE_PICK_DISTRO;
	out->reason = g_strdup_printf(
		"no tree claims it (no subject prefix, base-commit, path or "
		"list matched): the distro tree %s",
		distro ? distro->name : TREE_DISTRO_NAME);
}
