/* Watching the scheduler's jobs while a make runs; see
 * kernel/build/icecc-watch.h. */
#include "kernel/build/icecc-watch.h"

#include <string.h>

#include "kernel/build/icecc.h"

struct icecc_watch {
	char *scheduler;
	GThread *thread;
	GMutex lock;
	GCond cond;
	gboolean stop;
	/* the thread's until joined: job id -> node name, and the
	 * compile-seconds seen on the submitting node and elsewhere */
	GHashTable *on;
	double here_s;
	double elsewhere_s;
};

static gpointer watch_thread(gpointer data)
{
	struct icecc_watch *w = data;

	gint64 last = g_get_monotonic_time();

	g_mutex_lock(&w->lock);
	while (!w->stop) {
		struct icecc_jobs_now now;
		gint64 until;
		gint64 t;
		double span;

		g_mutex_unlock(&w->lock);
		/* the jobs compiling now are taken to have compiled since
		 * the last look */
		t = g_get_monotonic_time();
		span = (double)(t - last) / G_USEC_PER_SEC;
		last = t;
		if (icecc_listjobs(w->scheduler, w->on, &now, NULL)) {
			w->here_s += now.here * span;
			w->elsewhere_s += now.elsewhere * span;
		}
		g_mutex_lock(&w->lock);
		until = g_get_monotonic_time() +
			ICECC_WATCH_INTERVAL_MS * G_TIME_SPAN_MILLISECOND;
		while (!w->stop && g_cond_wait_until(&w->cond, &w->lock, until))
			;
	}
	g_mutex_unlock(&w->lock);
	return NULL;
}

struct icecc_watch *icecc_watch_start(const char *scheduler)
{
	struct icecc_watch *w = g_new0(struct icecc_watch, 1);

	w->scheduler = g_strdup(scheduler);
	w->on = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
				      g_free);
	g_mutex_init(&w->lock);
	g_cond_init(&w->cond);
	w->thread = g_thread_new("icecc-watch", watch_thread, w);
	return w;
}

static gint most_first(gconstpointer a, gconstpointer b)
{
	const struct icecc_node_jobs *x = *(struct icecc_node_jobs *const *)a;
	const struct icecc_node_jobs *y = *(struct icecc_node_jobs *const *)b;

	if (x->jobs != y->jobs)
		return x->jobs > y->jobs ? -1 : 1;
	return strcmp(x->name, y->name);
}

GPtrArray *icecc_watch_stop(struct icecc_watch *w, double *here_s,
			    double *elsewhere_s)
{
	GPtrArray *nodes = g_ptr_array_new_with_free_func(
		(GDestroyNotify)icecc_node_jobs_free);
	g_autoptr(GHashTable) count = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTableIter it;
	gpointer key, value;

	g_mutex_lock(&w->lock);
	w->stop = TRUE;
	g_cond_signal(&w->cond);
	g_mutex_unlock(&w->lock);
	g_thread_join(w->thread);

	g_hash_table_iter_init(&it, w->on);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		struct icecc_node_jobs *nj = g_hash_table_lookup(count, value);

		if (!nj) {
			nj = g_new0(struct icecc_node_jobs, 1);
			nj->name = g_strdup(value);
			g_hash_table_insert(count, nj->name, nj);
			g_ptr_array_add(nodes, nj);
		}
		nj->jobs++;
	}
	g_ptr_array_sort(nodes, most_first);
	*here_s = w->here_s;
	*elsewhere_s = w->elsewhere_s;

	g_hash_table_unref(w->on);
	g_mutex_clear(&w->lock);
	g_cond_clear(&w->cond);
	g_free(w->scheduler);
	g_free(w);
	return nodes;
}
