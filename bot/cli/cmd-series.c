/* armbot series: the assembled series, as text, JSON, or one as an mbox
 * ready for git am with the trailers given in replies folded in. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "kernel/diff/json.h"
#include "bot/mail/series-mbox.h"
#include "bot/store/store.h"

static void json_id(GString *out, gint64 id)
{
	if (id)
		g_string_append_printf(out, "%" G_GINT64_FORMAT, id);
	else
		g_string_append(out, "null");
}

static void json_series(GString *out, const struct store_series *s)
{
	g_string_append_printf(
		out, "{\"id\":%" G_GINT64_FORMAT ",\"state\":", s->id);
	json_append_string(out, s->state);
	g_string_append_printf(out, ",\"expired\":%s,\"version\":",
			       s->expired ? "true" : "false");
	if (s->version_minor)
		g_string_append_printf(out, "%u.%u", s->version,
				       s->version_minor);
	else
		g_string_append_printf(out, "%u", s->version);
	g_string_append_printf(out,
			       ",\"total\":%u,\"received\":%u,\"rfc\":%s,"
			       "\"subject\":",
			       s->total, s->received,
			       s->rfc ? "true" : "false");
	json_append_string(out, s->subject);
	g_string_append(out, ",\"author\":");
	json_append_string(out, s->author);
	g_string_append(out, ",\"cover\":");
	json_append_string(out, s->cover);
	g_string_append(out, ",\"patches\":[");
	for (guint i = 0; i < s->patches->len; i++) {
		if (i)
			g_string_append_c(out, ',');
		json_append_string(out, s->patches->pdata[i]);
	}
	g_string_append(out, "],\"base_commit\":");
	json_append_string(out, s->base_commit);
	g_string_append(out, ",\"supersedes\":");
	json_id(out, s->supersedes);
	g_string_append(out, ",\"partial_of\":");
	json_id(out, s->partial_of);
	g_string_append_printf(out, ",\"date\":%" G_GINT64_FORMAT "}",
			       s->first_date);
}

static gboolean print_mbox(struct store *st, gint64 id, GError **error)
{
	g_autoptr(GString) out = g_string_new(NULL);

	if (!series_mbox(st, id, out, error))
		return FALSE;
	fwrite(out->str, 1, out->len, stdout);
	return TRUE;
}

int cmd_series(struct armbot_context *ctx, int argc, char **argv)
{
	gboolean all = FALSE, json = FALSE;
	gint64 mbox = 0;
	double hours = 6;
	GOptionEntry options[] = {
		{ "all", 'a', 0, G_OPTION_ARG_NONE, &all,
		  "also list superseded series", NULL },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "print a JSON array",
		  NULL },
		{ "mbox", 0, 0, G_OPTION_ARG_INT64, &mbox,
		  "print series ID as an mbox for git am, with the trailers "
		  "given in replies folded in",
		  "ID" },
		{ "incomplete-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &hours,
		  "hours after which an incomplete series stops waiting "
		  "(default 6)",
		  "HOURS" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = NULL;
	g_autoptr(GPtrArray) list = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autofree char *path = NULL;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	guint shown = 0;

	if (!command_parse_options(
		    "series", NULL,
		    "List the series assembled from the ingested mail: id, "
		    "state (incomplete, ready, superseded, then the check "
		    "states), version, parts received of total, subject.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc > 1) {
		fprintf(stderr,
			"error: unexpected argument '%s'\n"
			"usage: see 'armbot help series'\n",
			argv[1]);
		return COMMAND_USAGE_ERROR;
	}
	path = g_build_filename(command_data_dir(ctx), "store.sqlite", NULL);
	if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
		fprintf(stderr,
			"error: no store in '%s': run 'armbot ingest' "
			"first\n",
			command_data_dir(ctx));
		return 1;
	}
	if (!(st = store_open(path, &error)))
		goto fail;
	if (mbox) {
		if (!print_mbox(st, mbox, &error))
			goto fail;
		return 0;
	}
	if (!(list = store_list_series(st, &error)))
		goto fail;
	if (json)
		g_string_append_c(out, '[');
	for (guint i = 0; i < list->len; i++) {
		struct store_series *s = list->pdata[i];

		/* how long it waited is judged now, not at ingest */
		s->expired = !strcmp(s->state, "incomplete") &&
			     now - s->last_activity > (gint64)(hours * 3600);
		if (!all && !strcmp(s->state, "superseded"))
			continue;
		if (json) {
			g_string_append(out, shown ? ",\n" : "\n");
			json_series(out, s);
		} else {
			g_string_append_printf(out,
					       "%" G_GINT64_FORMAT
					       "\t%s%s\tv%u%s\t%u/%u\t%s\n",
					       s->id, s->state,
					       s->expired ? " (expired)" : "",
					       s->version, s->rfc ? " RFC" : "",
					       s->received, s->total,
					       s->subject);
		}
		shown++;
	}
	if (json)
		g_string_append(out, "\n]\n");
	fputs(out->str, stdout);
	return 0;
fail:
	fprintf(stderr, "error: %s\n", error->message);
	return 1;
}
