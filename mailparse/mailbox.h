/* Reading mailboxes: mbox (mboxo or mboxrd), maildir, a single message
 * file, stdin.  One reader for every subcommand.
 *
 * Messages come out the way `git mailsplit` writes them: an mbox message
 * keeps its "From " separator line, a line that git's is_from_line() takes
 * for a date-stamped "From " line starts the next message, CRLF line endings
 * become LF unless keep_cr is set, and with mboxrd one '>' is removed from
 * ">From " lines (">>From " becomes ">From "). */
#pragma once

#include <glib.h>

enum mailbox_format {
	MAILBOX_AUTO, /* maildir if a directory, mbox if it starts with a
			 From_ line, else one message */
	MAILBOX_MBOX, /* mboxo: ">From " lines are left alone */
	MAILBOX_MBOXRD,
	MAILBOX_MAILDIR,
	MAILBOX_MESSAGE,
};

struct mailbox_options {
	enum mailbox_format format;
	gboolean mboxrd; /* with AUTO: unquote ">From " lines as mboxrd */
	gboolean keep_cr; /* as git mailsplit --keep-cr */
};

#define MAILBOX_OPTIONS_INIT               \
	{                                  \
		MAILBOX_AUTO, FALSE, FALSE \
	}

typedef struct mailbox mailbox;

/* Open @path ("-" for stdin).  Returns NULL with @error set when it cannot
 * be read; an empty file is an empty mailbox, not an error. */
struct mailbox *mailbox_open(const char *path,
			     const struct mailbox_options *opts,
			     GError **error);

/* Store the next message in @out (NULL at the end of the mailbox) and return
 * TRUE; return FALSE with @error set on a read error (a maildir file that
 * vanished, say).  The caller owns *@out. */
gboolean mailbox_next(struct mailbox *mb, GBytes **out, GError **error);

/* Where the last message came from: "path" for a file or stdin, "path:N" for
 * the Nth message (1-based) of an mbox, the file name within a maildir. */
const char *mailbox_position(const struct mailbox *mb);

/* Split @data, the bytes of an mbox, exactly as git mailsplit: see above.
 * Returns an array of GBytes (owned by the caller). */
GPtrArray *mailbox_split_mbox(GBytes *data, gboolean mboxrd, gboolean keep_cr);

/* One message file's bytes as mailbox_next() gives them: CRLF line endings
 * become LF unless @keep_cr, and with @mboxrd ">From " lines lose a '>'.
 * Returns a new GBytes. */
GBytes *mailbox_convert_single(GBytes *data, gboolean mboxrd, gboolean keep_cr);

/* Does this line (without its newline) look like an mbox "From " separator,
 * as git's is_from_line()? */
gboolean mailbox_is_from_line(const char *line, gsize len);

/* Read all of standard input, as it is (no splitting, no CR stripping). */
gboolean mailbox_read_stdin(GBytes **out, GError **error);

/* The bytes of one maildir file.  new/ is writable by whoever delivers: a
 * symlink there ("1.evil -> /etc/passwd"), a FIFO or a device is not mail
 * and is refused with G_FILE_ERROR_INVAL without being read. */
gboolean mailbox_read_maildir_file(const char *path, GBytes **out,
				   GError **error);

void mailbox_free(struct mailbox *mb);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(mailbox, mailbox_free)
