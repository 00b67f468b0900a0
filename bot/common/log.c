/* The daemon's log (see bot/common/log.h). */
#include "bot/common/log.h"

#include <stdio.h>

void bot_logv(const char *who, const char *fmt, va_list ap)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_local();
	g_autofree char *stamp = g_date_time_format(now, "%F %T");
	g_autofree char *text = g_strdup_vprintf(fmt, ap);

	/* one fprintf: lines of different threads do not mix */
	if (who)
		fprintf(stderr, "%s %s: %s\n", stamp, who, text);
	else
		fprintf(stderr, "%s %s\n", stamp, text);
}

void bot_log(const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bot_logv(who, fmt, ap);
	va_end(ap);
}

static GLogWriterOutput write_glib(GLogLevelFlags level,
				  const GLogField *fields, gsize n,
				  gpointer user_data)
{
	const char *message = NULL;

	if (level & (G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG))
		return g_log_writer_default(level, fields, n, user_data);
	for (gsize i = 0; i < n; i++)
		if (g_str_equal(fields[i].key, "MESSAGE") &&
		    fields[i].length < 0)
			message = fields[i].value;
	if (!message)
		return g_log_writer_default(level, fields, n, user_data);
	bot_log(NULL, "%s%s",
		level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL |
			 G_LOG_LEVEL_ERROR) ?
			"warning: " :
			"",
		message);
	if (level & G_LOG_LEVEL_ERROR)
		return g_log_writer_default(level, fields, n, user_data);
	return G_LOG_WRITER_HANDLED;
}

void bot_log_install(void)
{
	g_log_set_writer_func(write_glib, NULL, NULL);
}
