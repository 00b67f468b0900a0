/* armbot boot: build a kernel tree with the runtime-PM test config, boot
 * it in qemu -M virt with the rpm-test KUnit module, and compare the
 * KUnit results with those of the base (the tree without the series).
 *
 *   armbot boot [--tree NAME] [--board NAME] [--rev REV | FILE.mbox]
 *
 * --board builds the config of a board of the map (qemu/boards.conf) in
 * its own build dir and boots it on the board's QEMU machine with its DTB
 * and console; a boot with an oops, WARN or BUG on the console fails, and
 * the last line is the board's verdict, "boot BOARD ok userspace at 2.1 s".
 *
 * Each tree has one persistent worktree, DATA/worktrees/NAME, and one
 * build dir per config, DATA/kbuild/NAME/CONFIG.  A series is applied as
 * `git am` would, in the tree's object database (kernel/patch/am.h); the
 * worktree is checked out at the base and then at the series' head with
 * tree_checkout(), which rewrites only the paths that differ, so kbuild
 * rebuilds only what the series touched and nothing needs reverting. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "kernel/build/runner.h"
#include "kernel/patch/am.h"
#include "kernel/build/kbuild.h"
#include "kernel/tree/checkout.h"
#include "kernel/tree/import.h"
#include "kernel/tree/tree.h"
#include "qemu/boards.h"
#include "qemu/boot.h"
#include "qemu/ktap.h"
#include "qemu/virt.h"

#define CONSOLE_TAIL 30

enum { BOOT_OK = 0, BOOT_REGRESSION = 1, BOOT_ERROR = 2 };

static void say_waiting(void)
{
	fprintf(stderr, "waiting for another armbot boot on this tree\n");
}

/* Bring the worktree to @commit and build and boot it, as @trust (a
 * series' head builds in its copy of the build dir). */
static gboolean checkout_build_boot(struct boot_session *bs,
				    const struct gitoid *commit,
				    enum kbuild_trust trust,
				    struct boot_run *run, GError **error)
{
	if (!boot_session_run(bs, commit, trust, run, error))
		return FALSE;
	if (run->checkout_full)
		printf("checkout %.12s: %u files written (full checkout)\n",
		       gitoid_hex(commit), run->checkout_written);
	return TRUE;
}

static void print_lines(const char *text, const char *indent)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (guint i = 0; lines[i]; i++)
		if (lines[i][0] || lines[i + 1])
			printf("%s%s\n", indent, lines[i]);
}

static void print_build_failure(const char *what, struct kbuild_result *b)
{
	g_autofree char *tail =
		runner_tail_lines(b->log ? b->log->str : "", CONSOLE_TAIL);

	printf("%s: build failed (%s)\nlast %d lines of the build:\n", what,
	       b->how, CONSOLE_TAIL);
	print_lines(tail, "| ");
}

/* "boot ok" or "boot failed: why" and the console's tail. */
static gboolean print_boot(const char *label, struct boot_run *run,
			   gboolean verbose)
{
	struct virt_result *vm = &run->vm;
	const char *why = boot_failure_reason(vm);

	if (!why) {
		printf("%sboot ok: userspace at %.2f s (kernel time), machine "
		       "off after %.2f s\n",
		       label, vm->uptime, vm->seconds);
		return TRUE;
	}
	if (vm->timed_out)
		printf("%sboot failed: %s after %.1f s\n", label, why,
		       vm->seconds);
	else
		printf("%sboot failed: %s (qemu %s after %.1f s)\n", label, why,
		       vm->how, vm->seconds);
	if (verbose) {
		g_autofree char *tail =
			runner_tail_lines(vm->console->str, CONSOLE_TAIL);

		printf("last %d console lines:\n", CONSOLE_TAIL);
		print_lines(tail, "| ");
	}
	return FALSE;
}

/* The board's line: "boot BOARD ok userspace at 2.10 s" (the kernel's
 * uptime when init started), or why not (boot_board_verdict(), which the
 * pipeline's board lines share); a failure shows the console's tail. */
static gboolean print_board_verdict(const struct board *board,
				    struct boot_run *run)
{
	g_autofree char *words = NULL;

	if (boot_board_verdict(&run->vm, &words)) {
		printf("boot %s ok %s\n", board->name, words);
		return TRUE;
	}
	if (run->vm.fault && !boot_failure_reason(&run->vm)) {
		g_autofree char *tail =
			runner_tail_lines(run->vm.console->str, CONSOLE_TAIL);

		printf("last %d console lines:\n", CONSOLE_TAIL);
		print_lines(tail, "| ");
	}
	printf("boot %s failed: %s\n", board->name, words);
	return FALSE;
}

static void print_cases(const char *what, GPtrArray *cases, gboolean details)
{
	for (guint i = 0; i < cases->len; i++) {
		struct ktap_case *c = cases->pdata[i];

		printf("%s: %s.%s%s\n", what, c->suite, c->name,
		       c->status == KTAP_CRASHED ? " (crashed)" : "");
		for (guint j = 0; details && c->diagnostics &&
				  j < MIN(c->diagnostics->len, CONSOLE_TAIL);
		     j++)
			printf("    %s\n", (char *)c->diagnostics->pdata[j]);
	}
}

static gboolean ktap_has_failures(const struct ktap_report *r)
{
	return ktap_count(r, KTAP_FAIL) || ktap_count(r, KTAP_CRASHED);
}

int cmd_boot(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *tree_name = NULL;
	g_autofree char *rev = NULL;
	g_autofree char *config = NULL;
	g_autofree char *rpm_test = NULL;
	g_autofree char *init_src = NULL;
	gint timeout_s = 60, jobs = 0;
	gboolean no_base = FALSE;
	g_autofree char *save_console = NULL;
	g_autofree char *board_name = NULL;
	g_autoptr(board_map) map = NULL;
	GOptionEntry options[] = {
		{ "board", 0, 0, G_OPTION_ARG_STRING, &board_name,
		  "build and boot this board of the map (qemu/boards.conf) "
		  "instead of qemu -M virt",
		  "NAME" },
		COMMAND_OPTION_TREE(tree_name, "build"),
		{ "rev", 0, 0, G_OPTION_ARG_STRING, &rev,
		  "the revision to boot, or with FILE.mbox the base to apply "
		  "it on (default: the tree's head, or the series' "
		  "base-commit)",
		  "REV" },
		{ "timeout", 0, 0, G_OPTION_ARG_INT, &timeout_s,
		  "seconds a boot may take (default 60)", "S" },
		COMMAND_OPTION_JOBS(jobs),
		{ "no-base", 0, 0, G_OPTION_ARG_NONE, &no_base,
		  "do not boot the base of the series to compare", NULL },
		{ "console", 0, 0, G_OPTION_ARG_FILENAME, &save_console,
		  "save the console of the (patched) boot here", "FILE" },
		{ "config", 0, 0, G_OPTION_ARG_FILENAME, &config,
		  "config fragment (default qemu/virt.config)", "FILE" },
		{ "rpm-test", 0, 0, G_OPTION_ARG_FILENAME, &rpm_test,
		  "the KUnit module's source (default qemu/guest/rpm-test)",
		  "DIR" },
		{ "init", 0, 0, G_OPTION_ARG_FILENAME, &init_src,
		  "the guest init's source (default qemu/guest/init.c)",
		  "FILE" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(am_series) series = NULL;
	const char *mbox = NULL;
	const char *data_dir;
	struct am_options am_opts = AM_OPTIONS_INIT;
	struct boot_run base = { 0 }, run = { 0 };
	struct boot_options bopts = { 0 };
	g_autoptr(boot_session) bs = NULL;
	struct ktap_diff diff = { 0 };
	struct gitoid commit;
	gboolean have_base = FALSE;
	int status = BOOT_OK;

	if (!command_parse_options("boot", "[FILE.mbox]",
				   "Build a kernel tree (or a series applied "
				   "to it) with the runtime-PM KUnit suite, "
				   "boot it in qemu -M virt and compare its "
				   "results with the base's.\n"
				   "Exit status: 0 booted with no new failure, "
				   "1 a regression (no boot, new failures, "
				   "a broken build, a series that does not "
				   "apply), 2 an error.",
				   options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (argc > 2) {
		return command_usage_error("boot", "one mailbox at most");
	}
	if (argc == 2)
		mbox = argv[1];
	data_dir = command_data_dir(ctx);
	tree = tree_open_or_default(data_dir, tree_name, &error);
	if (!tree)
		goto error;
	bopts.data_dir = data_dir;
	bopts.tree = tree;
	bopts.config = config;
	bopts.rpm_test_dir = rpm_test;
	bopts.init_src = init_src;
	if (board_name) {
		if (config)
			return command_usage_error(
				"boot",
				"--board and --config exclude each other");
		map = board_map_load(NULL, &error);
		if (!map)
			goto error;
		bopts.board = board_map_find(map, board_name);
		if (!bopts.board) {
			fprintf(stderr, "error: no board '%s' in the map\n",
				board_name);
			return BOOT_ERROR;
		}
	}
	bopts.timeout_s = timeout_s > 0 ? (guint)timeout_s : 60;
	bopts.jobs = jobs > 0 ? (guint)jobs : 0;
	bs = boot_session_open(&bopts, say_waiting, &error);
	if (!bs)
		goto error;

	printf("tree: %s\nbuild: %s\n", tree->name, boot_session_build_dir(bs));
	if (bopts.board)
		printf("board: %s (qemu -M %s%s%s, console %s)\n",
		       bopts.board->name, bopts.board->machine,
		       bopts.board->dtb ? ", " : "",
		       bopts.board->dtb ? bopts.board->dtb : "",
		       bopts.board->console);
	if (mbox) {
		g_autofree char *head_ref = tree_head_ref(tree);

		/* the series becomes commits in the tree's object database
		 * (no ref moves): the worktree is then only checked out */
		am_opts.base = rev;
		if (!am_apply_mbox(&series, tree->repo, head_ref, mbox,
				   &am_opts, &error))
			goto error;
		if (!command_print_series(series)) {
			status = BOOT_REGRESSION;
			goto out;
		}
		commit = series->head;
	} else {
		if (!tree_resolve(tree, rev, &commit, &error))
			goto error;
		printf("commit: %s\n", gitoid_hex(&commit));
	}

	if (series && !no_base) {
		if (!checkout_build_boot(bs, &series->base, KBUILD_TRUSTED,
					 &base, &error))
			goto error;
		if (!base.built) {
			print_build_failure("base", &base.build);
			status = BOOT_ERROR;
			goto out;
		}
		printf("base: built in %.1f s + module %.1f s\n",
		       base.build.seconds, base.module_seconds);
		if (print_boot("base: ", &base, FALSE))
			have_base = TRUE;
		printf("base: kunit %u passed, %u failed, %u skipped\n",
		       ktap_count(base.ktap, KTAP_PASS),
		       ktap_count(base.ktap, KTAP_FAIL) +
			       ktap_count(base.ktap, KTAP_CRASHED),
		       ktap_count(base.ktap, KTAP_SKIP));
	}

	/* a revision of the tree is its own; a series' head is not */
	if (!checkout_build_boot(bs, &commit,
				 series ? KBUILD_SERIES : KBUILD_TRUSTED, &run,
				 &error))
		goto error;
	if (series)
		printf("series' copy of the build dir: %u of %u files "
		       "written, %u removed, in %.2f s\n",
		       run.copy.copied, run.copy.entries, run.copy.removed,
		       run.copy.seconds);
	if (!run.built) {
		print_build_failure("kernel", &run.build);
		status = BOOT_REGRESSION;
		goto out;
	}
	printf("built in %.1f s + module %.1f s\n", run.build.seconds,
	       run.module_seconds);
	if (save_console &&
	    !g_file_set_contents(save_console, run.vm.console->str,
				 run.vm.console->len, &error))
		goto error;
	if (!print_boot("", &run, TRUE))
		status = BOOT_REGRESSION;
	if (bopts.board && !print_board_verdict(bopts.board, &run))
		status = BOOT_REGRESSION;

	ktap_compare(have_base ? base.ktap : NULL, run.ktap, &diff);
	if (!run.ktap->cases->len) {
		printf("kunit: no results\n");
		status = BOOT_REGRESSION;
	} else if (have_base) {
		printf("kunit: %u passed, %u new failures, %u fixed, "
		       "%u still failing, %u skipped, %u not run\n",
		       diff.passed->len, diff.new_failures->len,
		       diff.fixed->len, diff.still_failing->len,
		       diff.skipped->len, diff.not_run->len);
		print_cases("new failure", diff.new_failures, TRUE);
		print_cases("fixed", diff.fixed, FALSE);
		print_cases("still failing", diff.still_failing, FALSE);
		print_cases("not run", diff.not_run, FALSE);
		if (diff.new_failures->len || diff.not_run->len)
			status = BOOT_REGRESSION;
	} else {
		printf("kunit: %u passed, %u failed, %u skipped\n",
		       diff.passed->len, diff.new_failures->len,
		       diff.skipped->len);
		print_cases("failed", diff.new_failures, TRUE);
		if (ktap_has_failures(run.ktap))
			status = BOOT_REGRESSION;
	}
	ktap_diff_clear(&diff);
	goto out;

error:
	status = command_fail_status(error, BOOT_ERROR);
out:
	boot_run_clear(&base);
	boot_run_clear(&run);
	return status;
}
