#include "bot/web/api.h"

#include "kernel/diff/json.h"
#include "bot/store/trees.h"

/* Mail may carry any bytes: JSON (RFC 8259 8.1) must be UTF-8. */
static void string(GString *out, const char *s)
{
	g_autofree char *valid = s ? g_utf8_make_valid(s, -1) : NULL;

	json_append_string(out, valid);
}

static void bytes_string(GString *out, GBytes *b)
{
	gsize len;
	const char *data = b ? g_bytes_get_data(b, &len) : NULL;
	/* g_utf8_make_valid() also turns NUL bytes into U+FFFD */
	g_autofree char *valid = data ? g_utf8_make_valid(data, len) : NULL;

	json_append_string(out, valid);
}

static void key(GString *out, const char *name)
{
	g_string_append_printf(out, ",\"%s\":", name);
}

static void time_value(GString *out, gint64 t)
{
	g_autoptr(GDateTime) d = t ? g_date_time_new_from_unix_utc(t) : NULL;
	g_autofree char *s = d ? g_date_time_format_iso8601(d) : NULL;

	json_append_string(out, s);
}

static void id_or_null(GString *out, gint64 id)
{
	if (id)
		g_string_append_printf(out, "%" G_GINT64_FORMAT, id);
	else
		g_string_append(out, "null");
}

static void ids(GString *out, GArray *a)
{
	g_string_append_c(out, '[');
	for (guint i = 0; a && i < a->len; i++)
		g_string_append_printf(out, "%s%" G_GINT64_FORMAT, i ? "," : "",
				       g_array_index(a, gint64, i));
	g_string_append_c(out, ']');
}

static void check(GString *out, const struct store_web_check *c, gboolean full)
{
	char secs[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append(out, "{\"name\":");
	string(out, c->name);
	key(out, "status");
	string(out, c->status);
	key(out, "summary");
	string(out, c->summary);
	key(out, "seconds");
	g_string_append(out, g_ascii_formatd(secs, sizeof(secs), "%.3f",
					     c->seconds));
	if (full) {
		key(out, "detail");
		string(out, c->detail);
	}
	g_string_append_c(out, '}');
}

static void job(GString *out, const struct store_web_job *j, gboolean full)
{
	g_string_append(out, "{\"tree\":");
	string(out, j->tree);
	key(out, "state");
	string(out, j->state);
	key(out, "verdict");
	string(out, j->verdict);
	key(out, "verdict_kind");
	string(out, j->verdict_kind);
	key(out, "not_tested");
	string(out, j->not_tested);
	if (j->has_net)
		g_string_append_printf(out,
				       ",\"net\":%" G_GINT64_FORMAT
				       ",\"added\":%" G_GINT64_FORMAT
				       ",\"removed\":%" G_GINT64_FORMAT,
				       j->net, j->added, j->removed);
	else
		g_string_append(
			out, ",\"net\":null,\"added\":null,\"removed\":null");
	if (full) {
		key(out, "tree_reason");
		string(out, j->tree_reason);
		key(out, "reason");
		string(out, j->reason);
		key(out, "base_commit");
		string(out, j->base_commit);
		key(out, "base_how");
		string(out, j->base_how);
		key(out, "base_reason");
		string(out, j->base_reason);
		key(out, "head_commit");
		string(out, j->head_commit);
		key(out, "queued");
		time_value(out, j->queued);
		key(out, "started");
		time_value(out, j->started);
		key(out, "finished");
		time_value(out, j->finished);
		key(out, "dirstat");
		string(out, j->dirstat);
		/* armbot's own JSON, checked by json_valid() in the query */
		key(out, "verdict_detail");
		g_string_append(out,
				j->verdict_json ? j->verdict_json : "null");
		key(out, "reply");
		if (j->reply) {
			g_string_append(out, "{\"message_id\":");
			string(out, j->reply->message_id);
			key(out, "list");
			string(out, j->reply->list);
			key(out, "state");
			string(out, j->reply->state);
			key(out, "last_error");
			string(out, j->reply->last_error);
			key(out, "created");
			time_value(out, j->reply->created);
			key(out, "sent");
			time_value(out, j->reply->sent);
			key(out, "raw");
			bytes_string(out, j->reply->raw);
			g_string_append_c(out, '}');
		} else {
			g_string_append(out, "null");
		}
	}
	key(out, "checks");
	g_string_append_c(out, '[');
	for (guint i = 0; i < j->checks->len; i++) {
		if (i)
			g_string_append_c(out, ',');
		check(out, j->checks->pdata[i], full);
	}
	g_string_append(out, "]}");
}

static void series(GString *out, const struct store_web_series *x,
		   gboolean full)
{
	g_string_append_printf(out,
			       "{\"id\":%" G_GINT64_FORMAT
			       ",\"url\":\"/series/%" G_GINT64_FORMAT "\"",
			       x->id, x->id);
	key(out, "state");
	string(out, x->state);
	key(out, "subject");
	string(out, x->subject);
	key(out, "author");
	string(out, x->author);
	key(out, "list");
	string(out, x->list);
	g_string_append_printf(out,
			       ",\"version\":%u,\"version_minor\":%u,"
			       "\"rfc\":%s,\"total\":%u,\"received\":%u,"
			       "\"expired\":%s",
			       x->version, x->version_minor,
			       x->rfc ? "true" : "false", x->total, x->received,
			       x->expired ? "true" : "false");
	key(out, "first_date");
	time_value(out, x->first_date);
	key(out, "last_activity");
	time_value(out, x->last_activity);
	key(out, "supersedes");
	id_or_null(out, x->supersedes);
	key(out, "partial_of");
	id_or_null(out, x->partial_of);
	if (full) {
		key(out, "reason");
		string(out, x->reason);
		key(out, "cover");
		string(out, x->cover);
		key(out, "base_commit");
		string(out, x->base_commit);
		key(out, "superseded_by");
		ids(out, x->superseded_by);
		key(out, "partials");
		ids(out, x->partials);
		key(out, "parts");
		g_string_append_c(out, '[');
		for (guint i = 0; i < x->parts->len; i++) {
			const struct store_web_part *p = x->parts->pdata[i];

			g_string_append_printf(out, "%s{\"position\":%u",
					       i ? "," : "", p->position);
			key(out, "message_id");
			string(out, p->message_id);
			key(out, "subject");
			string(out, p->subject);
			key(out, "author");
			string(out, p->author);
			key(out, "date");
			time_value(out, p->date);
			g_string_append_c(out, '}');
		}
		g_string_append_c(out, ']');
	}
	key(out, "jobs");
	g_string_append_c(out, '[');
	for (guint i = 0; i < x->jobs->len; i++) {
		if (i)
			g_string_append_c(out, ',');
		job(out, x->jobs->pdata[i], full);
	}
	g_string_append(out, "]}");
}

guint web_api_series_list(struct store *st,
			  const struct store_web_filter *filter, GString *out,
			  GError **error)
{
	gint64 total = 0;
	g_autoptr(GPtrArray)
		rows = store_web_series_list(st, filter, &total, error);

	if (!rows)
		return 0;
	g_string_append_printf(
		out,
		"{\"page\":%u,\"per_page\":%u,\"total\":%" G_GINT64_FORMAT
		",\"pages\":%" G_GINT64_FORMAT ",\"series\":[",
		filter->page, filter->per_page, total,
		MAX(1, (total + filter->per_page - 1) / filter->per_page));
	for (guint i = 0; i < rows->len; i++) {
		if (i)
			g_string_append_c(out, ',');
		series(out, rows->pdata[i], FALSE);
	}
	g_string_append(out, "]}\n");
	return 200;
}

guint web_api_series(struct store *st, gint64 id, GString *out, GError **error)
{
	gboolean found;
	g_autoptr(store_web_series)
		x = store_web_series_get(st, id, &found, error);

	if (!x) {
		if (found || (error && *error))
			return 0;
		web_api_error(out, 404, "no such series");
		return 404;
	}
	series(out, x, TRUE);
	g_string_append_c(out, '\n');
	return 200;
}

static void tree(GString *out, const struct store_tree_update *u, gint64 now)
{
	g_auto(GStrv)
		branches = g_strsplit(u->branches ? u->branches : "", ";", -1);
	gint64 next = store_tree_update_next(u);
	char secs[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append(out, "{\"name\":");
	string(out, u->tree);
	key(out, "url");
	string(out, u->url);
	key(out, "branches");
	g_string_append_c(out, '[');
	for (guint i = 0; branches[i] && *branches[i]; i++) {
		if (i)
			g_string_append_c(out, ',');
		string(out, branches[i]);
	}
	g_string_append_c(out, ']');
	key(out, "head_branch");
	string(out, u->head_branch);
	key(out, "head");
	string(out, u->head);
	key(out, "update_interval");
	if (u->interval < 0)
		g_string_append(out, "null");
	else
		g_string_append_printf(out, "%" G_GINT64_FORMAT, u->interval);
	key(out, "state");
	string(out, !u->attempted ? "pending" : u->error ? "failing" : "ok");
	key(out, "last_attempt");
	time_value(out, u->attempted);
	key(out, "last_success");
	time_value(out, u->succeeded);
	/* never tried: due at once, now */
	key(out, "next_update");
	if (next < 0)
		g_string_append(out, "null");
	else
		time_value(out, next ? next : now);
	key(out, "error");
	string(out, u->error);
	g_string_append_printf(
		out, ",\"failures\":%u,\"seconds\":%s", u->failures,
		g_ascii_formatd(secs, sizeof(secs), "%.3f", u->seconds));
	g_string_append_printf(out,
			       ",\"objects\":%" G_GINT64_FORMAT
			       ",\"bytes\":%" G_GINT64_FORMAT "}",
			       u->objects, u->bytes);
}

guint web_api_trees(struct store *st, GString *out, GError **error)
{
	g_autoptr(GPtrArray) updates = store_tree_updates_list(st, error);
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;

	if (!updates)
		return 0;
	g_string_append(out, "{\"trees\":[");
	for (guint i = 0; i < updates->len; i++) {
		if (i)
			g_string_append_c(out, ',');
		tree(out, updates->pdata[i], now);
	}
	g_string_append(out, "]}\n");
	return 200;
}

void web_api_error(GString *out, guint status, const char *text)
{
	g_string_append(out, "{\"error\":");
	string(out, text);
	g_string_append_printf(out, ",\"status\":%u}\n", status);
}
