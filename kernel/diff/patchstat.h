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

/* A mail that patchstat_mbox() leaves out: the @n-th of the mailbox and
 * why git mailinfo refuses it. */
typedef void (*patchstat_skip_fn)(guint n, const GError *why,
				  gpointer user_data);

/* The line figures of every patch in mailbox @path (struct
 * dirstat_filestat *, owned): each mail split as git am would (git
 * mailinfo), so quoted-printable, base64 and attached patches count as
 * what they decode to.  A mail git mailinfo refuses is left out, as git am
 * would stop on it, and told to @on_skip (may be NULL).  NULL with @error
 * when the mailbox cannot be read. */
GPtrArray *patchstat_mbox(const char *path, patchstat_skip_fn on_skip,
			  gpointer user_data, GError **error);
