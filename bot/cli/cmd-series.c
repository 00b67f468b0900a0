/* armbot series: the assembled series, as text, JSON, or one as an mbox
 * ready for git am with the trailers given in replies folded in. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "bot/common/jsonout.h"
#include "bot/mail/series-mbox.h"
#include "bot/store/store.h"

/* "version": 2, or 2.1 for a v2.1 series: the number "%u.%u" reads as
 * (json-glib prints it with 17 significant digits, 2.1000000000000001,
 * the same double). */
static void json_version(JsonBuilder *b, guint version, guint minor)
{
	char text[32];

	if (!minor) {
		jsonout_int(b, "version", version);
		return;
	}
	g_snprintf(text, sizeof(text), "%u.%u", version, minor);
	jsonout_double(b, "version", g_ascii_strtod(text, NULL));
}

/* One series as a JSON object on one line (README, "armbot series"). */
static char *json_series(const struct store_series *s)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;

	json_builder_begin_object(b);
	jsonout_int(b, "id", s->id);
	jsonout_string(b, "state", s->state);
	jsonout_bool(b, "expired", s->expired);
	json_version(b, s->version, s->version_minor);
	jsonout_int(b, "total", s->total);
	jsonout_int(b, "received", s->received);
	jsonout_bool(b, "rfc", s->rfc);
	jsonout_string(b, "subject", s->subject);
	jsonout_string(b, "author", s->author);
	jsonout_string(b, "cover", s->cover);
	jsonout_begin_array(b, "patches");
	for (guint i = 0; i < s->patches->len; i++)
		jsonout_string(b, NULL, s->patches->pdata[i]);
	json_builder_end_array(b);
	jsonout_string(b, "base_commit", s->base_commit);
	jsonout_id(b, "supersedes", s->supersedes);
	jsonout_id(b, "partial_of", s->partial_of);
	jsonout_int(b, "date", s->first_date);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	return json_to_string(root, FALSE);
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
		COMMAND_OPTION_INCOMPLETE_TIMEOUT(hours),
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
		return command_usage_error("series", "unexpected argument '%s'",
					   argv[1]);
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
	/* an array with one series a line, so that line tools (grep -c)
	 * count series; each object is json-glib's */
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
			g_autofree char *obj = json_series(s);

			g_string_append(out, shown ? ",\n" : "\n");
			g_string_append(out, obj);
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
	return command_fail(error);
}
