/* armbot sparse: apply a series to a tree (as `armbot am`, in the tree's
 * object database) and report the sparse and compiler warnings it
 * introduces, in the kernel test robot's shape (kernel/build/sparse-check.h).
 *
 *   armbot sparse [--tree NAME] [--per-patch] [--base REV] FILE.mbox
 *
 * Exit status 0 when the check ran, whatever it found (the verdict is the
 * "result:" line); 1 when the series does not apply; 2 on an error (the
 * sandbox cannot be set up, a tool is missing). */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "config/config.h"
#include "config/treefile.h"
#include "kernel/patch/am.h"
#include "kernel/build/sparse-check.h"
#include "kernel/tree/import.h"
#include "kernel/tree/tree.h"

enum { SPARSE_RAN = 0, SPARSE_NOT_APPLIED = 1, SPARSE_ERROR = 2 };

static void show_progress(enum sparse_check_stage stage, const char *detail,
			  gpointer user_data)
{
	static const char *const names[] = {
		[SPARSE_CHECK_STAGE_SELECT] = "selecting the objects",
		[SPARSE_CHECK_STAGE_CONFIG] = "configuring (cold build dir)",
		[SPARSE_CHECK_STAGE_HEAD] = "sparse at the head",
		[SPARSE_CHECK_STAGE_BASE] = "sparse at the base",
		[SPARSE_CHECK_STAGE_PATCH] = "sparse after patch",
	};

	(void)user_data;
	fprintf(stderr, "%s%s%s\n", names[stage], detail ? " " : "",
		detail ? detail : "");
}

int cmd_sparse(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *tree_name = NULL;
	g_autofree char *rev = NULL;
	g_autofree char *config_file = NULL;
	g_autoptr(armbot_config) config = NULL;
	const struct treefile *tf;
	gboolean per_patch = FALSE, quiet = FALSE, no_cache = FALSE;
	gint jobs = 0, timeout_s = 0;
	GOptionEntry options[] = {
		COMMAND_OPTION_TREE(tree_name, "apply to"),
		{ "base", 0, 0, G_OPTION_ARG_STRING, &rev,
		  "the base to apply the series on (default: the series' "
		  "base-commit, else the tree's head)",
		  "REV" },
		{ "per-patch", 0, 0, G_OPTION_ARG_NONE, &per_patch,
		  "check after each patch too, so that each new warning names "
		  "the patch that introduced it",
		  NULL },
		COMMAND_OPTION_JOBS(jobs),
		{ "timeout", 0, 0, G_OPTION_ARG_INT, &timeout_s,
		  "seconds one make run may take (default 3600)", "S" },
		{ "no-base-cache", 0, 0, G_OPTION_ARG_NONE, &no_cache,
		  "build every object even when its warnings are kept from "
		  "an earlier run (at that base, or of the same source at a "
		  "series' commit)",
		  NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
		  "no progress on stderr", NULL },
		COMMAND_OPTION_CONFIG(config_file),
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(am_series) series = NULL;
	g_autoptr(GArray)
		patches = g_array_new(FALSE, FALSE, sizeof(struct gitoid));
	g_autoptr(GPtrArray) subjects = g_ptr_array_new();
	g_autofree char *head_ref = NULL;
	struct am_options am_opts = AM_OPTIONS_INIT;
	struct sparse_check_opts opts = SPARSE_CHECK_OPTS_INIT;
	struct sparse_check_result res = { 0 };
	const struct sparse_check_timings *t = &res.timings;
	int status = SPARSE_RAN;

	if (!command_parse_options("sparse", "FILE.mbox",
				   "Apply a series and report the sparse and "
				   "compiler warnings it introduces (new ones "
				   "prefixed by >>), building the touched "
				   "objects in the sandbox at the base and at "
				   "the head.\n"
				   "Exit status: 0 the check ran (whatever it "
				   "found), 1 the series does not apply, 2 an "
				   "error.",
				   options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc != 2) {
		return command_usage_error("sparse", "one mailbox expected");
	}

	/* the tree file's build-distribute: compiles through icecream */
	config = command_config(config_file, NULL, &error);
	if (!config)
		goto error;
	opts.data_dir = command_data_dir(ctx);
	tree = tree_open_or_default(opts.data_dir, tree_name, &error);
	if (!tree)
		goto error;
	head_ref = tree_head_ref(tree);
	am_opts.base = rev;
	if (!am_apply_mbox(&series, tree->repo, head_ref, argv[1], &am_opts,
			   &error))
		goto error;
	printf("tree: %s\n", tree->name);
	if (!command_print_series(series)) {
		status = SPARSE_NOT_APPLIED;
		goto out;
	}
	for (guint i = 0; i < series->patches->len; i++) {
		const struct am_patch *p = series->patches->pdata[i];

		g_array_append_val(patches, p->commit);
		g_ptr_array_add(subjects, p->subject);
	}

	opts.tree = tree;
	opts.base = series->base;
	opts.patches = patches;
	opts.subjects = subjects;
	opts.per_patch = per_patch;
	opts.no_cache = no_cache;
	opts.jobs = jobs > 0 ? (guint)jobs : 0;
	opts.timeout_s = timeout_s > 0 ? (guint)timeout_s : 0;
	tf = config_tree(config, tree->name);
	if (tf && tf->icecream) {
		opts.icecc = tf->icecc;
	}
	if (!quiet)
		opts.progress = show_progress;
	if (!sparse_check_run(&opts, &res, &error))
		goto error;

	for (guint i = 0; i < res.checked->len; i++) {
		const struct sparse_check_object *o = res.checked->pdata[i];

		printf("checked: %s (%s; %s)\n", o->object, o->config, o->why);
	}
	printf("\n%s", res.report);
	printf("result: %s", sparse_check_status_name(res.status));
	if (res.reason)
		printf(" (%s)", res.reason);
	printf(": %u new, %u fixed, %u warnings at head, %u compile errors\n",
	       res.new_warnings, res.fixed_warnings, res.total_warnings,
	       res.compile_errors);
	if (res.build_note)
		printf("build: %s\n", res.build_note);
	printf("time: %.1f s (select %.1f, config %.1f, checkout %.1f, head "
	       "%.1f, base %.1f, patches %.1f)\n",
	       t->total, t->select, t->config, t->checkout, t->head, t->base,
	       t->patches);
	printf("base: %u objects from the cache, %u built\n", res.base_cached,
	       res.base_computed);
	printf("series commits: %u objects from the cache, %u built\n",
	       res.series_cached, res.series_computed);
	if (res.reproduce && *res.reproduce)
		printf("reproduce:\n%s", res.reproduce);
	goto out;

error:
	status = command_fail_status(error, SPARSE_ERROR);
out:
	sparse_check_result_clear(&res);
	return status;
}
