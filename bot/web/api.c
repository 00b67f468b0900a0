#include "bot/web/api.h"

#include <string.h>

#include "bot/common/jsonout.h"
#include "bot/store/boards.h"
#include "bot/store/trees.h"

/* Seconds as a JSON number, rounded to the millisecond as they always
 * were ("%.3f" before json-glib).  json-glib prints a double with 17
 * significant digits (g_ascii_dtostr()), so 0.003 reads
 * 0.0030000000000000001: the same double to any JSON reader. */
static void seconds(JsonBuilder *b, const char *name, double s)
{
	char text[G_ASCII_DTOSTR_BUF_SIZE];

	g_ascii_formatd(text, sizeof(text), "%.3f", s);
	jsonout_double(b, name, g_ascii_strtod(text, NULL));
}

static void ids(JsonBuilder *b, const char *name, GArray *a)
{
	jsonout_begin_array(b, name);
	for (guint i = 0; a && i < a->len; i++)
		jsonout_int(b, NULL, g_array_index(a, gint64, i));
	json_builder_end_array(b);
}

/* "@name": [ each of @items written by @item ] */
typedef void (*item_fn)(JsonBuilder *b, gconstpointer item, gboolean full);

static void array(JsonBuilder *b, const char *name, GPtrArray *items,
		  item_fn item, gboolean full)
{
	jsonout_begin_array(b, name);
	for (guint i = 0; i < items->len; i++)
		item(b, items->pdata[i], full);
	json_builder_end_array(b);
}

static void check(JsonBuilder *b, gconstpointer item, gboolean full)
{
	const struct store_web_check *c = item;

	json_builder_begin_object(b);
	jsonout_string(b, "name", c->name);
	jsonout_string(b, "status", c->status);
	jsonout_string(b, "summary", c->summary);
	seconds(b, "seconds", c->seconds);
	if (full)
		jsonout_string(b, "detail", c->detail);
	json_builder_end_object(b);
}

static void reply(JsonBuilder *b, const struct store_web_reply *r)
{
	gsize len = 0;
	const char *raw = r->raw ? g_bytes_get_data(r->raw, &len) : NULL;

	jsonout_begin_object(b, "reply");
	jsonout_string(b, "message_id", r->message_id);
	jsonout_string(b, "list", r->list);
	jsonout_string(b, "state", r->state);
	jsonout_string(b, "last_error", r->last_error);
	jsonout_time(b, "created", r->created);
	jsonout_time(b, "sent", r->sent);
	jsonout_bytes(b, "raw", raw, len);
	json_builder_end_object(b);
}

/* A count of arch/arm lines, or null when the job has no verdict. */
static void net_figure(JsonBuilder *b, const char *name, gboolean has, gint64 v)
{
	if (has)
		jsonout_int(b, name, v);
	else
		jsonout_null(b, name);
}

/* A board the job booted besides virt (bot/store/boards.h), the same in
 * either form. */
static void board(JsonBuilder *b, gconstpointer item, gboolean full)
{
	const struct store_board *x = item;

	json_builder_begin_object(b);
	jsonout_string(b, "board", x->board);
	jsonout_string(b, "status", x->status);
	jsonout_string(b, "summary", x->summary);
	jsonout_string(b, "reason", x->reason);
	jsonout_string(b, "detail", x->detail);
	seconds(b, "seconds", x->seconds);
	json_builder_end_object(b);
}

/* @boards: the job's boards (struct store_board *), for the full form. */
static void job(JsonBuilder *b, const struct store_web_job *j, gboolean full,
		GPtrArray *boards)
{
	json_builder_begin_object(b);
	jsonout_string(b, "tree", j->tree);
	jsonout_string(b, "state", j->state);
	jsonout_string(b, "verdict", j->verdict);
	jsonout_string(b, "verdict_kind", j->verdict_kind);
	/* a list's early-verdict: the checks still run, the reply waits */
	jsonout_bool(b, "verdict_provisional", store_web_job_provisional(j));
	jsonout_string(b, "not_tested", j->not_tested);
	net_figure(b, "net", j->has_net, j->net);
	net_figure(b, "added", j->has_net, j->added);
	net_figure(b, "removed", j->has_net, j->removed);
	if (full) {
		jsonout_string(b, "tree_reason", j->tree_reason);
		jsonout_string(b, "reason", j->reason);
		jsonout_string(b, "base_commit", j->base_commit);
		jsonout_string(b, "base_how", j->base_how);
		jsonout_string(b, "base_reason", j->base_reason);
		jsonout_string(b, "head_commit", j->head_commit);
		jsonout_time(b, "queued", j->queued);
		jsonout_time(b, "started", j->started);
		jsonout_time(b, "finished", j->finished);
		jsonout_string(b, "dirstat", j->dirstat);
		jsonout_string(b, "similar", j->similar);
		/* armbot's own verdict JSON (dirstat_json_verdict()); null
		 * when absent or, against the odds, not JSON (the query
		 * already keeps only what json_valid() accepts) */
		if (!jsonout_json(b, "verdict_detail", j->verdict_json))
			jsonout_null(b, "verdict_detail");
		if (j->reply)
			reply(b, j->reply);
		else
			jsonout_null(b, "reply");
	}
	array(b, "checks", j->checks, check, full);
	if (boards)
		array(b, "boards", boards, board, full);
	json_builder_end_object(b);
}

static void part(JsonBuilder *b, gconstpointer item, gboolean full)
{
	const struct store_web_part *p = item;

	json_builder_begin_object(b);
	jsonout_int(b, "position", p->position);
	jsonout_string(b, "message_id", p->message_id);
	jsonout_string(b, "subject", p->subject);
	jsonout_string(b, "author", p->author);
	jsonout_time(b, "date", p->date);
	json_builder_end_object(b);
}

/* @boards: one array of boards per job (full form), or NULL. */
static void series(JsonBuilder *b, const struct store_web_series *x,
		   gboolean full, GPtrArray *boards)
{
	g_autofree char *url =
		g_strdup_printf("/series/%" G_GINT64_FORMAT, x->id);

	json_builder_begin_object(b);
	jsonout_int(b, "id", x->id);
	jsonout_string(b, "url", url);
	jsonout_string(b, "state", x->state);
	jsonout_string(b, "subject", x->subject);
	jsonout_string(b, "author", x->author);
	jsonout_string(b, "list", x->list);
	jsonout_int(b, "version", x->version);
	jsonout_int(b, "version_minor", x->version_minor);
	jsonout_bool(b, "rfc", x->rfc);
	jsonout_int(b, "total", x->total);
	jsonout_int(b, "received", x->received);
	jsonout_bool(b, "expired", x->expired);
	jsonout_time(b, "first_date", x->first_date);
	jsonout_time(b, "last_activity", x->last_activity);
	jsonout_id(b, "supersedes", x->supersedes);
	jsonout_id(b, "partial_of", x->partial_of);
	if (full) {
		jsonout_string(b, "reason", x->reason);
		jsonout_string(b, "cover", x->cover);
		jsonout_string(b, "base_commit", x->base_commit);
		ids(b, "superseded_by", x->superseded_by);
		ids(b, "partials", x->partials);
		array(b, "parts", x->parts, part, full);
	}
	jsonout_begin_array(b, "jobs");
	for (guint i = 0; i < x->jobs->len; i++)
		job(b, x->jobs->pdata[i], full,
		    boards ? boards->pdata[i] : NULL);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/* A series of the list: the short form, without boards. */
static void series_item(JsonBuilder *b, gconstpointer item, gboolean full)
{
	series(b, item, full, NULL);
}

/* Append the document @b built to @out. */
static void finish(GString *out, JsonBuilder *b)
{
	g_autofree char *text = jsonout_finish(b);

	g_string_append(out, text);
}

guint web_api_series_list(struct store *st,
			  const struct store_web_filter *filter, GString *out,
			  GError **error)
{
	gint64 total = 0;
	g_autoptr(GPtrArray)
		rows = store_web_series_list(st, filter, &total, error);
	g_autoptr(JsonBuilder) b = NULL;

	if (!rows)
		return 0;
	b = json_builder_new();
	json_builder_begin_object(b);
	jsonout_int(b, "page", filter->page);
	jsonout_int(b, "per_page", filter->per_page);
	jsonout_int(b, "total", total);
	jsonout_int(b, "pages",
		    MAX(1, (total + filter->per_page - 1) / filter->per_page));
	array(b, "series", rows, series_item, FALSE);
	json_builder_end_object(b);
	finish(out, b);
	return 200;
}

guint web_api_series(struct store *st, gint64 id, GString *out, GError **error)
{
	gboolean found;
	g_autoptr(store_web_series)
		x = store_web_series_get(st, id, &found, error);
	g_autoptr(JsonBuilder) b = NULL;
	g_autoptr(GPtrArray) boards = NULL;

	if (!x) {
		if (found || (error && *error))
			return 0;
		web_api_error(out, 404, "no such series");
		return 404;
	}
	boards = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_ptr_array_unref);
	for (guint i = 0; i < x->jobs->len; i++) {
		const struct store_web_job *j = x->jobs->pdata[i];
		GPtrArray *jb = store_boards_job(st, j->id, error);

		if (!jb)
			return 0;
		g_ptr_array_add(boards, jb);
	}
	b = json_builder_new();
	series(b, x, TRUE, boards);
	finish(out, b);
	return 200;
}

static void tree(JsonBuilder *b, const struct store_tree_update *u, gint64 now)
{
	g_auto(GStrv)
		branches = g_strsplit(u->branches ? u->branches : "", ";", -1);
	gint64 next = store_tree_update_next(u);

	json_builder_begin_object(b);
	jsonout_string(b, "name", u->tree);
	jsonout_string(b, "url", u->url);
	jsonout_begin_array(b, "branches");
	for (guint i = 0; branches[i] && *branches[i]; i++)
		jsonout_string(b, NULL, branches[i]);
	json_builder_end_array(b);
	jsonout_string(b, "head_branch", u->head_branch);
	jsonout_string(b, "head", u->head);
	if (u->interval < 0)
		jsonout_null(b, "update_interval");
	else
		jsonout_int(b, "update_interval", u->interval);
	jsonout_string(b, "state",
		       !u->attempted ? "pending" :
		       u->error	     ? "failing" :
				       "ok");
	jsonout_time(b, "last_attempt", u->attempted);
	jsonout_time(b, "last_success", u->succeeded);
	/* never tried: due at once, now */
	if (next < 0)
		jsonout_null(b, "next_update");
	else
		jsonout_time(b, "next_update", next ? next : now);
	jsonout_string(b, "error", u->error);
	jsonout_int(b, "failures", u->failures);
	seconds(b, "seconds", u->seconds);
	jsonout_int(b, "objects", u->objects);
	jsonout_int(b, "bytes", u->bytes);
	json_builder_end_object(b);
}

guint web_api_trees(struct store *st, GString *out, GError **error)
{
	g_autoptr(GPtrArray) updates = store_tree_updates_list(st, error);
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	g_autoptr(JsonBuilder) b = NULL;

	if (!updates)
		return 0;
	b = json_builder_new();
	json_builder_begin_object(b);
	jsonout_begin_array(b, "trees");
	for (guint i = 0; i < updates->len; i++)
		tree(b, updates->pdata[i], now);
	json_builder_end_array(b);
	json_builder_end_object(b);
	finish(out, b);
	return 200;
}

void web_api_error(GString *out, guint status, const char *text)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	jsonout_string(b, "error", text);
	jsonout_int(b, "status", status);
	json_builder_end_object(b);
	finish(out, b);
}

static gint sort_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

guint web_api_series_kcidb(const char *data_dir, gint64 id, GString *out,
			   GError **error)
{
	static const char *const lists[] = { "checkouts", "builds", "tests" };
	g_autofree char *dir = g_strdup_printf(
		"%s/logs/series-%" G_GINT64_FORMAT, data_dir, id);
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(JsonNode) merged = NULL;
	guint n = 0;
	const char *name;

	(void)error;
	while (d && (name = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(name));
	g_ptr_array_sort(names, (GCompareFunc)sort_names);
	for (guint i = 0; i < names->len; i++) {
		g_autofree char *path = g_build_filename(
			dir, (char *)names->pdata[i], "kcidb.json", NULL);
		g_autofree char *text = NULL;
		g_autoptr(JsonParser) parser = json_parser_new();
		JsonObject *from, *to;
		gsize len;

		if (!g_file_get_contents(path, &text, &len, NULL) ||
		    !json_parser_load_from_data(parser, text, len, NULL) ||
		    !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser)))
			continue;
		if (!n++) {
			/* the one document as written */
			merged = json_node_copy(json_parser_get_root(parser));
			g_string_assign(out, text);
			continue;
		}
		from = json_node_get_object(json_parser_get_root(parser));
		to = json_node_get_object(merged);
		for (guint k = 0; k < G_N_ELEMENTS(lists); k++) {
			JsonArray *a = json_object_has_member(from, lists[k]) ?
					       json_object_get_array_member(
						       from, lists[k]) :
					       NULL;
			JsonArray *b = json_object_has_member(to, lists[k]) ?
					       json_object_get_array_member(
						       to, lists[k]) :
					       NULL;

			for (guint j = 0;
			     a && b && j < json_array_get_length(a); j++)
				json_array_add_element(
					b,
					json_node_copy(
						json_array_get_element(a, j)));
		}
	}
	if (n > 1) {
		g_autofree char *text = json_to_string(merged, FALSE);

		g_string_assign(out, text);
		g_string_append_c(out, '\n');
	}
	if (!n)
		web_api_error(out, 404, "no KCIDB document for this series");
	return n ? 200 : 404;
}
