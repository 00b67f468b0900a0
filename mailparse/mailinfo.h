/* One mail to author, subject, commit message and patch, exactly as
 * `git mailinfo` (git 2.39.5) splits it.
 *
 * The rules are git's mailinfo.c, ported line for line because its output
 * is what every maintainer's `git am` commits: header unfolding and the
 * RFC 2047 decoding of From/Subject/Date, the MIME boundary stack (at most
 * four nested), quoted-printable and base64 bodies decoded line by line,
 * re-coding to UTF-8 with iconv, in-body headers, scissors lines, the
 * "---" separator and where the patch starts, and the subject clean-up of
 * -k/-b.  Where git reads past the end of a string or recurses without
 * bound, we stop instead and give git's output for every input it handles
 * without undefined behaviour. */
#pragma once

#include <glib.h>

/* Errors of mailinfo_parse(): git mailinfo exits non-zero on this mail. */
#define MAILINFO_ERROR (mailinfo_error_quark())
GQuark mailinfo_error_quark(void);

enum mailinfo_quoted_cr {
	MAILINFO_QUOTED_CR_NOWARN,
	MAILINFO_QUOTED_CR_WARN,
	MAILINFO_QUOTED_CR_STRIP,
};

struct mailinfo_options {
	gboolean keep_subject; /* -k */
	gboolean keep_non_patch; /* -b */
	const char *charset; /* re-code to this ("UTF-8" by default,
					-u); NULL = -n */
	int use_scissors; /* -1 default (off), 0 --no-scissors,
					1 --scissors */
	gboolean use_inbody_headers; /* TRUE by default */
	gboolean add_message_id; /* --message-id */
	enum mailinfo_quoted_cr quoted_cr;
};

/* git mailinfo's defaults: -u (UTF-8), in-body headers, no scissors,
 * --quoted-cr=warn. */
#define MAILINFO_OPTIONS_INIT                           \
	{                                               \
		FALSE, FALSE, "UTF-8", -1, TRUE, FALSE, \
			MAILINFO_QUOTED_CR_WARN         \
	}

typedef struct mailinfo_result mailinfo_result;

struct mailinfo_result {
	char *author; /* name as in the "Author: " line, or NULL */
	char *email; /* as in the "Email: " line, or NULL */
	char *subject; /* cleaned, as in the "Subject: " line, or NULL */
	char *date; /* as in the "Date: " line, or NULL */
	char *message_id; /* the last Message-ID header value (unfolded,
			     RFC 2047 decoded, as --message-id adds it), or
			     NULL */
	GString *info; /* exactly what git mailinfo prints on stdout */
	GString *msg; /* exactly the <msg> file */
	GString *patch; /* exactly the <patch> file */

	/* Exactly what git mailinfo prints on stderr ("error: ...\n",
	 * "warning: ...\n"), except the "empty patch" error, which names the
	 * patch file: see @empty. */
	GString *diagnostics;
	gboolean failed; /* git mailinfo would exit with status 1 */
	gboolean empty; /* the mail is empty or only whitespace: git says
			    "empty patch: '<patch>'" and writes nothing */
};

/* Run git mailinfo's rules over @raw, one mail as git mailsplit writes it
 * (see mailparse/mailbox.h).  Never fails: a mail that makes git exit
 * non-zero comes back with @failed set and everything git writes before
 * exiting.  The caller owns the result. */
struct mailinfo_result *mailinfo_run(GBytes *raw,
				     const struct mailinfo_options *opts);

/* Parse one mail (as git mailsplit writes it; see mailparse/mailbox.h).
 * Returns FALSE with @error only where git mailinfo itself fails (then a
 * one-line message naming the problem, and *@out is left NULL). */
gboolean mailinfo_parse(struct mailinfo_result **out, GBytes *raw,
			const struct mailinfo_options *opts, GError **error);

/* Accepts NULL. */
void mailinfo_result_free(struct mailinfo_result *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(mailinfo_result, mailinfo_result_free)

/* The pieces, exposed for the unit tests and for other mail code. */

/* RFC 2047 encoded words in @value decoded and re-coded to @charset (NULL:
 * left in their own charset), as git's decode_header().  Returns NULL with
 * @error where git gives up on the header (then git keeps it undecoded). */
char *mailinfo_decode_header(const char *value, const char *charset,
			     GError **error);

/* Quoted-printable (@rfc2047: "_" is a space) and base64 decoding of one
 * line, with git's tolerance: garbage is kept (QP) or skipped (base64),
 * decoding stops at a NUL, "=" at the end of a line drops the newline. */
GString *mailinfo_decode_qp(const char *in, gboolean rfc2047);
GString *mailinfo_decode_base64(const char *in);

/* git's is_scissors_line(): "-- >8 --" and its relatives. */
gboolean mailinfo_is_scissors_line(const char *line);

/* git's patchbreak(): does @line (with its newline) start the patch? */
gboolean mailinfo_is_patch_break(const char *line, gsize len);

/* git's cleanup_subject() followed by the whitespace clean-up: "Re:",
 * "[PATCH ...]" (and with @keep_non_patch only those brackets that contain
 * "PATCH") removed.  Returns a new string. */
char *mailinfo_cleanup_subject(const char *subject, gboolean keep_non_patch);
