/* armbot lists: the mailing lists the bot asked to join or leave, each
 * with its state, when it changed, and the source its mail comes through
 * (its traffic, else its confirmation). */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "bot/store/lists.h"
#include "bot/store/store.h"
#include "config/config.h"
#include "mailparse/listid.h"

static char *format_time(gint64 t)
{
	g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc(t);

	return dt ? g_date_time_format(dt, "%Y-%m-%d %H:%M") : g_strdup("-");
}

/* The configured source whose messages are at @position (a maildir
 * file, a URL with its cursor), or @position itself. */
static const char *source_of(const struct armbot_config *c,
			     const char *position)
{
	for (guint i = 0; c->sources && c->sources[i]; i++) {
		const char *url = c->sources[i];
		const char *p = g_str_has_prefix(url, "maildir:") ?
					url + strlen("maildir:") :
					url;

		if (g_str_has_prefix(position, p))
			return url;
	}
	return position;
}

int cmd_lists(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *file = NULL;
	GOptionEntry options[] = { COMMAND_OPTION_CONFIG(file),
				   G_OPTION_ENTRY_NULL };
	g_autoptr(armbot_config) config = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = NULL;
	g_autoptr(GPtrArray) lists = NULL;

	if (!command_parse_options("lists", "",
				   "Show the lists the bot subscribed to or "
				   "asked to join or leave: state, since when, "
				   "via which list manager, and the source "
				   "their mail comes through.",
				   options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	config = command_config(file, NULL, &error);
	if (!config || !(st = command_store(ctx, &error)) ||
	    !(lists = store_lists_all(st, &error)))
		goto fail;
	if (!lists->len)
		printf("no lists: 'armbot subscribe LIST-ADDRESS' asks one\n");
	for (guint i = 0; i < lists->len; i++) {
		const struct store_list *l = lists->pdata[i];
		g_autofree char *when = format_time(l->updated);
		g_autofree char *list_id = listid_from_address(l->address);
		g_autofree char *traffic = NULL;

		if (!store_list_traffic_source(st, list_id, &traffic, &error))
			goto fail;
		printf("%s\t%s\t%s since %s\t%s\n", l->address, l->via,
		       l->state, when,
		       traffic		 ? source_of(config, traffic) :
		       l->confirm_source ? l->confirm_source :
					   "-");
	}
	return 0;
fail:
	return command_fail(error);
}
