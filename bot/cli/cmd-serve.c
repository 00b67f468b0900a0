/* armbot serve: the read-only web interface alone, without processing
 * mail (bot/web/web.h).  Like armbot run, not as root without --allow-root
 * (bot/cli/command.h): it needs no privilege, only read access to the store. */
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>

#include "bot/cli/command.h"
#include "config/config.h"
#include "bot/web/web.h"

static gboolean on_signal(gpointer loop)
{
	g_main_loop_quit(loop);
	return G_SOURCE_CONTINUE; /* removed below */
}

int cmd_serve(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *listen = NULL;
	g_autofree char *public_url = NULL;
	g_autofree char *file = NULL;
	g_autoptr(armbot_config) config = NULL;
	gboolean allow_root = FALSE;
	GOptionEntry options[] = {
		{ "listen", 'l', 0, G_OPTION_ARG_STRING, &listen,
		  "address and port to listen on (default " WEB_DEFAULT_LISTEN
		  "; port 0 picks a free one)",
		  "ADDR:PORT" },
		{ "public-url", 0, 0, G_OPTION_ARG_STRING, &public_url,
		  "base URL of the links in the Atom feed (default: the "
		  "address listened on)",
		  "URL" },
		COMMAND_OPTION_ALLOW_ROOT(allow_root, "serve"),
		COMMAND_OPTION_CONFIG(file),
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(GMainLoop) loop = NULL;
	g_autoptr(web_server) server = NULL;
	guint sigint, sigterm;

	if (!command_parse_options(
		    "serve", "",
		    "Serve the read-only web interface over the store: series, "
		    "the JSON API (/api/series), the Atom feed (/feed.atom), "
		    "arch/arm charts (/arch-arm) and Prometheus metrics "
		    "(/metrics).  Prints the URL once listening; stops on "
		    "SIGINT or SIGTERM.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc > 1) {
		return command_usage_error("serve", "unexpected argument '%s'",
					   argv[1]);
	}
	if (!command_check_root("serve", "it answers HTTP from anyone",
				allow_root))
		return 1;
	/* [web] archive-url: where Message-IDs link to */
	config = command_config(file, NULL, &error);
	if (!config)
		return command_fail(error);
	loop = g_main_loop_new(NULL, FALSE);
	server = web_server_start(command_data_dir(ctx), listen, public_url,
				  (const char *const *)config->web_archive_urls,
				  g_main_context_default(), &error);
	if (!server)
		return command_fail(error);
	printf("serving %s\n", web_server_url(server));
	fflush(stdout);
	sigint = g_unix_signal_add(SIGINT, on_signal, loop);
	sigterm = g_unix_signal_add(SIGTERM, on_signal, loop);
	g_main_loop_run(loop);
	g_source_remove(sigint);
	g_source_remove(sigterm);
	return 0;
}
