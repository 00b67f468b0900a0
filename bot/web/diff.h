/* A patch's diff as HTML: one <pre class="diff"> whose lines are spans
 * by kind (file header, hunk header, added, removed, context, meta),
 * coloured by web_diff_style; every byte through bot/web/escape.h.
 * Server-side only, no script. */
#pragma once

#include <glib.h>

/* The CSS of the classes web_diff_append() writes. */
extern const char web_diff_style[];

/* At most this many bytes of one patch are shown; the rest is named. */
#define WEB_DIFF_MAX (1024 * 1024)

/* Append the @len bytes of @patch (the patch part of a mail as git
 * mailinfo splits it: the diffstat, then "diff --git" sections) to @out
 * as a coloured <pre>, @id its element id. */
void web_diff_append(GString *out, const char *id, const char *patch,
		     gsize len);
