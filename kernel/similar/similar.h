/* Why a series grows arch/arm, as a reviewer would say it: near-copies of
 * existing code (simindex.h) and drivers in the wrong place (misplaced.h),
 * for the patches of a series, and the text of the reply's section. */
#pragma once

#include <glib.h>

struct simindex;

#define SIMILAR_DEFAULT_MIN_LINES 30
#define SIMILAR_DEFAULT_THRESHOLD 60

struct similar_options {
	guint min_lines; /* a hunk of an existing file: at least this added */
	guint threshold; /* percent: a near-copy from here */
};

struct similar_copy {
	char *path; /* added code: the file */
	guint32 first_line, last_line; /* the added lines, new side */
	gboolean new_file;
	char *original; /* the existing file */
	guint32 orig_first, orig_last;
	guint percent;
};

struct similar_findings {
	GPtrArray *copies; /* struct similar_copy */
	GPtrArray *misplaced; /* struct misplaced */
};

/* The findings for the patches @patch (@len bytes, one or many diffs):
 * copies when @index is not NULL. */
struct similar_findings *similar_find(const struct simindex *index,
				      const char *patch, gsize len,
				      const struct similar_options *opts);
void similar_findings_free(struct similar_findings *f);
typedef struct similar_findings similar_findings;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(similar_findings, similar_findings_free)

/* One line per finding, e.g. "arch/arm/mach-foo/gpio.c is 81% similar to
 * drivers/gpio/gpio-mxc.c (lines 40-210)"; NULL when there is nothing to
 * say. */
char *similar_format(const struct similar_findings *f);
