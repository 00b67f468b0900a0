/* The build-and-boot of the runtime-PM suite (see qemu/boot.h). */
#include "qemu/boot.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "config/datadir.h"
#include "kernel/build/builddeps.h"
#include "kernel/build/sandbox.h"
#include "kernel/tree/checkout.h"
#include "qemu/bootcache.h"
#include "qemu/initramfs.h"

#define RPM_TEST_MODULE "rpm_test"
#define RPM_TEST_SYMBOL "CONFIG_PM_RUNTIME_KUNIT_TEST"

struct boot_session {
	struct tree *tree;
	struct kbuild *kb;
	struct sandbox *vm_sandbox;
	char *worktree;
	char *rpm_test_dir;
	char *init_src;
	char *state_dir; /* <data>/boot: the init binary cache */
	guint timeout_s;
	int lock_fd;
	struct boot_runner *runner;
	const struct boot_options *opts; /* the job hooks: borrowed */
	const struct board *board; /* borrowed; NULL: virt */
	int icecc_netns; /* the series' fenced namespace; -1: none */
	char *build_note; /* boot_session_build_note() */
};

void boot_run_clear(struct boot_run *run)
{
	kbuild_result_clear(&run->build);
	virt_result_clear(&run->vm);
	g_clear_pointer(&run->booted_where, g_free);
	g_clear_pointer(&run->fell_back, g_free);
	g_clear_pointer(&run->ktap, ktap_report_free);
}

static gboolean set_errno_error(GError **error, const char *what,
				const char *path)
{
	int e = errno;

	g_set_error(error, G_IO_ERROR, g_io_error_from_errno(e),
		    "cannot %s '%s': %s", what, path, g_strerror(e));
	return FALSE;
}

/* Serialise the runs on one tree's worktree: a run checks the worktree
 * out at the revisions it builds.  The lock is an flock on @path, held
 * until the session ends (or the process does).  Returns the fd, or -1
 * with @error. */
static int lock_worktree(const char *path, void (*on_wait)(void),
			 GError **error)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0) {
		set_errno_error(error, "open", path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (on_wait)
			on_wait();
		while (flock(fd, LOCK_EX) != 0) {
			if (errno != EINTR) {
				set_errno_error(error, "lock", path);
				close(fd);
				return -1;
			}
		}
	}
	return fd;
}

/* The fragment file of @board (a path relative to the source dir @src):
 * the build applies it on allnoconfig, so the board's base must be that;
 * *@arch_out its arch (kernel/build/arch.h).  Newly allocated; NULL with
 * @error. */
static char *board_config(const struct board *board, const char *src,
			  const struct kbuild_arch **arch_out, GError **error)
{
	if (g_strcmp0(board->base, "allnoconfig") != 0 || !board->fragment ||
	    g_strv_length(board->fragment) != 1 ||
	    strchr(board->fragment[0], '=')) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
			    "board %s cannot be built: a board builds from "
			    "allnoconfig and one fragment file",
			    board->name);
		return NULL;
	}
	*arch_out = kbuild_arch_find(board->arch);
	if (!*arch_out) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
			    "board %s cannot be built: armbot builds no arch "
			    "'%s'",
			    board->name, board->arch);
		return NULL;
	}
	return g_build_filename(src, board->fragment[0], NULL);
}

/* The build on icecream when @opts ask for it, as the sparse check's
 * (kbuild_use_icecc_for_check()). */
static void use_icecc(struct boot_session *bs, const struct boot_options *opts,
		      const char *cache)
{
	g_autoptr(GError) netns_error = NULL;

	bs->build_note = kbuild_use_icecc_for_check(bs->kb, &opts->icecc, cache,
						    opts->tree->name,
						    &bs->icecc_netns,
						    &netns_error);
}

const char *boot_session_build_note(const struct boot_session *bs)
{
	return bs->build_note;
}

struct boot_session *boot_session_open(const struct boot_options *opts,
				       void (*on_wait)(void), GError **error)
{
	g_autoptr(boot_session) bs = g_new0(struct boot_session, 1);
	const char *src = datadir_source_dir();
	g_autofree char *worktrees =
		g_build_filename(opts->data_dir, "worktrees", NULL);
	g_autofree char *lock_path = NULL;
	g_autofree char *build_dir = NULL;
	g_autofree char *cache = datadir_cache_dir();
	g_autofree char *ccache = kbuild_ccache_dir(cache, opts->tree->name);
	g_autofree char *config = NULL;
	g_autofree char *build_name = NULL;
	const struct kbuild_arch *arch = kbuild_arch_default();

	bs->lock_fd = -1;
	bs->icecc_netns = -1;
	bs->tree = opts->tree;
	bs->timeout_s = opts->timeout_s ? opts->timeout_s :
					  BOOT_TIMEOUT_DEFAULT;
	bs->rpm_test_dir = opts->rpm_test_dir ?
				   g_strdup(opts->rpm_test_dir) :
				   g_build_filename(src, "qemu", "guest",
						    "rpm-test", NULL);
	bs->init_src = opts->init_src ? g_strdup(opts->init_src) :
					g_build_filename(src, "qemu", "guest",
							 "init.c", NULL);
	if (opts->board) {
		config = board_config(opts->board, src, &arch, error);
		if (!config)
			return NULL;
		if (opts->runner && opts->runner->kind == BOOT_RUNNER_LAVA) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
				    "board %s boots here only, not on LAVA",
				    opts->board->name);
			return NULL;
		}
		bs->board = opts->board;
		build_name = g_strconcat("rpm-", opts->board->name, NULL);
	} else {
		config = opts->config ? g_strdup(opts->config) :
					g_build_filename(src, "qemu",
							 "virt.config", NULL);
		build_name = g_strdup(BOOT_CONFIG_NAME);
	}
	bs->state_dir = g_build_filename(opts->data_dir, "boot", NULL);
	/* one persistent worktree per tree, one build dir per (tree,
	 * config): a series rebuilds only what it changed */
	if (g_mkdir_with_parents(worktrees, 0755) != 0) {
		set_errno_error(error, "create", worktrees);
		return NULL;
	}
	bs->worktree = g_build_filename(worktrees, opts->tree->name, NULL);
	lock_path = g_strconcat(bs->worktree, ".lock", NULL);
	bs->lock_fd = lock_worktree(lock_path, on_wait, error);
	if (bs->lock_fd < 0)
		return NULL;
	if (g_mkdir_with_parents(bs->worktree, 0755) != 0) {
		set_errno_error(error, "create", bs->worktree);
		return NULL;
	}
	build_dir = kbuild_dir(opts->data_dir, opts->tree->name, build_name);
	bs->kb = kbuild_new(bs->worktree, build_dir, config, ccache, error);
	if (!bs->kb)
		return NULL;
	bs->kb->arch = arch;
	bs->kb->jobs = opts->jobs;
	if (opts->icecc.socket)
		use_icecc(bs, opts, cache);
	bs->vm_sandbox = sandbox_new(error);
	if (!bs->vm_sandbox)
		return NULL;
	{
		struct boot_runner_config local = { 0 };

		bs->runner =
			boot_runner_new(opts->runner ? opts->runner : &local,
					bs->vm_sandbox, error);
		if (!bs->runner)
			return NULL;
	}
	bs->opts = opts;
	return g_steal_pointer(&bs);
}

const char *boot_session_build_dir(const struct boot_session *bs)
{
	return bs->kb->build_dir;
}

const struct kbuild *boot_session_kbuild(const struct boot_session *bs)
{
	return bs->kb;
}

#define INITRAMFS_NAME "armbot-initramfs.cpio"

/* The initramfs build_and_boot() writes, in the build dir of @kb, which
 * the VM's sandbox can read, as qemu names it.  Newly allocated. */
static char *build_initrd(const struct kbuild *kb)
{
	return g_build_filename(kb->build_dir, INITRAMFS_NAME, NULL);
}

/* The board's DTB in the build, beside @image (arch/arm/boot/dts), or
 * NULL when it has none.  Newly allocated. */
static char *board_dtb(const struct board *board, const char *image)
{
	g_autofree char *boot_dir = NULL;

	if (!board || !board->dtb)
		return NULL;
	boot_dir = g_path_get_dirname(image);
	return g_build_filename(boot_dir, "dts", board->dtb, NULL);
}

/* The VM's options: the image of @kb and @initrd, @timeout_s.
 * *@image_out is the image's path, which @vo borrows. */
static void build_virt_opts(const struct kbuild *kb, const char *initrd,
			    guint timeout_s, struct virt_opts *vo,
			    char **image_out)
{
	memset(vo, 0, sizeof(*vo));
	vo->arch = kbuild_arch_of(kb);
	*image_out = kbuild_image(kb);
	vo->kernel = *image_out;
	vo->initrd = initrd;
	vo->timeout_s = timeout_s;
}

/* Boot the build through the session's runner (qemu/runner.h): a local
 * boot reads the files at the sandbox's paths, a LAVA boot serves the
 * host's (checked: no symlink planted by the series' make). */
static gboolean run_boot(struct boot_session *bs, const char *commit_hex,
			 const char *image, const char *initrd,
			 struct boot_run *run, GError **error)
{
	g_autofree char *dtb = NULL;
	g_autofree char *host_image = NULL;
	g_autofree char *host_initrd = NULL;
	g_autofree char *name =
		g_strdup_printf("armbot %s %.12s", bs->tree->name, commit_hex);
	g_autofree char *key =
		g_strdup_printf("%s:%s", bs->tree->name, commit_hex);
	struct boot_input in = { 0 };
	struct boot_output out = { 0 };

	in.name = name;
	in.arch = kbuild_arch_of(bs->kb);
	in.kernel = image;
	in.initrd = initrd;
	in.timeout_s = bs->timeout_s;
	if (bs->board) {
		dtb = board_dtb(bs->board, image);
		in.dtb = dtb;
		in.machine = bs->board->machine;
		in.console = bs->board->console;
		in.mem_mb = bs->board->mem_mb;
		in.append = bs->board->append;
	}
	if (bs->opts->runner && bs->opts->runner->kind == BOOT_RUNNER_LAVA) {
		g_autofree char *img_rel = kbuild_image_rel(bs->kb);

		host_image = kbuild_output_path(bs->kb, img_rel, error);
		host_initrd = kbuild_output_path(bs->kb, INITRAMFS_NAME, error);
		if (!host_image || !host_initrd)
			return FALSE;
		in.host_kernel = host_image;
		in.host_initrd = host_initrd;
		in.job_key = key;
		in.find_job = bs->opts->find_job;
		in.save_job = bs->opts->save_job;
		in.job_data = bs->opts->job_data;
	}
	if (!boot_runner_boot(bs->runner, &in, &out, error))
		return FALSE;
	run->vm = out.vm;
	memset(&out.vm, 0, sizeof(out.vm));
	run->booted_where = g_steal_pointer(&out.where);
	run->fell_back = g_steal_pointer(&out.fell_back);
	boot_output_clear(&out);
	return TRUE;
}

/* Build the kernel and the module, make the initramfs, boot. */
static gboolean build_and_boot(struct boot_session *bs, const char *hex,
			       struct boot_run *run, GError **error)
{
	g_autofree char *ko = NULL;
	g_autofree char *image = NULL;
	g_autofree char *initrd = NULL;
	g_autofree char *host_initrd = NULL;
	struct kbuild_result mod = { 0 };
	struct virt_opts vo;

	if (!kbuild_kernel(bs->kb, &run->build, error))
		return FALSE;
	if (!run->build.ok)
		return TRUE;
	if (!kbuild_external_module(bs->kb, bs->rpm_test_dir, RPM_TEST_MODULE,
				    RPM_TEST_SYMBOL, &ko, &mod, error))
		return FALSE;
	run->module_seconds = mod.seconds;
	if (!mod.ok) {
		/* the module is part of the build: report its log */
		kbuild_result_clear(&run->build);
		run->build = mod;
		run->module_failed = TRUE;
		return TRUE;
	}
	kbuild_result_clear(&mod);
	run->built = TRUE;
	host_initrd = kbuild_output_path(bs->kb, INITRAMFS_NAME, error);
	if (!host_initrd ||
	    !initramfs_build(bs->init_src, kbuild_arch_of(bs->kb), ko,
			     bs->state_dir, host_initrd, error))
		return FALSE;
	/* qemu reads the image and the initramfs where the build is (the
	 * series' copy), at the build dir's path */
	sandbox_clear_binds(bs->vm_sandbox);
	sandbox_add_bind(bs->vm_sandbox, kbuild_output_dir(bs->kb),
			 bs->kb->build_dir, FALSE);
	initrd = build_initrd(bs->kb);
	build_virt_opts(bs->kb, initrd, bs->timeout_s, &vo, &image);
	if (!run_boot(bs, hex, vo.kernel, vo.initrd, run, error))
		return FALSE;
	run->ktap = ktap_parse(run->vm.console->str);
	return TRUE;
}

/* The file in the build dir that names the inputs (inputs_key() without
 * the runner) of the trusted build it holds: removed before a trusted
 * make, written once the kernel and the module built.
 * boot_session_run_unaffected() reads the build dir's .cmd files only
 * when they are that build's. */
#define BUILT_STAMP "armbot-built"

static char *stamp_path(const struct boot_session *bs)
{
	return g_build_filename(bs->kb->build_dir, BUILT_STAMP, NULL);
}

/* Where the session keeps the boots of trusted commits. */
static char *bootcache_dir(const struct boot_session *bs)
{
	return g_build_filename(bs->state_dir, "kept", NULL);
}

/* The key of @hex's boot in this session (qemu/bootcache.h), or NULL
 * when an input cannot be read (nothing is then reused or kept); without
 * @with_runner, of its build: where it boots does not change what the
 * build dir holds. */
static char *inputs_key(const struct boot_session *bs, const char *hex,
			gboolean with_runner)
{
	const struct boot_runner_config *rc = bs->opts->runner;
	const struct board *b = bs->board;
	struct bootcache_inputs in = { 0 };
	g_autofree char *board = NULL;
	g_autofree char *runner = NULL;
	g_autoptr(GError) error = NULL;
	char *key;

	if (b)
		board = g_strdup_printf("%s %s %s %s %u %s", b->name,
					b->machine, b->dtb ? b->dtb : "-",
					b->console ? b->console : "-",
					b->mem_mb, b->append ? b->append : "");
	if (with_runner && rc && rc->kind == BOOT_RUNNER_LAVA)
		runner = g_strdup_printf("lava %s", rc->lava_url);
	in.commit_hex = hex;
	in.fragment = bs->kb->fragment;
	in.module_dir = bs->rpm_test_dir;
	in.init_src = bs->init_src;
	in.arch = kbuild_arch_of(bs->kb);
	in.board = board;
	in.runner = runner;
	key = bootcache_key(&in, &error);
	if (!key)
		g_message("boot: %.12s is built and booted (nothing kept: %s)",
			  hex, error->message);
	return key;
}

static char *kept_key(const struct boot_session *bs, const char *hex)
{
	return inputs_key(bs, hex, TRUE);
}

/* @run as a boot read from @console (taken) instead of one run now:
 * nothing was built, @build_log (taken) says why; @vm_how and
 * @build_how are the boot's and the build's words.  FALSE, with @run
 * cleared and both freed, when the console does not show a finished
 * init. */
static gboolean run_from_console(struct boot_run *run, GString *console,
				 const char *vm_how, const char *build_how,
				 GString *build_log)
{
	virt_result_from_console(&run->vm, console);
	run->vm.exited_ok = TRUE;
	if (!virt_result_ok(&run->vm)) {
		boot_run_clear(run);
		g_string_free(build_log, TRUE);
		return FALSE;
	}
	run->vm.how = g_strdup(vm_how);
	run->built = TRUE;
	run->build.ok = TRUE;
	run->build.how = g_strdup(build_how);
	run->build.log = build_log;
	run->ktap = ktap_parse(run->vm.console->str);
	return TRUE;
}

/* @run from the boot kept under @key, if there is one that booted to a
 * finished init. */
static gboolean reuse_kept(struct boot_session *bs, const char *key,
			   const char *hex, struct boot_run *run)
{
	g_autofree char *dir = bootcache_dir(bs);
	g_autoptr(GError) error = NULL;
	GString *console = NULL;
	GString *log;
	char *where = NULL;

	if (!bootcache_lookup(dir, key, &console, &where, &error)) {
		if (error)
			g_message("boot: kept boot %.16s: %s", key,
				  error->message);
		return FALSE;
	}
	log = g_string_new(NULL);
	g_string_printf(
		log,
		"armbot: %.12s was built and booted with the same "
		"config, module, init, compiler and emulator by an "
		"earlier check; its boot is read back from %s/%s.console "
		"and nothing was built now\n",
		hex, dir, key);
	if (!run_from_console(run, console, "kept from an earlier boot", "kept",
			      log)) {
		g_free(where);
		return FALSE;
	}
	run->booted_where = where;
	run->reused = TRUE;
	return TRUE;
}

/* Keep the boot of @run under @key when it booted to a finished init as
 * its console alone shows (a LAVA boot whose console lost init's last
 * line is not kept). */
static void keep(struct boot_session *bs, const char *key,
		 const struct boot_run *run)
{
	g_autofree char *dir = bootcache_dir(bs);
	g_autoptr(GError) error = NULL;
	struct virt_result scan = { 0 };
	gboolean ok;

	if (!run->built || !virt_result_ok(&run->vm) || !run->vm.console)
		return;
	virt_result_from_console(&scan, g_string_new(run->vm.console->str));
	scan.exited_ok = TRUE;
	ok = virt_result_ok(&scan);
	virt_result_clear(&scan);
	if (ok && !bootcache_store(dir, key, run->vm.console->str,
				   run->booted_where, &error))
		g_message("boot: not kept: %s", error->message);
}

gboolean boot_session_run(struct boot_session *bs, const struct gitoid *commit,
			  enum kbuild_trust trust, struct boot_run *run,
			  GError **error)
{
	struct tree_checkout_stats stats;
	char hex[GITOID_HEXSZ + 1];
	g_autofree char *key = NULL;

	memset(run, 0, sizeof(*run));
	gitoid_to_hex(commit, hex);
	if (trust == KBUILD_TRUSTED && bs->opts->reuse_trusted) {
		key = kept_key(bs, hex);
		if (key && reuse_kept(bs, key, hex, run))
			return TRUE;
	}
	if (!kbuild_set_trust(bs->kb, trust, error))
		return FALSE;
	run->copy = bs->kb->series_copy;
	if (trust == KBUILD_TRUSTED) {
		g_autofree char *stamp = stamp_path(bs);

		if (unlink(stamp) != 0 && errno != ENOENT)
			return set_errno_error(error, "remove", stamp);
	}
	if (!tree_checkout(bs->tree, hex, bs->kb->src_dir, &stats, error))
		return FALSE;
	run->checkout_written = stats.written;
	run->checkout_full = stats.full;
	if (!build_and_boot(bs, hex, run, error))
		return FALSE;
	if (key)
		keep(bs, key, run);
	if (trust == KBUILD_TRUSTED && run->built) {
		g_autofree char *stamp = stamp_path(bs);
		g_autofree char *inputs = inputs_key(bs, hex, FALSE);
		g_autoptr(GError) stamp_error = NULL;

		if (inputs &&
		    !g_file_set_contents(stamp, inputs, -1, &stamp_error))
			g_message("boot: %s", stamp_error->message);
	}
	return TRUE;
}

gboolean boot_session_run_unaffected(struct boot_session *bs,
				     const struct gitoid *base,
				     const struct boot_run *base_run,
				     const char *const *paths, guint n,
				     struct boot_run *run)
{
	char hex[GITOID_HEXSZ + 1];
	g_autofree char *stamp_file = stamp_path(bs);
	g_autofree char *stamp = NULL;
	g_autofree char *key = NULL;
	g_autofree char *why = NULL;
	GString *log;

	memset(run, 0, sizeof(*run));
	/* a tree that boots on LAVA has its lab boot each series (lava.t's
	 * series are device trees that no LAVA job would boot otherwise) */
	if (bs->opts->runner && bs->opts->runner->kind == BOOT_RUNNER_LAVA)
		return FALSE;
	if (!base_run->built || !base_run->vm.console ||
	    !virt_result_ok(&base_run->vm) || !n)
		return FALSE;
	gitoid_to_hex(base, hex);
	key = inputs_key(bs, hex, FALSE);
	if (!key || !g_file_get_contents(stamp_file, &stamp, NULL, NULL) ||
	    strcmp(stamp, key) != 0)
		return FALSE;
	if (builddeps_reads_any(bs->kb->build_dir, bs->kb->src_dir, paths, n,
				&why)) {
		g_message("boot: the series is built (%s)", why);
		return FALSE;
	}
	log = g_string_new(NULL);
	g_string_printf(log,
			"armbot: none of the %u files the series changes is "
			"read by the build of %.12s in %s (its .cmd files, the "
			"directories it went into, Kconfig, Makefiles, "
			"scripts/ and the headers: kernel/build/builddeps.h); "
			"the series' kernel is the base's, so it was not "
			"built or booted again\n",
			n, hex, bs->kb->build_dir);
	if (!run_from_console(run, g_string_new(base_run->vm.console->str),
			      "the base's boot", "not rebuilt", log))
		return FALSE;
	run->booted_where = g_strdup(base_run->booted_where);
	run->unaffected = TRUE;
	return TRUE;
}

/* boot_steps() for @board's machine, DTB and console (NULL: virt's). */
static GPtrArray *steps_for(const struct kbuild *kb, const struct board *board,
			    gboolean module, gboolean qemu, GError **error)
{
	g_autoptr(GPtrArray) steps = kbuild_kernel_steps(kb, error);

	if (!steps)
		return NULL;
	if (module)
		kbuild_steps_add_command(
			steps, kbuild_external_module_printable(
				       kb, RPM_TEST_MODULE, RPM_TEST_SYMBOL));
	if (qemu) {
		g_autofree char *initrd = build_initrd(kb);
		g_autofree char *image = NULL;
		g_autofree char *dtb = NULL;
		g_auto(GStrv) argv = NULL;
		GString *line = g_string_new(NULL);
		struct virt_opts vo;

		/* the timeout is armbot's, not an argument of qemu */
		build_virt_opts(kb, initrd, 0, &vo, &image);
		if (board) {
			dtb = board_dtb(board, image);
			vo.dtb = dtb;
			vo.machine = board->machine;
			vo.console = board->console;
			vo.mem_mb = board->mem_mb;
			vo.append = board->append;
		}
		argv = virt_argv(&vo);
		/* qemu runs in the kernel tree: paths relative to it */
		for (guint i = 0; argv[i]; i++) {
			g_autofree char *word =
				kbuild_printable_word(kb, argv[i], FALSE);

			/* an option and its value stay on one line */
			kbuild_printable_append(line, word, argv[i][0] == '-');
		}
		kbuild_steps_add_command(steps, g_string_free(line, FALSE));
	}
	return g_steal_pointer(&steps);
}

GPtrArray *boot_steps(const struct kbuild *kb, gboolean module, gboolean qemu,
		      GError **error)
{
	return steps_for(kb, NULL, module, qemu, error);
}

char *boot_printable_initramfs(const struct kbuild *kb)
{
	g_autofree char *initrd = build_initrd(kb);

	return kbuild_printable_word(kb, initrd, FALSE);
}

GPtrArray *boot_session_steps(const struct boot_session *bs, gboolean module,
			      gboolean qemu, GError **error)
{
	return steps_for(bs->kb, bs->board, module, qemu, error);
}

char *boot_session_printable_initramfs(const struct boot_session *bs)
{
	return boot_printable_initramfs(bs->kb);
}

const char *boot_failure_reason(const struct virt_result *vm)
{
	if (virt_result_ok(vm))
		return NULL;
	if (vm->canceled)
		return "canceled by LAVA";
	if (vm->timed_out)
		return vm->userspace ?
			       "hung in userspace: stopped by the timeout" :
			       "hung: stopped by the timeout";
	if (vm->panicked)
		return "kernel panic";
	if (!vm->userspace)
		return "no userspace";
	return "init did not finish";
}

gboolean boot_board_verdict(const struct virt_result *vm, char **words)
{
	const char *why = boot_failure_reason(vm);

	if (why)
		*words = g_strdup(why);
	else if (vm->fault)
		*words = g_strdup_printf("'%s' on the console", vm->fault);
	else
		*words = g_strdup_printf("userspace at %.2f s", vm->uptime);
	return !why && !vm->fault;
}

void boot_session_free(struct boot_session *bs)
{
	if (!bs)
		return;
	boot_runner_free(bs->runner);
	kbuild_free(bs->kb);
	sandbox_free(bs->vm_sandbox);
	if (bs->icecc_netns >= 0)
		close(bs->icecc_netns);
	g_free(bs->build_note);
	if (bs->lock_fd >= 0)
		close(bs->lock_fd);
	g_free(bs->worktree);
	g_free(bs->rpm_test_dir);
	g_free(bs->init_src);
	g_free(bs->state_dir);
	g_free(bs);
}
