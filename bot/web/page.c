#include "bot/web/page.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "bot/web/archive.h"
#include "bot/web/diff.h"
#include "bot/store/boards.h"
#include "bot/store/timing.h"
#include "bot/web/escape.h"
#include "bot/web/patches.h"
#include "bot/web/repro.h"
#include "bot/web/svg.h"

/* The tail of a check's log shown on the page. */
#define LOG_MAX (256 * 1024)

static const char style[] =
	"body{font-family:sans-serif;margin:1em 2em;color:#222}"
	"table{border-collapse:collapse}td,th{padding:2px 8px;"
	"border-bottom:1px solid #ddd;text-align:left;vertical-align:top}"
	"pre{background:#f6f6f6;padding:6px;overflow-x:auto;"
	"white-space:pre-wrap}"
	".ok{color:#1e7b34}.warn{color:#a66b00}.fail{color:#b3261e}"
	".skipped{color:#777}.grows{color:#b3261e}.shrinks{color:#1e7b34}"
	"nav a{margin-right:1em}.badge{font-size:90%;margin-right:4px}";

void web_page_head(GString *out, const char *title)
{
	web_escape_printf(out,
			  "<!DOCTYPE html>\n<html lang=\"en\"><head>"
			  "<meta charset=\"utf-8\"><title>%s",
			  title);
	g_string_append_printf(
		out,
		" - armbot</title><style>%s%s%s</style>"
		"<link rel=\"alternate\" type=\"application/atom+xml\" "
		"title=\"armbot reports\" href=\"/feed.atom\"></head>\n"
		"<body><nav><a href=\"/\">series</a><a href=\"/arch-arm\">"
		"arch/arm</a><a href=\"/feed.atom\">feed</a>"
		"<a href=\"/trees\">trees</a>"
		"<a href=\"/api/series\">API</a><a href=\"/metrics\">"
		"metrics</a></nav><main>\n",
		style, web_diff_style, web_patches_style);
}

void web_page_foot(GString *out)
{
	g_string_append(out, "</main></body></html>\n");
}

void web_page_time_append(GString *out, gint64 t)
{
	g_autoptr(GDateTime) d = NULL;
	g_autofree char *s = NULL;

	if (!t || !(d = g_date_time_new_from_unix_utc(t)))
		return;
	s = g_date_time_format(d, "%Y-%m-%d %H:%M UTC");
	g_string_append(out, s);
}

/* "shrinks 212" in its colour, from the job's arch/arm figures. */
static void verdict_badge(GString *out, const struct store_web_job *j)
{
	if (!j->has_net) {
		g_string_append(out, "<span class=\"verdict none\">-</span>");
		return;
	}
	web_escape_printf(out, "<span class=\"verdict %s\" title=\"%s\">%s",
			  j->verdict_kind, j->verdict, j->verdict_kind);
	if (j->net)
		g_string_append_printf(out, " %+" G_GINT64_FORMAT, j->net);
	g_string_append_printf(out,
			       " (+%" G_GINT64_FORMAT " -%" G_GINT64_FORMAT
			       ")</span>",
			       j->added, j->removed);
}

static void check_badges(GString *out, const struct store_web_job *j)
{
	for (guint i = 0; i < j->checks->len; i++) {
		const struct store_web_check *c = j->checks->pdata[i];

		web_escape_printf(out,
				  "<span class=\"badge %s\" title=\"%s\">%s:%s"
				  "</span>",
				  c->status, c->summary, c->name, c->status);
	}
}

static void version_text(GString *out, const struct store_web_series *x)
{
	if (x->rfc)
		g_string_append(out, "RFC ");
	g_string_append_printf(out, "v%u", x->version);
	if (x->version_minor)
		g_string_append_printf(out, ".%u", x->version_minor);
}

static void select_menu(GString *out, const char *name, GPtrArray *values,
			const char *chosen)
{
	g_string_append_printf(out,
			       "<label>%s <select name=\"%s\"><option "
			       "value=\"\">any</option>",
			       name, name);
	for (guint i = 0; i < values->len; i++) {
		const char *v = values->pdata[i];

		web_escape_printf(
			out, "<option value=\"%s\"%s>%s</option>", v,
			chosen && !strcmp(chosen, v) ? " selected" : "", v);
	}
	g_string_append(out, "</select></label> ");
}

/* The query string of @f with @page, HTML-escaped for an href. */
static void filter_query(GString *out, const struct store_web_filter *f,
			 guint page)
{
	const char *names[] = { "list", "tree", "author", "state" };
	const char *values[] = { f->list, f->tree, f->author, f->state };

	g_string_append_printf(out, "?page=%u", page);
	for (guint i = 0; i < G_N_ELEMENTS(names); i++)
		if (values[i] && *values[i]) {
			g_string_append_printf(out, "&amp;%s=", names[i]);
			web_escape_append_query(out, values[i]);
		}
	if (f->per_page != 50)
		g_string_append_printf(out, "&amp;per_page=%u", f->per_page);
}

guint web_page_index(struct store *st, const struct store_web_filter *filter,
		     GString *out, GError **error)
{
	gint64 total = 0;
	g_autoptr(GPtrArray)
		rows = store_web_series_list(st, filter, &total, error);
	g_autoptr(GPtrArray) states = NULL;
	g_autoptr(GPtrArray) trees = NULL;
	g_autoptr(GPtrArray) lists = NULL;
	guint pages;

	if (!rows || !(states = store_web_states(st, error)) ||
	    !(trees = store_web_trees(st, error)) ||
	    !(lists = store_web_lists(st, error)))
		return 0;
	pages = MAX(1, (total + filter->per_page - 1) / filter->per_page);
	web_page_head(out, "series");
	g_string_append(out, "<h1>Series</h1>\n<form method=\"get\" "
			     "action=\"/\" id=\"filter\">");
	select_menu(out, "state", states, filter->state);
	select_menu(out, "tree", trees, filter->tree);
	select_menu(out, "list", lists, filter->list);
	web_escape_printf(out,
			  "<label>author <input name=\"author\" value=\"%s\">"
			  "</label> <button>filter</button></form>\n",
			  filter->author);
	g_string_append_printf(out,
			       "<p id=\"count\">%" G_GINT64_FORMAT
			       " series, page %u of %u</p>\n",
			       total, filter->page, pages);
	g_string_append(out, "<table id=\"series\"><thead><tr><th>id</th>"
			     "<th>subject</th><th>author</th><th>state</th>"
			     "<th>version</th><th>parts</th><th>list</th>"
			     "<th>arch/arm</th><th>checks</th><th>last activity"
			     "</th></tr></thead><tbody>\n");
	for (guint i = 0; i < rows->len; i++) {
		const struct store_web_series *x = rows->pdata[i];

		g_string_append_printf(
			out,
			"<tr class=\"series\" data-id=\"%" G_GINT64_FORMAT
			"\"><td><a href=\"/series/%" G_GINT64_FORMAT
			"\">%" G_GINT64_FORMAT "</a></td>"
			"<td class=\"subject\"><a href=\"/series/%" G_GINT64_FORMAT
			"\">",
			x->id, x->id, x->id, x->id);
		web_escape_printf(out,
				  "%s</a></td><td class=\"author\">%s</td>"
				  "<td class=\"state\">%s</td><td>",
				  x->subject, x->author, x->state);
		version_text(out, x);
		g_string_append_printf(out, "</td><td>%u/%u</td><td>",
				       x->received, x->total);
		if (x->list)
			web_archive_list_append(out, x->list);
		g_string_append(out, "</td><td>");
		for (guint j = 0; j < x->jobs->len; j++)
			verdict_badge(out, x->jobs->pdata[j]);
		g_string_append(out, "</td><td class=\"checks\">");
		for (guint j = 0; j < x->jobs->len; j++) {
			const struct store_web_job *job = x->jobs->pdata[j];

			if (x->jobs->len > 1) {
				web_escape_append(out, job->tree);
				g_string_append(out, ": ");
			}
			check_badges(out, job);
		}
		g_string_append(out, "</td><td>");
		web_page_time_append(out, x->last_activity);
		g_string_append(out, "</td></tr>\n");
	}
	g_string_append(out, "</tbody></table>\n<p class=\"pager\">");
	if (filter->page > 1) {
		g_string_append(out, "<a rel=\"prev\" href=\"/");
		filter_query(out, filter, filter->page - 1);
		g_string_append(out, "\">newer</a> ");
	}
	if (filter->page < pages) {
		g_string_append(out, "<a rel=\"next\" href=\"/");
		filter_query(out, filter, filter->page + 1);
		g_string_append(out, "\">older</a>");
	}
	g_string_append(out, "</p>\n");
	web_page_foot(out);
	return 200;
}

static void series_link(GString *out, gint64 id)
{
	g_string_append_printf(out,
			       "<a href=\"/series/%" G_GINT64_FORMAT
			       "\">series %" G_GINT64_FORMAT "</a> ",
			       id, id);
}

static void dt_text(GString *out, const char *name, const char *value)
{
	web_escape_printf(out, "<dt>%s</dt><dd class=\"%s\">%s</dd>", name,
			  name, value);
}

/* dt_text() when @value is set, else nothing */
static void dt_optional(GString *out, const char *name, const char *value)
{
	if (value)
		dt_text(out, name, value);
}

/* "<dt>@label</dt>" and the time @t ("" for 0) */
static void dt_time(GString *out, const char *label, gint64 t)
{
	g_string_append_printf(out, "<dt>%s</dt><dd>", label);
	web_page_time_append(out, t);
	g_string_append(out, "</dd>");
}

/* "<dt>@label</dt>" and links to the @n series of @ids, the <dd> of id
 * @id (unless NULL); nothing when @n is 0 */
static void dt_series(GString *out, const char *label, const char *id,
		      const gint64 *ids, guint n)
{
	if (!n)
		return;
	g_string_append_printf(out, "<dt>%s</dt><dd", label);
	if (id)
		g_string_append_printf(out, " id=\"%s\"", id);
	g_string_append(out, ">");
	for (guint i = 0; i < n; i++)
		series_link(out, ids[i]);
	g_string_append(out, "</dd>");
}

/* The signed dirstat text ("%4s.%01d%% dir/" lines, bot/dirstat.h) as
 * bars; a line that does not read as one is left out. */
static void dirstat_chart(GString *out, const char *text, gint64 job)
{
	g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", 200);
	g_autoptr(GArray)
		bars = g_array_new(FALSE, FALSE, sizeof(struct web_svg_bar));
	g_autofree char *id =
		g_strdup_printf("dirstat-chart-%" G_GINT64_FORMAT, job);

	for (guint i = 0; lines[i]; i++) {
		char *pct = g_strstrip(lines[i]);
		char *sep = strstr(pct, "% ");
		char *end;
		struct web_svg_bar b = { 0 };

		if (!sep)
			continue;
		*sep = '\0';
		b.value = g_ascii_strtod(pct, &end);
		if (end == pct || *end)
			continue;
		b.label = sep + 2;
		g_array_append_val(bars, b);
	}
	web_svg_hbars(out, "signed dirstat (% of lines, net)", id,
		      (struct web_svg_bar *)bars->data, bars->len);
}

/* The check's log file, when it is a file under @data_dir: its last
 * LOG_MAX bytes. */
static void append_log(GString *out, const char *log_path, const char *data_dir)
{
	g_autofree char *real = NULL;
	g_autofree char *root = NULL;
	g_autofree char *data = NULL;
	g_autoptr(GError) error = NULL;
	gsize len;

	if (!log_path || !*log_path || !data_dir)
		return;
	real = realpath(log_path, NULL);
	root = realpath(data_dir, NULL);
	if (!real || !root || !g_str_has_prefix(real, root) ||
	    real[strlen(root)] != '/')
		return;
	if (!g_file_get_contents(real, &data, &len, &error)) {
		web_escape_printf(out, "\n(log not readable: %s)\n",
				  error->message);
		return;
	}
	g_string_append(out, "\n");
	if (len > LOG_MAX)
		g_string_append(out, "(beginning of the log left out)\n");
	web_escape_append_len(out, len > LOG_MAX ? data + len - LOG_MAX : data,
			      MIN(len, LOG_MAX));
}

/* A row of a result table opened: "<tr class=@class>" and the cells of
 * @name, @status (its class too, for the colour) and @summary, the last
 * cell left open. */
static void result_cells(GString *out, const char *class, const char *name,
			 const char *status, const char *summary)
{
	web_escape_printf(out,
			  "<tr class=\"%s\"><td>%s</td><td class=\"status %s\">"
			  "%s</td><td>%s",
			  class, name, status, status, summary);
}

/* The open cell closed, a last cell of @seconds ("%.1f") and the row
 * closed. */
static void seconds_cell_end(GString *out, double seconds)
{
	char secs[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append_printf(out, "</td><td>%s</td></tr>\n",
			       g_ascii_formatd(secs, sizeof(secs), "%.1f",
					       seconds));
}

/* A row of one cell across @columns folding a log under @summary: the
 * caller appends the escaped log between details_open() and
 * details_close(). */
static void details_open(GString *out, guint columns, const char *summary)
{
	g_string_append_printf(out,
			       "<tr><td colspan=\"%u\"><details><summary>%s"
			       "</summary><pre class=\"log\">",
			       columns, summary);
}

static void details_close(GString *out)
{
	g_string_append(out, "</pre></details></td></tr>\n");
}

/* A table of job @job_id under the heading @title: of class @class, id
 * "@class-JOB", its head row the columns @columns ("<th>" cells), its body
 * opened. */
static void job_table_open(GString *out, const char *title, const char *class,
			   gint64 job_id, const char *columns)
{
	g_string_append_printf(
		out,
		"<h3>%s</h3><table class=\"%s\" id=\"%s-%" G_GINT64_FORMAT
		"\"><thead><tr>%s</tr></thead><tbody>\n",
		title, class, class, job_id, columns);
}

/* How long each stage of a job's reply took (bot/store/timing.h). */
static void stage_table(GString *out, gint64 job_id, GPtrArray *times)
{
	if (!times->len)
		return;
	job_table_open(out, "timing", "stages", job_id,
		       "<th>stage</th><th>seconds</th>");
	for (guint i = 0; i < times->len; i++) {
		const struct store_timing *t = times->pdata[i];

		web_escape_printf(out, "<tr class=\"stage\"><td>%s", t->stage);
		seconds_cell_end(out, t->seconds);
	}
	g_string_append(out, "</tbody></table>\n");
}

/* The boards the job booted besides virt (bot/store/boards.h): one row
 * each, a failure's console tail folded under it. */
static void board_table(GString *out, gint64 job_id, GPtrArray *boards)
{
	if (!boards->len)
		return;
	job_table_open(out, "boards", "boards", job_id,
		       "<th>board</th><th>result</th><th>summary</th>"
		       "<th>selected because</th><th>seconds</th>");
	for (guint i = 0; i < boards->len; i++) {
		const struct store_board *b = boards->pdata[i];

		result_cells(out, "board", b->board, b->status, b->summary);
		web_escape_printf(out, "</td><td>%s", b->reason);
		seconds_cell_end(out, b->seconds);
		if (b->detail) {
			details_open(out, 5, "console");
			web_escape_append(out, b->detail);
			details_close(out);
		}
	}
	g_string_append(out, "</tbody></table>\n");
}

static void job_section(GString *out, const struct store_web_job *j,
			const char *data_dir, GPtrArray *times,
			GPtrArray *boards)
{
	g_string_append_printf(
		out,
		"<section class=\"job\" id=\"job-%" G_GINT64_FORMAT
		"\"><h2>tree ",
		j->id);
	web_escape_printf(out, "%s</h2><dl>", j->tree);
	dt_text(out, "job-state", j->state);
	dt_optional(out, "tree-reason", j->tree_reason);
	dt_optional(out, "not-tested", j->not_tested);
	dt_optional(out, "reason", j->reason);
	dt_optional(out, "base-reason", j->base_reason);
	if (j->base_commit) {
		g_autofree char *base = g_strdup_printf(
			"%s%s%s%s", j->base_commit, j->base_how ? " (" : "",
			j->base_how ? j->base_how : "", j->base_how ? ")" : "");

		dt_text(out, "base", base);
	}
	dt_optional(out, "head", j->head_commit);
	dt_time(out, "queued", j->queued);
	dt_time(out, "finished", j->finished);
	g_string_append(out, "</dl>\n<p class=\"verdict\">");
	web_escape_append(out, j->verdict ? j->verdict : "no verdict yet");
	/* a list's early-verdict: known before the checks ended */
	if (store_web_job_provisional(j))
		g_string_append_printf(out,
				       " <span class=\"provisional\">"
				       "(provisional: checks %s)</span>",
				       strcmp(j->state, "queued") ? "running" :
								    "queued");
	g_string_append(out, "</p>\n");
	if (j->dirstat) {
		g_string_append(out, "<h3>signed dirstat</h3>\n");
		dirstat_chart(out, j->dirstat, j->id);
		web_escape_printf(out, "<pre class=\"dirstat\">%s</pre>\n",
				  j->dirstat);
	}
	if (j->similar)
		web_escape_printf(out,
				  "<h3>why it grows arch/arm</h3>\n"
				  "<pre class=\"similar\">%s</pre>\n",
				  j->similar);
	g_string_append(out, "<h3>checks</h3><table class=\"checks\"><thead>"
			     "<tr><th>check</th><th>result</th><th>summary"
			     "</th><th>seconds</th></tr></thead><tbody>\n");
	for (guint i = 0; i < j->checks->len; i++) {
		const struct store_web_check *c = j->checks->pdata[i];

		result_cells(out, "check", c->name, c->status, c->summary);
		seconds_cell_end(out, c->seconds);
		if (c->detail || c->log_path) {
			details_open(out, 4, "log");
			web_escape_append(out, c->detail);
			append_log(out, c->log_path, data_dir);
			details_close(out);
		}
	}
	g_string_append(out, "</tbody></table>\n");
	board_table(out, j->id, boards);
	if (j->reply) {
		const struct store_web_reply *r = j->reply;
		gsize len;
		const char *raw = g_bytes_get_data(r->raw, &len);

		g_string_append(out, "<h3>reply</h3><dl>");
		dt_text(out, "reply-state", r->state);
		dt_text(out, "message-id", r->message_id);
		dt_optional(out, "last-error", r->last_error);
		dt_time(out, "sent", r->sent);
		g_string_append(out, "</dl><pre class=\"reply\">");
		web_escape_append_len(out, raw ? raw : "", raw ? len : 0);
		g_string_append(out, "</pre>\n");
	}
	stage_table(out, j->id, times);
	g_string_append(out, "</section>\n");
}

guint web_page_series(struct store *st, gint64 id, const char *data_dir,
		      const char *self_url, const char *const *archive_urls,
		      GString *out, GError **error)
{
	gboolean found;
	g_autoptr(store_web_series)
		x = store_web_series_get(st, id, &found, error);
	GString *v;

	if (!x) {
		if (found || (error && *error))
			return 0;
		web_page_error(out, 404, "no such series");
		return 404;
	}
	web_page_head(out, x->subject);
	web_escape_printf(out, "<h1 id=\"subject\">%s</h1>\n<dl>", x->subject);
	dt_text(out, "author", x->author);
	dt_text(out, "state", x->state);
	dt_optional(out, "state-reason", x->reason);
	v = g_string_new(NULL);
	version_text(v, x);
	g_string_append_printf(v, ", %u of %u parts", x->received, x->total);
	if (x->expired)
		g_string_append(v, ", stopped waiting for the rest");
	dt_text(out, "version", v->str);
	g_string_free(v, TRUE);
	if (x->list) {
		g_string_append(out, "<dt>list</dt><dd class=\"list\">");
		web_archive_list_append(out, x->list);
		g_string_append(out, "</dd>");
	}
	dt_optional(out, "base-commit", x->base_commit);
	dt_time(out, "first seen", x->first_date);
	dt_time(out, "last activity", x->last_activity);
	dt_series(out, "supersedes", "supersedes", &x->supersedes,
		  x->supersedes != 0);
	dt_series(out, "superseded by", "superseded-by",
		  (const gint64 *)x->superseded_by->data,
		  x->superseded_by->len);
	dt_series(out, "partial reroll of", "partial-of", &x->partial_of,
		  x->partial_of != 0);
	dt_series(out, "partial rerolls", NULL,
		  (const gint64 *)x->partials->data, x->partials->len);
	g_string_append(out, "</dl>\n<h2>parts</h2><table id=\"parts\"><thead>"
			     "<tr><th>#</th><th>subject</th><th>author</th>"
			     "<th>date</th><th>Message-ID</th></tr></thead>"
			     "<tbody>\n");
	for (guint i = 0; i < x->parts->len; i++) {
		const struct store_web_part *p = x->parts->pdata[i];

		g_string_append_printf(
			out, "<tr class=\"part\"><td>%u</td><td>", p->position);
		web_escape_printf(out, "%s</td><td>%s</td><td>", p->subject,
				  p->author);
		web_page_time_append(out, p->date);
		g_string_append(out, "</td><td class=\"message-id\">");
		web_patches_message_id(out, p, archive_urls);
		g_string_append(out, "</td></tr>\n");
	}
	g_string_append(out, "</tbody></table>\n");
	g_string_append_printf(
		out,
		"<p id=\"mbox\"><a href=\"/series/%" G_GINT64_FORMAT
		"/mbox\">mbox</a>: the series as armbot "
		"applies it, for <code>git am</code></p>\n",
		id);
	web_repro_section(out, x, self_url);
	web_patches_section(out, x, archive_urls);
	if (!x->jobs->len)
		g_string_append(out,
				"<p id=\"no-jobs\">not checked (yet)</p>\n");
	for (guint i = 0; i < x->jobs->len; i++) {
		const struct store_web_job *j = x->jobs->pdata[i];
		g_autoptr(GPtrArray) times = store_timing_job(st, j->id, error);
		g_autoptr(GPtrArray) boards =
			times ? store_boards_job(st, j->id, error) : NULL;

		if (!times || !boards)
			return 0;
		job_section(out, j, data_dir, times, boards);
	}
	web_page_foot(out);
	return 200;
}

guint web_page_arch_arm(struct store *st, const char *list, GString *out,
			GError **error)
{
	g_autoptr(GArray) weeks = store_web_arch_weeks(st, list, 104, error);
	g_autoptr(GPtrArray) dirs = NULL;
	g_autoptr(GArray) bars = NULL;
	g_autoptr(GPtrArray) labels = NULL;

	if (!weeks || !(dirs = store_web_arch_dirs(st, list, 60, error)))
		return 0;
	if (list && !*list)
		list = NULL;
	bars = g_array_new(FALSE, FALSE, sizeof(struct web_svg_bar));
	labels = g_ptr_array_new_with_free_func(g_free);
	web_page_head(out, "arch/arm");
	g_string_append(
		out,
		"<h1>arch/arm over time</h1>\n<p>Net lines added to arch/arm "
		"by the series posted each week (the latest version of each "
		"series, counted once). Green is code removed.</p>\n");
	if (list) {
		web_escape_printf(out,
				  "<p id=\"list\">Series posted to lists whose "
				  "List-Id contains <b>%s</b> (<a "
				  "href=\"/arch-arm\">every list</a>).</p>\n",
				  list);
	}
	for (guint i = 0; i < weeks->len; i++) {
		const struct store_web_week *w =
			&g_array_index(weeks, struct store_web_week, i);
		g_autoptr(GDateTime)
			d = g_date_time_new_from_unix_utc(w->start);
		struct web_svg_bar b = { 0 };

		b.label = d ? g_date_time_format(d, "%Y-%m-%d") : g_strdup("?");
		g_ptr_array_add(labels, (char *)b.label);
		b.value = w->net;
		b.note = g_strdup_printf("%+" G_GINT64_FORMAT
					 " (+%" G_GINT64_FORMAT
					 " -%" G_GINT64_FORMAT ", %u series)",
					 w->net, w->added, w->removed,
					 w->series);
		g_ptr_array_add(labels, (char *)b.note);
		g_array_append_val(bars, b);
	}
	web_svg_columns(out, "net arch/arm lines per week", "weeks-chart",
			(struct web_svg_bar *)bars->data, bars->len);
	g_string_append(out, "<table id=\"weeks\"><thead><tr><th>week of</th>"
			     "<th>series</th><th>added</th><th>removed</th>"
			     "<th>net</th></tr></thead><tbody>\n");
	for (guint i = 0; i < weeks->len; i++) {
		const struct store_web_week *w =
			&g_array_index(weeks, struct store_web_week, i);

		g_string_append_printf(
			out,
			"<tr class=\"week\"><td>%s</td><td>%u</td><td>+%" G_GINT64_FORMAT
			"</td><td>-%" G_GINT64_FORMAT
			"</td><td class=\"net\">%+" G_GINT64_FORMAT
			"</td></tr>\n",
			g_array_index(bars, struct web_svg_bar, i).label,
			w->series, w->added, w->removed, w->net);
	}
	g_string_append(out, "</tbody></table>\n<h2>mach-* and plat-*</h2>\n");
	g_array_set_size(bars, 0);
	for (guint i = 0; i < dirs->len; i++) {
		const struct store_web_dir *d = dirs->pdata[i];
		struct web_svg_bar b = { d->path, d->net, NULL };

		b.note = g_strdup_printf("%+" G_GINT64_FORMAT " (%u series)",
					 d->net, d->series);
		g_ptr_array_add(labels, (char *)b.note);
		g_array_append_val(bars, b);
	}
	web_svg_hbars(out, "net lines per mach-* / plat-* directory",
		      "dirs-chart", (struct web_svg_bar *)bars->data,
		      bars->len);
	g_string_append(out, "<table id=\"dirs\"><thead><tr><th>directory"
			     "</th><th>series</th><th>added</th><th>removed"
			     "</th><th>net</th></tr></thead><tbody>\n");
	for (guint i = 0; i < dirs->len; i++) {
		const struct store_web_dir *d = dirs->pdata[i];

		web_escape_printf(out, "<tr class=\"dir\"><td>%s", d->path);
		g_string_append_printf(
			out,
			"</td><td>%u</td><td>+%" G_GINT64_FORMAT
			"</td><td>-%" G_GINT64_FORMAT
			"</td><td class=\"net\">%+" G_GINT64_FORMAT
			"</td></tr>\n",
			d->series, d->added, d->removed, d->net);
	}
	g_string_append(out, "</tbody></table>\n");
	web_page_foot(out);
	return 200;
}

void web_page_error(GString *out, guint status, const char *text)
{
	g_autofree char *title = g_strdup_printf("%u", status);

	web_page_head(out, title);
	web_escape_printf(out, "<h1>%u</h1><p id=\"error\">%s</p>\n", status,
			  text);
	web_page_foot(out);
}
