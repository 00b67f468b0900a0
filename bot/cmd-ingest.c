/* armbot ingest: read mailboxes into the store and assemble series. */
#include <stdio.h>

#include "bot/command.h"
#include "bot/datadir.h"
#include "bot/store.h"
#include "mailparse/mailbox.h"
#include "mailparse/message.h"
#include "mailparse/series.h"

struct ingest_counts {
	guint added, duplicate, unparseable;
	guint kinds[CLASSIFY_BOT + 1]; /* of the new messages */
};

static gboolean ingest_path(struct store *st, const char *path,
			    const struct mailbox_options *opts,
			    struct ingest_counts *counts, GError **error)
{
	g_autoptr(mailbox) mb = mailbox_open(path, opts, error);
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;

	if (!mb)
		return FALSE;
	for (;;) {
		g_autoptr(GBytes) raw = NULL;
		g_autoptr(GError) bad = NULL;
		g_autoptr(message) msg = NULL;
		g_autoptr(series_message) info = NULL;
		gboolean added;

		if (!mailbox_next(mb, &raw, error))
			return FALSE;
		if (!raw)
			return TRUE;
		msg = message_parse(raw, &bad);
		if (!msg) {
			/* kept anyway, so that nothing received is lost */
			fprintf(stderr, "error: %s: %s\n", mailbox_position(mb),
				bad->message);
			if (!store_add_reject(st, raw, mailbox_position(mb),
					      bad->message, &added, error))
				return FALSE;
			counts->unparseable++;
			continue;
		}
		info = series_message_from(msg, now);
		if (!store_add_message(st, msg, info, mailbox_position(mb),
				       &added, error))
			return FALSE;
		if (added) {
			counts->added++;
			counts->kinds[info->kind]++;
		} else
			counts->duplicate++;
	}
}

/* Assemble every stored message into series and record the result. */
static gboolean assemble(struct store *st, gint64 timeout, GError **error)
{
	struct series_options opts = SERIES_OPTIONS_INIT;
	g_autoptr(GPtrArray) messages = store_load_series_messages(st, error);
	g_autoptr(series_assembly) assembly = NULL;

	if (!messages)
		return FALSE;
	opts.now = g_get_real_time() / G_USEC_PER_SEC;
	opts.incomplete_timeout = timeout;
	assembly = series_assemble(messages, &opts);
	return store_save_assembly(st, assembly, error);
}

int cmd_ingest(struct armbot_context *ctx, int argc, char **argv)
{
	gboolean mboxo = FALSE;
	double hours = 6;
	GOptionEntry options[] = {
		{ "mboxo", 0, 0, G_OPTION_ARG_NONE, &mboxo,
		  "mbox files are mboxo: leave \">From \" lines alone "
		  "(the default is mboxrd)",
		  NULL },
		{ "incomplete-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &hours,
		  "hours after which an incomplete series stops waiting "
		  "(default 6)",
		  "HOURS" },
		G_OPTION_ENTRY_NULL
	};
	struct mailbox_options mopts = MAILBOX_OPTIONS_INIT;
	struct ingest_counts counts = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *path = NULL;

	if (!command_parse_options(
		    "ingest", "FILE|DIR...",
		    "Read mbox (mboxrd by default), maildir or single message "
		    "files ('-' for stdin) into the store and assemble series. "
		    "Prints how many messages were new, duplicate and "
		    "unparseable; unparseable ones are kept aside with the "
		    "reason.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc < 2) {
		fprintf(stderr, "error: no mailbox given\n"
				"usage: see 'armbot help ingest'\n");
		return COMMAND_USAGE_ERROR;
	}
	if (hours < 0) {
		fprintf(stderr, "error: --incomplete-timeout must not be "
				"negative\n");
		return COMMAND_USAGE_ERROR;
	}
	mopts.mboxrd = !mboxo;
	dir = datadir_ensure(command_data_dir(ctx), NULL, &error);
	if (!dir)
		goto fail;
	path = g_build_filename(dir, "store.sqlite", NULL);
	if (!(st = store_open(path, &error)) || !store_begin(st, &error))
		goto fail;
	for (int i = 1; i < argc; i++)
		if (!ingest_path(st, argv[i], &mopts, &counts, &error)) {
			store_rollback(st);
			goto fail;
		}
	if (!assemble(st, (gint64)(hours * 3600), &error) ||
	    !store_commit(st, &error)) {
		store_rollback(st);
		goto fail;
	}
	printf("%u new, %u duplicate, %u unparseable\n", counts.added,
	       counts.duplicate, counts.unparseable);
	for (int k = 0; k <= CLASSIFY_BOT; k++)
		printf("%s%s %u", k ? ", " : "new: ", classify_kind_name(k),
		       counts.kinds[k]);
	printf("\n");
	return 0;
fail:
	fprintf(stderr, "error: %s\n", error->message);
	return 1;
}
