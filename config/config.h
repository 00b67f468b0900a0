/* armbot's configuration: armbot.conf (a GKeyFile) and the tree files of
 * its trees.d directory.
 *
 * The file is found by config_find(): --config FILE, else $ARMBOT_CONFIG,
 * else $XDG_CONFIG_HOME/armbot/armbot.conf when it exists.  No file at all
 * is a valid configuration: the embedded defaults (replies to the outbox
 * maildir of the data dir, web on 127.0.0.1:8080, the distro tree as the
 * only tree).  Relative paths in the file are relative to the file's
 * directory.  Every error names the place: "FILE:LINE: message" (or
 * "FILE: message" when no line is to blame).  config/armbot.conf.example
 * documents every key. */
#pragma once

#include <glib.h>

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
};
#define CONFIG_CHECK_ALL 0x1f

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

/* STARTTLS on smtp:// (RFC 3207); the values of bot/smtp.h's enum
 * smtp_starttls, in the same order. */
enum config_starttls {
	CONFIG_STARTTLS_OPPORTUNISTIC, /* when the server offers it */
	CONFIG_STARTTLS_REQUIRED, /* refuse to send without it */
	CONFIG_STARTTLS_NEVER,
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

struct armbot_config {
	char *path; /* the file read, or NULL: embedded defaults */

	/* [bot] */
	char *name; /* "armbot": the From display name */
	char *address; /* "armbot@localhost": the From address */
	char *data_dir; /* absolute, or NULL: --data-dir's default */
	char *trees_dir; /* absolute; default trees.d beside the file,
			  * NULL without a file */
	gboolean dry_run; /* compose replies, send nothing (not even to
			   * the outbox); the log says what would go */

	/* [sources] */
	char **sources; /* NULL-terminated, may be empty: "maildir:PATH"
			 * (absolute), "imap://", "imaps://", "nntp://",
			 * "nntps://", "http://", "https://" URLs */

	/* [smtp] */
	char *smtp_url; /* "smtp://host[:port]" or "smtps://...", or NULL:
			 * replies stay in the outbox maildir */
	enum config_starttls smtp_starttls; /* smtp:// only; default
					     * opportunistic */
	char *smtp_auth_file; /* absolute, or NULL: no AUTH; the file has
			       * "user" on line 1 and "password" on line 2
			       * (bot/smtp.h) */
	char *smtp_auth_mechanism; /* "PLAIN", "LOGIN", or NULL: the best */
	char *smtp_ca_file; /* absolute PEM bundle, or NULL: the system's */
	guint smtp_timeout; /* seconds, 0: bot/smtp.h's default */
	char *smtp_from; /* envelope sender; default @address */

	/* [outbox] */
	char *outbox; /* absolute maildir path, or NULL: DATA/outbox */

	/* [web] */
	char *web_listen; /* "127.0.0.1" */
	guint web_port; /* 8080 */
	char *web_base_url; /* public URL of the pages, or NULL: built from
			     * listen and port */

	/* [defaults] */
	struct config_policy defaults;

	/* the tree files of @trees_dir (struct treefile *, config/treefile.h),
	 * sorted by name; never NULL, may be empty */
	GPtrArray *trees;
};

/* The configuration file to read: @option (--config) if set, else
 * $ARMBOT_CONFIG, else $XDG_CONFIG_HOME/armbot/armbot.conf if it exists,
 * else NULL (the embedded defaults).  Newly allocated. */
char *config_find(const char *option);

/* Load the configuration: the file @path (NULL: config_find(NULL)) and
 * every trees.d/NAME.conf beside it.  A @path that does not exist is an
 * error; no file at all gives the embedded defaults.  Returns a new
 * configuration, or NULL with @error "FILE:LINE: message" at the first
 * error (config_check() lists them all). */
struct armbot_config *config_load(const char *path, GError **error);

/* Validate @path (NULL: config_find(NULL)) and every tree file, like
 * config_load() but collecting every error (char *, "FILE:LINE: message")
 * into @errors instead of stopping at the first.  Returns TRUE when there
 * is none. */
gboolean config_check(const char *path, GPtrArray *errors);

/* The embedded defaults, as config_load() gives them without a file. */
struct armbot_config *config_new_default(void);

void config_free(struct armbot_config *config);
typedef struct armbot_config armbot_config;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(armbot_config, config_free)

/* The tree file named @name, or NULL.  Owned by @config. */
const struct treefile *config_tree(const struct armbot_config *config,
				   const char *name);

/* The outbox maildir: @config->outbox, else @data_dir/outbox.  Newly
 * allocated. */
char *config_outbox_dir(const struct armbot_config *config,
			const char *data_dir);

/* Parsers shared with the tree files and opt-in mails: FALSE for an
 * unknown word. */
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
