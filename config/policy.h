/* How a series is tested and answered: the policy that armbot.conf's
 * [defaults] sets and a tree file (config/treefile.h) overrides key by
 * key, the words and durations its keys are written in, and the error
 * domain of both files.  The opt-in mails write a tree's policy in the
 * same words. */
#pragma once

#include <glib.h>

/* The errors of armbot.conf and the tree files. */
#define CONFIG_ERROR (config_error_quark())
GQuark config_error_quark(void);

enum config_error_code {
	CONFIG_ERROR_INVALID, /* a bad key, value or pattern: FILE:LINE: */
	CONFIG_ERROR_NOT_FOUND, /* --config or $ARMBOT_CONFIG names no file */
};

/* The checks a tree can ask for, as a bit mask. */
enum config_check {
	CONFIG_CHECK_APPLY = 1 << 0,
	CONFIG_CHECK_DIRSTAT = 1 << 1,
	CONFIG_CHECK_SPARSE = 1 << 2,
	CONFIG_CHECK_BOOT = 1 << 3,
	CONFIG_CHECK_RPM = 1 << 4,
	/* the boards the series selects besides virt (qemu/boards.conf) */
	CONFIG_CHECK_BOARDS = 1 << 5,
};
#define CONFIG_CHECK_ALL 0x3f

/* When the bot replies to a series. */
enum config_reply {
	CONFIG_REPLY_ALWAYS, /* every series it tested */
	CONFIG_REPLY_PROBLEMS, /* only when a check found a problem */
	CONFIG_REPLY_NEVER, /* results on the web pages only */
};

/* Who a reply goes to. */
enum config_reply_to {
	CONFIG_REPLY_TO_LIST, /* reply-all: the author, Cc's and the list */
	CONFIG_REPLY_TO_AUTHOR, /* the author only */
};

/* What happens to a series whose base is unknown (no base-commit: in the
 * tree, no commit with its pre-image blobs) and that does not apply at
 * the tree's head: it is not tested, and the reply, if any, says so. */
enum config_unknown_base {
	CONFIG_UNKNOWN_BASE_SILENT, /* the web pages and /api only */
	CONFIG_UNKNOWN_BASE_AUTHOR, /* a reply to the author alone */
	CONFIG_UNKNOWN_BASE_LIST, /* a reply as reply-to says */
};

/* How a series is tested and answered: [defaults] of armbot.conf, which a
 * tree file overrides key by key. */
struct config_policy {
	guint checks; /* enum config_check mask */
	enum config_reply reply;
	enum config_reply_to reply_to;
	guint list_cap; /* replies per list per hour, 0: no cap */
	gboolean rfc; /* RFC series are tested and replied to */
	enum config_unknown_base unknown_base;
	guint update_interval; /* seconds between the daemon's fetches of a
				* tree with a url; 0: only on demand (the
				* tree's first series, `armbot tree update`) */
};

/* The default of update-interval: an hour. */
#define CONFIG_UPDATE_INTERVAL_DEFAULT 3600

struct keyfile;

/* Read the policy keys (checks, reply, reply-to, rfc, unknown-base,
 * update-interval) of @group of @k over the values already in @p; errors
 * go to @k.  For armbot.conf's [defaults] and a tree file's [tree]. */
void config_policy_read(struct keyfile *k, const char *group,
			struct config_policy *p);

/* The words of the policy keys: FALSE for an unknown word. */
gboolean config_parse_checks(const char *const *words, guint *out,
			     char **bad_word);
gboolean config_parse_reply(const char *word, enum config_reply *out);
gboolean config_parse_reply_to(const char *word, enum config_reply_to *out);
/* "silent", "author", "list" */
gboolean config_parse_unknown_base(const char *word,
				   enum config_unknown_base *out);
const char *config_unknown_base_name(enum config_unknown_base u);

/* A duration as the configuration writes it: "never" or "0" (0 seconds),
 * seconds ("90"), or numbers with units s, m, h, d, largest first
 * ("30m", "6h", "1d", "1h30m"), at most CONFIG_DURATION_MAX.  FALSE for
 * anything else (and *@out_seconds is left alone). */
#define CONFIG_DURATION_MAX (366u * 24 * 3600)
gboolean config_parse_duration(const char *text, guint *out_seconds);

/* @seconds the way config_parse_duration() reads it back, in the largest
 * units that add up to it exactly ("1h30m", "2s"), "never" for 0.  Newly
 * allocated. */
char *config_duration_string(guint seconds);

/* The names of the checks of @mask, comma separated ("apply, dirstat"),
 * and of a reply policy.  Newly allocated / static. */
char *config_checks_string(guint mask);
const char *config_reply_name(enum config_reply reply);
const char *config_reply_to_name(enum config_reply_to to);
