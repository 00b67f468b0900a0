/* Tree files: one per kernel tree that maintainers opted in, either
 * trees.d/NAME.conf beside armbot.conf or registered in the store by the
 * opt-in mails (config/optin.h), in the same key file format:
 *
 *   [tree]
 *   url = https://git.kernel.org/.../linux-omap.git
 *   branches = for-next;fixes
 *   lists = linux-omap@vger.kernel.org
 *   maintainers = tony@atomide.com
 *   checks = apply;dirstat;sparse
 *   sparse-configs = omap2plus_defconfig
 *   reply = problems
 *   reply-to = list
 *   rfc = false
 *   update-interval = 6h
 *   build-distribute = icecream
 *   icecc-socket = /var/run/icecc/iceccd.socket
 *   icecc-scheduler = sched.example.org:8765
 *   icecc-series-netns = /run/netns/armbot-icecc
 *   [paths]
 *   F = arch/arm/mach-omap2/;drivers/bus/ti-sysc.c
 *   X = arch/arm/mach-omap2/board-generic.c
 *   N = omap
 *
 * The [paths] patterns have the semantics of the kernel's MAINTAINERS file
 * (kernel/tree/maintainers.h).  Policy keys missing from a tree file take the
 * [defaults] of armbot.conf.  config/armbot.conf.example documents every
 * key. */
#pragma once

#include <glib.h>

#include "config/policy.h"
#include "kernel/build/icecc.h"
#include "kernel/tree/maintainers.h"

/* Where the tree's kernels boot (qemu/runner.h), keys of trees.d files
 * only (a tree registered by mail boots here):
 *   boot-runner = local|lava
 *   lava-url = https://lava.example.org/
 *   lava-token-file = /etc/armbot/lava-token   (a secret file)
 *   lava-ca-file = PATH       (https://: CAs instead of the system's)
 *   lava-serve-host = ADDRESS (where armbot serves the boot files to the
 *                              LAVA worker; default 127.0.0.1)
 *   lava-fallback = local|none
 *   lava-retries = N          (infrastructure errors; default 1) */
struct treefile_boot {
	gboolean lava; /* boot-runner = lava */
	char *lava_url;
	char *lava_token_file;
	char *lava_ca_file;
	char *lava_serve_host;
	gboolean lava_fallback_local;
	guint lava_retries;
};

struct treefile {
	char *name; /* the tree's name, as kernel/tree/tree.h names trees */
	char *path; /* the file, or NULL for one kept in the store */
	char *origin; /* for reasons and listings: "trees.d/omap.conf" */
	char *url; /* a git URL or absolute path; NULL: the tree of the data
		    * dir of that name (the distro tree) */
	char **branches; /* NULL-terminated, may be empty: every branch */
	struct maintainers_section *paths; /* F:, X:, N: patterns; its name
					    * is the tree's */
	char **lists; /* list addresses, lowercase */
	char **maintainers; /* addresses, lowercase */
	char **sparse_configs; /* defconfig names for sparse, may be empty */
	/* where compiles run, the operator's to set (a file of trees.d,
	 * never a tree registered by mail): */
	gboolean icecream; /* build-distribute = icecream (else local) */
	/* with icecream: icecc-socket (the host's iceccd socket, absolute),
	 * icecc-scheduler ("HOST[:PORT]" or NULL: 127.0.0.1) and
	 * icecc-series-netns (the network namespace a series' make compiles
	 * through icecream in, kernel/build/icecc-netns.h; NULL: locally);
	 * strings owned by the tree file */
	struct icecc_use icecc;
	struct config_policy policy;
	struct treefile_boot boot;
};

void treefile_free(struct treefile *tf);
typedef struct treefile treefile;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(treefile, treefile_free)

/* Read the tree file @path; the tree is named after the file (NAME.conf).
 * Policy keys it does not set take @defaults.  Returns NULL with the first
 * error, "FILE:LINE: message", or with every error appended to @errors
 * (char *) when @errors is not NULL. */
struct treefile *treefile_load(const char *path,
			       const struct config_policy *defaults,
			       GPtrArray *errors, GError **error);

/* Parse tree file text @data (a tree kept in the store) for tree @name;
 * @origin names it in errors and reasons. */
struct treefile *treefile_parse(const char *name, const char *origin,
				const char *data,
				const struct config_policy *defaults,
				GPtrArray *errors, GError **error);

/* The key file text of @tf, every key written (what treefile_parse()
 * reads back to the same tree) but update-interval, which is the
 * operator's ([defaults]) for trees registered by mail.  Newly
 * allocated. */
char *treefile_to_data(const struct treefile *tf);

/* Every NAME.conf of @dir, sorted by name (struct treefile *).  A missing
 * @dir is no tree.  Errors as treefile_load(). */
GPtrArray *treefile_load_dir(const char *dir,
			     const struct config_policy *defaults,
			     GPtrArray *errors, GError **error);

/* The distro tree as a tree file: no paths (it takes what no other tree
 * takes), the defaults' policy. */
struct treefile *treefile_new_distro(const struct config_policy *defaults);
