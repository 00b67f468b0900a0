/* Unit tests for bot/store/pipeline.c: the job and outbox state machine
 * that makes `armbot run` safe to kill at any moment. */
#include <glib/gstdio.h>
#include <string.h>

#include "bot/store/boards.h"
#include "bot/store/db.h"
#include "bot/store/store.h"
#include "bot/store/pipeline.h"
#include "tests/unit/scratch-store.h"

static void setup(struct scratch_store *f, gconstpointer data)
{
	scratch_store_setup(f, "armbot-store-pipeline-XXXXXX");
	/* series rows as the assembler leaves them */
	g_assert_cmpint(
		sqlite3_exec(store_db(f->st),
			     "INSERT INTO series (id, state, version,"
			     " version_minor, total, received, rfc, subject,"
			     " author, first_date, last_activity, updated)"
			     " VALUES (1, 'ready', 1, 0, 1, 1, 0, 'one',"
			     " 'A <a@x>', 1, 1, 1), (2, 'ready', 1, 0, 1, 1,"
			     " 0, 'two', 'B <b@x>', 2, 2, 2);",
			     NULL, NULL, NULL),
		==, SQLITE_OK);
}

static const char *series_state(struct scratch_store *f, gint64 id)
{
	static char state[32];
	g_autoptr(GError) error = NULL;
	g_autoptr(store_series) s = store_get_series(f->st, id, &error);

	g_assert_no_error(error);
	g_strlcpy(state, s->state, sizeof(state));
	return state;
}

/* One job per series and tree, ever; claims go oldest first. */
static void test_queue_and_claim(struct scratch_store *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(store_job) a = NULL;
	g_autoptr(store_job) b = NULL;
	g_autoptr(store_job) none = NULL;
	gboolean added;

	g_assert_true(
		store_job_add(f->st, 1, "t", "why", NULL, &added, &error));
	g_assert_true(added);
	g_assert_true(
		store_job_add(f->st, 1, "t", "why", NULL, &added, &error));
	g_assert_false(added);
	g_assert_true(
		store_job_add(f->st, 2, "t", "why", NULL, &added, &error));
	a = store_job_claim(f->st, "t", &error);
	g_assert_no_error(error);
	g_assert_cmpint(a->series_id, ==, 1);
	g_assert_cmpuint(a->attempts, ==, 1);
	g_assert_cmpstr(series_state(f, 1), ==, "checking");
	b = store_job_claim(f->st, "other", &error);
	g_assert_null(b);
	g_assert_no_error(error);
	b = store_job_claim(f->st, NULL, &error);
	g_assert_cmpint(b->series_id, ==, 2);
	none = store_job_claim(f->st, NULL, &error);
	g_assert_null(none);
	g_assert_no_error(error);
}

/* A restart requeues running jobs, and gives up on one that has been
 * running when the bot died too often. */
static void test_recover(struct scratch_store *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	guint requeued, failed;
	gboolean added;

	g_assert_true(store_job_add(f->st, 1, "t", NULL, NULL, &added, &error));
	for (int i = 0; i < 2; i++) {
		g_autoptr(store_job) j = store_job_claim(f->st, "t", &error);

		g_assert_nonnull(j);
		g_assert_true(store_job_recover(f->st, 3, &requeued, &failed,
						&error));
		g_assert_cmpuint(requeued, ==, 1);
		g_assert_cmpuint(failed, ==, 0);
	}
	{
		g_autoptr(store_job) j = store_job_claim(f->st, "t", &error);
		g_autoptr(GPtrArray) jobs = NULL;

		g_assert_cmpuint(j->attempts, ==, 3);
		g_assert_true(store_job_recover(f->st, 3, &requeued, &failed,
						&error));
		g_assert_cmpuint(requeued, ==, 0);
		g_assert_cmpuint(failed, ==, 1);
		jobs = store_jobs_of_series(f->st, 1, &error);
		g_assert_cmpstr(((struct store_job *)jobs->pdata[0])->state, ==,
				"failed");
	}
}

/* A series superseded while its job waited is not checked. */
static void test_superseded_while_queued(struct scratch_store *f,
					 gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(store_job) j = NULL;
	g_autoptr(GPtrArray) jobs = NULL;
	gboolean added;

	g_assert_true(store_job_add(f->st, 1, "t", NULL, NULL, &added, &error));
	g_assert_true(store_series_set_state(f->st, 1, "superseded", &error));
	j = store_job_claim(f->st, "t", &error);
	g_assert_null(j);
	g_assert_no_error(error);
	jobs = store_jobs_of_series(f->st, 1, &error);
	g_assert_cmpstr(((struct store_job *)jobs->pdata[0])->state, ==,
			"ignored");
	g_assert_nonnull(strstr(((struct store_job *)jobs->pdata[0])->reason,
				"superseded"));
}

/* The verdict of a job read from the store ("" when NULL). */
static char *job_verdict(struct scratch_store *f, gint64 id)
{
	sqlite3_stmt *s;
	char *v;

	g_assert_cmpint(sqlite3_prepare_v2(store_db(f->st),
					   "SELECT verdict FROM jobs"
					   " WHERE id = ?1",
					   -1, &s, NULL),
			==, SQLITE_OK);
	sqlite3_bind_int64(s, 1, id);
	g_assert_cmpint(sqlite3_step(s), ==, SQLITE_ROW);
	v = g_strdup(sqlite3_column_text(s, 0) ?
			     (const char *)sqlite3_column_text(s, 0) :
			     "");
	sqlite3_finalize(s);
	return v;
}

/* Verdicts ahead of the queue (bot/daemon/ahead.h): the queued jobs of a
 * tree without a verdict, in claim order; a queued job takes an early
 * verdict and leaves that list; a superseded series' job is not listed
 * and loses the verdict when set aside; a done job's verdict is not
 * overwritten by an early one. */
static void test_waiting_and_early_verdict(struct scratch_store *f,
					   gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) w = NULL;
	g_autoptr(store_job) a = NULL;
	g_autoptr(store_job) none = NULL;
	g_autofree char *v = NULL;
	struct store_job_result res = { 0 };
	struct store_job_result fin = { 0 };
	gboolean added;

	g_assert_true(store_job_add(f->st, 1, "t", NULL, NULL, &added, &error));
	g_assert_true(store_job_add(f->st, 2, "t", NULL, NULL, &added, &error));
	g_assert_true(
		store_job_add(f->st, 2, "u", NULL, "policy", &added, &error));
	w = store_jobs_waiting(f->st, "t", 0, 16, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(w->len, ==, 2);
	g_assert_cmpint(((struct store_job *)w->pdata[0])->series_id, ==, 1);
	g_assert_cmpint(((struct store_job *)w->pdata[1])->series_id, ==, 2);
	g_clear_pointer(&w, g_ptr_array_unref);
	w = store_jobs_waiting(f->st, "t", 0, 1, &error);
	g_assert_cmpuint(w->len, ==, 1);
	g_clear_pointer(&w, g_ptr_array_unref);
	/* the next page: the second job */
	w = store_jobs_waiting(f->st, "t", 1, 1, &error);
	g_assert_cmpuint(w->len, ==, 1);
	g_assert_cmpint(((struct store_job *)w->pdata[0])->series_id, ==, 2);
	g_clear_pointer(&w, g_ptr_array_unref);
	w = store_jobs_waiting(f->st, "u", 0, 16, &error);
	g_assert_cmpuint(w->len, ==, 0); /* ignored, not queued */
	g_clear_pointer(&w, g_ptr_array_unref);

	/* job 2 (series 2 on t) gets its verdict while queued */
	res.base_commit = "b";
	res.head_commit = "h";
	res.verdict = "grows arch/arm";
	g_assert_true(store_job_early_verdict(f->st, 2, &res, &error));
	v = job_verdict(f, 2);
	g_assert_cmpstr(v, ==, "grows arch/arm");
	g_clear_pointer(&v, g_free);
	w = store_jobs_waiting(f->st, "t", 0, 16, &error);
	g_assert_cmpuint(w->len, ==, 1);
	g_assert_cmpint(((struct store_job *)w->pdata[0])->series_id, ==, 1);
	g_clear_pointer(&w, g_ptr_array_unref);

	/* job 1 runs and is done: a late early verdict changes nothing */
	a = store_job_claim(f->st, "t", &error);
	g_assert_cmpint(a->id, ==, 1);
	fin.verdict = "shrinks arch/arm";
	g_assert_true(store_job_finish(f->st, 1, &fin, &error));
	g_assert_no_error(error);
	g_assert_true(store_job_early_verdict(f->st, 1, &res, &error));
	v = job_verdict(f, 1);
	g_assert_cmpstr(v, ==, "shrinks arch/arm");
	g_clear_pointer(&v, g_free);

	/* series 2 superseded while queued: not listed, set aside without
	 * its provisional verdict */
	g_assert_true(store_series_set_state(f->st, 2, "superseded", &error));
	g_assert_true(
		store_job_add(f->st, 1, "t2", NULL, NULL, &added, &error));
	w = store_jobs_waiting(f->st, "t", 0, 16, &error);
	g_assert_cmpuint(w->len, ==, 0);
	none = store_job_claim(f->st, "t", &error);
	g_assert_null(none);
	g_assert_no_error(error);
	v = job_verdict(f, 2);
	g_assert_cmpstr(v, ==, "");
}

/* Finishing a job queues its reply in the same transaction; the reply goes
 * pending -> sending -> sent, and a temporary failure waits. */
static void test_finish_and_outbox(struct scratch_store *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(store_job) j = NULL;
	g_autoptr(GBytes) raw = g_bytes_new_static("Subject: x\n\nbody\n", 17);
	struct store_check checks[] = {
		{ "apply", "ok", "1/1 patches", NULL, 0.1 },
	};
	struct store_reply reply = { "r@x",	   "list@x", "bot@x",
				     "a@x,list@x", raw,	     "pending" };
	struct store_job_result res = { 0 };
	gboolean added;
	guint n;

	g_assert_true(store_job_add(f->st, 1, "t", NULL, NULL, &added, &error));
	j = store_job_claim(f->st, "t", &error);
	res.checks = checks;
	res.n_checks = 1;
	res.reply = &reply;
	g_assert_true(store_job_finish(f->st, j->id, &res, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(series_state(f, 1), ==, "reported");
	{
		g_autoptr(store_outbox)
			o = store_outbox_next(f->st, 100, &error);
		g_autoptr(store_outbox) later = NULL;
		g_autoptr(GPtrArray) doubt = NULL;

		g_assert_nonnull(o);
		g_assert_true(g_bytes_equal(o->raw, raw));
		g_assert_true(store_outbox_set(f->st, o->id, "sending", 100, 0,
					       NULL, &error));
		doubt = store_outbox_in_state(f->st, "sending", &error);
		g_assert_cmpuint(doubt->len, ==, 1);
		g_assert_cmpuint(
			((struct store_outbox *)doubt->pdata[0])->attempts, ==,
			1);
		g_assert_true(store_outbox_set(f->st, o->id, "pending", 100,
					       130, "down", &error));
		later = store_outbox_next(f->st, 120, &error);
		g_assert_null(later);
		later = store_outbox_next(f->st, 130, &error);
		g_assert_nonnull(later);
		g_assert_cmpstr(later->last_error, ==, "down");
		g_assert_true(store_outbox_set(
			f->st, o->id, "sent",
			g_get_real_time() / G_USEC_PER_SEC, 0, NULL, &error));
	}
	g_assert_true(store_outbox_sent_since(f->st, "list@x", 0, &n, &error));
	g_assert_cmpuint(n, ==, 1);
	/* the same Message-ID is never queued twice */
	g_assert_true(store_outbox_add(f->st, "optin", &reply, &added, &error));
	g_assert_false(added);
}

/* The boards a job booted (bot/store/boards.h): in the reply's order,
 * a row set again replaced, none for another job. */
static void test_boards(struct scratch_store *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(store_job) j = NULL;
	g_autoptr(GPtrArray) got = NULL;
	g_autoptr(GPtrArray) none = NULL;
	const struct store_board vexpress = {
		.board = (char *)"vexpress-a9",
		.status = (char *)"fail",
		.summary = (char *)"no userspace",
		.reason = (char *)"touches arch/arm/boot/dts/"
				  "vexpress-v2p-ca9.dts → vexpress-a9",
		.detail = (char *)"Board vexpress-a9: no userspace\n| x\n",
		.seconds = 38.5,
	};
	struct store_board sabre = {
		.board = (char *)"sabrelite",
		.status = (char *)"ok",
		.summary = (char *)"userspace at 1.00 s",
		.reason = (char *)"touches arch/arm/mach-imx/ → sabrelite",
	};
	gboolean added;

	g_assert_true(store_job_add(f->st, 1, "t", NULL, NULL, &added, &error));
	j = store_job_claim(f->st, "t", &error);
	g_assert_nonnull(j);
	g_assert_true(store_boards_set(f->st, j->id, 1, &sabre, &error));
	g_assert_true(store_boards_set(f->st, j->id, 0, &vexpress, &error));
	/* the job ran again: the row is replaced */
	sabre.status = (char *)"skipped";
	sabre.summary = (char *)"not booted here: not tried yet";
	g_assert_true(store_boards_set(f->st, j->id, 1, &sabre, &error));
	g_assert_no_error(error);
	got = store_boards_job(f->st, j->id, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(got->len, ==, 2);
	{
		const struct store_board *a = got->pdata[0], *b = got->pdata[1];

		g_assert_cmpstr(a->board, ==, "vexpress-a9");
		g_assert_cmpstr(a->status, ==, "fail");
		g_assert_cmpstr(a->reason, ==, vexpress.reason);
		g_assert_cmpstr(a->detail, ==, vexpress.detail);
		g_assert_cmpfloat(a->seconds, ==, 38.5);
		g_assert_cmpstr(b->board, ==, "sabrelite");
		g_assert_cmpstr(b->status, ==, "skipped");
		g_assert_cmpstr(b->summary, ==, sabre.summary);
		g_assert_null(b->detail);
	}
	none = store_boards_job(f->st, j->id + 1, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(none->len, ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/store-pipeline/queue-and-claim", struct scratch_store,
		   NULL, setup, test_queue_and_claim, scratch_store_teardown);
	g_test_add("/store-pipeline/recover", struct scratch_store, NULL, setup,
		   test_recover, scratch_store_teardown);
	g_test_add("/store-pipeline/boards", struct scratch_store, NULL, setup,
		   test_boards, scratch_store_teardown);
	g_test_add("/store-pipeline/superseded-while-queued",
		   struct scratch_store, NULL, setup,
		   test_superseded_while_queued, scratch_store_teardown);
	g_test_add("/store-pipeline/waiting-and-early-verdict",
		   struct scratch_store, NULL, setup,
		   test_waiting_and_early_verdict, scratch_store_teardown);
	g_test_add("/store-pipeline/finish-and-outbox", struct scratch_store,
		   NULL, setup, test_finish_and_outbox, scratch_store_teardown);
	return g_test_run();
}
