/* /trees (see bot/web/trees.h).  Everything here came by mail from
 * strangers (addresses, paths, URLs) or from remote git servers (error
 * messages): all of it is escaped. */
#include "bot/web/trees.h"

#include <string.h>

#include "bot/store/trees.h"
#include "bot/web/escape.h"
#include "bot/web/page.h"

/* "for-next, fixes", or "every branch". */
static void append_branches(GString *out, const char *branches)
{
	g_auto(GStrv) list = g_strsplit(branches ? branches : "", ";", -1);

	if (!list[0] || !*list[0]) {
		g_string_append(out, "every branch");
		return;
	}
	for (guint i = 0; list[i]; i++) {
		if (i)
			g_string_append(out, ", ");
		web_escape_append(out, list[i]);
	}
}

static void append_next(GString *out, const struct store_tree_update *u)
{
	gint64 next = store_tree_update_next(u);

	if (u->interval < 0)
		g_string_append(out, "not scheduled (no armbot run follows "
				     "it)");
	else if (!u->interval)
		g_string_append(out, "on demand only");
	else if (!next)
		g_string_append(out, "at once");
	else
		web_page_time_append(out, next);
}

/* The trees kept current (with a url, and the distro tree): one row
 * each, and below a failing one a second row with its error, in the
 * page's alarm colour. */
static void trees_followed(GString *out, const GPtrArray *updates)
{
	g_string_append(out, "<h1>Tree updates</h1>\n");
	if (!updates->len) {
		g_string_append(out, "<p>None yet: no tree has been fetched or "
				     "imported, and armbot run follows "
				     "none.</p>\n");
		return;
	}
	g_string_append(out, "<table class=\"trees\"><thead><tr><th>tree</th>"
			     "<th>url</th><th>branches</th><th>head</th>"
			     "<th>last updated</th><th>next update due</th>"
			     "<th>last attempt</th></tr></thead><tbody>\n");
	for (guint i = 0; i < updates->len; i++) {
		const struct store_tree_update *u = updates->pdata[i];
		g_autofree char *size = g_format_size(u->bytes);

		web_escape_printf(
			out,
			"<tr class=\"tree\" id=\"tree-%s\"><td>%s</td>"
			"<td>%s</td><td>",
			u->tree, u->tree, u->url);
		append_branches(out, u->branches);
		g_string_append(out, "</td><td>");
		if (u->head) {
			web_escape_printf(out, "%s <span title=\"%s\">",
					  u->head_branch, u->head);
			web_escape_append_len(out, u->head,
					      MIN(strlen(u->head), 12));
			g_string_append(out, "</span>");
		} else {
			g_string_append(out, "-");
		}
		g_string_append(out, "</td><td>");
		if (u->succeeded)
			web_page_time_append(out, u->succeeded);
		else
			g_string_append(out, "never");
		g_string_append(out, "</td><td>");
		append_next(out, u);
		if (!u->attempted)
			g_string_append(out, "</td><td>none yet</td></tr>\n");
		else
			g_string_append_printf(
				out,
				"</td><td class=\"%s\">%s, %.1f s, %" G_GINT64_FORMAT
				" objects, %s</td></tr>\n",
				u->error ? "fail" : "ok",
				u->error ? "failed" : "ok", u->seconds,
				u->objects, size);
		if (!u->error)
			continue;
		web_escape_printf(out,
				  "<tr class=\"error\" id=\"error-%s\">"
				  "<td colspan=\"7\" class=\"fail\"><strong>"
				  "update failing</strong> (%u in a row; the "
				  "last at ",
				  u->tree, u->failures);
		web_page_time_append(out, u->attempted);
		web_escape_printf(out,
				  "; the branches are kept as last fetched): "
				  "%s</td></tr>\n",
				  u->error);
	}
	g_string_append(out, "</tbody></table>\n");
}

guint web_page_trees(struct store *st, GString *out, GError **error)
{
	g_autoptr(GPtrArray) trees = store_trees_list(st, error);
	g_autoptr(GPtrArray) changes = NULL;
	g_autoptr(GPtrArray) updates = NULL;

	if (!trees)
		return 0;
	changes = store_tree_changes(st, NULL, error);
	if (!changes)
		return 0;
	updates = store_tree_updates_list(st, error);
	if (!updates)
		return 0;
	web_page_head(out, "trees");
	trees_followed(out, updates);
	g_string_append(out, "<h1>Trees opted in by mail</h1>\n");
	if (!trees->len)
		g_string_append(out, "<p>None yet: maintainers opt in by "
				     "mailing the bot (see the README).</p>\n");
	for (guint i = 0; i < trees->len; i++) {
		const struct store_tree *t = trees->pdata[i];

		web_escape_printf(out,
				  "<section><h2>%s <span class=\"%s\">%s</span>"
				  "</h2>\n<p>by %s, since ",
				  t->name, t->active ? "ok" : "skipped",
				  t->active ? "active" : "opted out", t->owner);
		web_page_time_append(out, t->created);
		g_string_append(out, ", changed ");
		web_page_time_append(out, t->updated);
		web_escape_printf(
			out,
			"</p>\n<pre>%s</pre>\n<table><tr><th>when</th>"
			"<th>who</th><th>what</th></tr>\n",
			t->data);
		for (guint j = 0; j < changes->len; j++) {
			const struct store_tree_change *c = changes->pdata[j];

			if (g_strcmp0(c->tree, t->name))
				continue;
			g_string_append(out, "<tr><td>");
			web_page_time_append(out, c->at);
			web_escape_printf(out,
					  "</td><td>%s</td><td>%s</td></tr>\n",
					  c->who, c->what);
		}
		g_string_append(out, "</table></section>\n");
	}
	web_page_foot(out);
	return 200;
}
