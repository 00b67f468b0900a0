/* `git diff --dirstat`, and armbot's signed variant.
 *
 * Unsigned, the output is byte for byte git's (diff.c show_dirstat(),
 * show_dirstat_by_line(), gather_dirstat()).  Signed, each file contributes
 * its net (added minus removed) instead of its damage; directories are
 * selected by git's rule on the absolute value of their sum and printed
 * with its sign, and percentages are of the sum over files of |net|, so no
 * figure exceeds 100% and nothing divides by zero (see README.md). */
#pragma once

#include <glib.h>

#include "kernel/diff/treediff.h"

enum dirstat_mode {
	DIRSTAT_CHANGES, /* bytes of damage, diffcore-delta.c */
	DIRSTAT_LINES, /* added + removed lines, as --numstat */
	DIRSTAT_FILES, /* changed files */
};

struct dirstat_options {
	enum dirstat_mode mode;
	int permille; /* cut-off: 30 is git's default 3% */
	gboolean cumulative;
	gboolean is_signed;
};

#define DIRSTAT_OPTIONS_INIT                      \
	{                                         \
		DIRSTAT_CHANGES, 30, FALSE, FALSE \
	}

/* Apply git's --dirstat=<params> (diff.c parse_dirstat_params()): a comma
 * separated list of changes, lines, files, cumulative, noncumulative and a
 * cut-off percentage such as 3 or 16.7 (one decimal counts).  On error the
 * message lists every bad parameter, as git does. */
gboolean dirstat_parse_params(struct dirstat_options *opts, const char *params,
			      GError **error);

/* What one file pair did, in lines: --numstat's figures.  Binary files
 * count bytes, as git's diffstat does for them. */
struct dirstat_filestat {
	char *path; /* after; for a deletion the deleted path */
	char *old_path; /* before; for a creation the created path */
	char status; /* 'A', 'D', 'M', 'R' (rename), 'T' (type change) */
	gboolean binary;
	gboolean same_content; /* same object: pure rename or mode change */
	guint64 added, deleted;
};

void dirstat_filestat_free(struct dirstat_filestat *fs);

/* Line figures of every pair of @q (after rename detection if wanted), in
 * queue order.  Returns a GPtrArray of dirstat_filestat owned by the
 * caller, or NULL with @error set. */
GPtrArray *dirstat_filestats_from_tree(struct treediff *q, GError **error);

/* One directory of the report, as printed. */
struct dirstat_row {
	char *dir; /* with its trailing slash */
	gint64 value; /* the directory's sum (signed in signed mode) */
	int permille; /* of the total, always >= 0 */
};

struct dirstat_report {
	GPtrArray *rows; /* dirstat_row, in git's output order */
	guint64 total; /* sum of damage, or of |net| when signed */
	guint files; /* files that entered the sum */
	gboolean is_signed;
	enum dirstat_mode mode;
	int permille;
	gboolean cumulative;
};

void dirstat_report_free(struct dirstat_report *report);
typedef struct dirstat_report dirstat_report;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(dirstat_report, dirstat_report_free)

/* The dirstat of the pairs in @q for @opts.  Lines and files modes read
 * @filestats when given (from dirstat_filestats_from_tree()) and compute
 * them otherwise. */
struct dirstat_report *
dirstat_report_from_tree(struct treediff *q, GPtrArray *filestats,
			 const struct dirstat_options *opts, GError **error);

/* The dirstat of line figures alone (from a patch as mailed): lines and
 * files modes only. */
struct dirstat_report *
dirstat_report_from_filestats(GPtrArray *filestats,
			      const struct dirstat_options *opts,
			      GError **error);

/* Is the signed report balanced: files changed but every net is zero? */
gboolean dirstat_report_balanced(const struct dirstat_report *report);

/* git's text ("%4d.%01d%% dir/" per row); signed rows carry a '-' when
 * negative, and a balanced signed report says so in one line. */
char *dirstat_report_format(const struct dirstat_report *report);

/* "changes", "lines" or "files", as --dirstat spells the mode. */
const char *dirstat_mode_name(enum dirstat_mode mode);
