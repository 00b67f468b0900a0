/* The outbox sender (see bot/daemon/outbox.h). */
#include "bot/daemon/outbox.h"

#include "bot/daemon/patchwork.h"

#include <string.h>

#include "bot/daemon/crashpoint.h"
#include "bot/common/log.h"
#include "bot/mail/maildir-out.h"
#include "bot/mail/smtp.h"
#include "bot/daemon/timing.h"
#include "bot/store/pipeline.h"
#include "bot/store/timing.h"
#include "config/treefile.h"

#define BACKOFF_FIRST 30
#define BACKOFF_MAX 3600
#define CAP_RETRY 300

struct outbox_sender {
	struct outbox_options opts;
	GThread *thread;
	gint stop;
};

static gint64 now_s(void)
{
	return g_get_real_time() / G_USEC_PER_SEC;
}

/* Is a message with @message_id in the maildir @dir (new/ or cur/)? */
static gboolean maildir_has(const char *dir, const char *message_id)
{
	static const char *const subdirs[] = { "new", "cur" };
	g_autofree char *needle = g_strdup_printf("<%s>", message_id);

	for (guint i = 0; i < G_N_ELEMENTS(subdirs); i++) {
		g_autofree char *path = g_build_filename(dir, subdirs[i], NULL);
		g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
		const char *name;

		while (d && (name = g_dir_read_name(d))) {
			g_autofree char *file =
				g_build_filename(path, name, NULL);
			g_autofree char *text = NULL;
			gsize len;
			char *body;

			if (!g_file_get_contents(file, &text, &len, NULL))
				continue;
			/* the headers only */
			body = strstr(text, "\n\n");
			if (body)
				*body = '\0';
			if (strstr(text, needle))
				return TRUE;
		}
	}
	return FALSE;
}

/* Replies that were being handed over when the bot died: this thread is
 * the only sender and finishes each hand-over (sent, pending or failed)
 * before it looks here again, so any reply still "sending" is from a
 * previous process. */
static gboolean settle_in_doubt(const struct outbox_options *o,
				struct store *st, GError **error)
{
	g_autoptr(GPtrArray) rows = store_outbox_in_state(st, "sending", error);
	g_autofree char *outbox = config_outbox_dir(o->config, o->data_dir);
	guint grace = o->echo_grace ? o->echo_grace : OUTBOX_ECHO_GRACE;

	if (!rows)
		return FALSE;
	for (guint i = 0; i < rows->len; i++) {
		const struct store_outbox *r = rows->pdata[i];
		gboolean echoed = FALSE;

		if (o->config->smtp_url) {
			if (!store_has_message(st, r->message_id, &echoed,
					       error))
				return FALSE;
		} else {
			echoed = maildir_has(outbox, r->message_id);
		}
		if (echoed) {
			bot_log("outbox",
				"<%s>: found delivered after a restart",
				r->message_id);
			if (!store_outbox_set(st, r->id, "sent", now_s(), 0,
					      NULL, error))
				return FALSE;
		} else if (!o->config->smtp_url ||
			   now_s() - r->handed >= grace) {
			/* a maildir delivery not there did not happen */
			bot_log("outbox",
				"<%s>: not delivered before the restart; "
				"sending again",
				r->message_id);
			if (!store_outbox_set(st, r->id, "pending", now_s(), 0,
					      "interrupted while sending",
					      error))
				return FALSE;
		}
	}
	return TRUE;
}

static void smtp_options_from(const struct armbot_config *c,
			      struct smtp_options *so)
{
	so->url = c->smtp_url;
	so->starttls = (enum smtp_starttls)c->smtp_starttls;
	so->auth_file = c->smtp_auth_file;
	so->auth_mechanism = c->smtp_auth_mechanism;
	so->ca_file = c->smtp_ca_file;
	so->timeout = c->smtp_timeout;
}

/* Hand @r over: TRUE when delivered; FALSE with @error otherwise. */
static gboolean deliver(const struct outbox_options *o,
			const struct store_outbox *r, GError **error)
{
	g_autofree char *outbox = NULL;
	g_auto(GStrv) rcpts = NULL;
	g_autoptr(GPtrArray) list = NULL;
	struct smtp_options so = SMTP_OPTIONS_INIT;

	if (!o->config->smtp_url) {
		outbox = config_outbox_dir(o->config, o->data_dir);
		return maildir_out_deliver(outbox, r->raw, NULL, error);
	}
	rcpts = g_strsplit(r->recipients, ",", -1);
	list = g_ptr_array_new();
	for (guint i = 0; rcpts[i]; i++)
		if (*rcpts[i])
			g_ptr_array_add(list, rcpts[i]);
	smtp_options_from(o->config, &so);
	return smtp_send(&so, r->sender, list, r->raw, error);
}

/* The per-list cap: may @r go now? */
static gboolean under_cap(const struct outbox_options *o, struct store *st,
			  const struct store_outbox *r, gboolean *ok,
			  GError **error)
{
	guint cap = o->config->defaults.list_cap;
	guint n;

	*ok = TRUE;
	for (guint i = 0; r->list && i < o->config->trees->len; i++) {
		const struct treefile *tf = o->config->trees->pdata[i];

		for (guint j = 0; tf->lists && tf->lists[j]; j++)
			if (!g_ascii_strcasecmp(tf->lists[j], r->list) &&
			    tf->policy.list_cap)
				cap = tf->policy.list_cap;
	}
	if (!r->list || !cap)
		return TRUE;
	if (!store_outbox_sent_since(st, r->list, now_s() - 3600, &n, error))
		return FALSE;
	*ok = n < cap;
	return TRUE;
}

/* How long until @e may go away by itself, or 0 when it will not.  SMTP
 * 4xx and a lost connection pass; a broken configuration (a certificate
 * that does not verify, AUTH refused) needs the operator, so it is tried
 * again only hourly, but the reply is kept; a maildir that cannot be
 * written (a full disk) may be writable later. */
static gint64 retry_after(const struct outbox_options *o, const GError *e,
			  guint attempts)
{
	if (o->config->smtp_url &&
	    g_error_matches(e, SMTP_ERROR, SMTP_ERROR_PERMANENT))
		return 0;
	if (g_error_matches(e, SMTP_ERROR, SMTP_ERROR_CONFIG))
		return BACKOFF_MAX;
	return MIN((gint64)BACKOFF_FIRST << MIN(attempts, 7u), BACKOFF_MAX);
}

gboolean outbox_run_once(const struct outbox_options *o, struct store *st,
			 guint *sent, GError **error)
{
	*sent = 0;
	if (!settle_in_doubt(o, st, error))
		return FALSE;
	for (;;) {
		g_autoptr(GError) serr = NULL;
		g_autoptr(store_outbox)
			r = store_outbox_next(st, now_s(), &serr);
		gboolean may;
		gint64 wait, t0;

		if (!r) {
			if (!serr)
				return TRUE;
			g_propagate_error(error, g_steal_pointer(&serr));
			return FALSE;
		}
		if (!under_cap(o, st, r, &may, error))
			return FALSE;
		if (!may) {
			bot_log("outbox",
				"<%s>: %s has had its replies for this hour; "
				"later",
				r->message_id, r->list);
			if (!store_outbox_set(st, r->id, "pending", now_s(),
					      now_s() + CAP_RETRY, NULL, error))
				return FALSE;
			continue;
		}
		/* committed before the transaction starts: a crash from here
		 * on leaves it in doubt, never silently pending */
		if (!store_outbox_set(st, r->id, "sending", now_s(), 0, NULL,
				      error))
			return FALSE;
		t0 = g_get_monotonic_time();
		if (deliver(o, r, &serr)) {
			double secs = (g_get_monotonic_time() - t0) / 1e6;
			g_autoptr(GError) terr = NULL;

			crashpoint("sent");
			bot_log("outbox", "<%s>: sent to %s in %.1f s",
				r->message_id, r->recipients, secs);
			/* sent: a time that cannot be stored is only
			 * missing from the page */
			if (r->job_id &&
			    !store_timing_set(st, r->job_id, TIMING_SMTP,
					      timing_stage_name(TIMING_SMTP),
					      secs, &terr))
				bot_log("outbox",
					"<%s>: SMTP time not stored: %s",
					r->message_id, terr->message);
			if (!store_outbox_set(st, r->id, "sent", now_s(), 0,
					      NULL, error))
				return FALSE;
			(*sent)++;
		} else if ((wait = retry_after(o, serr, r->attempts))) {
			bot_log("outbox",
				"<%s>: %s; again in %" G_GINT64_FORMAT " s",
				r->message_id, serr->message, wait);
			if (!store_outbox_set(st, r->id, "pending", now_s(),
					      now_s() + wait, serr->message,
					      error))
				return FALSE;
			/* the server is down: the others would fail too */
			return TRUE;
		} else {
			bot_log("outbox", "<%s>: %s; given up", r->message_id,
				serr->message);
			if (!store_outbox_set(st, r->id, "failed", now_s(), 0,
					      serr->message, error))
				return FALSE;
		}
	}
}

static gpointer outbox_thread(gpointer data)
{
	struct outbox_sender *s = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = store_open(s->opts.store_path, &error);

	if (!st) {
		bot_log("outbox", "cannot open the store: %s", error->message);
		return NULL;
	}
	while (!g_atomic_int_get(&s->stop)) {
		guint sent;

		if (!outbox_run_once(&s->opts, st, &sent, &error)) {
			bot_log("outbox", "store error: %s", error->message);
			g_clear_error(&error);
		}
		/* after the replies: patchwork never holds one up */
		if (!patchwork_post_due(s->opts.config, st, &sent, &error)) {
			bot_log("patchwork", "store error: %s", error->message);
			g_clear_error(&error);
		}
		if (!daemon_bell_wait(s->opts.bell, 5))
			break;
	}
	return NULL;
}

struct outbox_sender *outbox_start(const struct outbox_options *opts,
				   GError **error)
{
	struct outbox_sender *s = g_new0(struct outbox_sender, 1);

	s->opts = *opts;
	s->thread = g_thread_try_new("outbox", outbox_thread, s, error);
	if (!s->thread) {
		g_free(s);
		return NULL;
	}
	return s;
}

void outbox_stop(struct outbox_sender *s)
{
	if (!s)
		return;
	g_atomic_int_set(&s->stop, 1);
	g_thread_join(s->thread);
	g_free(s);
}
