/* git's dirstat (diff.c of git 2.39) and armbot's signed dirstat; see
 * kernel/diff/dirstat.h for the contract and README.md for the definition. */
#include "kernel/diff/dirstat.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/diff/linediff.h"

#define DIRSTAT_ERROR (g_quark_from_static_string("dirstat-error"))

/* One file as gather_dirstat() sees it. */
struct dirstat_value {
	const char *name;
	gint64 value;
};

gboolean dirstat_parse_params(struct dirstat_options *opts, const char *params,
			      GError **error)
{
	g_auto(GStrv) items = NULL;
	g_autoptr(GString) errmsg = g_string_new(NULL);

	/* an empty string is no parameter at all */
	if (!*params)
		return TRUE;
	items = g_strsplit(params, ",", -1);
	for (char **it = items; *it; it++) {
		const char *p = *it;

		if (!strcmp(p, "changes")) {
			opts->mode = DIRSTAT_CHANGES;
		} else if (!strcmp(p, "lines")) {
			opts->mode = DIRSTAT_LINES;
		} else if (!strcmp(p, "files")) {
			opts->mode = DIRSTAT_FILES;
		} else if (!strcmp(p, "noncumulative")) {
			opts->cumulative = FALSE;
		} else if (!strcmp(p, "cumulative")) {
			opts->cumulative = TRUE;
		} else if (g_ascii_isdigit(*p)) {
			char *end;
			int permille = strtoul(p, &end, 10) * 10;

			/* only the first decimal counts, the others are
			 * skipped; as in git, a lone trailing dot ("3.") is
			 * consumed by the test itself and accepted */
			if (*end == '.' && g_ascii_isdigit(*++end)) {
				permille += *end - '0';
				while (g_ascii_isdigit(*++end))
					;
			}
			if (!*end)
				opts->permille = permille;
			else
				g_string_append_printf(
					errmsg,
					"  Failed to parse dirstat cut-off percentage '%s'\n",
					p);
		} else {
			g_string_append_printf(
				errmsg, "  Unknown dirstat parameter '%s'\n",
				p);
		}
	}
	if (errmsg->len) {
		g_set_error(
			error, DIRSTAT_ERROR, 1,
			"Failed to parse --dirstat/-X option parameter:\n%s",
			errmsg->str);
		return FALSE;
	}
	return TRUE;
}

void dirstat_filestat_free(struct dirstat_filestat *fs)
{
	if (!fs)
		return;
	g_free(fs->path);
	g_free(fs->old_path);
	g_free(fs);
}

void dirstat_report_free(struct dirstat_report *report)
{
	if (!report)
		return;
	g_ptr_array_unref(report->rows);
	g_free(report);
}

static void row_free(struct dirstat_row *row)
{
	g_free(row->dir);
	g_free(row);
}

static gboolean same_object(const struct treediff_pair *p)
{
	return p->one->valid && p->two->valid &&
	       gitoid_equal(&p->one->oid, &p->two->oid);
}

static char pair_status(const struct treediff_pair *p)
{
	if (!p->one->valid)
		return 'A';
	if (!p->two->valid)
		return 'D';
	if (p->renamed)
		return 'R';
	if ((p->one->mode & S_IFMT) != (p->two->mode & S_IFMT))
		return 'T';
	return 'M';
}

/* Lines added and deleted between two text specs, as git's xdiff counts
 * them for its diffstat (kernel/diff/linediff.c). */
static void count_lines(struct treediff_spec *one, struct treediff_spec *two,
			guint64 *added, guint64 *deleted)
{
	gsize alen, blen;
	const char *adata = g_bytes_get_data(one->data, &alen);
	const char *bdata = g_bytes_get_data(two->data, &blen);

	linediff_count(adata, alen, bdata, blen, added, deleted);
}

/* diff.c builtin_diffstat() for one pair */
static struct dirstat_filestat *
filestat_from_pair(struct treediff *q, struct treediff_pair *p, GError **error)
{
	g_autoptr(GError) local = NULL;
	struct dirstat_filestat *fs = g_new0(struct dirstat_filestat, 1);
	gboolean bin_one, bin_two;

	fs->path = g_strdup(p->two->path);
	fs->old_path = g_strdup(p->one->path);
	fs->status = pair_status(p);
	fs->same_content = same_object(p);
	if (!treediff_spec_is_binary(q, p->one, &bin_one, &local) ||
	    !treediff_spec_is_binary(q, p->two, &bin_two, &local))
		goto fail;
	if (bin_one || bin_two) {
		fs->binary = TRUE;
		if (!fs->same_content) {
			gsize s1, s2;

			if (!treediff_spec_size(q, p->two, &s2, &local) ||
			    !treediff_spec_size(q, p->one, &s1, &local))
				goto fail;
			fs->added = s2;
			fs->deleted = s1;
		}
	} else if (!fs->same_content) {
		if (!treediff_spec_load(q, p->one, &local) ||
		    !treediff_spec_load(q, p->two, &local))
			goto fail;
		count_lines(p->one, p->two, &fs->added, &fs->deleted);
	}
	treediff_spec_unload(p->one);
	treediff_spec_unload(p->two);
	return fs;
fail:
	dirstat_filestat_free(fs);
	g_propagate_error(error, g_steal_pointer(&local));
	return NULL;
}

GPtrArray *dirstat_filestats_from_tree(struct treediff *q, GError **error)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(
		(GDestroyNotify)dirstat_filestat_free);

	for (guint i = 0; i < q->pairs->len; i++) {
		struct dirstat_filestat *fs =
			filestat_from_pair(q, q->pairs->pdata[i], error);

		if (!fs)
			return NULL;
		g_ptr_array_add(out, fs);
	}
	return g_steal_pointer(&out);
}

static gint64 div_round_up(guint64 n)
{
	return (gint64)((n + 63) / 64);
}

/* show_dirstat_by_line()'s damage, or the signed net; binary files count
 * bytes divided by 64 ("64 bytes per line", git's "stupid and ugly, but
 * very cheap" heuristic). */
static gboolean filestat_lines(const struct dirstat_filestat *fs,
			       gboolean is_signed, gint64 *out)
{
	/* builtin_diffstat() omits modified text files where nothing
	 * changed although the object did */
	if (!fs->binary && !fs->same_content && fs->status != 'A' &&
	    fs->status != 'D' && !fs->added && !fs->deleted)
		return FALSE;
	if (!is_signed)
		*out = fs->binary ? div_round_up(fs->added + fs->deleted) :
				    (gint64)(fs->added + fs->deleted);
	else if (fs->binary)
		*out = div_round_up(fs->added) - div_round_up(fs->deleted);
	else
		*out = (gint64)fs->added - (gint64)fs->deleted;
	return TRUE;
}

/* Files mode: one per changed file (show_dirstat(), dirstat_by_file);
 * signed: +1 created, -1 deleted, else the sign of the net lines. */
static gint64 filestat_files(const struct dirstat_filestat *fs,
			     gboolean is_signed)
{
	gint64 net;

	if (fs->same_content)
		return 0;
	if (!is_signed)
		return 1;
	if (fs->status == 'A')
		return 1;
	if (fs->status == 'D')
		return -1;
	if (fs->binary)
		net = div_round_up(fs->added) - div_round_up(fs->deleted);
	else
		net = (gint64)fs->added - (gint64)fs->deleted;
	return net > 0 ? 1 : net < 0 ? -1 : 0;
}

static int value_compare(const void *a_, const void *b_)
{
	const struct dirstat_value *a = a_, *b = b_;

	return strcmp(a->name, b->name);
}

struct gather {
	struct dirstat_report *report;
	struct dirstat_value *files;
	gsize nr;
};

/* gather_dirstat(): sum a directory's files and subdirectories, and print
 * it unless it is the top level or all of it came from one subdirectory
 * (sources == 1); without "cumulative" a printed directory no longer
 * counts in its parent. */
static gint64 gather_dirstat(struct gather *g, const char *base, gsize baselen)
{
	gint64 sum = 0;
	unsigned int sources = 0;

	while (g->nr) {
		struct dirstat_value *f = g->files;
		gsize namelen = strlen(f->name);
		const char *slash;
		gint64 changes;

		if (namelen < baselen)
			break;
		if (memcmp(f->name, base, baselen))
			break;
		slash = strchr(f->name + baselen, '/');
		if (slash) {
			changes =
				gather_dirstat(g, f->name, slash + 1 - f->name);
			sources++;
		} else {
			changes = f->value;
			g->files++;
			g->nr--;
			sources += 2;
		}
		sum += changes;
	}
	if (baselen && sources != 1 && sum) {
		guint64 magnitude = sum < 0 ? -(guint64)sum : (guint64)sum;
		int permille = magnitude * 1000 / g->report->total;

		if (permille >= g->report->permille) {
			struct dirstat_row *row = g_new0(struct dirstat_row, 1);

			row->dir = g_strndup(base, baselen);
			row->value = sum;
			row->permille = permille;
			g_ptr_array_add(g->report->rows, row);
			if (!g->report->cumulative)
				return 0;
		}
	}
	return sum;
}

static struct dirstat_report *report_new(const struct dirstat_options *opts)
{
	struct dirstat_report *report = g_new0(struct dirstat_report, 1);

	report->rows = g_ptr_array_new_with_free_func((GDestroyNotify)row_free);
	report->is_signed = opts->is_signed;
	report->mode = opts->mode;
	report->permille = opts->permille;
	report->cumulative = opts->cumulative;
	return report;
}

/* show_dirstat()'s tail: total, sort by name, gather */
static void report_gather(struct dirstat_report *report, GArray *values)
{
	struct gather g = { report, (struct dirstat_value *)values->data,
			    values->len };

	report->files = values->len;
	for (guint i = 0; i < values->len; i++) {
		gint64 v = g_array_index(values, struct dirstat_value, i).value;

		report->total += v < 0 ? -(guint64)v : (guint64)v;
	}
	/* "this can happen even with many files, if everything was renames" */
	if (!report->total)
		return;
	qsort(values->data, values->len, sizeof(struct dirstat_value),
	      value_compare);
	gather_dirstat(&g, "", 0);
}

/* show_dirstat() in changes mode: damage is what diffcore_count_changes()
 * says was removed from the preimage plus what was added, at least 1 for a
 * changed object; signed, added minus removed. */
static gboolean changes_value(struct treediff *q, struct treediff_pair *p,
			      gboolean is_signed, gint64 *out, GError **error)
{
	guint64 copied = 0, added = 0, removed;
	gsize one_size = 0;

	*out = 0;
	if (same_object(p))
		return TRUE;
	if (p->one->valid && p->two->valid) {
		const struct diffcount_spans *s, *d;

		s = treediff_spec_spans(q, p->one, error);
		if (!s)
			return FALSE;
		d = treediff_spec_spans(q, p->two, error);
		if (!d)
			return FALSE;
		diffcount_changes(s, d, &copied, &added);
		if (!treediff_spec_size(q, p->one, &one_size, error))
			return FALSE;
	} else if (p->one->valid) {
		if (!treediff_spec_size(q, p->one, &one_size, error))
			return FALSE;
	} else if (p->two->valid) {
		gsize two_size;

		if (!treediff_spec_size(q, p->two, &two_size, error))
			return FALSE;
		added = two_size;
	} else {
		return TRUE;
	}
	treediff_spec_unload(p->one);
	treediff_spec_unload(p->two);
	removed = one_size - copied;
	if (is_signed) {
		*out = (gint64)added - (gint64)removed;
	} else {
		*out = (gint64)(removed + added);
		if (!*out)
			*out = 1;
	}
	return TRUE;
}

struct dirstat_report *
dirstat_report_from_filestats(GPtrArray *filestats,
			      const struct dirstat_options *opts,
			      GError **error)
{
	g_autoptr(dirstat_report) report = report_new(opts);
	g_autoptr(GArray) values =
		g_array_new(FALSE, FALSE, sizeof(struct dirstat_value));

	if (opts->mode == DIRSTAT_CHANGES) {
		g_set_error(
			error, DIRSTAT_ERROR, 1,
			"the changes dirstat needs the file contents: use lines or files");
		return NULL;
	}
	for (guint i = 0; i < filestats->len; i++) {
		const struct dirstat_filestat *fs = filestats->pdata[i];
		struct dirstat_value v = { fs->path, 0 };

		if (opts->mode == DIRSTAT_LINES) {
			if (!filestat_lines(fs, opts->is_signed, &v.value))
				continue;
		} else {
			v.value = filestat_files(fs, opts->is_signed);
		}
		g_array_append_val(values, v);
	}
	report_gather(report, values);
	return g_steal_pointer(&report);
}

struct dirstat_report *
dirstat_report_from_tree(struct treediff *q, GPtrArray *filestats,
			 const struct dirstat_options *opts, GError **error)
{
	g_autoptr(dirstat_report) report = report_new(opts);
	g_autoptr(GArray) values = NULL;
	g_autoptr(GPtrArray) computed = NULL;

	if (opts->mode == DIRSTAT_LINES ||
	    (opts->mode == DIRSTAT_FILES && opts->is_signed)) {
		if (!filestats) {
			computed = dirstat_filestats_from_tree(q, error);
			if (!computed)
				return NULL;
			filestats = computed;
		}
		return dirstat_report_from_filestats(filestats, opts, error);
	}
	values = g_array_new(FALSE, FALSE, sizeof(struct dirstat_value));
	for (guint i = 0; i < q->pairs->len; i++) {
		struct treediff_pair *p = q->pairs->pdata[i];
		struct dirstat_value v = { p->two->path, 0 };

		if (opts->mode == DIRSTAT_FILES)
			v.value = same_object(p) ? 0 : 1;
		else if (!changes_value(q, p, opts->is_signed, &v.value, error))
			return NULL;
		g_array_append_val(values, v);
	}
	report_gather(report, values);
	return g_steal_pointer(&report);
}

gboolean dirstat_report_balanced(const struct dirstat_report *report)
{
	return report->is_signed && report->files && !report->total;
}

char *dirstat_report_format(const struct dirstat_report *report)
{
	GString *out = g_string_new(NULL);

	if (dirstat_report_balanced(report)) {
		g_string_append(out, "balanced: in every file the additions "
				     "and removals cancel out\n");
		return g_string_free(out, FALSE);
	}
	for (guint i = 0; i < report->rows->len; i++) {
		const struct dirstat_row *row = report->rows->pdata[i];
		char whole[32];

		/* git: "%4d.%01d%% %.*s\n"; the sign goes before the
		 * integer part, which keeps "-0.4%" distinct from "0.4%" */
		g_snprintf(whole, sizeof(whole), "%s%d",
			   row->value < 0 ? "-" : "", row->permille / 10);
		g_string_append_printf(out, "%4s.%01d%% %s\n", whole,
				       row->permille % 10, row->dir);
	}
	return g_string_free(out, FALSE);
}

const char *dirstat_mode_name(enum dirstat_mode mode)
{
	return mode == DIRSTAT_LINES ? "lines" :
	       mode == DIRSTAT_FILES ? "files" :
				       "changes";
}
