/* armbot boot: build a kernel tree with the runtime-PM test config, boot
 * it in qemu -M virt with the rpm-test KUnit module, and compare the
 * KUnit results with those of the base (the tree without the patches).
 *
 *   armbot boot --source DIR [--patch FILE]... [FILE.mbox]
 *
 * Patches are applied to DIR with `git apply` for the build and reverted
 * afterwards; a journal in the build dir lets the next run revert them if
 * a run was killed in between.  (Named trees and revisions come with the
 * tree model; until then the tree is a source directory.) */
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
#include "kernel/kbuild.h"
#include "kernel/sandbox.h"
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

static char *journal_path(struct boot_ctx *bc)
{
	return g_build_filename(bc->kb->build_dir, "armbot-applied.patch",
				NULL);
}

/* git apply [-R] @patch in the tree.  The tree is read-only to builds, so
 * this runs outside the sandbox, on our own patch file. */
static gboolean git_apply(struct boot_ctx *bc, const char *patch,
			  gboolean reverse, char **why, GError **error)
{
	const char *argv[] = { "git",
			       "apply",
			       "--whitespace=nowarn",
			       reverse ? "-R" : patch,
			       reverse ? patch : NULL,
			       NULL };
	g_autofree char *parent = g_path_get_dirname(bc->kb->src_dir);
	g_autofree char *ceiling =
		g_strconcat("GIT_CEILING_DIRECTORIES=", parent, NULL);
	const char *extra[] = { ceiling, NULL };
	g_auto(GStrv) env = runner_env_new(extra);
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	gboolean ok;

	o.cwd = bc->kb->src_dir;
	o.env = (const char *const *)env;
	o.timeout_ms = 120000;
	o.merge_stderr = TRUE;
	if (!runner_run(argv, &o, &r, error))
		return FALSE;
	ok = runner_result_ok(&r);
	if (!ok && why)
		*why = g_strdup(g_strstrip(r.output->str));
	runner_result_clear(&r);
	if (!ok && !why) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot revert '%s' in '%s'", patch,
			    bc->kb->src_dir);
		return FALSE;
	}
	return TRUE;
}

/* Undo what a killed run left applied. */
static gboolean revert_journal(struct boot_ctx *bc, GError **error)
{
	g_autofree char *journal = journal_path(bc);

	if (!g_file_test(journal, G_FILE_TEST_EXISTS))
		return TRUE;
	if (!git_apply(bc, journal, TRUE, NULL, error))
		return FALSE;
	g_unlink(journal);
	return TRUE;
}

/* Serialise the runs on one tree, whatever their data dirs: a run applies
 * its patches to the tree for its build.  The lock is an flock on a file
 * named after the tree in the temporary directory, released at exit.
 * Returns the fd to keep, or -1 with @error. */
static int lock_tree(const char *tree_hash, GError **error)
{
	g_autofree char *name =
		g_strdup_printf("armbot-tree-%.16s.lock", tree_hash);
	g_autofree char *path = g_build_filename(g_get_tmp_dir(), name, NULL);
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

int cmd_boot(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *source = NULL;
	g_autofree char *config = NULL;
	g_autofree char *rpm_test = NULL;
	g_autofree char *init_src = NULL;
	g_auto(GStrv) patches = NULL;
	gint timeout_s = 60, jobs = 0;
	gboolean no_base = FALSE;
	g_autofree char *save_console = NULL;
	GOptionEntry options[] = {
		{ "source", 0, 0, G_OPTION_ARG_FILENAME, &source,
		  "the kernel tree to build (a source directory)", "DIR" },
		{ "patch", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &patches,
		  "apply this patch or mbox on top (repeatable)", "FILE" },
		{ "timeout", 0, 0, G_OPTION_ARG_INT, &timeout_s,
		  "seconds a boot may take (default 60)", "S" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
		  "parallel make jobs (default: the number of cores)", "N" },
		{ "no-base", 0, 0, G_OPTION_ARG_NONE, &no_base,
		  "do not boot the tree without the patches to compare", NULL },
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
	g_autoptr(GPtrArray) all_patches = g_ptr_array_new();
	g_autoptr(kbuild) kb = NULL;
	g_autoptr(sandbox) vm_sandbox = NULL;
	g_autofree char *cache = NULL;
	g_autofree char *ccache = NULL;
	g_autofree char *key = NULL;
	g_autofree char *hash = NULL;
	g_autofree char *canon = NULL;
	g_autofree char *build_dir = NULL;
	g_autofree char *state_dir = NULL;
	g_autofree char *journal = NULL;
	struct boot_run base = { 0 }, run = { 0 };
	struct boot_ctx bc = { 0 };
	struct ktap_diff diff = { 0 };
	gboolean have_base = FALSE;
	int status = BOOT_OK;
	int lock_fd = -1;

	if (!command_parse_options("boot", "[FILE.mbox...]",
				   "Build a kernel tree with the runtime-PM "
				   "KUnit suite, boot it in qemu -M virt and "
				   "compare its results with the base's.\n"
				   "Exit status: 0 booted with no new failure, "
				   "1 a regression (no boot, new failures, "
				   "a broken build, a patch that does not "
				   "apply), 2 an error.",
				   options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	if (!source) {
		fprintf(stderr, "error: boot needs --source DIR\n");
		return COMMAND_USAGE_ERROR;
	}
	for (guint i = 0; patches && patches[i]; i++)
		g_ptr_array_add(all_patches, patches[i]);
	for (int i = 1; i < argc; i++)
		g_ptr_array_add(all_patches, argv[i]);
	if (!config)
		config = g_build_filename(source_dir(), "qemu", "virt.config",
					  NULL);
	if (!rpm_test)
		rpm_test = g_build_filename(source_dir(), "kernel", "rpm-test",
					    NULL);
	if (!init_src)
		init_src = g_build_filename(source_dir(), "qemu", "initramfs",
					    "init.c", NULL);

	/* one build dir per (tree, config): the tree is its path for now */
	canon = g_canonicalize_filename(source, NULL);
	hash = g_compute_checksum_for_string(G_CHECKSUM_SHA1, canon, -1);
	key = g_strdup_printf("src-%.12s", hash);
	lock_fd = lock_tree(hash, &error);
	if (lock_fd < 0)
		goto error;
	build_dir = kbuild_dir(command_data_dir(ctx), key, BOOT_CONFIG_NAME);
	cache = cache_dir();
	ccache = g_build_filename(cache, "ccache", NULL);
	state_dir = g_build_filename(command_data_dir(ctx), "boot", NULL);
	kb = kbuild_new(canon, build_dir, config, ccache, &error);
	if (!kb)
		goto error;
	kb->jobs = jobs > 0 ? (guint)jobs : 0;
	vm_sandbox = sandbox_new(&error);
	if (!vm_sandbox)
		goto error;
	/* qemu reads the image and the initramfs from the build dir */
	sandbox_add_readonly(vm_sandbox, kb->build_dir);
	bc.kb = kb;
	bc.vm_sandbox = vm_sandbox;
	bc.rpm_test_dir = rpm_test;
	bc.init_src = init_src;
	bc.state_dir = state_dir;
	bc.timeout_s = timeout_s > 0 ? (guint)timeout_s : 60;
	if (!revert_journal(&bc, &error))
		goto error;

	printf("tree: %s\nbuild: %s\n", canon, build_dir);
	if (all_patches->len && !no_base) {
		if (!build_and_boot(&bc, &base, &error))
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

	if (all_patches->len) {
		GString *cat = g_string_new(NULL);
		g_autofree char *why = NULL;

		for (guint i = 0; i < all_patches->len; i++) {
			g_autofree char *text = NULL;

			if (!g_file_get_contents(all_patches->pdata[i], &text,
						 NULL, &error)) {
				g_string_free(cat, TRUE);
				goto error;
			}
			g_string_append(cat, text);
			if (cat->len && cat->str[cat->len - 1] != '\n')
				g_string_append_c(cat, '\n');
		}
		journal = journal_path(&bc);
		if (!g_file_set_contents(journal, cat->str, cat->len, &error)) {
			g_string_free(cat, TRUE);
			goto error;
		}
		g_string_free(cat, TRUE);
		if (!git_apply(&bc, journal, FALSE, &why, &error))
			goto error;
		if (why) {
			g_unlink(journal);
			printf("patch does not apply:\n");
			print_lines(why, "| ");
			status = BOOT_REGRESSION;
			goto out;
		}
	}

	if (!build_and_boot(&bc, &run, &error))
		goto error;
	/* the tree goes back to the base before anything is reported */
	if (journal) {
		if (!revert_journal(&bc, &error))
			goto error;
	}
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
	if (journal && kb) {
		g_autoptr(GError) revert_error = NULL;

		if (!revert_journal(&bc, &revert_error))
			fprintf(stderr, "error: %s\n", revert_error->message);
	}
out:
	boot_run_clear(&base);
	boot_run_clear(&run);
	if (lock_fd >= 0)
		close(lock_fd);
	return status;
}
