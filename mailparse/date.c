/* A port of the parts of git's date.c (git 2.39) that parse_date() uses:
 * match_alpha, match_digit, match_multi_number, match_tz, tm_to_time_t.
 * See mailparse/date.h. */
#include "mailparse/date.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const month_names[] = { "January", "February", "March",
					   "April",   "May",	  "June",
					   "July",    "August",	  "September",
					   "October", "November", "December" };

static const char *const weekday_names[] = { "Sundays",	  "Mondays",
					     "Tuesdays",  "Wednesdays",
					     "Thursdays", "Fridays",
					     "Saturdays" };

/* git: "note how it doesn't do the summer-time conversion" */
static const struct {
	const char *name;
	int offset;
	int dst;
} timezone_names[] = {
	{ "IDLW", -12, 0 }, { "NT", -11, 0 },	{ "CAT", -10, 0 },
	{ "HST", -10, 0 },  { "HDT", -10, 1 },	{ "YST", -9, 0 },
	{ "YDT", -9, 1 },   { "PST", -8, 0 },	{ "PDT", -8, 1 },
	{ "MST", -7, 0 },   { "MDT", -7, 1 },	{ "CST", -6, 0 },
	{ "CDT", -6, 1 },   { "EST", -5, 0 },	{ "EDT", -5, 1 },
	{ "AST", -3, 0 },   { "ADT", -3, 1 },	{ "WAT", -1, 0 },
	{ "GMT", 0, 0 },    { "UTC", 0, 0 },	{ "Z", 0, 0 },
	{ "WET", 0, 0 },    { "BST", 0, 1 },	{ "CET", +1, 0 },
	{ "MET", +1, 0 },   { "MEWT", +1, 0 },	{ "MEST", +1, 1 },
	{ "CEST", +1, 1 },  { "MESZ", +1, 1 },	{ "FWT", +1, 0 },
	{ "FST", +1, 1 },   { "EET", +2, 0 },	{ "EEST", +2, 1 },
	{ "WAST", +7, 0 },  { "WADT", +7, 1 },	{ "CCT", +8, 0 },
	{ "JST", +9, 0 },   { "EAST", +10, 0 }, { "EADT", +10, 1 },
	{ "GST", +10, 0 },  { "NZT", +12, 0 },	{ "NZST", +12, 0 },
	{ "NZDT", +12, 1 }, { "IDLE", +12, 0 },
};

/* git's tm_to_time_t: only 1970-2099, no mktime() and its local zone */
static gint64 tm_to_time_t(const struct tm *tm)
{
	static const int mdays[] = { 0,	  31,  59,  90,	 120, 151,
				     181, 212, 243, 273, 304, 334 };
	int year = tm->tm_year - 70;
	int month = tm->tm_mon;
	int day = tm->tm_mday;

	if (year < 0 || year > 129)
		return -1;
	if (month < 0 || month > 11)
		return -1;
	if (month < 2 || (year + 2) % 4)
		day--;
	if (tm->tm_hour < 0 || tm->tm_min < 0 || tm->tm_sec < 0)
		return -1;
	return ((gint64)year * 365 + (year + 1) / 4 + mdays[month] + day) * 24 *
		       60 * 60 +
	       tm->tm_hour * 60 * 60 + tm->tm_min * 60 + tm->tm_sec;
}

static int match_string(const char *date, const char *str)
{
	int i;

	for (i = 0; *date; date++, str++, i++) {
		if (*date == *str)
			continue;
		if (toupper((guchar)*date) == toupper((guchar)*str))
			continue;
		if (!isalnum((guchar)*date))
			break;
		return 0;
	}
	return i;
}

static int skip_alpha(const char *date)
{
	int i = 0;

	do {
		i++;
	} while (isalpha((guchar)date[i]));
	return i;
}

static int match_alpha(const char *date, struct tm *tm, int *offset)
{
	guint i;

	for (i = 0; i < 12; i++) {
		int match = match_string(date, month_names[i]);

		if (match >= 3) {
			tm->tm_mon = i;
			return match;
		}
	}
	for (i = 0; i < 7; i++) {
		int match = match_string(date, weekday_names[i]);

		if (match >= 3) {
			tm->tm_wday = i;
			return match;
		}
	}
	for (i = 0; i < G_N_ELEMENTS(timezone_names); i++) {
		int match = match_string(date, timezone_names[i].name);

		if (match >= 3 ||
		    match == (int)strlen(timezone_names[i].name)) {
			int off = timezone_names[i].offset +
				  timezone_names[i].dst;

			if (*offset == -1)
				*offset = 60 * off;
			return match;
		}
	}
	if (match_string(date, "PM") == 2) {
		tm->tm_hour = (tm->tm_hour % 12) + 12;
		return 2;
	}
	if (match_string(date, "AM") == 2) {
		tm->tm_hour = (tm->tm_hour % 12) + 0;
		return 2;
	}
	return skip_alpha(date);
}

static int set_date(int year, int month, int day, struct tm *now_tm, time_t now,
		    struct tm *tm)
{
	if (month > 0 && month < 13 && day > 0 && day < 32) {
		struct tm check = *tm;
		struct tm *r = now_tm ? &check : tm;
		gint64 specified;

		r->tm_mon = month - 1;
		r->tm_mday = day;
		if (year == -1) {
			if (!now_tm)
				return 1;
			r->tm_year = now_tm->tm_year;
		} else if (year >= 1970 && year < 2100)
			r->tm_year = year - 1900;
		else if (year > 70 && year < 100)
			r->tm_year = year;
		else if (year < 38)
			r->tm_year = year + 100;
		else
			return -1;
		if (!now_tm)
			return 0;
		specified = tm_to_time_t(r);
		/* git refuses dates more than ten days in the future */
		if (specified != -1 && now + 10 * 24 * 3600 < specified)
			return -1;
		tm->tm_mon = r->tm_mon;
		tm->tm_mday = r->tm_mday;
		if (year != -1)
			tm->tm_year = r->tm_year;
		return 0;
	}
	return -1;
}

static int set_time(long hour, long minute, long second, struct tm *tm)
{
	/* the 61st second for leap seconds */
	if (0 <= hour && hour <= 24 && 0 <= minute && minute < 60 &&
	    0 <= second && second <= 60) {
		tm->tm_hour = hour;
		tm->tm_min = minute;
		tm->tm_sec = second;
		return 0;
	}
	return -1;
}

static gboolean is_date_known(struct tm *tm)
{
	return tm->tm_year != -1 && tm->tm_mon != -1 && tm->tm_mday != -1;
}

static int match_multi_number(gint64 num, char c, const char *date, char *end,
			      struct tm *tm, time_t now)
{
	struct tm now_tm;
	struct tm *refuse_future;
	long num2, num3;

	num2 = strtol(end + 1, &end, 10);
	num3 = -1;
	if (*end == c && isdigit((guchar)end[1]))
		num3 = strtol(end + 1, &end, 10);
	switch (c) {
	case ':':
		if (num3 < 0)
			num3 = 0;
		if (set_time(num, num2, num3, tm) == 0) {
			/* fractional seconds after a known date */
			if (*end == '.' && isdigit((guchar)end[1]) &&
			    is_date_known(tm))
				strtol(end + 1, &end, 10);
			break;
		}
		return 0;
	case '-':
	case '/':
	case '.':
		if (!now)
			now = time(NULL);
		refuse_future = NULL;
		if (gmtime_r(&now, &now_tm))
			refuse_future = &now_tm;
		if (num > 70) {
			if (set_date(num, num2, num3, NULL, now, tm) == 0)
				break;
			if (set_date(num, num3, num2, NULL, now, tm) == 0)
				break;
		}
		if (c != '.' &&
		    set_date(num3, num, num2, refuse_future, now, tm) == 0)
			break;
		if (set_date(num3, num2, num, refuse_future, now, tm) == 0)
			break;
		if (c == '.' &&
		    set_date(num3, num, num2, refuse_future, now, tm) == 0)
			break;
		return 0;
	}
	return end - date;
}

static gboolean nodate(struct tm *tm)
{
	return (tm->tm_year & tm->tm_mon & tm->tm_mday & tm->tm_hour &
		tm->tm_min & tm->tm_sec) < 0;
}

static int match_digit(const char *date, struct tm *tm, int *offset,
		       int *tm_gmt)
{
	int n;
	char *end;
	gint64 num;

	num = g_ascii_strtoull(date, &end, 10);
	/* seconds since 1970 for numbers of more than eight digits */
	if (num >= 100000000 && nodate(tm)) {
		time_t t = num;

		if (gmtime_r(&t, tm)) {
			*tm_gmt = 1;
			return end - date;
		}
	}
	switch (*end) {
	case ':':
	case '.':
	case '/':
	case '-':
		if (isdigit((guchar)end[1])) {
			int match =
				match_multi_number(num, *end, date, end, tm, 0);
			if (match)
				return match;
		}
	}
	n = 0;
	do {
		n++;
	} while (isdigit((guchar)date[n]));
	/* compact ISO 8601: YYYYmmDD, HHMMSS */
	if (n == 8 || n == 6) {
		unsigned int num1 = num / 10000;
		unsigned int num2 = (num % 10000) / 100;
		unsigned int num3 = num % 100;

		if (n == 8)
			set_date(num1, num2, num3, NULL, time(NULL), tm);
		else if (n == 6 && set_time(num1, num2, num3, tm) == 0 &&
			 *end == '.' && isdigit((guchar)end[1]))
			strtoul(end + 1, &end, 10);
		return end - date;
	}
	if (n == 4) {
		if (num <= 1400 && *offset == -1) {
			unsigned int minutes = num % 100;
			unsigned int hours = num / 100;

			*offset = hours * 60 + minutes;
		} else if (num > 1900 && num < 2100)
			tm->tm_year = num - 1900;
		return n;
	}
	if (n > 2)
		return n;
	/* day of month first: "01 Apr 05" is April 1st, 2005 */
	if (num > 0 && num < 32 && tm->tm_mday < 0) {
		tm->tm_mday = num;
		return n;
	}
	if (n == 2 && tm->tm_year < 0) {
		if (num < 10 && tm->tm_mday >= 0) {
			tm->tm_year = num + 100;
			return n;
		}
		if (num >= 70) {
			tm->tm_year = num;
			return n;
		}
	}
	if (num > 0 && num < 13 && tm->tm_mon < 0)
		tm->tm_mon = num - 1;
	return n;
}

static int match_tz(const char *date, int *offp)
{
	char *end;
	int hour = strtoul(date + 1, &end, 10);
	int n = end - (date + 1);
	int min = 0;

	if (n == 4) {
		min = hour % 100;
		hour = hour / 100;
	} else if (n != 2) {
		min = 99;
	} else if (*end == ':') {
		min = strtoul(end + 1, &end, 10);
		if (end - (date + 1) != 5)
			min = 99;
	}
	if (min < 60 && hour < 24) {
		int offset = hour * 60 + min;

		if (*date == '-')
			offset = -offset;
		*offp = offset;
	}
	return end - date;
}

/* git's match_object_header_date: "@<seconds> <+-hhmm>" */
static gboolean match_object_header_date(const char *date, gint64 *timestamp,
					 int *offset)
{
	char *end;
	gint64 stamp;
	int ofs;

	if (*date < '0' || '9' < *date)
		return FALSE;
	stamp = g_ascii_strtoull(date, &end, 10);
	if (*end != ' ' || (end[1] != '+' && end[1] != '-'))
		return FALSE;
	date = end + 2;
	ofs = strtol(date, &end, 10);
	if ((*end != '\0' && *end != '\n') || end != date + 4)
		return FALSE;
	ofs = (ofs / 100) * 60 + (ofs % 100);
	if (date[-1] == '-')
		ofs = -ofs;
	*timestamp = stamp;
	*offset = ofs;
	return TRUE;
}

gboolean date_parse(const char *date, gint64 *timestamp, int *offset)
{
	struct tm tm;
	int tm_gmt = 0;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = tm.tm_mon = tm.tm_mday = -1;
	tm.tm_isdst = -1;
	tm.tm_hour = tm.tm_min = tm.tm_sec = -1;
	*offset = -1;
	if (*date == '@' &&
	    match_object_header_date(date + 1, timestamp, offset))
		return TRUE;
	for (;;) {
		int match = 0;
		guchar c = *date;

		if (!c || c == '\n')
			break;
		if (isalpha(c))
			match = match_alpha(date, &tm, offset);
		else if (isdigit(c))
			match = match_digit(date, &tm, offset, &tm_gmt);
		else if ((c == '-' || c == '+') && isdigit((guchar)date[1]))
			match = match_tz(date, offset);
		if (!match)
			match = 1;
		date += match;
	}
	*timestamp = tm_to_time_t(&tm);
	if (*timestamp == -1)
		return FALSE;
	if (*offset == -1) {
		/* no zone given: the local one, as git */
		time_t temp_time;

		tm.tm_isdst = -1;
		temp_time = mktime(&tm);
		if ((time_t)*timestamp > temp_time)
			*offset = ((time_t)*timestamp - temp_time) / 60;
		else
			*offset = -(int)((temp_time - (time_t)*timestamp) / 60);
	}
	if (!tm_gmt)
		*timestamp -= (gint64)*offset * 60;
	return TRUE;
}
