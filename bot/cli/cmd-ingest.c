/* armbot ingest: read mailboxes, or what is new at a source URL
 * (bot/sources/source.h), into the store and assemble series. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <glib-unix.h>

#include "bot/cli/command.h"
#include "bot/sources/ingest.h"
#include "bot/sources/source.h"
#include "bot/store/store.h"

/* Is @arg a source URL rather than a file?  A file named like one can be
 * given as ./maildir:x. */
static gboolean is_source_url(const char *arg)
{
	return g_str_has_prefix(arg, "maildir:") || strstr(arg, "://");
}

static void on_batch(const struct source_batch *batch, gpointer data)
{
	printf("%s: %u new, %u duplicate, %u unparseable\n", batch->url,
	       batch->counts.added, batch->counts.duplicate,
	       batch->counts.unparseable);
	fflush(stdout);
}

static void on_error(const char *url, const GError *error, gpointer data)
{
	fprintf(stderr, "error: %s\n", error->message);
}

static gboolean on_signal(gpointer loop)
{
	g_main_loop_quit(loop);
	return G_SOURCE_REMOVE;
}

/* --watch: every source in its thread until SIGINT or SIGTERM. */
static int watch(const char *path, GPtrArray *urls,
		 const struct source_options *opts)
{
	g_autoptr(GMainLoop) loop = g_main_loop_new(NULL, FALSE);
	g_autoptr(GPtrArray) sources =
		g_ptr_array_new_with_free_func((GDestroyNotify)source_free);
	g_autoptr(GError) error = NULL;

	for (guint i = 0; i < urls->len; i++) {
		struct source *src = source_new(urls->pdata[i], opts, &error);

		if (!src)
			goto fail;
		g_ptr_array_add(sources, src);
		if (!source_start(src, path, NULL, on_batch, on_error, NULL,
				  &error))
			goto fail;
	}
	g_unix_signal_add(SIGINT, on_signal, loop);
	g_unix_signal_add(SIGTERM, on_signal, loop);
	g_main_loop_run(loop);
	for (guint i = 0; i < sources->len; i++)
		source_stop(sources->pdata[i]);
	return 0;
fail:
	return command_fail(error);
}

int cmd_ingest(struct armbot_context *ctx, int argc, char **argv)
{
	gboolean mboxo = FALSE;
	gboolean seen = FALSE;
	gboolean watching = FALSE;
	int interval = 0;
	double hours = 6;
	GOptionEntry options[] = {
		{ "mboxo", 0, 0, G_OPTION_ARG_NONE, &mboxo,
		  "mbox files are mboxo: leave \">From \" lines alone "
		  "(the default is mboxrd)",
		  NULL },
		COMMAND_OPTION_INCOMPLETE_TIMEOUT(hours),
		{ "seen", 0, 0, G_OPTION_ARG_NONE, &seen,
		  "IMAP: set \\Seen on messages once they are stored", NULL },
		{ "watch", 0, 0, G_OPTION_ARG_NONE, &watching,
		  "keep watching the source URLs until interrupted, printing "
		  "a line per batch stored",
		  NULL },
		{ "interval", 0, 0, G_OPTION_ARG_INT, &interval,
		  "seconds between polls of a source (default: the "
		  "source's)",
		  "SECONDS" },
		G_OPTION_ENTRY_NULL
	};
	struct mailbox_options mopts = MAILBOX_OPTIONS_INIT;
	struct source_options sopts = SOURCE_OPTIONS_INIT;
	struct ingest_counts counts = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = NULL;
	g_autofree char *path = NULL;
	gboolean files = FALSE;

	if (!command_parse_options(
		    "ingest", "FILE|DIR|SOURCE-URL...",
		    "Read mbox (mboxrd by default), maildir or single message "
		    "files ('-' for stdin) into the store and assemble series. "
		    "A SOURCE-URL (maildir:PATH, imap://, imaps://, nntp://, "
		    "http:// or https:// for a public-inbox inbox) is fetched "
		    "once, from where the last fetch stopped. "
		    "Prints how many messages were new, duplicate and "
		    "unparseable; unparseable ones are kept aside with the "
		    "reason.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc < 2) {
		return command_usage_error("ingest", "no mailbox given");
	}
	if (hours < 0) {
		fprintf(stderr, "error: --incomplete-timeout must not be "
				"negative\n");
		return COMMAND_USAGE_ERROR;
	}
	if (interval < 0) {
		fprintf(stderr, "error: --interval must not be negative\n");
		return COMMAND_USAGE_ERROR;
	}
	mopts.mboxrd = !mboxo;
	sopts.interval = interval;
	sopts.incomplete_timeout = (gint64)(hours * 3600);
	sopts.set_seen = seen;
	if (!(path = command_store_path(ctx, &error)) ||
	    !(st = store_open(path, &error)))
		goto fail;
	if (watching) {
		g_autoptr(GPtrArray) urls = g_ptr_array_new();

		for (int i = 1; i < argc; i++) {
			if (!is_source_url(argv[i])) {
				fprintf(stderr,
					"error: --watch takes source URLs "
					"only, not '%s'\n",
					argv[i]);
				return COMMAND_USAGE_ERROR;
			}
			g_ptr_array_add(urls, argv[i]);
		}
		g_clear_pointer(&st, store_free);
		return watch(path, urls, &sopts);
	}
	/* sources commit batch by batch, with their cursor */
	for (int i = 1; i < argc; i++) {
		g_autoptr(source) src = NULL;

		if (!is_source_url(argv[i])) {
			files = TRUE;
			continue;
		}
		if (!(src = source_new(argv[i], &sopts, &error)) ||
		    !source_fetch(src, st, &counts, &error))
			goto fail;
	}
	/* files in one transaction */
	if (files) {
		if (!store_begin(st, &error))
			goto fail;
		for (int i = 1; i < argc; i++)
			if (!is_source_url(argv[i]) &&
			    !ingest_mailbox(st, argv[i], &mopts, &counts,
					    &error)) {
				store_rollback(st);
				goto fail;
			}
		if (!ingest_assemble(st, (gint64)(hours * 3600), &error) ||
		    !store_commit(st, &error)) {
			store_rollback(st);
			goto fail;
		}
	}
	ingest_counts_print(&counts);
	return 0;
fail:
	return command_fail(error);
}
