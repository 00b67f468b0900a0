/* armbot deliver: one message on stdin, from an MTA's pipe transport
 * (postfix pipe(8), OpenSMTPD's "mda", a .forward's "|armbot deliver").
 * The exit status follows sysexits(3), which MTAs read: 0 once the message
 * is committed to the store, EX_TEMPFAIL (75) when it could not be (store
 * locked or unwritable, input unreadable), so that the MTA keeps the
 * message and retries.  A message that cannot be parsed is kept as a
 * reject and is still a success: bouncing it (EX_DATAERR) would lose it. */
#include <stdio.h>
#include <sysexits.h>

#include "bot/cli/command.h"
#include "bot/sources/ingest.h"
#include "bot/store/store.h"

int cmd_deliver(struct armbot_context *ctx, int argc, char **argv)
{
	double hours = 6;
	GOptionEntry options[] = { COMMAND_OPTION_INCOMPLETE_TIMEOUT(hours),
				   G_OPTION_ENTRY_NULL };
	struct mailbox_options mopts = MAILBOX_OPTIONS_INIT;
	struct ingest_counts counts = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(mailbox) mb = NULL;
	g_autoptr(GBytes) raw = NULL;
	g_autoptr(store) st = NULL;

	if (!command_parse_options(
		    "deliver", "",
		    "Read one message on standard input into the store and "
		    "assemble series, for an MTA pipe (|armbot deliver). "
		    "Exits 0 once it is stored (a message that cannot be "
		    "parsed is kept aside, not bounced), 75 (EX_TEMPFAIL) "
		    "when the store cannot take it now, so that the MTA "
		    "retries.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc > 1 || hours < 0) {
		return command_usage_error(
			"deliver", "%s",
			argc > 1 ? "deliver reads standard input only" :
				   "--incomplete-timeout must not be negative");
	}
	/* one message, whatever it contains: an MTA may put a From_ line
	 * first (postfix pipe flag F), and a body line may look like one */
	mopts.format = MAILBOX_MESSAGE;
	if (!(mb = mailbox_open("-", &mopts, &error)) ||
	    !mailbox_next(mb, &raw, &error))
		goto tempfail;
	if (!raw)
		raw = g_bytes_new_static("", 0);
	if (!(st = command_store(ctx, &error)) || !store_begin(st, &error))
		goto tempfail;
	if (!ingest_message(st, raw, "deliver", &counts, NULL, NULL, &error) ||
	    ((counts.added || counts.unparseable) &&
	     !ingest_assemble(st, (gint64)(hours * 3600), &error)) ||
	    !store_commit(st, &error)) {
		store_rollback(st);
		goto tempfail;
	}
	return 0;
tempfail:
	return command_fail_status(error, EX_TEMPFAIL);
}
