/* armbot boot: build a kernel tree with the runtime-PM test config, boot
 * it in qemu -M virt with the rpm-test KUnit module, and compare the
 * KUnit results with those of the base (the tree without the series).
 *
 *   armbot boot [--tree NAME] [--rev REV | FILE.mbox]
 *
 * Each tree has one persistent worktree, DATA/worktrees/NAME, and one
 * build dir per config, DATA/kbuild/NAME/CONFIG.  A series is applied as
 * `git am` would, in the tree's object database (kernel/am.h); the
 * worktree is checked out at the base and then at the series' head with
 * tree_checkout(), which rewrites only the paths that differ, so kbuild
 * rebuilds only what the series touched and nothing needs reverting. */
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "bot/command.h"
#include "bot/runner.h"
#include "kernel/am.h"
#include "kernel/kbuild.h"
#include "kernel/sandbox.h"
#include "kernel/tree.h"
#include "qemu/initramfs.h"
#include "qemu/ktap.h"
#include "qemu/virt.h"

#ifndef ARMBOT_SOURCE_DIR
#define ARMBOT_SOURCE_DIR "."
#endif

#define BOOT_CONFIG_NAME "rpm-virt"
#define RPM_TEST_MODULE "rpm_test"
#define RPM_TEST_SYMBOL "CONFIG_PM_RUNTIME_KUNIT_TEST"
#define CONSOLE_TAIL 30

enum { BOOT_OK = 0, BOOT_REGRESSION = 1, BOOT_ERROR = 2 };

struct boot_ctx {
	struct tree *tree;
	struct kbuild *kb;
	struct sandbox *vm_sandbox;
	const char *rpm_test_dir;
	const char *init_src;
	const char *state_dir; /* <data>/boot: the init binary cache */
	guint timeout_s;
};

/* One build-and-boot of the tree as it is now. */
struct boot_run {
	gboolean built;
	struct kbuild_result build;
	double module_seconds;
	struct virt_result vm;
	struct ktap_report *ktap;
};

static void boot_run_clear(struct boot_run *run)
{
	kbuild_result_clear(&run->build);
	virt_result_clear(&run->vm);
	g_clear_pointer(&run->ktap, ktap_report_free);
}

static const char *source_dir(void)
{
	const char *env = g_getenv("ARMBOT_SOURCE_DIR");

	return env && *env ? env : ARMBOT_SOURCE_DIR;
}

static char *cache_dir(void)
{
	const char *env = g_getenv("ARMBOT_CACHE_DIR");

	if (env && *env)
		return g_strdup(env);
	return g_build_filename(g_get_user_cache_dir(), "armbot", NULL);
}

/* Build the kernel and the module, make the initramfs, boot.  FALSE with
 * @error only for what is not an outcome of the tree (a missing tool);
 * a failed build is @run->built == FALSE. */
static gboolean build_and_boot(struct boot_ctx *bc, struct boot_run *run,
			       GError **error)
{
	g_autofree char *ko = NULL;
	g_autofree char *image = NULL;
	g_autofree char *initrd = NULL;
	struct kbuild_result mod = { 0 };
	struct virt_opts vo = { 0 };

	memset(run, 0, sizeof(*run));
	if (!kbuild_kernel(bc->kb, &run->build, error))
		return FALSE;
	if (!run->build.ok)
		return TRUE;
	if (!kbuild_external_module(bc->kb, bc->rpm_test_dir, RPM_TEST_MODULE,
				    RPM_TEST_SYMBOL, &ko, &mod, error))
		return FALSE;
	run->module_seconds = mod.seconds;
	if (!mod.ok) {
		/* the module is part of the build: report its log */
		kbuild_result_clear(&run->build);
		run->build = mod;
		return TRUE;
	}
	kbuild_result_clear(&mod);
	run->built = TRUE;
	initrd = g_build_filename(bc->kb->build_dir, "armbot-initramfs.cpio",
				  NULL);
	if (!initramfs_build(bc->init_src, ko, bc->state_dir, initrd, error))
		return FALSE;
	image = kbuild_image(bc->kb);
	vo.kernel = image;
	vo.initrd = initrd;
	vo.timeout_s = bc->timeout_s;
	if (!virt_boot(bc->vm_sandbox, &vo, &run->vm, error))
		return FALSE;
	run->ktap = ktap_parse(run->vm.console->str);
	return TRUE;
}

/* Serialise the runs on one tree's worktree: a run checks the worktree
 * out at the revisions it builds.  The lock is an flock on @path,
 * released at exit.  Returns the fd to keep, or -1 with @error. */
static int lock_worktree(const char *path, GError **error)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot open '%s': %s", path, g_strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		fprintf(stderr, "waiting for another armbot boot on this "
				"tree\n");
		while (flock(fd, LOCK_EX) != 0) {
			if (errno != EINTR) {
				g_set_error(error, G_IO_ERROR,
					    g_io_error_from_errno(errno),
					    "cannot lock '%s': %s", path,
					    g_strerror(errno));
				close(fd);
				return -1;
			}
		}
	}
	return fd;
}

/* Bring the worktree to @commit and build and boot it. */
static gboolean checkout_build_boot(struct boot_ctx *bc, const git_oid *commit,
				    struct boot_run *run, GError **error)
{
	struct tree_checkout_stats stats;
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), commit);
	if (!tree_checkout(bc->tree, hex, bc->kb->src_dir, &stats, error))
		return FALSE;
	if (stats.full)
		printf("checkout %.12s: %u files written (full checkout)\n",
		       hex, stats.written);
	return build_and_boot(bc, run, error);
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
	const char *why;

	if (virt_result_ok(vm)) {
		printf("%sboot ok: userspace at %.2f s (kernel time), machine "
		       "off after %.2f s\n",
		       label, vm->uptime, vm->seconds);
		return TRUE;
	}
	if (vm->timed_out)
		why = vm->userspace ?
			      "hung in userspace: stopped by the timeout" :
			      "hung: stopped by the timeout";
	else if (vm->panicked)
		why = "kernel panic";
	else if (!vm->userspace)
		why = "no userspace";
	else
		why = "init did not finish";
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

/* The patches of @s that did not apply, as `armbot am` prints them. */
static void print_am_failures(const struct am_series *s)
{
	printf("series does not apply:\n");
	for (guint i = 0; i < s->patches->len; i++) {
		const struct am_patch *p = s->patches->pdata[i];

		if (!p->applied)
			printf("| %u/%u %s: %s\n", p->number, s->patches->len,
			       p->subject, p->reason);
	}
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
	GOptionEntry options[] = {
		{ "tree", 0, 0, G_OPTION_ARG_STRING, &tree_name,
		  "the tree to build (default: the distro tree)", "NAME" },
		{ "rev", 0, 0, G_OPTION_ARG_STRING, &rev,
		  "the revision to boot, or with FILE.mbox the base to apply "
		  "it on (default: the tree's head, or the series' "
		  "base-commit)",
		  "REV" },
		{ "timeout", 0, 0, G_OPTION_ARG_INT, &timeout_s,
		  "seconds a boot may take (default 60)", "S" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
		  "parallel make jobs (default: the number of cores)", "N" },
		{ "no-base", 0, 0, G_OPTION_ARG_NONE, &no_base,
		  "do not boot the base of the series to compare", NULL },
		{ "console", 0, 0, G_OPTION_ARG_FILENAME, &save_console,
		  "save the console of the (patched) boot here", "FILE" },
		{ "config", 0, 0, G_OPTION_ARG_FILENAME, &config,
		  "config fragment (default qemu/virt.config)", "FILE" },
		{ "rpm-test", 0, 0, G_OPTION_ARG_FILENAME, &rpm_test,
		  "the KUnit module's source (default kernel/rpm-test)",
		  "DIR" },
		{ "init", 0, 0, G_OPTION_ARG_FILENAME, &init_src,
		  "the guest init's source (default qemu/initramfs/init.c)",
		  "FILE" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(kernel_tree) tree = NULL;
	g_autoptr(am_series) series = NULL;
	g_autoptr(kbuild) kb = NULL;
	g_autoptr(sandbox) vm_sandbox = NULL;
	g_autofree char *cache = NULL;
	g_autofree char *ccache = NULL;
	g_autofree char *worktrees = NULL;
	g_autofree char *worktree = NULL;
	g_autofree char *lock_path = NULL;
	g_autofree char *build_dir = NULL;
	g_autofree char *state_dir = NULL;
	const char *mbox = NULL;
	const char *data_dir;
	struct am_options am_opts = AM_OPTIONS_INIT;
	struct boot_run base = { 0 }, run = { 0 };
	struct boot_ctx bc = { 0 };
	struct ktap_diff diff = { 0 };
	git_oid commit;
	gboolean have_base = FALSE;
	int status = BOOT_OK;
	int lock_fd = -1;

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
		fprintf(stderr, "error: one mailbox at most\n"
				"usage: see 'armbot help boot'\n");
		return COMMAND_USAGE_ERROR;
	}
	if (argc == 2)
		mbox = argv[1];
	if (!config)
		config = g_build_filename(source_dir(), "qemu", "virt.config",
					  NULL);
	if (!rpm_test)
		rpm_test = g_build_filename(source_dir(), "kernel", "rpm-test",
					    NULL);
	if (!init_src)
		init_src = g_build_filename(source_dir(), "qemu", "initramfs",
					    "init.c", NULL);

	data_dir = command_data_dir(ctx);
	git_libgit2_init();
	tree = tree_open_or_default(data_dir, tree_name, &error);
	if (!tree)
		goto error;
	/* one persistent worktree per tree, one build dir per (tree,
	 * config): a series rebuilds only what it changed */
	worktrees = g_build_filename(data_dir, "worktrees", NULL);
	if (g_mkdir_with_parents(worktrees, 0755) != 0) {
		g_set_error(&error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", worktrees,
			    g_strerror(errno));
		goto error;
	}
	worktree = g_build_filename(worktrees, tree->name, NULL);
	lock_path = g_strconcat(worktree, ".lock", NULL);
	lock_fd = lock_worktree(lock_path, &error);
	if (lock_fd < 0)
		goto error;
	if (g_mkdir_with_parents(worktree, 0755) != 0) {
		g_set_error(&error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot create '%s': %s", worktree,
			    g_strerror(errno));
		goto error;
	}
	build_dir = kbuild_dir(data_dir, tree->name, BOOT_CONFIG_NAME);
	cache = cache_dir();
	ccache = g_build_filename(cache, "ccache", NULL);
	state_dir = g_build_filename(data_dir, "boot", NULL);
	kb = kbuild_new(worktree, build_dir, config, ccache, &error);
	if (!kb)
		goto error;
	kb->jobs = jobs > 0 ? (guint)jobs : 0;
	vm_sandbox = sandbox_new(&error);
	if (!vm_sandbox)
		goto error;
	/* qemu reads the image and the initramfs from the build dir */
	sandbox_add_readonly(vm_sandbox, kb->build_dir);
	bc.tree = tree;
	bc.kb = kb;
	bc.vm_sandbox = vm_sandbox;
	bc.rpm_test_dir = rpm_test;
	bc.init_src = init_src;
	bc.state_dir = state_dir;
	bc.timeout_s = timeout_s > 0 ? (guint)timeout_s : 60;

	printf("tree: %s\nbuild: %s\n", tree->name, build_dir);
	if (mbox) {
		g_autofree char *head_ref = tree_head_ref(tree);

		/* the series becomes commits in the tree's object database
		 * (no ref moves): the worktree is then only checked out */
		am_opts.base = rev;
		if (!am_apply_mbox(&series, tree->repo, head_ref, mbox,
				   &am_opts, &error))
			goto error;
		if (series->base_note)
			printf("warning: %s\n", series->base_note);
		/* git_oid_tostr_s() has one buffer: one id per call */
		printf("base: %s\n", git_oid_tostr_s(&series->base));
		printf("series: %u patches, head %s\n", series->patches->len,
		       git_oid_tostr_s(&series->head));
		if (series->failed || !series->patches->len) {
			if (series->patches->len)
				print_am_failures(series);
			else
				printf("series does not apply: no patches\n");
			status = BOOT_REGRESSION;
			goto out;
		}
		commit = series->head;
	} else {
		if (!tree_resolve(tree, rev, &commit, &error))
			goto error;
		printf("commit: %s\n", git_oid_tostr_s(&commit));
	}

	if (series && !no_base) {
		if (!checkout_build_boot(&bc, &series->base, &base, &error))
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

	if (!checkout_build_boot(&bc, &commit, &run, &error))
		goto error;
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
	fprintf(stderr, "error: %s\n", error->message);
	status = BOOT_ERROR;
out:
	boot_run_clear(&base);
	boot_run_clear(&run);
	if (lock_fd >= 0)
		close(lock_fd);
	git_libgit2_shutdown();
	return status;
}
