/* git's date parsing (date.c, parse_date_basic), as `git am` turns the
 * "Date:" of a mail into the author timestamp and timezone: RFC 2822 and
 * the many variants mail clients write, with git's guesses for the rest. */
#pragma once

#include <glib.h>

/* Parse @date as git's parse_date().  Stores seconds since the epoch in
 * *@timestamp and the zone in minutes east of UTC in *@offset.  Returns
 * FALSE when git would say "invalid date format". */
gboolean gitdate_parse(const char *date, gint64 *timestamp, int *offset);
