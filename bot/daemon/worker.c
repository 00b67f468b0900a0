/* The daemon's workers (see bot/daemon/worker.h). */
#include "bot/daemon/worker.h"

#include <string.h>

#include "bot/daemon/ahead.h"
#include "bot/daemon/crashpoint.h"
#include "bot/daemon/kcidb.h"
#include "bot/daemon/patchwork.h"
#include "bot/common/log.h"
#include "bot/daemon/pipeline.h"
#include "bot/store/boards.h"
#include "bot/store/boot.h"
#include "bot/store/pipeline.h"
#include "bot/store/store.h"
#include "bot/store/timing.h"
#include "bot/daemon/treeset.h"
#include "bot/daemon/treeupdate.h"
#include "config/treefile.h"
#include "kernel/tree/tree.h"
#include "qemu/runner.h"

struct daemon_bell {
	GMutex lock;
	GCond cond;
	guint rung;
	gboolean closed;
};

struct daemon_bell *daemon_bell_new(void)
{
	struct daemon_bell *bell = g_new0(struct daemon_bell, 1);

	g_mutex_init(&bell->lock);
	g_cond_init(&bell->cond);
	return bell;
}

void daemon_bell_ring(struct daemon_bell *bell)
{
	g_mutex_lock(&bell->lock);
	bell->rung++;
	g_cond_broadcast(&bell->cond);
	g_mutex_unlock(&bell->lock);
}

gboolean daemon_bell_wait(struct daemon_bell *bell, guint seconds)
{
	gint64 end = g_get_monotonic_time() + seconds * G_TIME_SPAN_SECOND;
	gboolean open;

	g_mutex_lock(&bell->lock);
	while (!bell->rung && !bell->closed)
		if (!g_cond_wait_until(&bell->cond, &bell->lock, end))
			break;
	bell->rung = 0;
	open = !bell->closed;
	g_mutex_unlock(&bell->lock);
	return open;
}

void daemon_bell_close(struct daemon_bell *bell)
{
	g_mutex_lock(&bell->lock);
	bell->closed = TRUE;
	g_cond_broadcast(&bell->cond);
	g_mutex_unlock(&bell->lock);
}

void daemon_bell_free(struct daemon_bell *bell)
{
	if (!bell)
		return;
	g_mutex_clear(&bell->lock);
	g_cond_clear(&bell->cond);
	g_free(bell);
}

/* How long a worker waits for work before it looks again (at most). */
#define WORKER_WAIT 5
/* the longest wait of a job the lab could not boot (store_job_defer) */
#define LAB_RETRY_MAX_S 3600

struct worker {
	struct worker_options opts;
	char *tree;
	GThread *thread;
	GCancellable *cancellable; /* cancelled by worker_stop(): ends a
				    * fetch early */
	GHashTable *ahead_tried; /* jobs looked at ahead (bot/daemon/ahead.h) */
	gint stop;
};

static void log_line(const char *tree, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

static void log_line(const char *tree, const char *fmt, ...)
{
	g_autofree char *who = g_strdup_printf("worker %s", tree);
	va_list ap;

	va_start(ap, fmt);
	bot_logv(who, fmt, ap);
	va_end(ap);
}

static void on_progress(enum pipeline_stage stage, const char *detail,
			gpointer user_data)
{
	const char *tree = user_data;
	static const char *const crash_names[PIPELINE_N_STAGES] = {
		[PIPELINE_STAGE_APPLY] = "apply",
		[PIPELINE_STAGE_SPARSE] = "sparse",
		[PIPELINE_STAGE_BOOT_BASE] = "boot",
		[PIPELINE_STAGE_REPORT] = "report",
	};

	if (!detail)
		log_line(tree, "%s", pipeline_stage_name(stage));
	if (!detail && stage < PIPELINE_N_STAGES && crash_names[stage])
		crashpoint(crash_names[stage]);
}

static const char *status_word(enum report_status s)
{
	return report_status_pick(s, "skipped", "ok", "warn", "fail");
}

/* Does @policy want a reply to @out, and if not, why not? */
static const char *no_reply_reason(const struct config_policy *policy,
				   const struct pipeline_outcome *out)
{
	if (out->base_how == REPORT_BASE_APPLIED)
		return "not tested: the series is applied already";
	if (policy->reply == CONFIG_REPLY_NEVER)
		return "reply policy: never";
	if (out->not_tested &&
	    policy->unknown_base == CONFIG_UNKNOWN_BASE_SILENT)
		return "not tested: its base is unknown and it does not apply "
		       "at the head (unknown-base: silent)";
	if (out->not_tested)
		return NULL; /* unknown-base: author or list */
	if (policy->reply == CONFIG_REPLY_NEVER)
		return "reply policy: never";
	if (policy->reply == CONFIG_REPLY_PROBLEMS &&
	    !pipeline_outcome_has_problems(out))
		return "reply policy: problems only, and every check is ok";
	return NULL;
}

static gboolean record(const struct worker_options *o, struct store *st,
		       const struct store_job *job,
		       const struct config_policy *policy,
		       struct pipeline_outcome *out, GError **error)
{
	struct store_check checks[REPORT_N_CHECKS];
	struct store_reply reply = { 0 };
	struct store_job_result res = { 0 };
	g_autofree char *recipients = NULL;
	g_autofree char *verdict = dirstat_verdict_sentence(out->verdict);
	const char *base_how;

	for (int i = 0; i < REPORT_N_CHECKS; i++) {
		checks[i].name = report_check_name(i);
		checks[i].status = status_word(out->checks[i].status);
		checks[i].summary = out->checks[i].status ==
						    REPORT_STATUS_SKIPPED ?
					    out->checks[i].reason :
					    out->checks[i].summary;
		checks[i].detail = out->checks[i].detail;
		checks[i].seconds = out->checks[i].seconds;
	}
	base_how = report_base_name(out->base_how);
	res.tree_reason = out->tree_reason;
	res.base_commit = out->base_commit;
	res.base_how = base_how;
	res.head_commit = out->head_commit;
	res.verdict = verdict;
	res.verdict_json = out->verdict_json;
	res.dirstat = out->dirstat;
	res.similar = out->similar;
	res.checks = checks;
	res.n_checks = REPORT_N_CHECKS;
	res.no_reply_reason = no_reply_reason(policy, out);
	res.base_reason = out->base_reason;
	res.not_tested = out->not_tested;
	res.series_state = out->base_how == REPORT_BASE_APPLIED ? "applied" :
			   out->not_tested			? "not-tested" :
								  NULL;
	if (!res.no_reply_reason) {
		g_ptr_array_add(out->recipients, NULL);
		recipients = g_strjoinv(",", (char **)out->recipients->pdata);
		g_ptr_array_remove_index(out->recipients,
					 out->recipients->len - 1);
		reply.message_id = out->message_id;
		reply.list = out->list;
		reply.sender = o->config->smtp_from ? o->config->smtp_from :
						      o->config->address;
		reply.recipients = recipients;
		reply.raw = out->reply;
		reply.state = o->config->dry_run ? "held" : "pending";
		res.reply = &reply;
	}
	return store_job_finish(st, job->id, &res, error);
}

/* The tree of a series must be there: a tree with a url is added to the
 * data dir on its first series (later fetches are update_if_due()'s: a
 * series applies to the tree as last fetched); the distro tree is
 * imported when it is missing or Debian's package changed. */
static gboolean ensure_tree(const struct worker_options *o, struct store *st,
			    const char *name, const struct treefile *tf,
			    GError **error)
{
	struct treeupdate_options uo = { 0 };
	g_autoptr(GError) open_error = NULL;
	g_autoptr(kernel_tree) tree = NULL;

	uo.data_dir = o->data_dir;
	uo.st = st;
	uo.log = TRUE;
	uo.cancellable = o->cancellable;
	if (!tf || !tf->url) {
		/* another tree the pipeline does not find says so itself */
		if (strcmp(name, TREE_DISTRO_NAME))
			return TRUE;
		tree = treeupdate_distro(&uo, error);
		return tree != NULL;
	}
	tree = tree_open(o->data_dir, tf->name, &open_error);
	if (tree)
		return TRUE;
	if (!g_error_matches(open_error, TREE_ERROR, TREE_ERROR_NOT_FOUND)) {
		g_propagate_error(error, g_steal_pointer(&open_error));
		return FALSE;
	}
	tree = treeupdate_tree(&uo, tf, error);
	return tree != NULL;
}

/* The results where the community reads them: the KCIDB document
 * ([kcidb] export) and the checks on the list's patchwork (posted by the
 * outbox sender).  A failure is logged; the reply goes out regardless. */
static void publish(const struct worker_options *o, struct store *st,
		    gint64 series_id, const struct pipeline_options *popts,
		    const struct pipeline_outcome *out, const char *url)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(store_series) series = store_get_series(st, series_id, NULL);
	guint queued = 0;

	if (o->config->kcidb_export) {
		struct kcidb_input in = { 0 };

		in.subject = series ? series->subject : NULL;
		in.series_url = url;
		in.sparse_configs = popts->sparse_configs;
		in.start_time = g_get_real_time() / G_USEC_PER_SEC -
				(gint64)out->seconds;
		if (!kcidb_write(out, &in, NULL, &error))
			log_line(out->tree_name, "kcidb: %s", error->message);
		g_clear_error(&error);
	}
	if (series &&
	    !patchwork_queue(o->config, st, series, out, url, &queued, &error))
		log_line(out->tree_name, "patchwork: %s", error->message);
	else if (queued && o->outbox_bell)
		daemon_bell_ring(o->outbox_bell);
}

/* The store's hooks of a LAVA boot (qemu/runner.h): a job submitted
 * before a restart is followed, not submitted again. */
static guint64 find_boot_job(const char *key, char **server, void *data)
{
	g_autoptr(GError) error = NULL;
	guint64 id = 0;

	if (!store_boot_job_get(data, key, server, &id, &error))
		g_warning("boot job %s: %s", key, error->message);
	return id;
}

static void save_boot_job(const char *key, const char *server, guint64 id,
			  void *data)
{
	g_autoptr(GError) error = NULL;

	if (!store_boot_job_set(data, key, server, id, &error))
		g_warning("boot job %s: %s", key, error->message);
}

/* The boot runner of tree file @tf ("local" when it names none). */
static void boot_runner_of(const struct treefile *tf,
			   struct boot_runner_config *c)
{
	memset(c, 0, sizeof(*c));
	if (!tf || !tf->boot.lava)
		return;
	c->kind = BOOT_RUNNER_LAVA;
	c->lava_url = g_strdup(tf->boot.lava_url);
	c->lava_token_file = g_strdup(tf->boot.lava_token_file);
	c->lava_ca_file = g_strdup(tf->boot.lava_ca_file);
	c->lava_serve_host = g_strdup(tf->boot.lava_serve_host);
	c->lava_fallback_local = tf->boot.lava_fallback_local;
	c->lava_retries = tf->boot.lava_retries;
}

/* The stages' times of @job, for the series page and /metrics: the wait
 * in the queue until @claimed (g_get_real_time(); the store keeps when it
 * was queued in whole seconds) and the pipeline's. */
static void record_timing(struct store *st, const struct store_job *job,
			  gint64 claimed, struct pipeline_outcome *out)
{
	g_autoptr(GError) error = NULL;
	double queue = claimed / 1e6 - (double)job->queued;

	if (job->queued > 0)
		timing_add(&out->timing, TIMING_QUEUE, MAX(queue, 0));
	for (int i = 0; i < TIMING_N_STAGES; i++)
		if (out->timing.seconds[i] >= 0 &&
		    !store_timing_set(st, job->id, i, timing_stage_name(i),
				      out->timing.seconds[i], &error)) {
			/* the reply is recorded: only the page lacks it */
			log_line(job->tree,
				 "series %" G_GINT64_FORMAT
				 ": stage times not stored: %s",
				 job->series_id, error->message);
			return;
		}
}

/* The boards the job booted besides virt, for the series page and the
 * API (bot/store/boards.h). */
static void record_boards(struct store *st, const struct store_job *job,
			  const struct pipeline_outcome *out)
{
	g_autoptr(GError) error = NULL;

	for (guint i = 0; out->boards && i < out->boards->len; i++) {
		const struct pipeline_board *pb = out->boards->pdata[i];
		struct store_board b = {
			.board = pb->name,
			.status = (char *)status_word(pb->status),
			.summary = pb->summary,
			.reason = pb->reason,
			.detail = pb->detail,
			.seconds = pb->seconds,
		};

		if (!store_boards_set(st, job->id, i, &b, &error)) {
			/* the reply is recorded: only the page lacks it */
			log_line(job->tree,
				 "series %" G_GINT64_FORMAT
				 ": boards not stored: %s",
				 job->series_id, error->message);
			return;
		}
	}
}

/* worker_run_one() but for the thread of verdicts ahead, which it starts
 * (*@ahead) once the tree is there. */
static gboolean run_one(const struct worker_options *o, struct store *st,
			GHashTable *ahead_tried, struct ahead **ahead,
			gboolean *ran, GError **error)
{
	g_autoptr(GError) perr = NULL;
	g_autoptr(store_job) job = store_job_claim(st, o->tree, &perr);
	g_autofree char *url = NULL;
	struct pipeline_options popts = { 0 };
	struct early_verdict early = { 0 };
	struct pipeline_outcome out = { 0 };
	struct boot_runner_config brc = { 0 };
	g_autoptr(treeset) ts = NULL;
	const struct treefile *tf;
	const struct config_policy *policy;
	gboolean ok;
	gint64 claimed;

	*ran = FALSE;
	if (!job) {
		if (!perr)
			return TRUE;
		g_propagate_error(error, g_steal_pointer(&perr));
		return FALSE;
	}
	*ran = TRUE;
	claimed = g_get_real_time();
	if (ahead_tried)
		g_hash_table_remove(ahead_tried, &job->id);
	ts = treeset_load(o->config, st, NULL, &perr);
	if (!ts)
		log_line(job->tree, "tree files: %s (defaults apply)",
			 perr->message);
	g_clear_error(&perr);
	tf = ts ? treeset_find(ts, job->tree) : NULL;
	policy = tf ? &tf->policy : &o->config->defaults;
	log_line(job->tree, "series %" G_GINT64_FORMAT " (attempt %u)",
		 job->series_id, job->attempts);
	popts.data_dir = o->data_dir;
	popts.tree_name = job->tree;
	popts.tree_reason = job->tree_reason;
	popts.sparse = !!(policy->checks & CONFIG_CHECK_SPARSE);
	popts.boot =
		!!(policy->checks & (CONFIG_CHECK_BOOT | CONFIG_CHECK_RPM));
	popts.boards = !!(policy->checks & CONFIG_CHECK_BOARDS);
	if (tf && tf->sparse_configs && tf->sparse_configs[0])
		popts.sparse_configs = (const char *const *)tf->sparse_configs;
	if (tf && tf->icecream) {
		popts.icecc = tf->icecc;
	}
	popts.bot_name = o->config->name;
	popts.bot_address = o->config->address;
	popts.no_list = policy->reply_to == CONFIG_REPLY_TO_AUTHOR;
	popts.not_tested_no_list = policy->unknown_base !=
				   CONFIG_UNKNOWN_BASE_LIST;
	if (o->config->web_base_url) {
		url = g_strdup_printf("%s/series/%" G_GINT64_FORMAT,
				      o->config->web_base_url, job->series_id);
		popts.series_url = url;
	}
	popts.progress = on_progress;
	popts.user_data = job->tree;
	boot_runner_of(tf, &brc);
	popts.boot_runner = &brc;
	popts.find_job = find_boot_job;
	popts.save_job = save_boot_job;
	popts.job_data = st;
	early.config = o->config;
	early.st = st;
	early.job_id = job->id;
	early.series_id = job->series_id;
	early.tree = job->tree;
	early_verdict_hook(&popts, &early);
	ok = ensure_tree(o, st, job->tree, tf, &perr);
	if (ok && ahead_tried) {
		struct ahead_options ao = { o->data_dir, o->store_path,
					    o->config, o->tree };

		*ahead = ahead_start(&ao, ahead_tried);
	}
	ok = ok && pipeline_check(st, job->series_id, &popts, &out, &perr);
	boot_runner_config_clear(&brc);
	if (!ok &&
	    g_error_matches(perr, BOOT_RUNNER_ERROR, BOOT_RUNNER_ERROR_INFRA)) {
		guint delay = 0;

		/* the lab's failure, not the series': it waits for the lab
		 * (lava-fallback = none), counting no attempt */
		pipeline_outcome_clear(&out);
		if (!store_job_defer(st, job->id, perr->message,
				     o->lab_retry_s ? o->lab_retry_s : 60,
				     LAB_RETRY_MAX_S, &delay, error))
			return FALSE;
		log_line(job->tree,
			 "series %" G_GINT64_FORMAT
			 ": %s (tried again in %u s)",
			 job->series_id, perr->message, delay);
		return TRUE;
	}
	if (!ok) {
		gboolean retry = job->attempts < o->max_attempts;

		log_line(job->tree, "series %" G_GINT64_FORMAT ": %s%s",
			 job->series_id, perr->message,
			 retry ? " (will retry)" : " (giving up)");
		pipeline_outcome_clear(&out);
		return store_job_error(st, job->id, perr->message, retry,
				       error);
	}
	ok = record(o, st, job, policy, &out, error);
	if (ok)
		publish(o, st, job->series_id, &popts, &out, url);
	if (ok) {
		const char *why = no_reply_reason(policy, &out);
		g_autofree char *stages = NULL;

		record_timing(st, job, claimed, &out);
		record_boards(st, job, &out);
		stages = timing_format(&out.timing);

		log_line(job->tree,
			 "series %" G_GINT64_FORMAT ": done in %.1f s, %s%s"
			 " (%s; %.1f s of them beside each other)",
			 job->series_id, out.seconds, why ? "no reply: " : "",
			 why ? why : out.message_id, stages,
			 out.overlap_seconds);
		if (o->outbox_bell)
			daemon_bell_ring(o->outbox_bell);
	}
	pipeline_outcome_clear(&out);
	return ok;
}

gboolean worker_run_one(const struct worker_options *o, struct store *st,
			GHashTable *ahead_tried, gboolean *ran, GError **error)
{
	struct ahead *ahead = NULL;
	gboolean ok = run_one(o, st, ahead_tried, &ahead, ran, error);

	/* after the reply is recorded, before the next job or fetch */
	ahead_stop(ahead);
	return ok;
}

/* Fetch the worker's tree when its update is due, between two of its
 * series: the tree never moves under a series, and only this thread ever
 * fetches it in the daemon (bot/daemon/treeupdate.h).  Returns the seconds until
 * the next update is due, at most @max. */
static guint update_if_due(struct worker *w, struct store *st, guint max)
{
	struct treeupdate_options uo = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(treeset) ts = treeset_load(w->opts.config, st, NULL, &error);
	g_autoptr(kernel_tree) tree = NULL;
	const struct treefile *tf = ts ? treeset_find(ts, w->tree) : NULL;
	gint64 due;

	if (!tf)
		return max;
	if (!treeupdate_due_in(st, tf, g_get_real_time() / G_USEC_PER_SEC, &due,
			       &error)) {
		log_line(w->tree, "store error: %s", error->message);
		return max;
	}
	if (due != 0)
		return due < 0 ? max : MIN((gint64)max, due);
	uo.data_dir = w->opts.data_dir;
	uo.st = st;
	uo.log = TRUE;
	uo.cancellable = w->cancellable;
	/* a failure is logged and recorded, and tried again one interval
	 * later; the series go on with the branches as they were */
	tree = treeupdate_tree(&uo, tf, NULL);
	return MIN(max, tf->policy.update_interval);
}

static gpointer worker_thread(gpointer data)
{
	struct worker *w = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = NULL;

	st = store_open(w->opts.store_path, &error);
	if (!st) {
		log_line(w->tree, "cannot open the store: %s", error->message);
		goto out;
	}
	while (!g_atomic_int_get(&w->stop)) {
		gboolean ran = FALSE;
		guint wait = update_if_due(w, st, WORKER_WAIT);

		if (g_atomic_int_get(&w->stop))
			break;
		if (!worker_run_one(&w->opts, st, w->ahead_tried, &ran,
				    &error)) {
			log_line(w->tree, "store error: %s", error->message);
			g_clear_error(&error);
		}
		if (!ran && !daemon_bell_wait(w->opts.jobs_bell, MAX(wait, 1)))
			break;
	}
out:
	return NULL;
}

struct worker *worker_start(const struct worker_options *opts, GError **error)
{
	struct worker *w = g_new0(struct worker, 1);
	g_autofree char *name = NULL;

	w->opts = *opts;
	w->tree = g_strdup(opts->tree);
	w->opts.tree = w->tree;
	w->cancellable = g_cancellable_new();
	w->opts.cancellable = w->cancellable;
	w->ahead_tried = g_hash_table_new_full(g_int64_hash, g_int64_equal,
					       g_free, NULL);
	name = g_strdup_printf("worker-%s", w->tree);
	w->thread = g_thread_try_new(name, worker_thread, w, error);
	if (!w->thread) {
		g_object_unref(w->cancellable);
		g_hash_table_unref(w->ahead_tried);
		g_free(w->tree);
		g_free(w);
		return NULL;
	}
	return w;
}

void worker_stop(struct worker *w)
{
	if (!w)
		return;
	g_atomic_int_set(&w->stop, 1);
	g_cancellable_cancel(w->cancellable);
	g_thread_join(w->thread);
	g_object_unref(w->cancellable);
	g_hash_table_unref(w->ahead_tried);
	g_free(w->tree);
	g_free(w);
}
