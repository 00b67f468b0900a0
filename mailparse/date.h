/* The mail date parser: git's (date.c, parse_date_basic), as `git am` turns
 * the "Date:" of a mail into the author timestamp and timezone: RFC 5322
 * and the many variants mail clients write, with git's guesses for the
 * rest.  The one date parser of armbot: the date the store keeps of a mail
 * (mailparse/message.h) and the author date of its commit
 * (kernel/patch/am.c) are read alike.  In mailparse/, the lowest layer,
 * because mail needs it first. */
#pragma once

#include <glib.h>

/* Parse @date as git's parse_date().  Stores seconds since the epoch in
 * *@timestamp and the zone in minutes east of UTC in *@offset.  Returns
 * FALSE when git would say "invalid date format" (dates before 1970 or
 * after 2099 among them). */
gboolean date_parse(const char *date, gint64 *timestamp, int *offset);
