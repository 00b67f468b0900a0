/* armbot-core: the command line of every command.  `armbot [-C REPO]
 * [--data-dir DIR] <command> [options]`, `armbot help [<command>]`, `armbot
 * --version`; the front program `armbot` (bot/cli/front.c) runs dirstat itself
 * and execs this one, with the same arguments, for the rest. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "bot/cli/cmdline.h"
#include "bot/cli/command.h"
#include "bot/common/log.h"
#include "config/datadir.h"
#include "bot/common/dirstat-json.h"
#include "kernel/diff/patchstat.h"

static const struct armbot_command commands[] = {
	{ "ingest", cmd_ingest,
	  "read mailboxes into the store, assemble series" },
	{ "deliver", cmd_deliver, "store one message from stdin (MTA pipe)" },
	{ "series", cmd_series,
	  "list series, or print one as an mbox for git am" },
	{ "mailinfo", cmd_mailinfo, "split a mail as git mailinfo does" },
	{ "patch-id", cmd_patch_id,
	  "the patch-id of patches or commits, as git patch-id --stable" },
	{ "tree", cmd_tree,
	  "kernel trees: import, add, update, list, checkout" },
	{ "am", cmd_am,
	  "apply a mailbox of patches as git am, in the object database" },
	{ "sparse", cmd_sparse, "report the sparse warnings a series adds" },
	{ "similar", cmd_similar,
	  "near-copies of existing code, drivers in the wrong place" },
	{ "dirstat", cmd_dirstat,
	  "git's --dirstat, signed, and the arch/arm verdict" },
	{ "boot", cmd_boot,
	  "build a tree, boot it in QEMU, run the runtime-PM KUnit suite" },
	{ "check", cmd_check,
	  "run every check on one series and print the reply" },
	{ "run", cmd_run, "the daemon: watch the lists, check, reply" },
	{ "status", cmd_status, "the queue, series and replies by state" },
	{ "sendmail", cmd_sendmail,
	  "send one message by SMTP, or into a maildir" },
	{ "config", cmd_config, "check the configuration and tree files" },
	{ "subscribe", cmd_subscribe,
	  "ask a Mailman list to subscribe the bot" },
	{ "unsubscribe", cmd_unsubscribe,
	  "ask a Mailman list to drop the bot" },
	{ "lists", cmd_lists,
	  "the lists subscribed to, their state and source" },
	{ "boards", cmd_boards,
	  "the board map, and the boards a series' paths select" },
	{ "serve", cmd_serve, "serve the read-only web interface" },
	{ "weekly", cmd_weekly,
	  "a list's weekly arch/arm balance, as mailed on Mondays" },
	{ NULL, NULL, NULL }
};

static void warn_skipped(guint n, const GError *why, gpointer path)
{
	fprintf(stderr, "warning: %s: mail %u skipped: %s\n",
		(const char *)path, n, why->message);
}

/* armbot dirstat --mbox: the figures of every patch in the mailbox, a
 * mail that is not one said and skipped */
static GPtrArray *mbox_filestats(const char *mbox, GError **error)
{
	return patchstat_mbox(mbox, warn_skipped, (gpointer)mbox, error);
}

static const struct armbot_command *command_find(const char *name)
{
	for (size_t i = 0; commands[i].name; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: armbot [-C REPO] [--data-dir DIR] <command> [<options>]\n"
		"       armbot help [<command>]\n"
		"       armbot --version\n\ncommands:\n");
	for (size_t i = 0; commands[i].name; i++)
		fprintf(out, "   %-12s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\nState lives in --data-dir, else $ARMBOT_DATA_DIR, "
		     "else $XDG_DATA_HOME/armbot.\n");
}

static int run_help(int argc, char **argv)
{
	const struct armbot_command *cmd;
	char *help_argv[] = { NULL, "--help", NULL };

	if (argc < 2) {
		print_usage(stdout);
		return 0;
	}
	cmd = command_find(argv[1]);
	if (!cmd) {
		fprintf(stderr, "error: no such command '%s'\n", argv[1]);
		return 1;
	}
	/* GOptionContext prints the command's full help and exits 0 */
	help_argv[0] = argv[1];
	return cmd->run(NULL, 2, help_argv);
}

int main(int argc, char **argv)
{
	struct armbot_context ctx = {
		.mbox_filestats = mbox_filestats,
		.dirstat_report_json = dirstat_json_report,
		.dirstat_verdict_json = dirstat_json_verdict,
	};
	const struct armbot_command *cmd;
	g_autoptr(GError) error = NULL;
	enum cmdline_action action;
	int status;

	setlocale(LC_ALL, "");
	bot_log_install();
	if (!cmdline_parse_global(&argc, &argv, &action, &error)) {
		fprintf(stderr, "error: %s\n", error->message);
		print_usage(stderr);
		return COMMAND_USAGE_ERROR;
	}
	if (action == CMDLINE_VERSION) {
		cmdline_print_version();
		return 0;
	}
	/* `armbot --help dirstat` is `armbot help dirstat`, as in git */
	if (action == CMDLINE_HELP)
		return run_help(argc, argv);
	if (argc < 2) {
		print_usage(stderr);
		return COMMAND_USAGE_ERROR;
	}
	if (!strcmp(argv[1], "help"))
		return run_help(argc - 1, argv + 1);
	cmd = command_find(argv[1]);
	if (!cmd) {
		fprintf(stderr,
			"error: '%s' is not an armbot command; see 'armbot help'\n",
			argv[1]);
		return 1;
	}
	/* the data dir is resolved lazily: commands call ctx->data_dir only
	 * after their own options (which may include --data-dir) are parsed */
	status = cmd->run(&ctx, argc - 1, argv + 1);
	g_free(ctx.data_dir);
	return status;
}
