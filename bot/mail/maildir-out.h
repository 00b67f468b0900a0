/* Deliver one message into a maildir, as a delivery agent does
 * (maildir(5), D. J. Bernstein's "Using maildir format"): written under
 * tmp/ with a unique name, fsync'ed, then linked into new/ and the
 * directory fsync'ed, so that a reader never sees a partial message and a
 * crash never loses one that was reported delivered.  The outbox of a bot
 * with no SMTP configured, and of dry runs. */
#pragma once

#include <glib.h>

/* Deliver @message into the maildir @dir (created with tmp/, new/ and
 * cur/ when missing).  Line ends are kept as given (armbot renders LF).
 * *@name_out (unless NULL) gets the file name under new/.  Returns FALSE
 * with @error set (G_IO_ERROR / G_FILE_ERROR) when it could not be
 * delivered; nothing is left in new/ then. */
gboolean maildir_out_deliver(const char *dir, GBytes *message, char **name_out,
			     GError **error);
