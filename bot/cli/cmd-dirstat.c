/* armbot dirstat: git's --dirstat of a commit range, byte for byte, its
 * signed variant, and the arch/arm verdict; from commits or from a
 * series' patches as mailed. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/cmdline.h"
#include "bot/cli/command.h"
#include "kernel/diff/diffrename.h"
#include "kernel/diff/dirstat-verdict.h"
#include "kernel/diff/dirstat.h"
#include "kernel/git/object.h"
#include "kernel/git/repo.h"
#include "kernel/diff/treediff.h"

#define CMD_DIRSTAT_ERROR (g_quark_from_static_string("cmd-dirstat-error"))

/* Options that git parses as it meets them: kept in order in one place */
static struct dirstat_options dirstat_opts = DIRSTAT_OPTIONS_INIT;
static struct diffrename_options rename_opts = DIFFRENAME_OPTIONS_INIT;
static gboolean detect_renames = TRUE;
/* a dirstat parameter was refused: git die()s (128), not a usage error */
static gboolean bad_params;

/* diff.c diff_opt_dirstat(): --dirstat[=P], -X[P], --cumulative and
 * --dirstat-by-file[=P] (its "files" first), in the order given.  A value
 * left out arrives as "" (bot/cli/cmdline.h), which git parses the same. */
static gboolean on_dirstat(const char *name, const char *value, gpointer data,
			   GError **error)
{
	if (!strcmp(name, "--cumulative"))
		value = "cumulative";
	if ((!strcmp(name, "--dirstat-by-file") &&
	     !dirstat_parse_params(&dirstat_opts, "files", error)) ||
	    !dirstat_parse_params(&dirstat_opts, value ? value : "", error)) {
		bad_params = TRUE;
		return FALSE;
	}
	return TRUE;
}

/* diff.c diff_opt_find_renames(): -M[N], --find-renames[=N]; without N
 * the score is 0, which diffcore-rename reads as its default (50%). */
static gboolean on_find_renames(const char *name, const char *value,
				gpointer data, GError **error)
{
	int score = diffrename_parse_score(value ? value : "");

	if (score < 0) {
		g_set_error(error, CMD_DIRSTAT_ERROR, 1,
			    "invalid argument to %s: %s", name, value);
		return FALSE;
	}
	detect_renames = TRUE;
	rename_opts.minimum_score = score;
	return TRUE;
}

static gboolean on_no_renames(const char *name, const char *value,
			      gpointer data, GError **error)
{
	detect_renames = FALSE;
	return TRUE;
}

/* The tree of @spec ("" or NULL: HEAD) into @out. */
static gboolean resolve_tree(struct gitrepo *repo, const char *spec,
			     struct gitoid *out)
{
	g_autoptr(GError) error = NULL;
	struct gitoid oid;

	if (!spec || !*spec)
		spec = "HEAD";
	/* the message names the revision: "bad revision 'X': why" */
	if (!gitrepo_revparse(repo, spec, &oid, &error)) {
		fprintf(stderr, "error: %s\n", error->message);
		return FALSE;
	}
	if (!gitrepo_peel(repo, &oid, GITOBJ_TREE, out, &error)) {
		fprintf(stderr, "error: '%s' is not a tree-ish: %s\n", spec,
			error->message);
		return FALSE;
	}
	return TRUE;
}

/* "A...B": the tree of the merge base of A and B, as git diff takes. */
static gboolean merge_base_tree(struct gitrepo *repo, const char *a,
				const char *b, struct gitoid *out)
{
	g_autoptr(GError) error = NULL;
	struct gitoid oa, ob, ca, cb, base;

	if (!gitrepo_revparse(repo, *a ? a : "HEAD", &oa, &error) ||
	    !gitrepo_revparse(repo, *b ? b : "HEAD", &ob, &error) ||
	    !gitrepo_peel(repo, &oa, GITOBJ_COMMIT, &ca, &error) ||
	    !gitrepo_peel(repo, &ob, GITOBJ_COMMIT, &cb, &error) ||
	    !gitrepo_merge_base(repo, &ca, &cb, &base, &error) ||
	    !gitrepo_peel(repo, &base, GITOBJ_TREE, out, &error)) {
		fprintf(stderr, "error: no merge base of '%s' and '%s': %s\n",
			a, b, error->message);
		return FALSE;
	}
	return TRUE;
}

/* The pairs between two trees with rename detection as asked. */
static struct treediff *tree_pairs(struct gitrepo *repo, const struct gitoid *a,
				   const struct gitoid *b, GError **error)
{
	g_autoptr(treediff) q = treediff_new(repo, a, b, error);

	if (!q)
		return NULL;
	if (detect_renames && !diffrename_detect(q, &rename_opts, error))
		return NULL;
	return g_steal_pointer(&q);
}

/* Line figures of every commit in A..B, one commit at a time against its
 * first parent: what the series' patches say, in the order applied. */
static GPtrArray *per_commit_filestats(struct gitrepo *repo, const char *a,
				       const char *b, GError **error)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(
		(GDestroyNotify)dirstat_filestat_free);
	g_autoptr(GArray) commits = NULL;
	struct gitoid from, to, cfrom, cto;

	if (!gitrepo_revparse(repo, *a ? a : "HEAD", &from, error) ||
	    !gitrepo_revparse(repo, *b ? b : "HEAD", &to, error) ||
	    !gitrepo_peel(repo, &from, GITOBJ_COMMIT, &cfrom, error) ||
	    !gitrepo_peel(repo, &to, GITOBJ_COMMIT, &cto, error)) {
		g_prefix_error(error, "bad range '%s..%s': ", a, b);
		return NULL;
	}
	commits = gitrepo_range(repo, &cfrom, &cto, error);
	if (!commits)
		return NULL;
	for (guint i = 0; i < commits->len; i++) {
		struct gitcommit commit = { 0 };
		g_autoptr(treediff) q = NULL;
		g_autoptr(GPtrArray) fs = NULL;
		struct gitoid parent_tree;
		gboolean ok;

		if (!gitrepo_commit(repo,
				    &g_array_index(commits, struct gitoid, i),
				    &commit, error))
			return NULL;
		/* merges are left out: the series' patches are its
		 * single-parent commits */
		ok = commit.parents->len > 1 ||
		     ((!commit.parents->len ||
		       gitrepo_peel(repo,
				    &g_array_index(commit.parents,
						   struct gitoid, 0),
				    GITOBJ_TREE, &parent_tree, error)) &&
		      (q = tree_pairs(repo,
				      commit.parents->len ? &parent_tree : NULL,
				      &commit.tree, error)) &&
		      (fs = dirstat_filestats_from_tree(q, error)));
		gitcommit_clear(&commit);
		if (!ok)
			return NULL;
		for (guint j = 0; fs && j < fs->len; j++)
			g_ptr_array_add(all, g_steal_pointer(&fs->pdata[j]));
	}
	return g_steal_pointer(&all);
}

struct range_request {
	gboolean verdict;
	gboolean per_commit;
	const char *path;
	/* text, or JSON (armbot-core's writers: bot/cli/command.h) */
	char *(*report_text)(const struct dirstat_report *report);
	char *(*verdict_text)(const struct dirstat_verdict *v);
};

static int print_report(struct dirstat_report *report,
			const struct range_request *req)
{
	g_autofree char *text = req->report_text(report);

	fputs(text, stdout);
	return 0;
}

static int print_verdict(GPtrArray *filestats, const struct range_request *req)
{
	g_autoptr(dirstat_verdict)
		v = dirstat_verdict_compute(filestats, req->path);
	g_autofree char *text = req->verdict_text(v);

	fputs(text, stdout);
	return 0;
}

static int run_mbox(struct armbot_context *ctx, const char *mbox,
		    const struct range_request *req)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) fs = NULL;
	g_autoptr(dirstat_report) report = NULL;

	fs = ctx->mbox_filestats(mbox, &error);
	if (!fs) {
		fprintf(stderr, "error: cannot read '%s': %s\n", mbox,
			error->message);
		return 1;
	}
	if (req->verdict)
		return print_verdict(fs, req);
	if (dirstat_opts.mode == DIRSTAT_CHANGES)
		dirstat_opts.mode = DIRSTAT_LINES;
	report = dirstat_report_from_filestats(fs, &dirstat_opts, &error);
	if (!report)
		return command_fail(error);
	return print_report(report, req);
}

/* Print the dirstat, signed dirstat or verdict of one range.  Returns the
 * exit status: 0 when it was printed, else git diff's 128 (a bad revision,
 * an unreadable object: where git die()s). */
static int run_range(struct gitrepo *repo, const char *from, const char *to,
		     gboolean three_dot, const struct range_request *req)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(treediff) q = NULL;
	g_autoptr(dirstat_report) report = NULL;
	g_autoptr(GPtrArray) filestats = NULL;
	struct gitoid ta, tb;
	int status = COMMAND_FATAL_ERROR;

	if (req->verdict && req->per_commit) {
		filestats = per_commit_filestats(repo, from, to, &error);
		if (!filestats) {
			fprintf(stderr, "error: %s\n", error->message);
			goto done;
		}
		status = print_verdict(filestats, req);
		goto done;
	}
	if (!(three_dot ? merge_base_tree(repo, from, to, &ta) :
			  resolve_tree(repo, from, &ta)) ||
	    !resolve_tree(repo, to, &tb))
		goto done;
	q = tree_pairs(repo, &ta, &tb, &error);
	if (!q) {
		fprintf(stderr, "error: %s\n", error->message);
		goto done;
	}
	if (req->verdict) {
		filestats = dirstat_filestats_from_tree(q, &error);
		if (!filestats) {
			fprintf(stderr, "error: %s\n", error->message);
			goto done;
		}
		status = print_verdict(filestats, req);
		goto done;
	}
	report = dirstat_report_from_tree(q, NULL, &dirstat_opts, &error);
	if (!report) {
		fprintf(stderr, "error: %s\n", error->message);
		goto done;
	}
	status = print_report(report, req);
done:
	return status;
}

/* --stdin, as `git diff-tree --stdin`: each line names two revisions; the
 * first is printed on a line of its own, then that range's output.  One
 * process for many ranges, the way the daemon computes them. */
static int run_stdin(struct gitrepo *repo, const struct range_request *req)
{
	char line[4096];
	int status = 0;

	while (fgets(line, sizeof(line), stdin)) {
		g_auto(GStrv)
			words = g_strsplit_set(g_strstrip(line), " \t", 0);

		if (!words[0] || !*words[0])
			continue;
		if (g_strv_length(words) != 2) {
			fprintf(stderr,
				"error: --stdin wants two revisions a line, "
				"got '%s'\n",
				line);
			status = 1;
			continue;
		}
		printf("%s\n", words[0]);
		if (run_range(repo, words[0], words[1], FALSE, req))
			status = 1;
		fflush(stdout);
	}
	return status;
}

int cmd_dirstat(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *mbox = NULL;
	g_autofree char *path = NULL;
	gboolean is_signed = FALSE, json = FALSE, verdict = FALSE;
	gboolean per_commit = FALSE, read_stdin = FALSE;
	int rename_limit = -1;
	GOptionEntry options[] = {
		{ "dirstat", 'X', G_OPTION_FLAG_OPTIONAL_ARG,
		  G_OPTION_ARG_CALLBACK, on_dirstat,
		  "git's dirstat parameters: changes, lines, files, "
		  "cumulative, noncumulative, a cut-off percentage "
		  "(only as --dirstat=PARAMS or -X<PARAMS>, as in git)",
		  "PARAMS" },
		{ "cumulative", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  on_dirstat, "same as --dirstat=cumulative", NULL },
		{ "dirstat-by-file", 0, G_OPTION_FLAG_OPTIONAL_ARG,
		  G_OPTION_ARG_CALLBACK, on_dirstat,
		  "same as --dirstat=files,PARAMS", "PARAMS" },
		{ "find-renames", 'M', G_OPTION_FLAG_OPTIONAL_ARG,
		  G_OPTION_ARG_CALLBACK, on_find_renames,
		  "detect renames (the default), with a similarity threshold "
		  "(only as --find-renames=N or -M<N>, as in git)",
		  "N" },
		{ "no-renames", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  on_no_renames, "turn off rename detection", NULL },
		{ "rename-limit", 'l', 0, G_OPTION_ARG_INT, &rename_limit,
		  "diff.renameLimit (default 1000), as git's -l<N>", "N" },
		{ "signed", 0, 0, G_OPTION_ARG_NONE, &is_signed,
		  "count each file's net (added minus removed), signed", NULL },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json,
		  "print JSON for the store and the web page", NULL },
		{ "verdict", 0, 0, G_OPTION_ARG_NONE, &verdict,
		  "say whether the change shrinks or grows --path", NULL },
		{ "path", 0, 0, G_OPTION_ARG_STRING, &path,
		  "the directory of the verdict (default arch/arm)", "DIR" },
		{ "per-commit", 0, 0, G_OPTION_ARG_NONE, &per_commit,
		  "verdict: add up each commit of A..B as its own patch",
		  NULL },
		{ "mbox", 0, 0, G_OPTION_ARG_FILENAME, &mbox,
		  "read the series' patches from a mailbox instead", "FILE" },
		{ "stdin", 0, 0, G_OPTION_ARG_NONE, &read_stdin,
		  "read pairs of revisions from standard input, as git "
		  "diff-tree --stdin",
		  NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autofree char *from = NULL, *to = NULL;
	gboolean three_dot = FALSE;
	g_autoptr(gitrepo) repo = NULL;
	g_autoptr(GError) error = NULL;
	struct range_request req = {
		.report_text = dirstat_report_format,
		.verdict_text = dirstat_verdict_format,
	};
	/* git diff: revisions and options before "--", paths after it */
	int end = cmdline_options_end(options, argc, argv);
	const char *repo_dir;

	if (end + 1 < argc) {
		return command_usage_error(
			"dirstat",
			"armbot dirstat takes no paths: '%s' after '--'",
			argv[end + 1]);
	}
	argc = end;
	if (!command_parse_options(
		    "dirstat", "[<A> <B> | <A>..<B> | --mbox FILE] [--]",
		    "Print what `git diff --dirstat=PARAMS A B` prints, or its "
		    "signed variant, or the\narch/arm verdict.  The repository "
		    "is the global option -C REPO\n(default: the current "
		    "directory).\nExit status: as git diff's, 128 for a "
		    "parameter git refuses or a bad revision,\n129 for a "
		    "wrong command line.",
		    options, &argc, &argv))
		return bad_params ? COMMAND_FATAL_ERROR : COMMAND_USAGE_ERROR;
	repo_dir = cmdline_repo();
	dirstat_opts.is_signed = is_signed;
	if (rename_limit >= 0)
		rename_opts.rename_limit = rename_limit;
	req.verdict = verdict;
	req.per_commit = per_commit;
	req.path = path;
	if (json) {
		if (!ctx->dirstat_report_json)
			return COMMAND_NEEDS_CORE;
		req.report_text = ctx->dirstat_report_json;
		req.verdict_text = ctx->dirstat_verdict_json;
	}
	if (mbox) {
		if (argc != 1) {
			fprintf(stderr, "error: --mbox takes no revisions\n");
			return COMMAND_USAGE_ERROR;
		}
		if (!ctx->mbox_filestats)
			return COMMAND_NEEDS_CORE;
		return run_mbox(ctx, mbox, &req);
	}
	if (read_stdin) {
		if (argc != 1) {
			fprintf(stderr, "error: --stdin takes no revisions\n");
			return COMMAND_USAGE_ERROR;
		}
	} else if (argc == 3) {
		from = g_strdup(argv[1]);
		to = g_strdup(argv[2]);
	} else if (argc == 2 && strstr(argv[1], "..")) {
		const char *dots = strstr(argv[1], "..");

		three_dot = dots[2] == '.';
		from = g_strndup(argv[1], dots - argv[1]);
		to = g_strdup(dots + (three_dot ? 3 : 2));
	} else {
		return command_usage_error(
			"dirstat", "give two revisions, <A> <B> or <A>..<B>");
	}

	repo = gitrepo_open(repo_dir ? repo_dir : ".", &error);
	if (!repo) {
		fprintf(stderr, "error: cannot open repository: %s\n",
			error->message);
		return COMMAND_FATAL_ERROR;
	}
	return read_stdin ? run_stdin(repo, &req) :
			    run_range(repo, from, to, three_dot, &req);
}
