/* Lines added and removed between two buffers exactly as git's xdiff
 * counts them for --numstat and --dirstat=lines (git 2.39, Myers, no
 * whitespace options): the same record classification, trimming of the
 * common head and tail, discarding of lines without or with too many
 * matches, and the same cost heuristics in the middle snake search, so
 * the counts are git's even where its diff is not minimal. */
#pragma once

#include <glib.h>

/* Count the lines of @b not in @a (@added) and of @a not in @b
 * (@deleted).  A last line without a newline is a line of its own, not
 * equal to the same text with one.  Never fails for any input. */
void linediff_count(const char *a, gsize a_len, const char *b, gsize b_len,
		    guint64 *added, guint64 *deleted);
