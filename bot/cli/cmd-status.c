/* armbot status: what the daemon has done and has to do, from the store:
 * series by state, jobs by state (the queue), replies by state, the most
 * recent errors, and the trees whose last update failed; for the trees
 * that compile on icecream, the cluster (the scheduler's listcs) and what
 * their last build took. */
#include <stdio.h>

#include "bot/cli/command.h"
#include "config/config.h"
#include "config/datadir.h"
#include "config/treefile.h"
#include "kernel/build/icecc.h"
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

/* The cache dir: $ARMBOT_CACHE_DIR, else $XDG_CACHE_HOME/armbot. */
static char *cache_dir(void)
{
	const char *env = g_getenv("ARMBOT_CACHE_DIR");

	if (env && *env)
		return g_strdup(env);
	return g_build_filename(g_get_user_cache_dir(), "armbot", NULL);
}

/* The last build's speed-up over this machine alone and what it is
 * estimated from (kernel/build/icecc.h). */
static void print_speedup(const struct icecc_last_build *lb)
{
	double s = icecc_last_build_speedup(lb);

	if (!(s > 0))
		return;
	printf("    speed-up: %.2fx against this machine alone, estimated "
	       "from the compile time seen: %.1f s on other nodes (%.1f s "
	       "more here at -j%u), %.1f s on this one\n",
	       s, lb->elsewhere_seconds, (s - 1) * lb->seconds, lb->local_jobs,
	       lb->here_seconds);
}

/* "icecream:" and, per tree that compiles on it, its scheduler's nodes
 * (job slots in use, load) and the tree's last build. */
static void print_icecream(const struct armbot_config *config)
{
	g_autofree char *cache = cache_dir();
	gboolean first = TRUE;

	for (guint i = 0; i < config->trees->len; i++) {
		const struct treefile *tf = config->trees->pdata[i];
		g_autoptr(GError) error = NULL;
		g_autofree char *record = NULL;
		struct icecc_cluster cl;
		struct icecc_last_build lb;

		if (!tf->icecream)
			continue;
		if (first)
			printf("\nicecream:\n");
		first = FALSE;
		printf("  %s: scheduler %s, socket %s\n", tf->name,
		       tf->icecc.scheduler ? tf->icecc.scheduler : "127.0.0.1",
		       tf->icecc.socket);
		if (icecc_listcs(tf->icecc.scheduler, &cl, &error)) {
			printf("    %u nodes, %u job slots, %u jobs queued, "
			       "%" G_GUINT64_FORMAT " jobs so far\n",
			       cl.nodes->len, icecc_cluster_slots(&cl),
			       cl.queued, cl.total_jobs);
			for (guint j = 0; j < cl.nodes->len; j++) {
				const struct icecc_node *n = cl.nodes->pdata[j];

				printf("    %s (%s): jobs %u/%u, load %u/1000\n",
				       n->name, n->address, n->jobs_used,
				       n->jobs_max, n->load);
			}
			icecc_cluster_clear(&cl);
		} else {
			printf("    scheduler unreachable: %s\n",
			       error->message);
		}
		record = icecc_last_build_path(cache, tf->name);
		if (icecc_last_build_read(record, &lb, NULL)) {
			g_autofree char *when = utc(lb.when);

			printf("    last build: %s, %.1f s at -j%u (-j%u "
			       "locally), %" G_GUINT64_FORMAT
			       " jobs through the cluster\n",
			       when, lb.seconds, lb.jobs, lb.local_jobs,
			       lb.cluster_jobs);
			for (guint j = 0; lb.nodes && j < lb.nodes->len; j++) {
				const struct icecc_node_jobs *nj =
					lb.nodes->pdata[j];

				printf("      %s compiled %" G_GUINT64_FORMAT
				       " of them\n",
				       nj->name, nj->jobs);
			}
			print_speedup(&lb);
			icecc_last_build_clear(&lb);
		} else {
			printf("    last build: none yet\n");
		}
	}
}

int cmd_status(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *config_file = NULL;
	g_autoptr(armbot_config) config = NULL;
	GOptionEntry options[] = { COMMAND_OPTION_CONFIG(config_file),
				   G_OPTION_ENTRY_NULL };
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
	/* the queue above comes from the store alone: a configuration that
	 * cannot be read costs only the icecream part */
	config = command_config(config_file, NULL, &error);
	if (!config) {
		fprintf(stderr, "warning: no icecream status: %s\n",
			error->message);
		return 0;
	}
	print_icecream(config);
	return 0;
fail:
	fprintf(stderr, "error: %s\n", error->message);
	return 1;
}
