/* armbot status: what the daemon has done and has to do, from the store:
 * series by state, jobs by state (the queue), replies by state, and the
 * most recent errors. */
#include <stdio.h>

#include "bot/command.h"
#include "bot/datadir.h"
#include "bot/store-pipeline.h"
#include "bot/store.h"

int cmd_status(struct armbot_context *ctx, int argc, char **argv)
{
	GOptionEntry options[] = { G_OPTION_ENTRY_NULL };
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = NULL;
	g_autoptr(GPtrArray) what = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) state = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) count = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GPtrArray) errors = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *path = NULL;
	const char *last = "";

	if (!command_parse_options("status", "",
				   "Show the queue, the series and replies by "
				   "state, and the recent errors.",
				   options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	dir = datadir_ensure(command_data_dir(ctx), NULL, &error);
	if (!dir)
		goto fail;
	path = g_build_filename(dir, "store.sqlite", NULL);
	if (!(st = store_open(path, &error)) ||
	    !store_pipeline_counts(st, what, state, count, &error) ||
	    !(errors = store_pipeline_errors(st, 10, &error)))
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
	return 0;
fail:
	fprintf(stderr, "error: %s\n", error->message);
	return 1;
}
