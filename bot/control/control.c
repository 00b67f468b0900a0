/* Mail to the bot: opt-in by mail and list subscription confirmations
 * (see bot/control/control.h). */
#include "bot/control/control.h"

#include <string.h>

#include "bot/common/log.h"
#include "bot/mail/compose.h"
#include "bot/control/optin.h"
#include "bot/store/lists.h"
#include "bot/store/pipeline.h"
#include "bot/control/subscription.h"
#include "kernel/tree/tree.h"
#include "mailparse/message.h"

static gint64 now_of(const struct control_options *o)
{
	return o->now ? o->now : g_get_real_time() / G_USEC_PER_SEC;
}

/* The distro tree's MAINTAINERS, parsed once per head commit: the daemon
 * handles a few mails a day but the file is 700 kB. */
static GMutex cache_lock;
static struct maintainers *cache_maintainers;
static struct gitoid cache_head;

static const struct maintainers *distro_maintainers(const char *data_dir,
						    GError **error)
{
	g_autoptr(kernel_tree)
		tree = tree_open(data_dir, TREE_DISTRO_NAME, error);
	struct gitoid head;

	if (!tree || !tree_head(tree, &head, error))
		return NULL;
	if (cache_maintainers && gitoid_equal(&head, &cache_head))
		return cache_maintainers;
	g_clear_pointer(&cache_maintainers, maintainers_free);
	cache_maintainers = maintainers_load_git(tree->repo, &head, error);
	if (cache_maintainers)
		cache_head = head;
	return cache_maintainers;
}

static gboolean is_bot(const struct armbot_config *c, const char *address)
{
	return address &&
	       (!g_ascii_strcasecmp(address, c->address) ||
		(c->smtp_from && !g_ascii_strcasecmp(address, c->smtp_from)));
}

static gboolean addressed_to_bot(const struct armbot_config *c,
				 const struct message *msg)
{
	for (guint i = 0; msg->to && i < msg->to->len; i++)
		if (!g_ascii_strcasecmp(msg->to->pdata[i], c->address))
			return TRUE;
	return FALSE;
}

/* RFC 3834 5.1 and 2: mail that no automatic responder answers. */
static gboolean is_automatic(const struct message *msg)
{
	const char *auto_submitted = message_header(msg, "Auto-Submitted");
	const char *precedence = message_header(msg, "Precedence");
	g_autofree char *a =
		g_strstrip(g_strdup(auto_submitted ? auto_submitted : "no"));
	g_autofree char *p = g_strstrip(g_strdup(precedence ? precedence : ""));

	return g_ascii_strncasecmp(a, "no", 2) ||
	       !g_ascii_strcasecmp(p, "bulk") ||
	       !g_ascii_strcasecmp(p, "junk") || !g_ascii_strcasecmp(p, "list");
}

/* Queue @raw as mail @message_id to @to. */
static gboolean queue(struct store *st, const struct control_options *o,
		      const char *kind, const char *message_id, const char *to,
		      GBytes *raw, gboolean *added, GError **error)
{
	const struct armbot_config *c = o->config;
	struct store_reply mail = {
		.message_id = message_id,
		.list = NULL,
		.sender = c->smtp_from ? c->smtp_from : c->address,
		.recipients = to,
		.raw = raw,
		.state = c->dry_run ? "held" : NULL,
	};

	return store_outbox_add(st, kind, &mail, added, error);
}

/* The bot's automatic answer @id (RFC 3834) to @msg, dated @date, in
 * reply to @in_reply_to when that is a usable Message-ID: the caller adds
 * the recipient and the subject. */
static struct mail_compose answer(const struct control_options *o,
				  const struct message *msg, const char *id,
				  const char *in_reply_to, gint64 date)
{
	const struct armbot_config *c = o->config;

	return (struct mail_compose){
		.from_name = c->name,
		.from_address = c->address,
		.date = date,
		.message_id = id,
		.in_reply_to =
			mail_compose_token_ok(in_reply_to) ? in_reply_to : NULL,
		.references = msg->references,
		.auto_submitted = MAIL_COMPOSE_AUTO_REPLIED,
	};
}

/* --- list confirmations --------------------------------------------- */

/* Decide on @conf (a mail that looks like a list's confirmation request)
 * inside the caller's transaction: queue the answer or say why not in
 * *@what. */
static gboolean
handle_confirmation(struct store *st, const struct control_options *o,
		    const struct message *msg,
		    const struct subscription_confirmation *conf, guint *queued,
		    char **what, GError **error)
{
	const struct armbot_config *c = o->config;
	g_autoptr(store_list) l = NULL;
	g_autofree char *key = NULL;
	g_autofree char *id = NULL;
	g_autofree char *came_by = NULL;
	g_autoptr(GBytes) raw = NULL;
	g_autoptr(GError) local = NULL;
	gboolean join, fresh, added;
	gint64 now = now_of(o);
	struct mail_compose m;

	if (!conf->list) {
		*what = g_strdup_printf("ignored: a list confirmation from "
					"%s, which is no list's request or "
					"confirm address",
					msg->from_email);
		return TRUE;
	}
	if (!store_list_get(st, conf->list, &l, error))
		return FALSE;
	if (!l) {
		*what = g_strdup_printf("ignored: a confirmation from %s, "
					"but armbot asked %s for nothing",
					msg->from_email, conf->list);
		return TRUE;
	}
	if (conf->problem) {
		*what = g_strdup_printf("ignored: a confirmation from %s: %s",
					msg->from_email, conf->problem);
		return TRUE;
	}
	if (strcmp(l->state, "subscribe-pending") &&
	    strcmp(l->state, "unsubscribe-pending")) {
		*what = g_strdup_printf("ignored: a confirmation from %s "
					"(token %s), but no request to %s is "
					"pending (%s)",
					msg->from_email, conf->token,
					conf->list, l->state);
		return TRUE;
	}
	join = !strcmp(l->state, "subscribe-pending");
	if ((join && conf->asks == SUBSCRIPTION_ASKS_LEAVE) ||
	    (!join && conf->asks == SUBSCRIPTION_ASKS_JOIN)) {
		*what = g_strdup_printf("ignored: the confirmation from %s "
					"asks to %s %s, armbot asked to %s",
					msg->from_email,
					join ? "leave" : "join", conf->list,
					join ? "join" : "leave");
		return TRUE;
	}
	if (!store_list_token_use(st, conf->list, conf->token, now, &fresh,
				  error))
		return FALSE;
	if (!fresh) {
		*what = g_strdup_printf("ignored: the confirmation from %s "
					"replays token %s, answered before",
					msg->from_email, conf->token);
		return TRUE;
	}
	key = g_strdup_printf("%s\n%s", conf->list, conf->token);
	id = mail_compose_message_id("confirm", key, c->address);
	m = answer(o, msg, id, msg->message_id, now);
	m.to_address = conf->reply_to;
	m.subject = conf->reply_subject;
	/* Mailman reads commands from the subject, the body and (Mailman
	 * 3, 2.1 with VERP) the address: the body stays empty so that
	 * nothing is read twice.  Its CommandRunner drops a command mail
	 * with Precedence bulk, junk or list (never written here) and does
	 * not read Auto-Submitted */
	raw = mail_compose(&m, "", &local);
	if (!raw) {
		*what = g_strdup_printf("ignored: cannot answer %s: %s",
					msg->from_email, local->message);
		return TRUE;
	}
	if (!queue(st, o, "subscribe", id, conf->reply_to, raw, &added,
		   error) ||
	    (!o->source &&
	     !store_list_message_source(st, msg->message_id, &came_by, error)))
		return FALSE;
	if (o->source)
		came_by = g_strdup(o->source);
	g_free(l->state);
	l->state = g_strdup(join ? "subscribed" : "unsubscribed");
	l->confirmed = now;
	g_free(l->confirm_source);
	l->confirm_source = g_steal_pointer(&came_by);
	l->updated = now;
	if (!store_list_put(st, l, error))
		return FALSE;
	if (added && queued)
		(*queued)++;
	*what = g_strdup_printf("%s: confirmed to %s (token %s); %s",
				conf->list, conf->reply_to, conf->token,
				l->state);
	return TRUE;
}

/* --- opt-in --------------------------------------------------------- */

static gboolean handle_optin(struct store *st, const struct control_options *o,
			     const struct message *msg, guint *queued,
			     char **what, GError **error)
{
	const struct armbot_config *c = o->config;
	g_autoptr(GError) local = NULL;
	g_autofree char *id = NULL;
	g_autofree char *body = NULL;
	g_autoptr(GBytes) raw = NULL;
	struct optin_context ctx = { 0 };
	struct optin_reply reply;
	struct mail_compose m;
	const char *env = g_getenv("ARMBOT_OPTIN_TOKEN_LIFETIME");
	gboolean added;

	ctx.store = st;
	ctx.config = c;
	ctx.now = o->now;
	ctx.token_lifetime = o->token_lifetime;
	if (!ctx.token_lifetime && env)
		ctx.token_lifetime = g_ascii_strtoll(env, NULL, 10);
	ctx.maintainers = o->maintainers;
	if (!ctx.maintainers) {
		g_mutex_lock(&cache_lock);
		ctx.maintainers = distro_maintainers(o->data_dir, &local);
		if (!ctx.maintainers)
			bot_log("control",
				"no MAINTAINERS to check senders against: %s",
				local->message);
	}
	if (!optin_handle(&ctx, msg, &reply, error)) {
		if (!o->maintainers)
			g_mutex_unlock(&cache_lock);
		return FALSE;
	}
	if (!o->maintainers)
		g_mutex_unlock(&cache_lock);
	if (reply.outcome == OPTIN_NOT_FOR_US) {
		*what = g_strdup("not a request");
		return TRUE;
	}
	if (reply.outcome == OPTIN_LIMITED) {
		/* not answered: an answer is what the limit is against */
		bot_log("control", "%s: %s, not answered",
			msg->message_id ? msg->message_id : "(no Message-ID)",
			reply.reason);
		*what = g_strdup(reply.reason);
		optin_reply_clear(&reply);
		return TRUE;
	}
	id = mail_compose_message_id("optin", msg->message_id, c->address);
	body = g_strdup_printf("%s\n-- \n%s\n", reply.body,
			       c->name && *c->name ? c->name : "armbot");
	m = answer(o, msg, id, reply.in_reply_to, now_of(o));
	m.to_name = msg->from_name;
	m.to_address = reply.to;
	m.subject = reply.subject;
	raw = mail_compose(&m, body, &local);
	if (!raw) {
		*what = g_strdup_printf("%s (%s); cannot answer: %s",
					optin_outcome_name(reply.outcome),
					reply.reason, local->message);
		optin_reply_clear(&reply);
		return TRUE;
	}
	if (!queue(st, o, "optin", id, reply.to, raw, &added, error)) {
		optin_reply_clear(&reply);
		return FALSE;
	}
	if (added && queued)
		(*queued)++;
	*what = g_strdup_printf("%s: %s; answered %s",
				optin_outcome_name(reply.outcome), reply.reason,
				reply.to);
	optin_reply_clear(&reply);
	return TRUE;
}

gboolean control_handle_message(struct store *st,
				const struct control_options *o,
				const char *message_id, guint *queued,
				GError **error)
{
	const struct armbot_config *c = o->config;
	g_autoptr(GBytes) raw = NULL;
	g_autoptr(message) msg = NULL;
	g_autofree char *what = NULL;
	struct subscription_confirmation conf;
	gboolean done;

	if (!store_control_done(st, message_id, &done, error))
		return FALSE;
	if (done)
		return TRUE;
	raw = store_message_raw(st, message_id, error);
	if (!raw)
		return FALSE;
	msg = message_parse(raw, error);
	if (!msg)
		return FALSE;
	if (is_bot(c, msg->from_email) || !addressed_to_bot(c, msg))
		return TRUE;

	if (subscription_confirmation_parse(msg, &conf)) {
		/* the decision, the answer and the state in one
		 * transaction: a crash leaves the mail unhandled or
		 * handled, never answered twice */
		if (!store_begin(st, error))
			goto fail;
		if (!handle_confirmation(st, o, msg, &conf, queued, &what,
					 error) ||
		    !store_control_mark(st, message_id, what, now_of(o),
					error) ||
		    !store_commit(st, error)) {
			store_rollback(st);
			goto fail;
		}
		subscription_confirmation_clear(&conf);
	} else if (is_automatic(msg)) {
		what = g_strdup("ignored: an automatic mail (RFC 3834)");
		if (!store_control_mark(st, message_id, what, now_of(o), error))
			return FALSE;
	} else {
		if (!handle_optin(st, o, msg, queued, &what, error) ||
		    !store_control_mark(st, message_id, what, now_of(o), error))
			return FALSE;
	}
	bot_log("control", "<%s> from %s: %s", message_id, msg->from_email,
		what);
	return TRUE;
fail:
	subscription_confirmation_clear(&conf);
	return FALSE;
}

guint control_handle_batch(struct store *st, const struct armbot_config *config,
			   const char *data_dir,
			   const struct source_batch *batch)
{
	GPtrArray *new_ids = batch->new_ids;
	struct control_options o = { 0 };
	guint queued = 0;

	o.config = config;
	o.data_dir = data_dir;
	o.source = batch->url;
	for (guint i = 0; new_ids && i < new_ids->len; i++) {
		g_autoptr(GError) error = NULL;

		if (!control_handle_message(st, &o, new_ids->pdata[i], &queued,
					    &error))
			bot_log("control", "<%s>: %s (left unhandled)",
				(char *)new_ids->pdata[i], error->message);
	}
	return queued;
}

guint control_handle_recent(struct store *st,
			    const struct armbot_config *config,
			    const char *data_dir, gint64 since)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) ids = store_message_ids_since(st, since, &error);
	struct control_options o = { 0 };
	guint queued = 0;

	if (!ids) {
		bot_log("control", "cannot list the recent messages: %s",
			error->message);
		return 0;
	}
	o.config = config;
	o.data_dir = data_dir;
	for (guint i = 0; i < ids->len; i++) {
		g_clear_error(&error);
		/* it leaves what was handled (control_done) alone */
		if (!control_handle_message(st, &o, ids->pdata[i], &queued,
					    &error))
			bot_log("control", "<%s>: %s (left unhandled)",
				(char *)ids->pdata[i], error->message);
	}
	return queued;
}
