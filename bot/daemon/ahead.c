/* Verdicts ahead of the queue (see bot/daemon/ahead.h). */
#include "bot/daemon/ahead.h"

#include <errno.h>
#include <sys/resource.h>

#include "bot/common/log.h"
#include "bot/store/pipeline.h"
#include "kernel/diff/dirstat-verdict.h"

/* How many queued jobs one look at the store takes, and how long the
 * thread waits for new ones before it looks again. */
#define AHEAD_BATCH 16
#define AHEAD_POLL_MS 1000
/* job ids tried are forgotten when claimed; those of series set aside
 * meanwhile never are: past this many, all are forgotten (and the ones
 * still queued tried once more) */
#define AHEAD_TRIED_MAX 65536
/* the thread's priority: the check that runs keeps the CPU it had (a
 * per-thread attribute on Linux, as SPARSE_BESIDE_NICE in pipeline.c) */
#define AHEAD_NICE 19

struct ahead {
	struct ahead_options o;
	GHashTable *tried;
	GThread *thread;
	GMutex lock;
	GCond cond;
	gboolean stop;
	guint written;
};

static gboolean wants_early(const struct armbot_config *config,
			    const char *list)
{
	const struct config_list *l = list ? config_list(config, list) : NULL;

	return l && l->early_verdict;
}

static gboolean on_verdict_wanted(const char *list, gpointer data)
{
	const struct early_verdict *e = data;

	return wants_early(e->config, list);
}

/* pipeline_options.verdict_known: the verdict on the web, provisional. */
static void on_verdict_known(const struct pipeline_outcome *out, gpointer data)
{
	struct early_verdict *e = data;
	struct store_job_result res = { 0 };
	g_autofree char *who = g_strdup_printf("worker %s", e->tree);
	g_autofree char *verdict = NULL;
	g_autoptr(GError) error = NULL;

	if (!wants_early(e->config, out->list))
		return;
	verdict = dirstat_verdict_sentence(out->verdict);
	res.base_commit = out->base_commit;
	res.base_how = report_base_name(out->base_how);
	res.head_commit = out->head_commit;
	res.verdict = verdict;
	res.verdict_json = out->verdict_json;
	res.dirstat = out->dirstat;
	if (!store_job_early_verdict(e->st, e->job_id, &res, &error))
		bot_log(who, "series %" G_GINT64_FORMAT ": early verdict: %s",
			e->series_id, error->message);
	else
		bot_log(who,
			"series %" G_GINT64_FORMAT
			": verdict on the web, checks %s",
			e->series_id, e->queued ? "queued" : "running");
	e->written = !error;
}

void early_verdict_hook(struct pipeline_options *popts,
			struct early_verdict *ev)
{
	popts->verdict_known = on_verdict_known;
	popts->verdict_wanted = on_verdict_wanted;
	popts->verdict_data = ev;
}

static gboolean stopped(struct ahead *a, guint wait_ms)
{
	gint64 end = g_get_monotonic_time() + wait_ms * G_TIME_SPAN_MILLISECOND;
	gboolean stop;

	g_mutex_lock(&a->lock);
	while (!a->stop && wait_ms)
		if (!g_cond_wait_until(&a->cond, &a->lock, end))
			break;
	stop = a->stop;
	g_mutex_unlock(&a->lock);
	return stop;
}

/* The verdict of queued @job; TRUE when it wrote one. */
static gboolean verdict_of(struct ahead *a, struct store *st,
			   const struct store_job *job)
{
	g_autofree char *who = g_strdup_printf("worker %s", a->o.tree);
	struct pipeline_options popts = { 0 };
	struct pipeline_outcome out = { 0 };
	struct early_verdict ev = { a->o.config, st,   job->id, job->series_id,
				    job->tree,	 TRUE, FALSE };
	g_autoptr(GError) error = NULL;

	popts.data_dir = a->o.data_dir;
	popts.tree_name = job->tree;
	popts.tree_reason = job->tree_reason;
	popts.bot_name = a->o.config->name;
	popts.bot_address = a->o.config->address;
	popts.verdict_only = TRUE;
	early_verdict_hook(&popts, &ev);
	if (!pipeline_check(st, job->series_id, &popts, &out, &error))
		/* the job's own run says what went wrong */
		bot_log(who,
			"series %" G_GINT64_FORMAT
			": no verdict ahead of its check: %s",
			job->series_id, error->message);
	pipeline_outcome_clear(&out);
	return ev.written;
}

/* The next queued job not tried yet, or NULL: page by page, so that
 * more than AHEAD_BATCH tried jobs at the head of the queue (series that
 * do not apply, lists without early-verdict) do not hide the rest. */
static struct store_job *next_job(struct ahead *a, struct store *st)
{
	if (g_hash_table_size(a->tried) > AHEAD_TRIED_MAX)
		g_hash_table_remove_all(a->tried);
	for (guint offset = 0;; offset += AHEAD_BATCH) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GPtrArray) jobs = store_jobs_waiting(
			st, a->o.tree, offset, AHEAD_BATCH, &error);

		if (!jobs) {
			bot_log(NULL, "worker %s: store error: %s", a->o.tree,
				error->message);
			return NULL;
		}
		for (guint i = 0; i < jobs->len; i++) {
			struct store_job *job = jobs->pdata[i];

			if (g_hash_table_contains(a->tried, &job->id))
				continue;
			g_hash_table_add(a->tried,
					 g_memdup2(&job->id, sizeof(gint64)));
			return g_ptr_array_steal_index(jobs, i);
		}
		if (jobs->len < AHEAD_BATCH)
			return NULL;
	}
}

static gpointer ahead_thread(gpointer data)
{
	struct ahead *a = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = store_open(a->o.store_path, &error);

	if (setpriority(PRIO_PROCESS, 0, AHEAD_NICE) != 0)
		g_debug("verdicts ahead: cannot lower the priority: %s",
			g_strerror(errno));
	if (!st) {
		bot_log(NULL,
			"worker %s: verdicts ahead: cannot open the "
			"store: %s",
			a->o.tree, error->message);
		return NULL;
	}
	while (!stopped(a, 0)) {
		g_autoptr(store_job) job = next_job(a, st);

		if (!job) {
			if (stopped(a, AHEAD_POLL_MS))
				break;
			continue;
		}
		if (verdict_of(a, st, job))
			a->written++;
	}
	return NULL;
}

/* Does any list want its verdicts early? */
static gboolean any_list_early(const struct armbot_config *config)
{
	for (guint i = 0; config->lists && i < config->lists->len; i++) {
		const struct config_list *l = config->lists->pdata[i];

		if (l->early_verdict)
			return TRUE;
	}
	return FALSE;
}

struct ahead *ahead_start(const struct ahead_options *o, GHashTable *tried)
{
	struct ahead *a;
	g_autoptr(GError) error = NULL;

	if (!any_list_early(o->config) || !o->store_path)
		return NULL;
	a = g_new0(struct ahead, 1);
	a->o = *o;
	a->tried = tried;
	g_mutex_init(&a->lock);
	g_cond_init(&a->cond);
	a->thread = g_thread_try_new("ahead", ahead_thread, a, &error);
	if (!a->thread) {
		bot_log(NULL, "worker %s: verdicts ahead: %s", o->tree,
			error->message);
		g_mutex_clear(&a->lock);
		g_cond_clear(&a->cond);
		g_free(a);
		return NULL;
	}
	return a;
}

guint ahead_stop(struct ahead *a)
{
	guint written;

	if (!a)
		return 0;
	g_mutex_lock(&a->lock);
	a->stop = TRUE;
	g_cond_broadcast(&a->cond);
	g_mutex_unlock(&a->lock);
	g_thread_join(a->thread);
	written = a->written;
	g_mutex_clear(&a->lock);
	g_cond_clear(&a->cond);
	g_free(a);
	return written;
}
