/* armbot weekly: the weekly arch/arm balance of a list (bot/daemon/weekly.h),
 * printed as the daemon would mail it, or queued in the outbox. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "bot/daemon/weekly.h"
#include "bot/store/store.h"
#include "config/config.h"

/* "2026-11-30" (any day of the week): the start of its week. */
static gboolean parse_week(const char *text, gint64 *week)
{
	int y, m, d, n = 0;
	g_autoptr(GDateTime) dt = NULL;

	if (sscanf(text, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 ||
	    (size_t)n != strlen(text) || !g_date_valid_dmy(d, m, y))
		return FALSE;
	dt = g_date_time_new_utc(y, m, d, 0, 0, 0);
	if (!dt)
		return FALSE;
	*week = store_balance_week_start(g_date_time_to_unix(dt));
	return TRUE;
}

int cmd_weekly(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *file = NULL, *list = NULL, *week_text = NULL;
	gboolean queue = FALSE;
	GOptionEntry options[] = {
		COMMAND_OPTION_CONFIG(file),
		{ "list", 'l', 0, G_OPTION_ARG_STRING, &list,
		  "the list's address (default: the one list with weekly = "
		  "true)",
		  "ADDRESS" },
		{ "week", 'w', 0, G_OPTION_ARG_STRING, &week_text,
		  "a day of the week to show, YYYY-MM-DD (default: the last "
		  "whole week)",
		  "DATE" },
		{ "queue", 0, 0, G_OPTION_ARG_NONE, &queue,
		  "queue the mail in the outbox as armbot run does (once per "
		  "list and week)",
		  NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(armbot_config) config = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = NULL;
	g_autoptr(GBytes) raw = NULL;
	gint64 now = g_get_real_time() / G_USEC_PER_SEC;
	gint64 week = store_balance_week_start(now) - STORE_BALANCE_WEEK;

	if (!command_parse_options(
		    "weekly", "",
		    "Print the weekly arch/arm balance of a list: the series "
		    "posted that week, the net arch/arm lines of those "
		    "tested, the mach-* and plat-* folders that grew and "
		    "shrank most, as armbot run mails it on Mondays to the "
		    "lists whose [list] group says weekly = true.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (week_text && !parse_week(week_text, &week))
		return command_usage_error(
			"weekly", "--week '%s' is not a date YYYY-MM-DD",
			week_text);
	config = command_config(file, NULL, &error);
	if (!config)
		goto fail;
	if (!list) {
		for (guint i = 0; i < config->lists->len; i++) {
			const struct config_list *l = config->lists->pdata[i];

			if (!l->weekly)
				continue;
			if (list)
				return command_usage_error(
					"weekly", "several lists ask for the "
						  "weekly balance: say which "
						  "with --list");
			list = g_strdup(l->address);
		}
		if (!list)
			return command_usage_error(
				"weekly",
				"no list has weekly = true: say which with "
				"--list");
	}
	if (!(st = command_store(ctx, &error)))
		goto fail;
	if (queue) {
		gboolean added;

		if (!weekly_queue(st, config, list, week, now, &added, &error))
			goto fail;
		printf("%s\n", added ? "queued" :
				       "not queued: queued before, "
				       "or no series that week");
		return 0;
	}
	raw = weekly_mail(st, config, list, week, now, NULL, NULL, &error);
	if (!raw)
		goto fail;
	fwrite(g_bytes_get_data(raw, NULL), 1, g_bytes_get_size(raw), stdout);
	return 0;
fail:
	return command_fail(error);
}
