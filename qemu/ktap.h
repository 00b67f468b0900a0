/* KTAP, the test output of KUnit (Documentation/dev-tools/ktap.rst), read
 * from a kernel console: printk timestamps and unrelated kernel messages
 * interleaved, suites nested by indentation, and output that may stop in
 * the middle of a case when the kernel panics or hangs. */
#pragma once

#include <glib.h>

enum ktap_status {
	KTAP_PASS,
	KTAP_FAIL,
	KTAP_SKIP,
	KTAP_CRASHED, /* no result line: the output ended while it ran */
};

struct ktap_case {
	char *suite; /* "rpm_core"; nested suites joined with '.' */
	char *name; /* "rpm_test_barrier"; "#N" when it crashed before
			    printing its name */
	guint number;
	enum ktap_status status;
	char *directive; /* "SKIP reason", NULL when none */
	/* the lines printed while the case ran: its "#" diagnostics, the
	 * continuation lines of failed expectations, kernel messages (an
	 * oops); timestamps stripped */
	GPtrArray *diagnostics;
};

struct ktap_suite {
	char *name;
	guint planned; /* from "1..N"; 0 when not given */
	guint seen; /* result lines of its cases */
	gboolean has_result;
	enum ktap_status status;
};

struct ktap_report {
	GPtrArray *cases; /* struct ktap_case *, in output order */
	GPtrArray *suites; /* struct ktap_suite *, in output order */
	gboolean crashed; /* the output ended inside a suite */
};

/* Parse the KTAP in @console (a whole console log).  Never fails: text
 * that is not KTAP is diagnostics or ignored. */
struct ktap_report *ktap_parse(const char *console);

/* Number of cases with @status. */
guint ktap_count(const struct ktap_report *report, enum ktap_status status);

/* The case @suite.@name, or NULL. */
const struct ktap_case *ktap_find(const struct ktap_report *report,
				  const char *suite, const char *name);

const char *ktap_status_name(enum ktap_status status);

void ktap_report_free(struct ktap_report *report);
typedef struct ktap_report ktap_report;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ktap_report, ktap_report_free)

/* A run compared with the base's run; the arrays borrow the cases of the
 * reports (the base's for not_run). */
struct ktap_diff {
	GPtrArray *new_failures; /* fail/crash now, passed, skipped or was
				     absent in the base */
	GPtrArray *fixed; /* failed in the base, pass now */
	GPtrArray *still_failing; /* failed in both */
	GPtrArray *passed; /* pass now and passed in the base (or new) */
	GPtrArray *skipped; /* skipped now */
	GPtrArray *not_run; /* in the base, absent now */
};

/* Compare @now with @base (NULL: every failure is new). */
void ktap_compare(const struct ktap_report *base, const struct ktap_report *now,
		  struct ktap_diff *out);

void ktap_diff_clear(struct ktap_diff *diff);
