/* armbot check: every check of one series, and the reply it would get,
 * printed instead of sent.
 *
 *   armbot check [--tree NAME] [--no-sparse] [--no-boot] [--no-boards]
 *                [--per-patch]
 *                SERIES.mbox | MESSAGE-ID
 *
 * A mailbox is first stored and assembled like any mail armbot receives
 * (bot/sources/ingest.h), so the series checked is the one the daemon would
 * check; a Message-ID names a series already in the store.  The checks
 * are bot/daemon/pipeline.c's; their logs go to DATA/logs/series-ID/TREE/.
 * Exit status: 0 no check found a problem, 1 one did (WARN or FAIL),
 * 2 the checks could not run. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bot/cli/command.h"
#include "bot/sources/ingest.h"
#include "bot/cli/progress.h"
#include "bot/daemon/pipeline.h"
#include "bot/store/pipeline.h"
#include "bot/store/store.h"
#include "config/config.h"
#include "config/treefile.h"
#include "kernel/tree/tree.h"
#include "mailparse/mailbox.h"

enum { CHECK_CLEAN = 0, CHECK_PROBLEMS = 1, CHECK_ERROR = 2 };

static void on_progress(enum pipeline_stage stage, const char *detail,
			gpointer user_data)
{
	cli_progress_stage(user_data, pipeline_stage_name(stage), detail);
}

/* Store the mails of @path, assemble, and find the series they make:
 * the one holding most of them (the newest on a tie). */
static gboolean series_from_mbox(struct store *st, const char *path,
				 gint64 *series_id, GError **error)
{
	struct mailbox_options mopts = MAILBOX_OPTIONS_INIT;
	struct ingest_counts counts = { 0 };
	g_autoptr(mailbox) mb = NULL;
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GHashTable) votes = g_hash_table_new_full(
		g_int64_hash, g_int64_equal, g_free, NULL);
	GHashTableIter it;
	gpointer key, value;
	guint best = 0, series_count;

	/* git am reads mboxo: so does `armbot am`, and so does check */
	mopts.mboxrd = FALSE;
	mb = mailbox_open(path, &mopts, error);
	if (!mb || !store_begin(st, error))
		return FALSE;
	for (;;) {
		g_autoptr(GBytes) raw = NULL;
		char *id = NULL;

		if (!mailbox_next(mb, &raw, error))
			goto fail;
		if (!raw)
			break;
		if (!ingest_message(st, raw, mailbox_position(mb), &counts,
				    NULL, &id, error))
			goto fail;
		if (id)
			g_ptr_array_add(ids, id);
	}
	if (!ingest_assemble(st, 6 * 3600, error) || !store_commit(st, error))
		goto fail;
	for (guint i = 0; i < ids->len; i++) {
		gint64 id;

		if (!store_series_of_message(st, ids->pdata[i], &id, error))
			return FALSE;
		if (id) {
			gint64 *k = g_new(gint64, 1);
			guint n = GPOINTER_TO_UINT(
				g_hash_table_lookup(votes, &id));

			*k = id;
			g_hash_table_replace(votes, k, GUINT_TO_POINTER(n + 1));
		}
	}
	*series_id = 0;
	g_hash_table_iter_init(&it, votes);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		guint n = GPOINTER_TO_UINT(value);
		gint64 id = *(gint64 *)key;

		if (n > best || (n == best && id > *series_id)) {
			best = n;
			*series_id = id;
		}
	}
	series_count = g_hash_table_size(votes);
	if (!*series_id) {
		g_set_error(error, PIPELINE_ERROR, 0,
			    "%s: no patch series in it (%u mails)", path,
			    ids->len);
		return FALSE;
	}
	if (series_count > 1)
		fprintf(stderr,
			"note: %s holds %u series; checking series "
			"%" G_GINT64_FORMAT
			" (name another with its Message-ID)\n",
			path, series_count, *series_id);
	return TRUE;
fail:
	store_rollback(st);
	return FALSE;
}

int cmd_check(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *tree_name = NULL;
	g_autofree char *bot_address = NULL;
	g_autofree char *config_file = NULL;
	g_autoptr(armbot_config) config = NULL;
	const struct treefile *tf;
	gboolean no_sparse = FALSE, no_boot = FALSE, no_boards = FALSE;
	gboolean per_patch = FALSE, no_base_cache = FALSE;
	gboolean body_only = FALSE;
	gint jobs = 0;
	GOptionEntry options[] = {
		COMMAND_OPTION_TREE(tree_name, "test on"),
		{ "no-sparse", 0, 0, G_OPTION_ARG_NONE, &no_sparse,
		  "do not run sparse", NULL },
		{ "no-boot", 0, 0, G_OPTION_ARG_NONE, &no_boot,
		  "do not build, boot and run the runtime-PM suite", NULL },
		{ "no-boards", 0, 0, G_OPTION_ARG_NONE, &no_boards,
		  "boot virt only, not the boards the series selects", NULL },
		{ "per-patch", 0, 0, G_OPTION_ARG_NONE, &per_patch,
		  "run sparse after each patch, to name the patch that "
		  "introduced each warning",
		  NULL },
		{ "no-base-cache", 0, 0, G_OPTION_ARG_NONE, &no_base_cache,
		  "compute what the base gives again (sparse's warnings, the "
		  "build and the boot) even when an earlier check kept it",
		  NULL },
		{ "body", 0, 0, G_OPTION_ARG_NONE, &body_only,
		  "print the reply's body only, without its headers", NULL },
		{ "from", 0, 0, G_OPTION_ARG_STRING, &bot_address,
		  "the bot's address in the reply (default armbot@localhost)",
		  "ADDRESS" },
		COMMAND_OPTION_JOBS(jobs),
		COMMAND_OPTION_CONFIG(config_file),
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = NULL;
	struct pipeline_options popts = { 0 };
	struct pipeline_outcome out = { 0 };
	g_autoptr(cli_progress) ps = NULL;
	const char *arg;
	gint64 series_id = 0;
	int status;

	if (!command_parse_options(
		    "check", "SERIES.mbox|MESSAGE-ID",
		    "Run every check on one series (apply, signed dirstat and "
		    "the arch/arm verdict, sparse, build, boot and the "
		    "runtime-PM KUnit suite) and print the reply armbot "
		    "would send; nothing is sent.  A mailbox is stored and "
		    "assembled first; a Message-ID names a stored series.\n"
		    "Exit status: 0 no problem found, 1 a check found one, "
		    "2 the checks could not run.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 2) {
		return command_usage_error(
			"check", "one series (a mailbox or a Message-ID)");
	}
	arg = argv[1];
	ps = cli_progress_new();
	if (!(st = command_store(ctx, &error)))
		goto fail;
	if (g_file_test(arg, G_FILE_TEST_EXISTS)) {
		if (!series_from_mbox(st, arg, &series_id, &error))
			goto fail;
	} else {
		g_autofree char *id = g_strdup(arg);

		g_strstrip(id);
		if (*id == '<' && g_str_has_suffix(id, ">")) {
			memmove(id, id + 1, strlen(id));
			id[strlen(id) - 1] = '\0';
		}
		if (!strchr(id, '@')) {
			fprintf(stderr,
				"error: '%s' is neither a file nor a "
				"Message-ID\n",
				arg);
			return COMMAND_USAGE_ERROR;
		}
		if (!store_series_of_message(st, id, &series_id, &error))
			goto fail;
		if (!series_id) {
			fprintf(stderr, "error: no series holds <%s>\n", id);
			return CHECK_ERROR;
		}
	}

	popts.data_dir = command_data_dir(ctx);
	popts.tree_name = tree_name;
	popts.sparse = !no_sparse;
	popts.boot = !no_boot;
	popts.boards = !no_boards;
	popts.per_patch = per_patch;
	popts.no_base_cache = no_base_cache;
	popts.jobs = jobs > 0 ? (guint)jobs : 0;
	/* the tree file's build-distribute, as `armbot run` reads it: the
	 * builds of sparse and of the boot through icecream */
	config = command_config(config_file, NULL, &error);
	if (!config)
		goto fail;
	tf = config_tree(config, tree_name ? tree_name : TREE_DISTRO_NAME);
	if (tf && tf->icecream) {
		popts.icecc = tf->icecc;
	}
	popts.bot_name = "armbot";
	popts.bot_address = bot_address ? bot_address : "armbot@localhost";
	popts.progress = on_progress;
	popts.user_data = ps;
	if (!pipeline_check(st, series_id, &popts, &out, &error)) {
		pipeline_outcome_clear(&out);
		goto fail;
	}
	if (body_only)
		fputs(out.reply_body, stdout);
	else
		fwrite(g_bytes_get_data(out.reply, NULL), 1,
		       g_bytes_get_size(out.reply), stdout);
	{
		g_autofree char *done =
			g_strdup_printf("logs in %s", out.log_dir);

		cli_progress_done(ps, done);
	}
	status = pipeline_outcome_has_problems(&out) ? CHECK_PROBLEMS :
						       CHECK_CLEAN;
	pipeline_outcome_clear(&out);
	return status;
fail:
	return command_fail_status(error, CHECK_ERROR);
}
