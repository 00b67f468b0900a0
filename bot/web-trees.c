/* /trees (see bot/web-trees.h).  Everything here came by mail from
 * strangers (addresses, paths, URLs): all of it is escaped. */
#include "bot/web-trees.h"

#include "bot/store-trees.h"
#include "bot/web-escape.h"
#include "bot/web-page.h"

static void append_time(GString *out, gint64 t)
{
	g_autofree char *s = web_page_time(t);

	g_string_append(out, s);
}

guint web_page_trees(struct store *st, GString *out, GError **error)
{
	g_autoptr(GPtrArray) trees = store_trees_list(st, error);
	g_autoptr(GPtrArray) changes = NULL;

	if (!trees)
		return 0;
	changes = store_tree_changes(st, NULL, error);
	if (!changes)
		return 0;
	web_page_head(out, "trees");
	g_string_append(out, "<h1>Trees opted in by mail</h1>\n");
	if (!trees->len)
		g_string_append(out, "<p>None yet: maintainers opt in by "
				     "mailing the bot (see the README).</p>\n");
	for (guint i = 0; i < trees->len; i++) {
		const struct store_tree *t = trees->pdata[i];

		g_string_append(out, "<section><h2>");
		web_escape_append(out, t->name);
		g_string_append_printf(out,
				       " <span class=\"%s\">%s</span>"
				       "</h2>\n<p>by ",
				       t->active ? "ok" : "skipped",
				       t->active ? "active" : "opted out");
		web_escape_append(out, t->owner);
		g_string_append(out, ", since ");
		append_time(out, t->created);
		g_string_append(out, ", changed ");
		append_time(out, t->updated);
		g_string_append(out, "</p>\n<pre>");
		web_escape_append(out, t->data);
		g_string_append(out, "</pre>\n<table><tr><th>when</th>"
				     "<th>who</th><th>what</th></tr>\n");
		for (guint j = 0; j < changes->len; j++) {
			const struct store_tree_change *c = changes->pdata[j];

			if (g_strcmp0(c->tree, t->name))
				continue;
			g_string_append(out, "<tr><td>");
			append_time(out, c->at);
			g_string_append(out, "</td><td>");
			web_escape_append(out, c->who);
			g_string_append(out, "</td><td>");
			web_escape_append(out, c->what);
			g_string_append(out, "</td></tr>\n");
		}
		g_string_append(out, "</table></section>\n");
	}
	web_page_foot(out);
	return 200;
}
