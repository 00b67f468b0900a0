/* armbot run: the daemon (bot/daemon/daemon.h) with the configuration of
 * --config, $ARMBOT_CONFIG or $XDG_CONFIG_HOME/armbot/armbot.conf, or the
 * embedded defaults.  An invalid configuration stops it before anything
 * starts: every error is printed, FILE:LINE first.  It does not run as
 * root without --allow-root (bot/cli/command.h). */
#include <stdio.h>

#include "bot/cli/command.h"
#include "bot/daemon/daemon.h"
#include "config/datadir.h"
#include "config/config.h"

int cmd_run(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *config_path = NULL;
	gint max_attempts = 3, lab_retry = 60;
	gboolean allow_root = FALSE;
	GOptionEntry options[] = {
		{ "max-attempts", 0, 0, G_OPTION_ARG_INT, &max_attempts,
		  "give a series up after the bot stopped this many times "
		  "while checking it (default 3)",
		  "N" },
		{ "lab-retry", 0, 0, G_OPTION_ARG_INT, &lab_retry,
		  "seconds a series waits when the LAVA lab could not boot it "
		  "and the tree has lava-fallback = none (doubled each time, "
		  "up to an hour; default 60)",
		  "S" },
		COMMAND_OPTION_CONFIG(config_path),
		COMMAND_OPTION_ALLOW_ROOT(allow_root, "run"),
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(armbot_config) config = NULL;
	g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = NULL;
	struct daemon_options dopts = { 0 };

	if (!command_parse_options(
		    "run", "",
		    "Run the daemon: read mail from the configured sources, "
		    "check every new series, send the replies.  Stop it with "
		    "SIGTERM or SIGINT.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 1) {
		return command_usage_error("run", "no arguments expected");
	}
	/* before anything is made in the data dir */
	if (!command_check_root("run",
				"it reads mail from anyone and builds the "
				"patches in it",
				allow_root))
		return 1;
	config = command_config(config_path, errors, &error);
	if (!config) {
		for (guint i = 0; i < errors->len; i++)
			fprintf(stderr, "error: %s\n",
				(char *)errors->pdata[i]);
		fprintf(stderr, "armbot run: the configuration is invalid; "
				"not starting\n");
		return 1;
	}
	dir = datadir_ensure(config->data_dir ? config->data_dir :
						command_data_dir(ctx),
			     NULL, &error);
	if (!dir)
		return command_fail(error);
	dopts.data_dir = dir;
	dopts.config = config;
	dopts.max_attempts = max_attempts > 0 ? (guint)max_attempts : 3;
	dopts.lab_retry_s = lab_retry > 0 ? (guint)lab_retry : 60;
	return daemon_run(&dopts);
}
