/* The reply armbot sends to the list for one series tested on one tree:
 * a whole RFC 5322 message (headers and a plain text UTF-8 body) in the
 * shape readers of the kernel test robot and patchew know:
 *
 *   1. "Hi <first name>,"
 *   2. the arch/arm verdict sentence (kernel/diff/dirstat-verdict.h)
 *   3. what it was tested on: tree, its description, base commit and how
 *      the base was chosen
 *   4. one line per check (apply, sparse, build, boot, runtime-PM), then
 *      one per board the series selects ("boot vexpress-a9 ok ...")
 *   5. the signed dirstat, then the mach-* / plat-* table
 *   6. details of every check that is not ok
 *   7. how to reproduce
 *   8. the signature ("-- ", the bot's name, the series' web page)
 *
 * Everything a reply says comes in through struct report, filled by the
 * caller; rendering does no I/O and depends on nothing but its input (the
 * Date too is an input), so that the same series gives the same mail on
 * every attempt and golden files can pin the format. */
#pragma once

#include <glib.h>

#include "kernel/diff/dirstat-verdict.h"
#include "kernel/build/kbuild.h"

enum report_check_kind {
	REPORT_CHECK_APPLY,
	REPORT_CHECK_SPARSE,
	REPORT_CHECK_BUILD,
	REPORT_CHECK_BOOT,
	REPORT_CHECK_RUNTIME_PM,
	REPORT_N_CHECKS,
};

enum report_status {
	REPORT_STATUS_SKIPPED, /* the zero value: a check nobody ran */
	REPORT_STATUS_OK,
	REPORT_STATUS_WARN,
	REPORT_STATUS_FAIL,
};

/* How a reader reproduces one check that is not ok, without armbot.  Every
 * pointer is borrowed; all optional. */
struct report_repro_check {
	/* what the steps do, a phrase after "sparse (WARN): " ("allmodconfig,
	 * then sparse on the objects the series touches") */
	const char *what;
	/* struct kbuild_step: the command lines as the build, sparse or qemu
	 * ran them, in the reader's kernel tree (kernel/build/kbuild.h, "what a
	 * reader runs"); two checks with the same array are printed once */
	const GPtrArray *steps;
	const char *note; /* after the steps: what armbot alone has */
};

/* Section 7, "To reproduce": the tree at the base, the series on top,
 * then, for each check that says WARN or FAIL, what it ran; last, the
 * same with armbot in one line.  Every pointer is borrowed; all
 * optional. */
struct report_reproduce {
	/* the tree: a git tree's URL and branch ... */
	const char *tree_url; /* NULL: the distro tree, or a tree the
				 public cannot fetch (a local path) */
	const char *tree_branch;
	/* ... or Debian's package that armbot imported */
	const char *distro_package; /* "linux-source-6.1" */
	const char *distro_version; /* "6.1.192-3" */
	const char *distro_tarball; /* "/usr/src/linux-source-6.1.tar.xz" */
	const char *base; /* the commit the series went onto, full hex */
	/* the root tree of @base, full hex: what `git write-tree` gives for
	 * the distro tarball unpacked (printed for the distro tree only) */
	const char *base_tree;
	/* the Message-ID b4 am looks the series up by, at the report's
	 * version: the cover's, or the first patch's (b4 takes either); NULL
	 * when that mail had none (armbot made one up) */
	const char *message_id;
	/* the series as armbot applied it, an mbox for git am
	 * ("https://armbot.example.org/series/42/mbox") */
	const char *mbox_url;
	struct report_repro_check checks[REPORT_N_CHECKS];
	/* "armbot check --tree distro-6.1 '<id>'" */
	const char *armbot_check;
};

/* One check's outcome.  Every string is borrowed and may be NULL. */
struct report_check {
	enum report_status status;
	/* why it was skipped: "--no-boot", "the series does not apply";
	 * printed as "skipped (<reason>)" */
	const char *reason;
	/* the counts, one short phrase: "3/3 patches", "2 new warnings,
	 * 1 fixed", "12/12 tests passed"; printed after the status */
	const char *summary;
	/* the details for section 6, verbatim (never rewrapped), printed
	 * for a check that is not ok: the patch that failed and its hunk,
	 * sparse_report()'s text ("sparse warnings: (new ones prefixed by
	 * >>)" and the warnings), each KUnit failure with its diagnostics,
	 * the console tail of a failed boot.  Its first line should say
	 * what it is; trailing newlines do not matter. */
	const char *detail;
};

/* The boot of one board the series selects (qemu/boards.h), besides the
 * virt boot of the checks: its line after the checks', "  boot NAME
 * STATUS SUMMARY (REASON)", and for one that is WARN or FAIL its detail
 * in section 6.  Every string is borrowed and may be NULL but @name. */
struct report_board {
	const char *name; /* "vexpress-a9" */
	/* ok; FAIL: the series broke it; WARN: it fails at the base too;
	 * skipped: not booted here (@summary says why) */
	enum report_status status;
	const char *summary; /* "userspace at 0.52 s", "kernel panic" */
	/* why the series selects it: "touches arch/arm/boot/dts/x.dts
	 * (arch/arm/boot/dts/vexpress-*) → vexpress-a9" */
	const char *reason;
	const char *detail; /* the console's tail of a failure */
};

/* How the base commit was chosen. */
enum report_base {
	REPORT_BASE_TREE_HEAD, /* the tree's head: no base-commit: given */
	REPORT_BASE_COMMIT, /* the series' base-commit: */
	REPORT_BASE_COMMIT_MISSING, /* base-commit: given but not in the
				       tree; the head was used */
	REPORT_BASE_GUESSED, /* the newest commit holding the pre-image
				blobs of the patches (kernel/base/baseguess.h) */
	REPORT_BASE_UNKNOWN, /* blob ids given, no commit has them all;
				the head was tried */
	REPORT_BASE_APPLIED, /* the series is in the tree already */
};

/* The input of a reply.  Every pointer is borrowed; the caller keeps it
 * alive while rendering.  Fields marked optional may be NULL/0. */
struct report {
	/* who sends: From */
	const char *bot_name; /* "armbot" */
	const char *bot_address; /* "armbot@example.org" */
	/* who gets it: To the author, Cc the list */
	const char *author_name; /* decoded display name; optional */
	const char *author_email;
	const char *list_address; /* optional */
	/* threading */
	const char *subject; /* decoded subject of the cover, or of the
				first patch, tags included */
	const char *parent_message_id; /* the cover's, or the first patch's:
					  In-Reply-To; no angle brackets */
	GPtrArray *parent_references; /* char *: the parent's References,
					 oldest first; optional */
	/* Message-ID of the reply, no angle brackets; optional: when NULL
	 * it is report_message_id(parent_message_id, version, tree_name,
	 * bot_address) */
	const char *message_id;
	guint version; /* of the series: 1 for an unversioned one */
	gint64 date; /* Unix time of the Date header */
	/* what it was tested on */
	const char *tree_name; /* "distro-6.1" */
	const char *tree_description; /* "Debian linux-source-6.1
					 6.1.192-3", "branch for-next of
					 git://..."; optional */
	const char *base_commit; /* full hex; printed with 12 digits */
	enum report_base base_how;
	/* how the base was found, or why not, one sentence without a full
	 * stop (kernel/base/baseguess.h's reason); optional */
	const char *base_reason;
	/* why the series was not tested (an unknown base and no apply at
	 * the head, or already applied); optional: NULL when tested */
	const char *not_tested;
	/* the verdict and the dirstat; optional (both NULL: nothing could
	 * be counted) */
	const struct dirstat_verdict *verdict;
	/* arch/arm64's, said after the dirstat when the series touches it;
	 * may be NULL */
	const struct dirstat_verdict *arm64;
	/* dirstat_report_format() of the signed dirstat (lines,
	 * cumulative, limit 3%) */
	const char *dirstat;
	/* why it grows arch/arm: near-copies and drivers in the wrong place,
	 * one line each (kernel/similar/similar.h); optional */
	const char *similar;
	struct report_check checks[REPORT_N_CHECKS];
	/* the boards booted besides virt, one line each after the checks;
	 * optional */
	const struct report_board *boards;
	guint n_boards;
	/* section 7; all zero: no such section */
	struct report_reproduce reproduce;
	const char *series_url; /* the public web page; optional */
};

#define REPORT_ERROR report_error_quark()
GQuark report_error_quark(void);

enum report_error {
	REPORT_ERROR_INVALID, /* a required field is missing */
};

/* The name of check @kind as printed: "apply", "sparse", "build",
 * "boot", "runtime-PM".  Static. */
const char *report_check_name(enum report_check_kind kind);

/* The line of board @b, without indent or newline: "boot vexpress-a9 ok
 * userspace at 0.52 s (touches ... → vexpress-a9)".  Newly allocated. */
char *report_board_line(const struct report_board *b);

/* Of the words given for each status, the one of @status (@skipped for a
 * value outside the enum): one place for the vocabularies other programs
 * want (KCIDB, patchwork, the store).  Returns the argument. */
const char *report_status_pick(enum report_status status, const char *skipped,
			       const char *ok, const char *warn,
			       const char *fail);

/* "ok", "WARN", "FAIL", "skipped".  Static. */
const char *report_status_name(enum report_status status);

/* How the base was found, as the store and the web say it ("base-commit",
 * "blob ids", "branch head", ...).  Static. */
const char *report_base_name(enum report_base how);

/* The Message-ID of the reply to the series whose cover (or first patch)
 * is @series_message_id, at @version, tested on @tree: the same on every
 * attempt, different for every (series, version, tree).  The domain is
 * @bot_address's ("armbot.invalid" without one).  Without angle brackets;
 * newly allocated. */
char *report_message_id(const char *series_message_id, guint version,
			const char *tree, const char *bot_address);

/* The first name to greet @author by: @author is a display name, an
 * address, or "Name <address>" (as series_author() gives it).  "Last,
 * First" gives "First", "First Last" gives "First", quotes and comments
 * are dropped; without a name, the address' local part when it looks
 * like a name ("jdoe", "john.doe" -> "john").  NULL when there is nothing
 * to greet by ("Hi," then).  Newly allocated, UTF-8. */
char *report_first_name(const char *author);

/* The envelope recipients: the author, then the list.  A new array of
 * newly allocated addresses. */
GPtrArray *report_recipients(const struct report *r);

/* The body alone (sections 1 to 8), LF line ends, UTF-8.  Newly
 * allocated. */
char *report_render_body(const struct report *r, GError **error);

/* The whole message: headers (non-ASCII parts encoded as RFC 2047
 * encoded words, long ones folded at 78 columns), an empty line, the
 * body.  LF line ends (SMTP sending makes them CRLF).  Returns NULL with
 * @error set when a required field (bot_address, author_email, subject,
 * parent_message_id, tree_name) is missing. */
GBytes *report_render(const struct report *r, GError **error);
