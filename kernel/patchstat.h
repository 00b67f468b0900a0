/* Line figures of a patch as mailed: what `git apply --numstat` reports,
 * read from the unified diff text alone, so that a series that does not
 * apply still gets a dirstat and a verdict. */
#pragma once

#include <glib.h>

/* Parse the diffs in @text (git's "diff --git" form or plain "---/+++"
 * unified diffs, paths with one leading component stripped as -p1) and
 * append one dirstat_filestat per file to @out.  Hunk line counts come
 * from the hunk headers, so a "-- " signature or trailing text is never
 * taken for a removed line.  Binary patches count no lines.  Returns the
 * number of files found. */
guint patchstat_parse(const char *text, gsize len, GPtrArray *out);
