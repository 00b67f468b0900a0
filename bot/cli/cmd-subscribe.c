/* armbot subscribe LIST-ADDRESS [--via mailman2|mailman3]
 * armbot unsubscribe LIST-ADDRESS [--via ...]
 *
 * Queue the bot's request to join or leave a Mailman list in the outbox
 * (armbot run sends it, with the rest of its mail) and record it as
 * pending; the list's confirmation is answered by the daemon when it
 * arrives through one of the sources (bot/control/control.h, bot/control/subscription.h). */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "bot/mail/compose.h"
#include "bot/store/lists.h"
#include "bot/store/pipeline.h"
#include "bot/store/store.h"
#include "bot/control/subscription.h"
#include "config/config.h"

static int request(struct armbot_context *ctx, int argc, char **argv,
		   gboolean join)
{
	const char *name = join ? "subscribe" : "unsubscribe";
	g_autofree char *file = NULL;
	g_autofree char *via_name = NULL;
	GOptionEntry options[] = {
		COMMAND_OPTION_CONFIG(file),
		{ "via", 0, 0, G_OPTION_ARG_STRING, &via_name,
		  "the list manager: mailman2 (LIST-request, the default for "
		  "a new list) or mailman3 (LIST-join, LIST-leave)",
		  "KIND" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(armbot_config) config = NULL;
	g_autoptr(store) st = NULL;
	g_autoptr(store_list) old = NULL;
	g_autoptr(GBytes) raw = NULL;
	g_autofree char *local = NULL;
	g_autofree char *host = NULL;
	g_autofree char *list = NULL;
	g_autofree char *key = NULL;
	g_autofree char *id = NULL;
	struct subscription_request req = { 0 };
	struct store_list l = { 0 };
	struct store_reply mail = { 0 };
	struct mail_compose m = { 0 };
	enum subscription_via via = SUBSCRIPTION_MAILMAN2;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	gboolean added;

	if (!command_parse_options(
		    name, "LIST-ADDRESS",
		    join ? "Ask a Mailman list to subscribe the bot's address: "
			   "the request is queued in the outbox and 'armbot "
			   "run' answers the list's confirmation." :
			   "Ask a Mailman list to unsubscribe the bot's "
			   "address, confirmed the same way.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 2) {
		fprintf(stderr, "error: %s needs LIST-ADDRESS\n", name);
		return COMMAND_USAGE_ERROR;
	}
	if (via_name && !subscription_via_parse(via_name, &via)) {
		fprintf(stderr,
			"error: --via takes mailman2 or mailman3, not "
			"'%s'\n",
			via_name);
		return COMMAND_USAGE_ERROR;
	}
	if (!subscription_list_parse(argv[1], &local, &host, &error) ||
	    !(config = command_config(file, NULL, &error)) ||
	    !(st = command_store(ctx, &error)))
		return command_fail(error);
	list = g_strdup_printf("%s@%s", local, host);
	if (!store_list_get(st, list, &old, &error))
		return command_fail(error);
	/* leaving goes the way joining went, unless told otherwise */
	if (old && !via_name)
		subscription_via_parse(old->via, &via);

	subscription_request_make(local, host, via, join, &req);
	key = g_strdup_printf("%s\n%s\n%" G_GINT64_FORMAT, list, name, now);
	id = mail_compose_message_id(name, key, config->address);
	m.from_name = config->name;
	m.from_address = config->address;
	m.to_address = req.to;
	m.subject = req.subject;
	m.date = now;
	m.message_id = id;
	m.auto_submitted = MAIL_COMPOSE_AUTO_GENERATED;
	raw = mail_compose(&m, "", &error);
	if (!raw) {
		subscription_request_clear(&req);
		return command_fail(error);
	}
	mail.message_id = id;
	mail.sender = config->smtp_from ? config->smtp_from : config->address;
	mail.recipients = req.to;
	mail.raw = raw;
	mail.state = config->dry_run ? "held" : NULL;
	l.address = list;
	l.via = (char *)subscription_via_name(via);
	l.state = join ? "subscribe-pending" : "unsubscribe-pending";
	l.request_id = id;
	l.requested = now;
	l.confirmed = old ? old->confirmed : 0;
	l.confirm_source = old ? old->confirm_source : NULL;
	l.updated = now;
	if (!store_begin(st, &error) ||
	    !store_outbox_add(st, "subscribe", &mail, &added, &error) ||
	    !store_list_put(st, &l, &error) || !store_commit(st, &error)) {
		store_rollback(st);
		subscription_request_clear(&req);
		return command_fail(error);
	}
	printf("%s: %s request queued to %s (%s), from %s%s\n", list, name,
	       req.to, subscription_via_name(via), config->address,
	       config->dry_run ? "; held: the configuration is a dry run" :
				 "; 'armbot run' sends it");
	subscription_request_clear(&req);
	return 0;
}

int cmd_subscribe(struct armbot_context *ctx, int argc, char **argv)
{
	return request(ctx, argc, argv, TRUE);
}

int cmd_unsubscribe(struct armbot_context *ctx, int argc, char **argv)
{
	return request(ctx, argc, argv, FALSE);
}
