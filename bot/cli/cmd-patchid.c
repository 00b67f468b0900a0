/* armbot patch-id: git patch-id (kernel/patch/patchid.c).
 *
 *   armbot patch-id [--stable|--unstable|--verbatim] < patches
 *   armbot patch-id [--stable|--unstable|--verbatim] -C REPO REV|A..B...
 *
 * The first form reads what `git patch-id` reads (git log -p, git
 * format-patch output, mails) and prints what it prints, one
 * "<patch-id> <commit-id>" line per patch; unlike git, --stable is the
 * default.  The second prints the same line for commits of a repository,
 * each diffed as format-patch would diff it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bot/cli/cmdline.h"
#include "bot/cli/command.h"
#include "kernel/patch/patchid.h"
#include "kernel/tree/tree.h"
#include "kernel/git/lg2repo.h"

static enum patchid_mode mode = PATCHID_STABLE;

/* git's OPT_CMDMODE: the last of the three wins */
static gboolean set_mode(const char *name, const char *value, gpointer data,
			 GError **error)
{
	mode = !strcmp(name, "--unstable") ? PATCHID_UNSTABLE :
	       !strcmp(name, "--verbatim") ? PATCHID_VERBATIM :
					     PATCHID_STABLE;
	return TRUE;
}

/* flush_current_id(): "<patch-id> <commit-id>" */
static void print_results(GArray *results)
{
	for (guint i = 0; i < results->len; i++) {
		const struct patchid_result *r =
			&g_array_index(results, struct patchid_result, i);
		char id[GITOID_HEXSZ + 1], commit[GITOID_HEXSZ + 1];

		gitoid_to_hex(&r->patch_id, id);
		gitoid_to_hex(&r->commit, commit);
		printf("%s %s\n", id, commit);
	}
	g_array_set_size(results, 0);
}

/* Standard input, a piece at a time, each patch printed once read. */
static int from_stdin(void)
{
	g_autoptr(patchid_parser) p = patchid_parser_new(mode);
	g_autoptr(GArray) results =
		g_array_new(FALSE, FALSE, sizeof(struct patchid_result));
	g_autoptr(GError) error = NULL;
	g_autofree char *buf = g_malloc(1 << 16);
	size_t n;

	while ((n = fread(buf, 1, 1 << 16, stdin)) > 0) {
		if (!patchid_parser_feed(p, buf, n, results, &error))
			return command_fail(error);
		print_results(results);
	}
	if (ferror(stdin)) {
		fprintf(stderr, "error: cannot read standard input: %s\n",
			g_strerror(errno));
		return 1;
	}
	patchid_parser_finish(p, results);
	print_results(results);
	return fflush(stdout) == 0 ? 0 : 1;
}

/* Each REV names a commit, each A..B the commits of the range. */
static int from_repo(const char *path, int argc, char **argv)
{
	g_autoptr(lg2repo) repo = NULL;
	g_autoptr(GError) error = NULL;
	int status = 1;

	repo = lg2repo_open(path, TRUE, &error);
	if (!repo) {
		fprintf(stderr, "error: cannot open repository '%s': %s\n",
			path, error->message);
		goto done;
	}
	for (int i = 1; i < argc; i++) {
		g_autoptr(GArray) results = NULL;

		if (strstr(argv[i], "..")) {
			results = patchid_range(repo, argv[i], mode, &error);
		} else {
			struct gitoid commit;

			if (!lg2repo_revparse_commit(repo, argv[i], &commit)) {
				fprintf(stderr,
					"error: bad revision '%s': %s\n",
					argv[i], lg2repo_last_error());
				goto done;
			}
			results =
				patchid_commits(repo, &commit, 1, mode, &error);
		}
		if (!results) {
			fprintf(stderr, "error: %s\n", error->message);
			goto done;
		}
		print_results(results);
	}
	status = fflush(stdout) == 0 ? 0 : 1;
done:
	g_clear_pointer(&repo, lg2repo_free);
	return status;
}

int cmd_patch_id(struct armbot_context *ctx, int argc, char **argv)
{
	const char *repo_path; /* the global -C REPO */
	GOptionEntry options[] = {
		{ "stable", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  set_mode,
		  "sum the hashes of the files, so that their order does not "
		  "matter (the default)",
		  NULL },
		{ "unstable", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  set_mode, "one hash over the files in the order given",
		  NULL },
		{ "verbatim", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  set_mode, "as --stable, without dropping whitespace", NULL },
		G_OPTION_ENTRY_NULL
	};

	if (!command_parse_options(
		    "patch-id", "[-C REPO REV|A..B...]",
		    "Print the patch-id of each patch read on standard input "
		    "(git log -p, git format-patch or mail) as `git patch-id "
		    "--stable` does: `<patch-id> <commit-id>` per patch, the "
		    "commit id from the `commit` or `From` line before it or "
		    "all zeros.  With -C, the same for commits of a "
		    "repository, each diffed against its first parent as git "
		    "format-patch diffs it; merges and empty commits have "
		    "none.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	repo_path = cmdline_repo();
	if (repo_path && argc < 2) {
		return command_usage_error("patch-id",
					   "-C needs at least one revision");
	}
	if (!repo_path && argc > 1) {
		return command_usage_error(
			"patch-id",
			"revisions need -C REPO; patches are read on standard input");
	}
	return repo_path ? from_repo(repo_path, argc, argv) : from_stdin();
}
