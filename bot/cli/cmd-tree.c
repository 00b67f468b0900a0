/* `armbot tree`: the kernel trees of the data dir (kernel/tree/tree.h).
 *
 *   armbot tree import [--tarball FILE --version V]
 *   armbot tree list
 *   armbot tree add NAME URL|PATH [--branch B]...
 *   armbot tree update NAME
 *   armbot tree show [NAME [REV]]
 *   armbot tree checkout NAME REV DIR
 *   armbot tree index [NAME]
 *   armbot tree guess-base [--tree NAME] FILE.mbox
 *   armbot tree pick [--config FILE] FILE.mbox
 *   armbot tree mail [--config FILE] [--maintainers FILE] [--now T] MAIL */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "bot/control/optin.h"
#include "bot/store/trees.h"
#include "bot/daemon/treeset.h"
#include "bot/daemon/treeupdate.h"
#include "config/config.h"
#include "bot/daemon/tree-pick.h"
#include "kernel/base/baseguess.h"
#include "kernel/base/baseindex.h"
#include "kernel/git/lg2repo.h"
#include "kernel/tree/checkout.h"
#include "kernel/tree/import.h"
#include "kernel/tree/tree.h"
#include "mailparse/mailbox.h"
#include "mailparse/message.h"

static void oid_hex(char out[GITOID_HEXSZ + 1], const struct gitoid *oid)
{
	gitoid_to_hex(oid, out);
}

/* Options for bot/daemon/treeupdate.h: the data dir's store (created if need
 * be), so that the fetches and imports of the command line are recorded
 * (the pages, `armbot status`) and reach on_tree_updated() as the
 * daemon's do.  *@st is the caller's to free. */
static gboolean update_options(struct armbot_context *ctx,
			       struct treeupdate_options *out,
			       struct store **st, GError **error)
{
	memset(out, 0, sizeof(*out));
	*st = command_store(ctx, error);
	if (!*st)
		return FALSE;
	out->data_dir = command_data_dir(ctx);
	out->st = *st;
	return TRUE;
}

static int tree_import_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *tarball = NULL;
	g_autofree char *version = NULL;
	GOptionEntry options[] = {
		{ "tarball", 0, 0, G_OPTION_ARG_FILENAME, &tarball,
		  "import this tarball (default " TREE_DISTRO_TARBALL ")",
		  "FILE" },
		{ "version", 0, 0, G_OPTION_ARG_STRING, &version,
		  "its version (default: the installed " TREE_DISTRO_PACKAGE
		  "'s)",
		  "V" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(store) st = NULL;
	struct treeupdate_options uo;
	struct tree_import_result result;
	char commit[GITOID_HEXSZ + 1], tree_id[GITOID_HEXSZ + 1];
	gint64 start = g_get_monotonic_time();

	if (!command_parse_options(
		    "tree import", "",
		    "Import the distro kernel tree (" TREE_DISTRO_NAME
		    ") from Debian's " TREE_DISTRO_PACKAGE
		    " tarball as one commit.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc > 1)
		return command_usage_error("tree",
					   "tree import takes no arguments");
	if (tarball && !version)
		return command_usage_error("tree", "--tarball needs --version");
	if (!update_options(ctx, &uo, &st, &error))
		return command_fail(error);
	tree = treeupdate_import_distro(&uo, tarball, version, &result, &error);
	if (!tree)
		return command_fail(error);
	oid_hex(commit, &result.commit);
	oid_hex(tree_id, &result.tree);
	if (result.unchanged)
		printf("%s %s: already imported as %s (tree %s)\n", tree->name,
		       tree->version, commit, tree_id);
	else
		printf("%s %s: imported as %s (tree %s), %u files, %u new "
		       "objects in %.1f s\n",
		       tree->name, tree->version, commit, tree_id, result.files,
		       result.objects_written,
		       (g_get_monotonic_time() - start) / 1e6);
	return 0;
}

static void print_time(gint64 t)
{
	g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc(t);
	g_autofree char *s = g_date_time_format(dt, "%Y-%m-%d %H:%M:%S UTC");

	printf("%s", s);
}

/* After the repositories: the trees of the configuration and the store,
 * "NAME<TAB>config<TAB>ORIGIN<TAB>checks" or "NAME<TAB>opt-in<TAB>active
 * |opted out<TAB>owner", then their recorded changes, indented. */
static int tree_list_configured(struct armbot_context *ctx, const char *file)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(armbot_config) config = command_config(file, NULL, &error);
	g_autoptr(store) st = NULL;
	g_autoptr(GPtrArray) stored = NULL;
	g_autoptr(GPtrArray) changes = NULL;

	if (!config)
		return command_fail(error);
	if (!treeset_open_store(command_data_dir(ctx), &st, &error))
		return command_fail(error);
	for (guint i = 0; i < config->trees->len; i++) {
		const struct treefile *tf = config->trees->pdata[i];
		g_autofree char *checks =
			config_checks_string(tf->policy.checks);

		printf("%s\tconfig\t%s\t%s\treply %s to %s\n", tf->name,
		       tf->origin, checks, config_reply_name(tf->policy.reply),
		       config_reply_to_name(tf->policy.reply_to));
	}
	if (!st)
		return 0;
	if (!(stored = store_trees_list(st, &error)) ||
	    !(changes = store_tree_changes(st, NULL, &error)))
		return command_fail(error);
	for (guint i = 0; i < stored->len; i++) {
		const struct store_tree *t = stored->pdata[i];

		printf("%s\topt-in\t%s\t%s\n", t->name,
		       t->active ? "active" : "opted out", t->owner);
		for (guint j = 0; j < changes->len; j++) {
			const struct store_tree_change *c = changes->pdata[j];

			if (strcmp(c->tree, t->name))
				continue;
			printf("\t");
			print_time(c->at);
			printf("\t%s\t%s\n", c->who, c->what);
		}
	}
	return 0;
}

static int tree_list_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) names = NULL;
	g_autofree char *file = NULL;
	GOptionEntry options[] = { COMMAND_OPTION_CONFIG(file),
				   G_OPTION_ENTRY_NULL };

	if (!command_parse_options("tree list", "",
				   "List the kernel trees of the data dir, "
				   "then the configured trees and those "
				   "registered by mail with their changes.",
				   options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	names = tree_list(command_data_dir(ctx), &error);
	if (!names)
		return command_fail(error);
	for (guint i = 0; names[i]; i++) {
		g_autoptr(kernel_tree) tree = NULL;
		g_autoptr(GError) local = NULL;
		char hex[GITOID_HEXSZ + 1] = "-";
		struct gitoid head;

		tree = tree_open(command_data_dir(ctx), names[i], &local);
		if (!tree) {
			fprintf(stderr, "warning: %s\n", local->message);
			continue;
		}
		if (tree_head(tree, &head, NULL))
			oid_hex(hex, &head);
		printf("%s\t%s\t%s\t%.12s\t%s\n", tree->name,
		       tree->kind == TREE_KIND_DISTRO ? "distro" : "git",
		       tree->head_branch, hex,
		       tree->kind == TREE_KIND_DISTRO ?
			       (tree->version ? tree->version : "") :
			       (tree->url ? tree->url : ""));
	}
	return tree_list_configured(ctx, file);
}

/* `tree add` (@url set, with @branches) and `tree update` of tree @name,
 * recorded in the data dir's store: then "NAME: BRANCH at COMMIT". */
static int fetch_tree(struct armbot_context *ctx, const char *name,
		      const char *url, const char *const *branches)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(store) st = NULL;
	struct treeupdate_options uo;
	char hex[GITOID_HEXSZ + 1];
	struct gitoid head;

	if (!update_options(ctx, &uo, &st, &error))
		return command_fail(error);
	tree = url ? treeupdate_add(&uo, name, url, branches, &error) :
		     treeupdate_fetch(&uo, name, &error);
	if (!tree || !tree_head(tree, &head, &error))
		return command_fail(error);
	oid_hex(hex, &head);
	printf("%s: %s at %s\n", tree->name, tree->head_branch, hex);
	return 0;
}

static int tree_add_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	g_auto(GStrv) branches = NULL;
	GOptionEntry options[] = {
		{ "branch", 'b', 0, G_OPTION_ARG_STRING_ARRAY, &branches,
		  "follow branch B (repeatable; the first is the head; "
		  "default: every branch, the remote's default as head)",
		  "B" },
		G_OPTION_ENTRY_NULL
	};

	if (!command_parse_options("tree add", "NAME URL|PATH",
				   "Add a kernel tree fetched from a git "
				   "repository.",
				   options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 3)
		return command_usage_error("tree",
					   "tree add needs NAME and URL|PATH");
	return fetch_tree(ctx, argv[1], argv[2], (const char *const *)branches);
}

static int tree_update_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	if (!command_parse_options("tree update", "NAME",
				   "Fetch a tree's branches again (the distro "
				   "tree: import a newer installed package).",
				   NULL, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 2)
		return command_usage_error("tree", "tree update needs NAME");
	return fetch_tree(ctx, argv[1], NULL, NULL);
}

static int tree_show_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	char hex[GITOID_HEXSZ + 1], tree_hex[GITOID_HEXSZ + 1];
	struct gitoid id, root;

	if (!command_parse_options("tree show", "[NAME [REV]]",
				   "Print a tree's commit and root tree ids "
				   "(default: the distro tree's head, imported "
				   "if needed).",
				   NULL, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc > 3)
		return command_usage_error("tree",
					   "tree show takes NAME and REV");
	tree = tree_open_or_default(command_data_dir(ctx),
				    argc > 1 ? argv[1] : NULL, &error);
	if (!tree ||
	    !tree_resolve(tree, argc > 2 ? argv[2] : NULL, &id, &error))
		return command_fail(error);
	if (!lg2repo_commit_tree(tree->repo, &id, &root)) {
		tree_set_git_error(&error, "cannot read the commit");
		return command_fail(error);
	}
	oid_hex(hex, &id);
	oid_hex(tree_hex, &root);
	printf("tree %s\ncommit %s\nroot %s\nrepository %s\n", tree->name, hex,
	       tree_hex, tree->git_dir);
	if (tree->version)
		printf("version %s\n", tree->version);
	return 0;
}

static int tree_checkout_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	struct tree_checkout_stats stats;

	if (!command_parse_options(
		    "tree checkout", "NAME REV DIR",
		    "Bring DIR to REV of tree NAME, writing only the paths "
		    "that differ from what DIR holds.",
		    NULL, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 4)
		return command_usage_error("tree",
					   "tree checkout needs NAME REV DIR");
	tree = tree_open_or_default(command_data_dir(ctx), argv[1], &error);
	if (!tree || !tree_checkout(tree, argv[2], argv[3], &stats, &error))
		return command_fail(error);
	printf("%s: %u written, %u removed, %u mode changes%s\n", argv[3],
	       stats.written, stats.removed, stats.mode_changed,
	       stats.full ? " (full checkout)" : "");
	return 0;
}

/* Read the messages of @path (struct message *, in file order). */
static void print_index_stats(const char *branch,
			      const struct baseindex_stats *stats,
			      gpointer user_data)
{
	const char *tree = user_data;

	printf("%s %s: %u commits indexed (%u new", tree, branch,
	       stats->commits, stats->added);
	if (stats->dropped)
		printf(", %u dropped", stats->dropped);
	printf(") in %.3f s\n", stats->seconds);
}

static int tree_index_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;

	if (!command_parse_options(
		    "tree index", "[NAME]",
		    "Bring the blob index of every branch of tree NAME "
		    "(default: the distro tree) up to date: base discovery "
		    "looks blob ids up there.",
		    NULL, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc > 2)
		return command_usage_error("tree", "tree index takes one NAME");
	tree = tree_open_or_default(command_data_dir(ctx),
				    argc > 1 ? argv[1] : NULL, &error);
	if (!tree ||
	    !baseguess_index_tree(tree, print_index_stats, tree->name, &error))
		return command_fail(error);
	return 0;
}

static int tree_guess_base_cmd(struct armbot_context *ctx, int argc,
			       char **argv)
{
	g_autofree char *name = NULL;
	GOptionEntry options[] = { { "tree", 't', 0, G_OPTION_ARG_STRING, &name,
				     "the tree (default: the distro tree)",
				     "NAME" },
				   G_OPTION_ENTRY_NULL };
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(baseguess_series) series = NULL;
	struct baseguess_result res;
	gboolean found;

	if (!command_parse_options(
		    "tree guess-base", "FILE.mbox",
		    "Find the commit of a tree a series was written on: "
		    "already applied, its base-commit:, the blob ids of its "
		    "patches, or the head when they carry none.  Prints "
		    "`base <commit> <how> <branch>: <reason>` and exits 0, "
		    "or `no base: <reason>` and exits 1.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 2)
		return command_usage_error("tree",
					   "tree guess-base needs FILE.mbox");
	tree = tree_open_or_default(command_data_dir(ctx), name, &error);
	if (!tree)
		return command_fail(error);
	series = baseguess_series_from_mbox(argv[1], &error);
	if (!series || !baseguess_run(tree, series, &res, &error))
		return command_fail(error);
	if (res.how == BASEGUESS_UNKNOWN) {
		printf("no base: %s\n", res.reason);
	} else {
		printf("base %s %s %s: %s\n", gitoid_hex(&res.commit),
		       baseguess_how_name(res.how),
		       res.branch ? res.branch : "-", res.reason);
		for (guint i = 0; res.applied && i < res.applied->len; i++)
			printf("applied %u %s\n", i + 1,
			       (char *)res.applied->pdata[i]);
	}
	printf("time %.3f s\n", res.seconds);
	found = res.how != BASEGUESS_UNKNOWN;
	baseguess_result_clear(&res);
	return found ? 0 : 1;
}

static GPtrArray *read_messages(const char *path, GError **error)
{
	struct mailbox_options opts = MAILBOX_OPTIONS_INIT;
	g_autoptr(mailbox) mb = mailbox_open(path, &opts, error);
	g_autoptr(GPtrArray) out =
		g_ptr_array_new_with_free_func((GDestroyNotify)message_free);

	if (!mb)
		return NULL;
	for (;;) {
		g_autoptr(GBytes) raw = NULL;
		struct message *msg;

		if (!mailbox_next(mb, &raw, error))
			return NULL;
		if (!raw)
			break;
		msg = message_parse(raw, error);
		if (!msg) {
			g_prefix_error(error, "%s: ", mailbox_position(mb));
			return NULL;
		}
		g_ptr_array_add(out, msg);
	}
	return g_steal_pointer(&out);
}

static int tree_pick_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *file = NULL;
	GOptionEntry options[] = { COMMAND_OPTION_CONFIG(file),
				   G_OPTION_ENTRY_NULL };
	g_autoptr(GError) error = NULL;
	g_autoptr(armbot_config) config = NULL;
	g_autoptr(store) st = NULL;
	g_autoptr(treeset) ts = NULL;
	g_autoptr(GPtrArray) messages = NULL;
	g_autoptr(tree_pick_series) series = NULL;
	struct tree_pick_result result;

	if (!command_parse_options(
		    "tree pick", "FILE.mbox",
		    "Print the tree a series would be tested on and why "
		    "(subject prefix, base-commit, paths, list, else the "
		    "distro tree), without running anything.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 2)
		return command_usage_error("tree", "tree pick needs FILE.mbox");
	config = command_config(file, NULL, &error);
	if (!config || !treeset_open_store(command_data_dir(ctx), &st, &error))
		return command_fail(error);
	ts = treeset_load(config, st, NULL, &error);
	if (!ts || !(messages = read_messages(argv[1], &error)))
		return command_fail(error);
	if (!messages->len) {
		fprintf(stderr, "error: %s: no message\n", argv[1]);
		return 1;
	}
	series = tree_pick_series_new(messages);
	tree_pick(series, ts->trees, ts->distro,
		  tree_pick_has_commit_in_data_dir,
		  (gpointer)command_data_dir(ctx), &result);
	printf("tree: %s\nby: %s\nreason: %s\n", result.tree->name,
	       tree_pick_by_name(result.by), result.reason);
	tree_pick_result_clear(&result);
	return 0;
}

/* The MAINTAINERS of the distro tree of the data dir (not imported here:
 * the daemon imports it), or of @file. */
static struct maintainers *load_maintainers(struct armbot_context *ctx,
					    const char *file, GError **error)
{
	g_autoptr(kernel_tree) tree = NULL;
	g_autofree char *data = NULL;
	gsize len;
	struct gitoid head;

	if (file) {
		if (!g_file_get_contents(file, &data, &len, error))
			return NULL;
		return maintainers_parse(data, len, NULL, NULL, error);
	}
	tree = tree_open(command_data_dir(ctx), TREE_DISTRO_NAME, error);
	if (!tree || !tree_head(tree, &head, error))
		return NULL;
	return maintainers_load_git(tree->repo, &head, error);
}

static int tree_mail_cmd(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *file = NULL;
	g_autofree char *mfile = NULL;
	gint64 now = 0;
	GOptionEntry options[] = {
		COMMAND_OPTION_CONFIG(file),
		{ "maintainers", 0, 0, G_OPTION_ARG_FILENAME, &mfile,
		  "check senders against this MAINTAINERS file (default: the "
		  "distro tree's)",
		  "FILE" },
		{ "now", 0, 0, G_OPTION_ARG_INT64, &now,
		  "the time as Unix seconds (default: now)", "T" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(armbot_config) config = NULL;
	g_autoptr(store) st = NULL;
	g_autoptr(maintainers) m = NULL;
	g_autoptr(GPtrArray) messages = NULL;
	struct optin_reply reply;
	struct optin_context octx = { 0 };

	if (!command_parse_options(
		    "tree mail", "MAIL",
		    "Handle one opt-in, opt-out, set or confirmation mail as "
		    "the daemon does, and print the reply it would send.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 2)
		return command_usage_error("tree", "tree mail needs MAIL");
	config = command_config(file, NULL, &error);
	if (!config || !(messages = read_messages(argv[1], &error)) ||
	    !(m = load_maintainers(ctx, mfile, &error)) ||
	    !(st = command_store(ctx, &error)))
		return command_fail(error);
	if (messages->len != 1) {
		fprintf(stderr, "error: %s: %u messages, not one\n", argv[1],
			messages->len);
		return 1;
	}
	octx.store = st;
	octx.config = config;
	octx.maintainers = m;
	octx.now = now;
	if (!optin_handle(&octx, messages->pdata[0], &reply, &error))
		return command_fail(error);
	printf("outcome: %s\n", optin_outcome_name(reply.outcome));
	if (reply.outcome != OPTIN_NOT_FOR_US)
		printf("reason: %s\nto: %s\nsubject: %s\nin-reply-to: "
		       "%s\n\n%s",
		       reply.reason, reply.to, reply.subject, reply.in_reply_to,
		       reply.body);
	optin_reply_clear(&reply);
	return 0;
}

int cmd_tree(struct armbot_context *ctx, int argc, char **argv)
{
	static const struct command_sub subs[] = {
		{ "import", tree_import_cmd },
		{ "list", tree_list_cmd },
		{ "add", tree_add_cmd },
		{ "update", tree_update_cmd },
		{ "show", tree_show_cmd },
		{ "checkout", tree_checkout_cmd },
		{ "index", tree_index_cmd },
		{ "guess-base", tree_guess_base_cmd },
		{ "pick", tree_pick_cmd },
		{ "mail", tree_mail_cmd },
	};

	return command_run_sub(
		ctx, "tree",
		"usage: armbot tree import [--tarball FILE --version V]\n"
		"       armbot tree list [--config FILE]\n"
		"       armbot tree add NAME URL|PATH [--branch B]...\n"
		"       armbot tree update NAME\n"
		"       armbot tree show [NAME [REV]]\n"
		"       armbot tree checkout NAME REV DIR\n"
		"       armbot tree index [NAME]\n"
		"       armbot tree guess-base [--tree NAME] FILE.mbox\n"
		"       armbot tree pick [--config FILE] FILE.mbox\n"
		"       armbot tree mail [--config FILE] [--maintainers "
		"FILE] MAIL\n",
		subs, G_N_ELEMENTS(subs), argc, argv);
}
