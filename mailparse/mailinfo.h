/* One mail to author, subject, commit message and patch, exactly as
 * `git mailinfo` (git 2.39.5) splits it.
 *
 * The rules are git's mailinfo.c, ported line for line because its output
 * is what every maintainer's `git am` commits: header unfolding and the
 * RFC 2047 decoding of From/Subject/Date (mailparse/rfc2047.h), the MIME
 * boundary stack (at most four nested), quoted-printable and base64 bodies
 * decoded line by line (mailparse/transfer.h),
 * re-coding to UTF-8 with iconv, in-body headers, scissors lines, the
 * "---" separator and where the patch starts, and the subject clean-up of
 * -k/-b.  Where git reads past the end of a string or recurses without
 * bound, we stop instead and give git's output for every input it handles
 * without undefined behaviour.  git's configuration (mailinfo.scissors,
 * mailinfo.quotedCR, i18n.commitEncoding) is not read: the options say it
 * all. */
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
	/* re-code to this ("UTF-8" by default, -u); NULL = -n */
	const char *charset;
	/* -1 default (off), 0 --no-scissors, 1 --scissors */
	int use_scissors;
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
	/* the last Message-ID header value (unfolded, RFC 2047 decoded, as
	 * --message-id adds it), or NULL */
	char *message_id;
	/* The threading headers as RFC 5322 defines them, parsed with
	 * libetpan (mailparse/msgid.h): bare ids, without "<>". */
	char *msgid; /* Message-ID, or NULL */
	char *in_reply_to; /* the first id of In-Reply-To, or NULL */
	GPtrArray *references; /* of char *, oldest first; never NULL */

	GString *info; /* exactly what git mailinfo prints on stdout */
	GString *msg; /* exactly the <msg> file */
	GString *patch; /* exactly the <patch> file */

	/* Exactly what git mailinfo prints on stderr ("error: ...\n",
	 * "warning: ...\n"), except the "empty patch" error, which names the
	 * patch file: see @empty. */
	GString *diagnostics;
	gboolean failed; /* git mailinfo would exit with status 1 */
	/* the mail is empty or only whitespace: git says "empty patch:
	 * '<patch>'" and writes nothing */
	gboolean empty;
	/* when @failed: one line naming the problem (git is silent about a
	 * malformed encoded word in a header; this says which header) */
	char *problem;
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

/* git's is_scissors_line(): "-- >8 --" and its relatives. */
gboolean mailinfo_is_scissors_line(const char *line);

/* git's patchbreak(): does @line (with its newline) start the patch? */
gboolean mailinfo_is_patch_break(const char *line, gsize len);

/* git's cleanup_subject() followed by the whitespace clean-up: "Re:",
 * "[PATCH ...]" (and with @keep_non_patch only those brackets that contain
 * "PATCH") removed.  Returns a new string. */
char *mailinfo_cleanup_subject(const char *subject, gboolean keep_non_patch);
