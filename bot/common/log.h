/* The daemon's log: one line per event on stderr, "YYYY-MM-DD HH:MM:SS
 * WHO: TEXT" (or without "WHO: " when @who is NULL), from any thread. */
#pragma once

#include <glib.h>
#include <stdarg.h>

void bot_log(const char *who, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void bot_logv(const char *who, const char *fmt, va_list ap) G_GNUC_PRINTF(2, 0);

/* Make GLib's messages and warnings lines of this log too: the layers
 * below bot/ (kernel/, qemu/, config/) log with g_message() and
 * g_warning(), "WHO: TEXT", and know nothing of this file.  Debug and
 * info messages stay as GLib's G_MESSAGES_DEBUG says. */
void bot_log_install(void);
