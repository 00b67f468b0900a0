/* `armbot config`: the configuration (config/config.h).
 *
 *   armbot config check [--config FILE]
 *
 * check validates armbot.conf and every tree file, and the trees
 * registered in the store of the data dir, printing one
 * "FILE:LINE: message" line per problem; exit status 1 when there is
 * any. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "bot/store/store.h"
#include "bot/daemon/treeset.h"
#include "config/config.h"

static int config_check_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *file = NULL;
	GOptionEntry options[] = { COMMAND_OPTION_CONFIG(file),
				   G_OPTION_ENTRY_NULL };
	g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	g_autoptr(armbot_config) config = NULL;
	g_autoptr(store) st = NULL;
	g_autoptr(treeset) ts = NULL;
	g_autofree char *found = NULL;

	if (!command_parse_options(
		    "config check", "",
		    "Validate the configuration file, every tree file of its "
		    "trees.d and the trees registered in the store; print "
		    "FILE:LINE: message for each problem.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc > 1) {
		return command_usage_error("config",
					   "config check takes no arguments");
	}
	found = config_find(file);
	config = command_config(file, errors, &error);
	if (!config)
		goto report;
	if (!treeset_open_store(command_data_dir(ctx), &st, &error) ||
	    !(ts = treeset_load(config, st, errors, &error))) {
		g_ptr_array_add(errors, g_strdup(error->message));
		goto report;
	}
report:
	for (guint i = 0; i < errors->len; i++)
		printf("%s\n", (char *)errors->pdata[i]);
	if (errors->len) {
		fprintf(stderr, "error: %u problem%s in the configuration\n",
			errors->len, errors->len == 1 ? "" : "s");
		return 1;
	}
	printf("%s: ok, %u tree%s", found ? found : "(no file, defaults)",
	       ts->trees->len, ts->trees->len == 1 ? "" : "s");
	for (guint i = 0; i < ts->trees->len; i++)
		printf("%s%s", i ? ", " : ": ",
		       ((const struct treefile *)ts->trees->pdata[i])->name);
	printf("\n");
	return 0;
}

int cmd_config(struct armbot_context *ctx, int argc, char **argv)
{
	static const struct command_sub subs[] = {
		{ "check", config_check_cmd },
	};

	return command_run_sub(ctx, "config",
			       "usage: armbot config check [--config FILE]\n",
			       subs, G_N_ELEMENTS(subs), argc, argv);
}
