/* `armbot run`: the daemon (see bot/daemon/daemon.h). */
#include "bot/daemon/daemon.h"

#include <glib-unix.h>
#include <string.h>

#include "bot/control/control.h"
#include "bot/daemon/crashpoint.h"
#include "bot/daemon/dispatch.h"
#include "bot/common/log.h"
#include "bot/daemon/outbox.h"
#include "bot/sources/source.h"
#include "bot/store/pipeline.h"
#include "bot/store/trees.h"
#include "bot/store/store.h"
#include "bot/daemon/treeset.h"
#include "bot/daemon/treeupdate.h"
#include "bot/daemon/weekly.h"
#include "bot/web/web.h"
#include "bot/daemon/worker.h"
#include "kernel/tree/tree.h"

#define DISPATCH_INTERVAL 60 /* s: series that became ready by timeout */
#define CONTROL_CATCH_UP (2 * 24 * 3600) /* s: mail to the bot */

struct daemon {
	const struct daemon_options *opts;
	char *store_path;
	struct store *st; /* the main thread's connection */
	GMainLoop *loop;
	struct daemon_bell *jobs_bell, *outbox_bell;
	GPtrArray *sources; /* struct source * */
	GHashTable *workers; /* tree name -> struct worker * */
	GHashTable *followed; /* names of the trees kept current, recorded
			       * as followed (follow_trees()) */
	struct outbox_sender *outbox;
	struct web_server *web;
	int status;
};

static void start_workers(struct daemon *d);

static void dispatch(struct daemon *d)
{
	g_autoptr(GError) error = NULL;
	guint queued = 0;

	if (!store_begin(d->st, &error) ||
	    !dispatch_ready_series(d->st, d->opts->config, d->opts->data_dir,
				   &queued, &error) ||
	    !store_commit(d->st, &error)) {
		store_rollback(d->st);
		bot_log(NULL, "cannot queue series: %s", error->message);
		return;
	}
	if (queued)
		bot_log(NULL, "%u series queued", queued);
	start_workers(d);
	daemon_bell_ring(d->jobs_bell);
}

static void on_batch(const struct source_batch *batch, gpointer user_data)
{
	struct daemon *d = user_data;

	bot_log(NULL, "%s: %u new, %u duplicate, %u unparseable", batch->url,
		batch->counts.added, batch->counts.duplicate,
		batch->counts.unparseable);
	crashpoint("ingest");
	control_handle_batch(d->st, d->opts->config, d->opts->data_dir, batch);
	dispatch(d);
	/* the batch may hold the list's echo of a reply in doubt */
	daemon_bell_ring(d->outbox_bell);
}

static void on_source_error(const char *url, const GError *error,
			    gpointer user_data)
{
	bot_log(NULL, "%s: %s (retrying)", url, error->message);
}

/* The weekly balances that are due (bot/daemon/weekly.h). */
static void queue_weekly(struct daemon *d)
{
	g_autoptr(GError) error = NULL;
	guint queued = 0;

	if (!weekly_queue_due(d->st, d->opts->config,
			      g_get_real_time() / G_USEC_PER_SEC, &queued,
			      &error)) {
		bot_log(NULL, "cannot queue the weekly balance: %s",
			error->message);
		return;
	}
	if (!queued)
		return;
	bot_log(NULL, "%u weekly balance mail%s queued", queued,
		queued == 1 ? "" : "s");
	daemon_bell_ring(d->outbox_bell);
}

static gboolean on_timer(gpointer user_data)
{
	dispatch(user_data);
	queue_weekly(user_data);
	return G_SOURCE_CONTINUE;
}

static gboolean on_signal(gpointer user_data)
{
	struct daemon *d = user_data;

	bot_log(NULL, "stopping");
	g_main_loop_quit(d->loop);
	return G_SOURCE_REMOVE;
}

static gboolean start_sources(struct daemon *d, GError **error)
{
	struct source_options so = SOURCE_OPTIONS_INIT;
	char **urls = d->opts->config->sources;

	so.quiet = TRUE;
	for (guint i = 0; urls && urls[i]; i++) {
		g_autoptr(source) src = source_new(urls[i], &so, error);

		if (!src ||
		    !source_start(src, d->store_path, g_main_context_default(),
				  on_batch, on_source_error, d, error))
			return FALSE;
		bot_log(NULL, "source %s", source_url(src));
		g_ptr_array_add(d->sources, g_steal_pointer(&src));
	}
	return TRUE;
}

/* A worker for @tree unless it has one. */
static gboolean start_worker(struct daemon *d, const char *tree, GError **error)
{
	struct worker_options wo = { 0 };
	struct worker *w;

	if (g_hash_table_contains(d->workers, tree))
		return TRUE;
	wo.data_dir = d->opts->data_dir;
	wo.store_path = d->store_path;
	wo.config = d->opts->config;
	wo.tree = tree;
	wo.jobs_bell = d->jobs_bell;
	wo.outbox_bell = d->outbox_bell;
	wo.max_attempts = d->opts->max_attempts ? d->opts->max_attempts : 3;
	wo.lab_retry_s = d->opts->lab_retry_s;
	w = worker_start(&wo, error);
	if (!w)
		return FALSE;
	bot_log(NULL, "worker for %s", tree);
	g_hash_table_insert(d->workers, g_strdup(tree), w);
	return TRUE;
}

/* Whether @tf is a tree the daemon keeps current: one with a url, or the
 * distro tree (imported on demand, when a series needs it and Debian's
 * package changed). */
static gboolean kept_current(const struct treefile *tf)
{
	return tf && (tf->url || !strcmp(tf->name, TREE_DISTRO_NAME));
}

/* Follow every tree kept current (the configuration's, those opted in by
 * mail since, the distro tree): record it for the pages and, when it has
 * a url and is not updated on demand only, start its worker now, which
 * fetches it when due. */
static void follow_trees(struct daemon *d, GError **error)
{
	g_autoptr(treeset)
		ts = treeset_load(d->opts->config, d->st, NULL, error);
	g_autoptr(GPtrArray) all = NULL;
	GHashTableIter iter;
	gpointer name;

	if (!ts)
		return;
	all = g_ptr_array_new(); /* borrowed from @ts */
	for (guint i = 0; i < ts->trees->len; i++)
		g_ptr_array_add(all, ts->trees->pdata[i]);
	if (ts->distro)
		g_ptr_array_add(all, ts->distro);
	for (guint i = 0; i < all->len; i++) {
		const struct treefile *tf = all->pdata[i];

		if (!kept_current(tf) ||
		    g_hash_table_contains(d->followed, tf->name))
			continue;
		if (!treeupdate_follow(d->st, tf, error))
			return;
		g_hash_table_add(d->followed, g_strdup(tf->name));
		if (tf->url && tf->policy.update_interval &&
		    !start_worker(d, tf->name, error))
			return;
	}
	/* opted out since */
	g_hash_table_iter_init(&iter, d->followed);
	while (g_hash_table_iter_next(&iter, &name, NULL)) {
		if (kept_current(treeset_find(ts, name)))
			continue;
		if (!store_tree_updates_unfollow(d->st, name, error))
			return;
		g_hash_table_iter_remove(&iter);
	}
}

/* One worker per tree with work: the trees of queued jobs (a tree opted
 * in by mail gets its worker with its first series), and the trees with
 * a url to keep up to date. */
static void start_workers(struct daemon *d)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) trees = store_job_queued_trees(d->st, &error);

	for (guint i = 0; trees && i < trees->len; i++)
		if (!start_worker(d, trees->pdata[i], &error))
			break;
	if (!error)
		follow_trees(d, &error);
	if (error)
		bot_log(NULL, "cannot start a worker: %s", error->message);
}

/* The read-only pages, in a thread of their own (bot/web/web.h), on
 * [web] listen:port (port 0: a free one, said in the log). */
static gboolean start_web(struct daemon *d, GError **error)
{
	const struct armbot_config *c = d->opts->config;
	g_autofree char *listen = NULL;

	listen = g_strdup_printf("%s:%u",
				 c->web_listen ? c->web_listen : "127.0.0.1",
				 c->web_port);
	d->web = web_server_start(d->opts->data_dir, listen, c->web_base_url,
				  (const char *const *)c->web_archive_urls,
				  NULL, error);
	if (!d->web)
		return FALSE;
	bot_log(NULL, "web pages at %s", web_server_url(d->web));
	return TRUE;
}

static gboolean start(struct daemon *d, GError **error)
{
	struct outbox_options oo = { 0 };
	guint requeued = 0, failed = 0;

	d->st = store_open(d->store_path, error);
	if (!d->st ||
	    !store_job_recover(
		    d->st, d->opts->max_attempts ? d->opts->max_attempts : 3,
		    &requeued, &failed, error))
		return FALSE;
	if (requeued || failed)
		bot_log(NULL, "after a stop: %u jobs queued again, %u given up",
			requeued, failed);
	/* the trees followed are this run's (follow_trees()) */
	if (!store_tree_updates_unfollow(d->st, NULL, error))
		return FALSE;
	oo.data_dir = d->opts->data_dir;
	oo.store_path = d->store_path;
	oo.config = d->opts->config;
	oo.bell = d->outbox_bell;
	d->outbox = outbox_start(&oo, error);
	if (!d->outbox || !start_web(d, error))
		return FALSE;
	/* mail to the bot the last run stored but did not handle */
	if (control_handle_recent(d->st, d->opts->config, d->opts->data_dir,
				  g_get_real_time() / G_USEC_PER_SEC -
					  CONTROL_CATCH_UP))
		daemon_bell_ring(d->outbox_bell);
	dispatch(d);
	queue_weekly(d);
	return start_sources(d, error);
}

int daemon_run(const struct daemon_options *opts)
{
	struct daemon d = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) stop_error = NULL;

	d.opts = opts;
	d.store_path = g_build_filename(opts->data_dir, "store.sqlite", NULL);
	d.loop = g_main_loop_new(NULL, FALSE);
	d.jobs_bell = daemon_bell_new();
	d.outbox_bell = daemon_bell_new();
	d.sources = g_ptr_array_new_with_free_func((GDestroyNotify)source_free);
	d.workers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  (GDestroyNotify)worker_stop);
	d.followed =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	bot_log(NULL, "armbot %s <%s> starting; data in %s", opts->config->name,
		opts->config->address, opts->data_dir);
	if (!start(&d, &error)) {
		bot_log(NULL, "error: %s", error->message);
		d.status = 1;
	} else {
		g_unix_signal_add(SIGTERM, on_signal, &d);
		g_unix_signal_add(SIGINT, on_signal, &d);
		g_timeout_add_seconds(DISPATCH_INTERVAL, on_timer, &d);
		g_main_loop_run(d.loop);
	}
	for (guint i = 0; i < d.sources->len; i++)
		source_stop(d.sources->pdata[i]);
	daemon_bell_close(d.jobs_bell);
	daemon_bell_close(d.outbox_bell);
	outbox_stop(d.outbox);
	web_server_free(d.web);
	/* a worker in the middle of a series finishes it: the alternative,
	 * leaving it running, would only repeat the work after a restart */
	g_hash_table_unref(d.workers);
	g_ptr_array_unref(d.sources);
	/* the pages of `armbot serve` must not promise updates now */
	if (d.st && !store_tree_updates_unfollow(d.st, NULL, &stop_error))
		bot_log(NULL, "error: %s", stop_error->message);
	g_hash_table_unref(d.followed);
	store_free(d.st);
	daemon_bell_free(d.jobs_bell);
	daemon_bell_free(d.outbox_bell);
	g_main_loop_unref(d.loop);
	g_free(d.store_path);
	return d.status;
}
