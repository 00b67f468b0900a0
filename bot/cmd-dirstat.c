/* armbot dirstat: git's --dirstat of a commit range, byte for byte, its
 * signed variant, and the arch/arm verdict; from commits or from a
 * series' patches as mailed. */
#include <git2.h>
#include <stdio.h>
#include <string.h>

#include "bot/command.h"
#include "kernel/diffrename.h"
#include "kernel/dirstat-verdict.h"
#include "kernel/dirstat.h"
#include "kernel/patchstat.h"
#include "kernel/treediff.h"

#define CMD_DIRSTAT_ERROR (g_quark_from_static_string("cmd-dirstat-error"))

/* Options that git parses as it meets them: kept in order in one place */
static struct dirstat_options dirstat_opts = DIRSTAT_OPTIONS_INIT;
static struct diffrename_options rename_opts = DIFFRENAME_OPTIONS_INIT;
static gboolean detect_renames = TRUE;

static gboolean on_dirstat(const char *name, const char *value, gpointer data,
			   GError **error)
{
	if (!strcmp(name, "--dirstat-by-file") &&
	    !dirstat_parse_params(&dirstat_opts, "files", error))
		return FALSE;
	if (!strcmp(name, "--cumulative"))
		value = "cumulative";
	return dirstat_parse_params(&dirstat_opts, value ? value : "", error);
}

static gboolean on_find_renames(const char *name, const char *value,
				gpointer data, GError **error)
{
	detect_renames = TRUE;
	if (value) {
		int score = diffrename_parse_score(value);

		if (score < 0) {
			g_set_error(error, CMD_DIRSTAT_ERROR, 1,
				    "invalid argument to %s: %s", name, value);
			return FALSE;
		}
		rename_opts.minimum_score = score;
	}
	return TRUE;
}

static gboolean on_no_renames(const char *name, const char *value,
			      gpointer data, GError **error)
{
	detect_renames = FALSE;
	return TRUE;
}

static void print_git_error(const char *what)
{
	const git_error *e = git_error_last();

	fprintf(stderr, "error: %s: %s\n", what,
		e ? e->message : "unknown error");
}

/* The tree of @spec ("" or NULL: HEAD). */
static git_tree *resolve_tree(git_repository *repo, const char *spec)
{
	git_object *obj = NULL;
	git_object *tree = NULL;

	if (!spec || !*spec)
		spec = "HEAD";
	if (git_revparse_single(&obj, repo, spec) < 0) {
		fprintf(stderr, "error: bad revision '%s'\n", spec);
		return NULL;
	}
	if (git_object_peel(&tree, obj, GIT_OBJECT_TREE) < 0) {
		fprintf(stderr, "error: '%s' is not a tree-ish\n", spec);
		tree = NULL;
	}
	git_object_free(obj);
	return (git_tree *)tree;
}

/* "A...B": the merge base of A and B, as git diff does. */
static git_tree *merge_base_tree(git_repository *repo, const char *a,
				 const char *b)
{
	git_object *oa = NULL, *ob = NULL;
	git_oid base;
	git_commit *commit = NULL;
	git_tree *tree = NULL;

	if (git_revparse_single(&oa, repo, *a ? a : "HEAD") < 0 ||
	    git_revparse_single(&ob, repo, *b ? b : "HEAD") < 0 ||
	    git_merge_base(&base, repo, git_object_id(oa), git_object_id(ob)) <
		    0 ||
	    git_commit_lookup(&commit, repo, &base) < 0 ||
	    git_commit_tree(&tree, commit) < 0)
		fprintf(stderr, "error: no merge base of '%s' and '%s'\n", a,
			b);
	git_commit_free(commit);
	git_object_free(oa);
	git_object_free(ob);
	return tree;
}

/* The pairs between two trees with rename detection as asked. */
static struct treediff *tree_pairs(git_repository *repo, git_tree *a,
				   git_tree *b, GError **error)
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
static GPtrArray *per_commit_filestats(git_repository *repo, const char *a,
				       const char *b, GError **error)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(
		(GDestroyNotify)dirstat_filestat_free);
	git_revwalk *walk = NULL;
	git_oid oid;
	git_object *from = NULL, *to = NULL;
	gboolean ok = TRUE;

	if (git_revparse_single(&from, repo, *a ? a : "HEAD") < 0 ||
	    git_revparse_single(&to, repo, *b ? b : "HEAD") < 0 ||
	    git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_push(walk, git_object_id(to)) < 0 ||
	    git_revwalk_hide(walk, git_object_id(from)) < 0) {
		g_set_error(error, CMD_DIRSTAT_ERROR, 1, "bad range '%s..%s'",
			    a, b);
		ok = FALSE;
	}
	if (ok)
		git_revwalk_sorting(walk,
				    GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	while (ok && !git_revwalk_next(&oid, walk)) {
		git_commit *commit = NULL, *parent = NULL;
		git_tree *t1 = NULL, *t2 = NULL;
		g_autoptr(treediff) q = NULL;
		g_autoptr(GPtrArray) fs = NULL;

		if (git_commit_lookup(&commit, repo, &oid) < 0 ||
		    git_commit_tree(&t2, commit) < 0 ||
		    (git_commit_parentcount(commit) &&
		     (git_commit_parent(&parent, commit, 0) < 0 ||
		      git_commit_tree(&t1, parent) < 0))) {
			g_set_error(error, CMD_DIRSTAT_ERROR, 1,
				    "cannot read commit");
			ok = FALSE;
		} else if (git_commit_parentcount(commit) <= 1) {
			q = tree_pairs(repo, t1, t2, error);
			fs = q ? dirstat_filestats_from_tree(q, error) : NULL;
			if (!fs)
				ok = FALSE;
			for (guint i = 0; fs && i < fs->len; i++)
				g_ptr_array_add(all,
						g_steal_pointer(&fs->pdata[i]));
		}
		git_tree_free(t1);
		git_tree_free(t2);
		git_commit_free(parent);
		git_commit_free(commit);
	}
	git_revwalk_free(walk);
	git_object_free(from);
	git_object_free(to);
	return ok ? g_steal_pointer(&all) : NULL;
}

static void warn_skipped(guint n, const GError *why, gpointer path)
{
	fprintf(stderr, "warning: %s: mail %u skipped: %s\n",
		(const char *)path, n, why->message);
}

static int print_report(struct dirstat_report *report, gboolean json)
{
	g_autofree char *text = json ? dirstat_report_to_json(report) :
				       dirstat_report_format(report);

	fputs(text, stdout);
	return 0;
}

static int print_verdict(GPtrArray *filestats, const char *path, gboolean json)
{
	g_autoptr(dirstat_verdict) v = dirstat_verdict_compute(filestats, path);
	g_autofree char *text = json ? dirstat_verdict_to_json(v) :
				       dirstat_verdict_format(v);

	fputs(text, stdout);
	return 0;
}

static int run_mbox(const char *mbox, gboolean verdict, const char *path,
		    gboolean json)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray)
		fs = patchstat_mbox(mbox, warn_skipped, (gpointer)mbox, &error);
	g_autoptr(dirstat_report) report = NULL;

	if (!fs) {
		fprintf(stderr, "error: cannot read '%s': %s\n", mbox,
			error->message);
		return 1;
	}
	if (verdict)
		return print_verdict(fs, path, json);
	if (dirstat_opts.mode == DIRSTAT_CHANGES)
		dirstat_opts.mode = DIRSTAT_LINES;
	report = dirstat_report_from_filestats(fs, &dirstat_opts, &error);
	if (!report) {
		fprintf(stderr, "error: %s\n", error->message);
		return 1;
	}
	return print_report(report, json);
}

struct range_request {
	gboolean verdict;
	gboolean per_commit;
	gboolean json;
	const char *path;
};

/* Print the dirstat, signed dirstat or verdict of one range.  Returns the
 * exit status: 0 when it was printed. */
static int run_range(git_repository *repo, const char *from, const char *to,
		     gboolean three_dot, const struct range_request *req)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(treediff) q = NULL;
	g_autoptr(dirstat_report) report = NULL;
	g_autoptr(GPtrArray) filestats = NULL;
	git_tree *ta = NULL, *tb = NULL;
	gboolean verdict = req->verdict, json = req->json;
	const char *path = req->path;
	int status = 1;

	if (verdict && req->per_commit) {
		filestats = per_commit_filestats(repo, from, to, &error);
		if (!filestats) {
			fprintf(stderr, "error: %s\n", error->message);
			goto done;
		}
		status = print_verdict(filestats, path, json);
		goto done;
	}
	ta = three_dot ? merge_base_tree(repo, from, to) :
			 resolve_tree(repo, from);
	tb = resolve_tree(repo, to);
	if (!ta || !tb)
		goto done;
	q = tree_pairs(repo, ta, tb, &error);
	if (!q) {
		fprintf(stderr, "error: %s\n", error->message);
		goto done;
	}
	if (verdict) {
		filestats = dirstat_filestats_from_tree(q, &error);
		if (!filestats) {
			fprintf(stderr, "error: %s\n", error->message);
			goto done;
		}
		status = print_verdict(filestats, path, json);
		goto done;
	}
	report = dirstat_report_from_tree(q, NULL, &dirstat_opts, &error);
	if (!report) {
		fprintf(stderr, "error: %s\n", error->message);
		goto done;
	}
	status = print_report(report, json);
done:
	git_tree_free(ta);
	git_tree_free(tb);
	return status;
}

/* --stdin, as `git diff-tree --stdin`: each line names two revisions; the
 * first is printed on a line of its own, then that range's output.  One
 * process for many ranges, the way the daemon computes them. */
static int run_stdin(git_repository *repo, const struct range_request *req)
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
	g_autofree char *repo_dir = NULL;
	g_autofree char *mbox = NULL;
	g_autofree char *path = NULL;
	g_autoptr(GPtrArray) rewritten = g_ptr_array_new_with_free_func(g_free);
	gboolean is_signed = FALSE, json = FALSE, verdict = FALSE;
	gboolean per_commit = FALSE, read_stdin = FALSE;
	int rename_limit = -1;
	GOptionEntry options[] = {
		{ "dirstat", 'X', G_OPTION_FLAG_OPTIONAL_ARG,
		  G_OPTION_ARG_CALLBACK, on_dirstat,
		  "git's dirstat parameters: changes, lines, files, "
		  "cumulative, noncumulative, a cut-off percentage",
		  "PARAMS" },
		{ "cumulative", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  on_dirstat, "same as --dirstat=cumulative", NULL },
		{ "dirstat-by-file", 0, G_OPTION_FLAG_OPTIONAL_ARG,
		  G_OPTION_ARG_CALLBACK, on_dirstat,
		  "same as --dirstat=files,PARAMS", "PARAMS" },
		{ "find-renames", 'M', G_OPTION_FLAG_OPTIONAL_ARG,
		  G_OPTION_ARG_CALLBACK, on_find_renames,
		  "detect renames (the default), with a similarity threshold",
		  "N" },
		{ "no-renames", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  on_no_renames, "turn off rename detection", NULL },
		{ "rename-limit", 0, 0, G_OPTION_ARG_INT, &rename_limit,
		  "diff.renameLimit (default 1000); also -l<N>", "N" },
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
		{ "repo", 'C', 0, G_OPTION_ARG_FILENAME, &repo_dir,
		  "the repository (default: the current directory)", "REPO" },
		G_OPTION_ENTRY_NULL
	};
	g_autofree char *from = NULL, *to = NULL;
	gboolean three_dot = FALSE;
	git_repository *repo = NULL;
	struct range_request req = { 0 };
	int status = 1;

	/* git spells the rename limit -l<num>, attached */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (g_str_has_prefix(argv[i], "-l") && argv[i][2]) {
			argv[i] = g_strdup_printf("--rename-limit=%s",
						  argv[i] + 2);
			g_ptr_array_add(rewritten, argv[i]);
		}
	}
	if (!command_parse_options(
		    "dirstat", "[<A> <B> | <A>..<B> | --mbox FILE]",
		    "Print what `git diff --dirstat=PARAMS A B` prints, or its "
		    "signed variant, or the\narch/arm verdict.",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	dirstat_opts.is_signed = is_signed;
	if (rename_limit >= 0)
		rename_opts.rename_limit = rename_limit;
	if (mbox) {
		if (argc != 1) {
			fprintf(stderr, "error: --mbox takes no revisions\n");
			return COMMAND_USAGE_ERROR;
		}
		return run_mbox(mbox, verdict, path, json);
	}
	req.verdict = verdict;
	req.per_commit = per_commit;
	req.json = json;
	req.path = path;
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
		fprintf(stderr,
			"error: give two revisions, <A> <B> or <A>..<B>\n"
			"usage: see 'armbot help dirstat'\n");
		return COMMAND_USAGE_ERROR;
	}

	git_libgit2_init();
	/* git reads objects without hashing them again (read_object_file());
	 * libgit2's strict verification costs a SHA-1 of every blob read */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	if (git_repository_open_ext(&repo, repo_dir ? repo_dir : ".", 0, NULL) <
	    0) {
		print_git_error("cannot open repository");
		goto done;
	}
	status = read_stdin ? run_stdin(repo, &req) :
			      run_range(repo, from, to, three_dot, &req);
done:
	git_repository_free(repo);
	git_libgit2_shutdown();
	return status;
}
