/* The daemon's log: one line per event on stderr, "YYYY-MM-DD HH:MM:SS
 * WHO: TEXT" (or without "WHO: " when @who is NULL), from any thread. */
#pragma once

#include <glib.h>
#include <stdarg.h>

void bot_log(const char *who, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void bot_logv(const char *who, const char *fmt, va_list ap) G_GNUC_PRINTF(2, 0);
