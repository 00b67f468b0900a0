/* armbot status: what the daemon has done and has to do, from the store:
 * series by state, jobs by state (the queue), replies by state, the most
 * recent errors, and the trees whose last update failed. */
#include <stdio.h>

#include "bot/cli/command.h"
#include "bot/store/pipeline.h"
#include "bot/store/trees.h"
#include "bot/store/store.h"

static char *utc(gint64 t)
{
	g_autoptr(GDateTime) d = t ? g_date_time_new_from_unix_utc(t) : NULL;

	return d ? g_date_time_format(d, "%Y-%m-%d %H:%M:%S UTC") :
		   g_strdup("never");
}

/* "tree updates failing:", then per tree how often, since when and why;
 * nothing when every last update succeeded. */
static void print_tree_failures(const GPtrArray *updates)
{
	gboolean first = TRUE;

	for (guint i = 0; i < updates->len; i++) {
		const struct store_tree_update *u = updates->pdata[i];
		g_autofree char *last = NULL;
		g_autofree char *ok = NULL;

		if (!u->error)
			continue;
		if (first)
			printf("\ntree updates failing:\n");
		first = FALSE;
		last = utc(u->attempted);
		ok = utc(u->succeeded);
		printf("  %s: %u failed in a row, the last at %s (last "
		       "success: %s): %s\n",
		       u->tree, u->failures, last, ok, u->error);
	}
}

int cmd_status(struct armbot_context *ctx, int argc, char **argv)
{
	GOptionEntry options[] = { G_OPTION_ENTRY_NULL };
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = NULL;
	g_autoptr(GPtrArray) what = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) state = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) count = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GPtrArray) errors = NULL;
	g_autoptr(GPtrArray) updates = NULL;
	const char *last = "";

	if (!command_parse_options("status", "",
				   "Show the queue, the series and replies by "
				   "state, the recent errors and the trees "
				   "whose last update failed.",
				   options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (!(st = command_store(ctx, &error)) ||
	    !store_pipeline_counts(st, what, state, count, &error) ||
	    !(errors = store_pipeline_errors(st, 10, &error)) ||
	    !(updates = store_tree_updates_list(st, &error)))
		goto fail;
	for (guint i = 0; i < what->len; i++) {
		if (g_strcmp0(last, what->pdata[i]))
			printf("%s%s:\n", i ? "\n" : "",
			       (char *)what->pdata[i]);
		last = what->pdata[i];
		printf("  %-12s %u\n", (char *)state->pdata[i],
		       g_array_index(count, guint, i));
	}
	if (!what->len)
		printf("nothing yet: no series in the store\n");
	if (errors->len) {
		printf("\nrecent errors:\n");
		for (guint i = 0; i < errors->len; i++)
			printf("  %s\n", (char *)errors->pdata[i]);
	}
	print_tree_failures(updates);
	return 0;
fail:
	fprintf(stderr, "error: %s\n", error->message);
	return 1;
}
