/* armbot am: apply the patches of a mailbox with `git am` semantics in the
 * object database of a tree.  See kernel/patch/am.h. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/cmdline.h"
#include "bot/cli/command.h"
#include "kernel/patch/am.h"
#include "kernel/tree/import.h"
#include "kernel/tree/tree.h"
#include "kernel/git/lg2repo.h"

/* "Name <email>" into its parts; FALSE when malformed */
static gboolean parse_ident(const char *ident, char **name, char **email)
{
	const char *lt = strchr(ident, '<');
	const char *gt = lt ? strchr(lt, '>') : NULL;

	if (!lt || !gt || gt[1])
		return FALSE;
	*name = g_strstrip(g_strndup(ident, lt - ident));
	*email = g_strndup(lt + 1, gt - lt - 1);
	return **name && **email;
}

static void print_result(const struct am_series *s)
{
	guint total = s->patches->len;

	for (guint i = 0; i < total; i++) {
		const struct am_patch *p = s->patches->pdata[i];

		if (p->applied) {
			printf("ok %s %s%s\n", gitoid_hex(&p->commit),
			       p->subject, p->merged ? " (3-way merge)" : "");
		} else if (p->path && !g_str_has_prefix(p->reason, p->path)) {
			printf("fail %u/%u %s: %s: %s\n", p->number, total,
			       p->subject, p->path, p->reason);
		} else {
			printf("fail %u/%u %s: %s\n", p->number, total,
			       p->subject, p->reason);
		}
	}
}

int cmd_am(struct armbot_context *ctx, int argc, char **argv)
{
	const char *repo_path; /* the global -C REPO */
	g_autofree char *tree_name = NULL;
	g_autofree char *base = NULL;
	g_autofree char *branch = NULL;
	g_autofree char *committer = NULL;
	g_autofree char *committer_name = NULL;
	g_autofree char *committer_email = NULL;
	struct am_options opts = AM_OPTIONS_INIT;
	GOptionEntry options[] = {
		COMMAND_OPTION_TREE(tree_name, "apply to"),
		{ "base", 0, 0, G_OPTION_ARG_STRING, &base,
		  "apply on this revision (default: the series' base-commit "
		  "if the tree has it, else the tree's head)",
		  "REV" },
		{ "branch", 0, 0, G_OPTION_ARG_STRING, &branch,
		  "point this branch at the last applied commit", "NAME" },
		{ "3way", '3', 0, G_OPTION_ARG_NONE, &opts.threeway,
		  "fall back to a three-way merge, as git am -3", NULL },
		{ "keep-cr", 0, 0, G_OPTION_ARG_NONE, &opts.keep_cr,
		  "keep carriage returns at the end of lines, as git am "
		  "--keep-cr",
		  NULL },
		{ "committer", 0, 0, G_OPTION_ARG_STRING, &committer,
		  "committer identity (default: $ARMBOT_COMMITTER, else "
		  "\"armbot <armbot@localhost>\")",
		  "\"NAME <EMAIL>\"" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(am_series) s = NULL;
	g_autofree char *head_ref = NULL;
	struct tree *tree = NULL;
	struct git_repository *repo = NULL; /* -C: opened here */
	struct git_repository *target; /* repo, or the tree's own */
	const char *head_rev = "HEAD";
	int status = 1;

	if (!command_parse_options(
		    "am", "FILE.mbox",
		    "Apply each patch of a mailbox as `git am` would, in the "
		    "object database: prints `ok <commit> <subject>` or "
		    "`fail <n>/<total> <subject>: <reason>` per patch.  With "
		    "the global option -C REPO, in that git repository "
		    "instead of a tree.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	repo_path = cmdline_repo();
	if (argc != 2) {
		return command_usage_error("am", "one mailbox expected");
	}
	if (repo_path && tree_name) {
		return command_usage_error("am", "-C and --tree are exclusive");
	}
	if (!committer)
		committer = g_strdup(g_getenv("ARMBOT_COMMITTER"));
	if (committer) {
		if (!parse_ident(committer, &committer_name,
				 &committer_email)) {
			fprintf(stderr,
				"error: committer must be \"NAME <EMAIL>\": "
				"'%s'\n",
				committer);
			return COMMAND_USAGE_ERROR;
		}
		opts.committer_name = committer_name;
		opts.committer_email = committer_email;
	}
	opts.base = base;
	if (repo_path) {
		repo = lg2repo_open(repo_path, FALSE, &error);
		if (!repo) {
			fprintf(stderr,
				"error: cannot open repository '%s': %s\n",
				repo_path, error->message);
			goto done;
		}
	} else {
		tree = tree_open_or_default(command_data_dir(ctx), tree_name,
					    &error);
		if (!tree) {
			fprintf(stderr, "error: %s\n", error->message);
			goto done;
		}
		head_rev = head_ref = tree_head_ref(tree);
	}
	target = tree ? tree->repo : repo;
	if (!am_apply_mbox(&s, target, head_rev, argv[1], &opts, &error)) {
		fprintf(stderr, "error: %s\n", error->message);
		goto done;
	}
	if (s->base_note)
		fprintf(stderr, "warning: %s\n", s->base_note);
	print_result(s);
	if (branch && !gitoid_equal(&s->head, &s->base)) {
		g_autofree char *ref = g_strconcat("refs/heads/", branch, NULL);

		if (!lg2repo_ref_set(target, ref, &s->head, "armbot am",
				     &error)) {
			fprintf(stderr, "error: cannot update %s: %s\n", ref,
				error->message);
			goto done;
		}
	}
	status = s->failed ? 1 : 0;
done:
	tree_free(tree);
	lg2repo_free(repo);
	return status;
}
