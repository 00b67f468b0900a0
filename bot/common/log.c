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
