/* git's rename detection (diffcore-rename.c, git 2.39) over a treediff
 * queue: exact renames, then renames between files of the same unique
 * basename, then the similarity matrix.  Copies are not detected: `git
 * diff` does not look for them unless asked. */
#pragma once

#include <glib.h>

#include "kernel/diff/treediff.h"

/* diffcore.h: similarity scores are out of MAX_SCORE */
#define DIFFRENAME_MAX_SCORE 60000
#define DIFFRENAME_DEFAULT_SCORE 30000 /* -M50% */

struct diffrename_options {
	int minimum_score; /* -M<n>: 0..60000 */
	int rename_limit; /* diff.renameLimit; 0 or less: unlimited */
};

/* git 2.39: diff.renameLimit defaults to 1000 */
#define DIFFRENAME_OPTIONS_INIT                \
	{                                      \
		DIFFRENAME_DEFAULT_SCORE, 1000 \
	}

/* Replace creations and deletions in @q by the renames git would find and
 * drop unmodified pairs, as diffcore_rename() rewrites diff_queued_diff. */
gboolean diffrename_detect(struct treediff *q,
			   const struct diffrename_options *opts,
			   GError **error);

/* Parse git's -M/--find-renames value ("50%", "5", "0.5", "100%") into a
 * score as diff.c parse_rename_score(); -1 when malformed. */
int diffrename_parse_score(const char *arg);
