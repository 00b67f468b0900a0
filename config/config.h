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

#include "config/policy.h"

/* STARTTLS on smtp:// (RFC 3207); the values of bot/mail/smtp.h's enum
 * smtp_starttls, in the same order. */
enum config_starttls {
	CONFIG_STARTTLS_OPPORTUNISTIC, /* when the server offers it */
	CONFIG_STARTTLS_REQUIRED, /* refuse to send without it */
	CONFIG_STARTTLS_NEVER,
};

/* The patchwork instance that tracks a list's patches ([list ADDRESS]
 * patchwork-url ...), where armbot posts one check per patch and check
 * (bot/daemon/patchwork.h). */
struct config_patchwork {
	char *list; /* LIST@HOST, lowercase */
	char *url; /* the instance, "https://patchwork.example.org": the
		    * REST API is URL/api/1.2/ */
	char *token_file; /* absolute: the API token of armbot's user */
	char *ca_file; /* absolute PEM bundle, or NULL: the system's */
};

/* A [list ADDRESS] group: what armbot does for one mailing list beyond
 * the replies its trees ask for. */
struct config_list {
	char *address; /* lowercase, as in the group's name */
	gboolean weekly; /* the weekly arch/arm balance mail (weekly =
			  * true), sent to the list each Monday for the
			  * week before (bot/daemon/weekly.h) */
	/* early-verdict = true: a series' arch/arm verdict is on its page
	 * and in /api as soon as it applied and its dirstat is known,
	 * marked provisional until every check ran; the reply still waits
	 * for them all */
	gboolean early_verdict;
	struct config_patchwork *patchwork; /* or NULL */
};

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
			       * (bot/mail/smtp.h) */
	char *smtp_auth_mechanism; /* "PLAIN", "LOGIN", or NULL: the best */
	char *smtp_ca_file; /* absolute PEM bundle, or NULL: the system's */
	guint smtp_timeout; /* seconds, 0: bot/mail/smtp.h's default */
	char *smtp_from; /* envelope sender; default @address */

	/* [outbox] */
	char *outbox; /* absolute maildir path, or NULL: DATA/outbox */

	/* [web] */
	char *web_listen; /* "127.0.0.1" */
	guint web_port; /* 8080 */
	char *web_base_url; /* public URL of the pages, or NULL: built from
			     * listen and port */
	/* archive-url: "ADDRESS TEMPLATE" or "* TEMPLATE" (any list), the
	 * TEMPLATE an http(s) URL with one %s where the Message-ID goes
	 * (bot/web/archive.h); NULL-terminated, may be empty */
	char **web_archive_urls;

	/* [defaults] */
	struct config_policy defaults;

	/* [list ADDRESS] groups (struct config_list *), in file order;
	 * never NULL, may be empty */
	GPtrArray *lists;
	/* [kcidb] export: write a KCIDB document per series and tree
	 * (bot/daemon/kcidb.h) */
	gboolean kcidb_export;

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

/* The [list] group of @address (any case), or NULL.  Owned by
 * @config. */
const struct config_list *config_list(const struct armbot_config *config,
				      const char *address);
/* The patchwork instance of list @list (case-insensitive), or NULL. */
const struct config_patchwork *
config_patchwork_for(const struct armbot_config *config, const char *list);

/* The outbox maildir: @config->outbox, else @data_dir/outbox.  Newly
 * allocated. */
char *config_outbox_dir(const struct armbot_config *config,
			const char *data_dir);
