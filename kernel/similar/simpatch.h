/* The added code of a patch, in pieces worth comparing with the tree: each
 * file the patch creates, and each hunk of another file that adds at least
 * a given number of lines.  Reads the diffs of any text (mails, git
 * format-patch, git log -p): lines that are not diff lines are skipped, a
 * malformed hunk header ends the file's hunks. */
#pragma once

#include <glib.h>

struct simpatch_piece {
	char *path; /* the file's path after the patch */
	gboolean new_file;
	guint32 first_line, last_line; /* of the added lines, new side */
	guint added; /* lines */
	GString *text; /* the added lines, without their '+' */
};

/* The pieces of @len bytes of @patch, in order: new files whole, hunks
 * of other files that add at least @min_lines lines. */
GPtrArray *simpatch_pieces(const char *patch, gsize len, guint min_lines);
