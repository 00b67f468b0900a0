/* Hostile patches against the build path (kernel/build/kbuild.c through
 * kernel/build/sandbox.c): a tiny fake tree whose Makefile does what a hostile
 * series could make kbuild do.  Each run must end with a clear reason in
 * its result, leave the host unchanged (canaries outside the build
 * directory unseen and untouched, no connection made) and leave no
 * process behind.  The system calls a build never makes are denied
 * (this binary, run again inside, tries them), and memory is bounded. */
#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <linux/keyctl.h>
#include <linux/personality.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/build/kbuild.h"

/* Recipes run by make in the tree; $(TOKEN) names the run in every
 * process's command line, so that leftovers can be found in /proc. */
static const char makefile[] =
	"all:\n"
	"\t@echo nothing\n"
	"outside:\n"
	"\t@: $(TOKEN); echo fine > $(O)/inside\n"
	"\t-@cat $(CANARY) $(HOSTHOME)/canary\n"
	"\techo pwned > $(CANARY)\n"
	"connect:\n"
	"\tbash -c ': $(TOKEN); echo hi > /dev/tcp/127.0.0.1/$(PORT)'\n"
	"forkbomb:\n"
	"\t@: $(TOKEN); bomb() { bomb & bomb & wait; }; bomb\n"
	"loop:\n"
	"\t@: $(TOKEN); while :; do :; done\n"
	"flood:\n"
	"\t@: $(TOKEN); yes armbot-flood | head -c 100000000\n"
	"rmhome:\n"
	"\t@: $(TOKEN); sh scripts/clean.sh $(HOSTHOME)\n"
	"memhog:\n"
	"\t@: $(TOKEN); perl -e '$$x = \"a\" x 300_000_000; "
	"print \"allocated\\n\"'\n"
	"syscalls:\n"
	"\t@: $(TOKEN); $(SELF) --sandbox-syscalls\n"
	/* a tree's own build: a host tool, a file, an object through ccache */
	"seed:\n"
	"\t@: $(TOKEN); mkdir -p $(O)/sub; echo tool > $(O)/sub/fixdep; "
	"echo clean > $(O)/victim; "
	"echo 'int f(void) { return 1; }' > $(O)/a.c; "
	"ccache gcc -c $(O)/a.c -o $(O)/a.o\n"
	/* a series that tries to leave something for the next one: the same
	 * size and mtime, another tool, links out, a locked directory, an
	 * entry in the tree's ccache */
	"poison:\n"
	"\t@: $(TOKEN); cat $(O)/victim; cp -p $(O)/victim /tmp/ref; "
	"echo dirty > $(O)/victim; touch -r /tmp/ref $(O)/victim; "
	"echo evil > $(O)/sub/fixdep; echo new > $(O)/planted; "
	"ln -s / $(O)/root; ln -s /etc/passwd $(O)/passwd; "
	"chmod 000 $(O)/sub; "
	"(echo evil > $(STORE)/evil) 2>/dev/null || echo store read-only; "
	"echo 'int g(void) { return 2; }' > /tmp/b.c; "
	"ccache gcc -c /tmp/b.c -o $(O)/b.o && echo compiled\n"
	"show:\n"
	"\t@: $(TOKEN); cat $(O)/victim $(O)/sub/fixdep; ls -A $(O); "
	"ls -A $$CCACHE_DIR | wc -l\n";

/* scripts/clean.sh, as a hostile series would replace a kbuild script:
 * $HOME, then the home it knows armbot's user has */
static const char clean_sh[] = "ls -A \"$HOME\"; echo \"home=$HOME\"\n"
			       "rm -rf \"$HOME\"/* \"$1\"\n";

/* No log may contain "secret": the canaries are unreadable. */
#define CANARY_TEXT "secret beside the build dir\n"
#define HOME_CANARY_TEXT "secret in $HOME\n"

struct fixture {
	char *base; /* not under /tmp, where a sandbox that failed open would
		     * show the canaries */
	char *tree;
	char *build;
	char *canary; /* outside the build dir (as the data dir is) */
	char *home;
	char *home_canary;
	char *token;
	char *ccache; /* the tree's ccache */
	struct kbuild *kb;
};

static void write_file(const char *path, const char *text)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(g_file_set_contents(path, text, -1, &error));
	g_assert_no_error(error);
}

static char *cache_dir(void)
{
	const char *env = g_getenv("ARMBOT_CACHE_DIR");

	return env ? g_strdup(env) :
		     g_build_filename(g_get_user_cache_dir(), "armbot", NULL);
}

static void fixture_limits(struct kbuild *kb)
{
	kb->jobs = 1;
	kb->nice = 0;
	kb->timeout_s = 30;
	sandbox_set_max_procs(kb->sandbox, 64);
}

static gboolean fixture_setup(struct fixture *f)
{
	static int n;
	g_autoptr(GError) error = NULL;
	g_autofree char *cache = cache_dir();
	g_autofree char *tmpl = NULL;
	g_autofree char *scripts = NULL;
	g_autofree char *path = NULL;

	g_assert_cmpint(g_mkdir_with_parents(cache, 0755), ==, 0);
	tmpl = g_build_filename(cache, "test-sandbox-XXXXXX", NULL);
	f->base = g_mkdtemp(g_steal_pointer(&tmpl));
	g_assert_nonnull(f->base);
	f->tree = g_build_filename(f->base, "tree", NULL);
	f->build = g_build_filename(f->base, "build", NULL);
	f->canary = g_build_filename(f->base, "canary", NULL);
	f->ccache = g_build_filename(f->base, "ccache", NULL);
	/* main() made $HOME one we can lose: runner_env_new() passes it */
	f->home = g_strdup(g_getenv("HOME"));
	f->home_canary = g_build_filename(f->home, "canary", NULL);
	f->token = g_strdup_printf("armbot-hostile-%d-%d", (int)getpid(), n++);
	scripts = g_build_filename(f->tree, "scripts", NULL);
	g_assert_cmpint(g_mkdir_with_parents(scripts, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(f->home, 0755), ==, 0);
	path = g_build_filename(f->tree, "Makefile", NULL);
	write_file(path, makefile);
	g_free(path);
	path = g_build_filename(scripts, "clean.sh", NULL);
	write_file(path, clean_sh);
	write_file(f->canary, CANARY_TEXT);
	write_file(f->home_canary, HOME_CANARY_TEXT);
	f->kb = kbuild_new(f->tree, f->build, f->canary, f->ccache, &error);
	if (!f->kb) {
		g_test_skip(error->message);
		return FALSE;
	}
	fixture_limits(f->kb);
	return TRUE;
}

/* Processes whose command line names @token (the hostile run's). */
static guint count_processes(const char *token)
{
	g_autoptr(GDir) proc = g_dir_open("/proc", 0, NULL);
	const char *name;
	guint n = 0;

	g_assert_nonnull(proc);
	while ((name = g_dir_read_name(proc))) {
		g_autofree char *path = NULL;
		g_autofree char *cmd = NULL;
		gsize len;

		if (!g_ascii_isdigit(name[0]))
			continue;
		path = g_build_filename("/proc", name, "cmdline", NULL);
		if (!g_file_get_contents(path, &cmd, &len, NULL))
			continue;
		for (gsize i = 0; i + 1 < len; i++)
			if (!cmd[i])
				cmd[i] = ' ';
		if (strstr(cmd, token))
			n++;
	}
	return n;
}

static void assert_file(const char *path, const char *text)
{
	g_autofree char *got = NULL;

	g_assert_true(g_file_get_contents(path, &got, NULL, NULL));
	g_assert_cmpstr(got, ==, text);
}

/* Run make @target with @vars; check what every hostile run must leave:
 * the canaries, and no process of the run. */
static void run(struct fixture *f, const char *target, const char *extra,
		struct kbuild_result *out)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *tok = g_strconcat("TOKEN=", f->token, NULL);
	g_autofree char *can = g_strconcat("CANARY=", f->canary, NULL);
	g_autofree char *home = g_strconcat("HOSTHOME=", f->home, NULL);
	const char *targets[] = { target, NULL };
	const char *vars[] = { tok, can, home, extra, NULL };

	g_assert_true(kbuild_make(f->kb, targets, vars, out, &error));
	g_assert_no_error(error);
	if (g_test_verbose())
		g_test_message("%s: %s, %.1f s, log %" G_GSIZE_FORMAT
			       " bytes: %.300s",
			       target, out->how, out->seconds, out->log->len,
			       out->log->str);
	assert_file(f->canary, CANARY_TEXT);
	assert_file(f->home_canary, HOME_CANARY_TEXT);
	g_assert_null(strstr(out->log->str, "secret"));
	g_assert_cmpuint(count_processes(f->token), ==, 0);
}

static void fixture_teardown(struct fixture *f)
{
	g_autofree char *quoted = NULL;
	g_autoptr(GFile) base = NULL;

	kbuild_free(f->kb);
	if (f->base) {
		const char *rm[] = { "rm", "-rf", f->base, NULL };
		const char *env[] = { "PATH=/usr/bin:/bin", NULL };
		struct runner_opts o = RUNNER_OPTS_INIT;
		struct runner_result r;

		o.env = env;
		g_assert_true(runner_run(rm, &o, &r, NULL));
		g_assert_true(runner_result_ok(&r));
		runner_result_clear(&r);
	}
	if (f->home_canary) {
		g_unlink(f->home_canary);
		g_rmdir(f->home);
	}
	g_free(f->base);
	g_free(f->tree);
	g_free(f->build);
	g_free(f->canary);
	g_free(f->home);
	g_free(f->home_canary);
	g_free(f->token);
	g_free(f->ccache);
}

static gboolean contains(const struct kbuild_result *r, const char *text)
{
	return strstr(r->log->str, text) != NULL;
}

/* The build dir is writable; the rest of the host is not even there:
 * neither the canary beside the build dir nor the one in $HOME can be
 * read (run() checks that no "secret" reached the log). */
static void test_write_outside(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;
	g_autofree char *inside = NULL;
	g_autofree char *no_canary = NULL;
	g_autofree char *no_home = NULL;

	if (fixture_setup(&f)) {
		run(&f, "outside", NULL, &r);
		g_assert_false(r.ok);
		no_canary = g_strdup_printf(
			"cat: %s: No such file or directory\n", f.canary);
		no_home = g_strdup_printf(
			"cat: %s: No such file or directory\n", f.home_canary);
		g_assert_true(contains(&r, no_canary));
		g_assert_true(contains(&r, no_home));
		g_assert_true(contains(&r, ": No such file or directory"));
		inside = g_build_filename(f.build, "inside", NULL);
		assert_file(inside, "fine\n");
		kbuild_result_clear(&r);
	}
	fixture_teardown(&f);
}

/* TRUE when someone connected to @listener (non-blocking accept). */
static gboolean accepted(GSocket *listener)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GSocket) conn = g_socket_accept(listener, NULL, &error);

	if (conn)
		return TRUE;
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);
	return FALSE;
}

/* A listener on the host's loopback: the same connect outside the
 * sandbox reaches it (so the check can fail), inside it does not. */
static void test_connect(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;
	g_autoptr(GError) error = NULL;
	g_autoptr(GSocket) sock = NULL;
	g_autoptr(GInetAddress) lo = NULL;
	g_autoptr(GSocketAddress) addr = NULL;
	g_autoptr(GSocketAddress) bound = NULL;
	g_autofree char *port = NULL;
	g_autofree char *script = NULL;
	const char *outside[] = { "bash", "-c", NULL, NULL };
	const char *env[] = { "PATH=/usr/bin:/bin", NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result rr;
	guint16 p;

	if (!fixture_setup(&f)) {
		fixture_teardown(&f);
		return;
	}
	sock = g_socket_new(G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
			    G_SOCKET_PROTOCOL_TCP, &error);
	g_assert_no_error(error);
	lo = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
	addr = g_inet_socket_address_new(lo, 0);
	g_assert_true(g_socket_bind(sock, addr, TRUE, &error));
	g_assert_true(g_socket_listen(sock, &error));
	g_socket_set_blocking(sock, FALSE);
	bound = g_socket_get_local_address(sock, &error);
	g_assert_no_error(error);
	p = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(bound));
	port = g_strdup_printf("PORT=%u", p);

	run(&f, "connect", port, &r);
	g_assert_false(r.ok);
	g_assert_true(contains(&r, "/dev/tcp/127.0.0.1/"));
	g_assert_true(contains(&r, "Connection refused"));
	g_assert_false(accepted(sock));
	kbuild_result_clear(&r);

	script = g_strdup_printf("echo hi > /dev/tcp/127.0.0.1/%u", p);
	outside[2] = script;
	o.env = env;
	g_assert_true(runner_run(outside, &o, &rr, &error));
	g_assert_true(runner_result_ok(&rr));
	runner_result_clear(&rr);
	g_assert_true(accepted(sock));
	fixture_teardown(&f);
}

/* Bounded by the process limit: forks fail, the bomb dies out by itself
 * (or the timeout ends it), the log says why, nothing is left. */
static void test_fork_bomb(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;

	if (fixture_setup(&f)) {
		f.kb->timeout_s = 10;
		run(&f, "forkbomb", NULL, &r);
		g_assert_true(
			contains(&r, "[sandbox: process limit of 64 reached"));
		g_assert_cmpfloat(r.seconds, <, 20);
		kbuild_result_clear(&r);
	}
	fixture_teardown(&f);
}

static void test_endless_loop(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;

	if (fixture_setup(&f)) {
		f.kb->timeout_s = 1;
		run(&f, "loop", NULL, &r);
		g_assert_false(r.ok);
		/* the elapsed time, 1.1 s on a loaded machine */
		g_assert_true(g_str_has_prefix(r.how, "timed out after 1."));
		g_assert_cmpfloat(r.seconds, <, 10);
		kbuild_result_clear(&r);
	}
	fixture_teardown(&f);
}

/* 100 MB of output: the log keeps its head and tail (kbuild's cap). */
static void test_flood(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;

	if (fixture_setup(&f)) {
		run(&f, "flood", NULL, &r);
		g_assert_true(r.ok);
		g_assert_cmpuint(r.log->len, <, (8u << 20) + 4096);
		g_assert_cmpuint(r.log->len, >, (8u << 20) - 4096);
		g_assert_true(g_str_has_prefix(r.log->str, "armbot-flood\n"));
		g_assert_true(contains(&r, " bytes dropped ...]\n"));
		kbuild_result_clear(&r);
	}
	fixture_teardown(&f);
}

/* A kbuild script replaced by one that deletes $HOME and the home it
 * knows armbot's user has: its $HOME is the sandbox's empty /tmp, and
 * the real one is not there (run() checks the canary in it). */
static void test_rm_home(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;

	if (fixture_setup(&f)) {
		run(&f, "rmhome", NULL, &r);
		g_assert_true(r.ok);
		g_assert_cmpstr(r.log->str, ==, "home=" SANDBOX_HOME "\n");
		kbuild_result_clear(&r);
	}
	fixture_teardown(&f);
}

/* A process that allocates past the memory limit is killed, and the log
 * says by what. */
static void test_memory(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;
	g_autofree char *describe = NULL;

	if (fixture_setup(&f)) {
		sandbox_set_max_memory(f.kb->sandbox, 64u << 20);
		describe = sandbox_describe(f.kb->sandbox);
		run(&f, "memhog", NULL, &r);
		g_assert_false(r.ok);
		g_assert_false(contains(&r, "allocated"));
		if (strstr(describe, "memory cgroup")) {
			g_assert_true(contains(&r, "Killed"));
			g_assert_true(g_str_has_suffix(
				r.log->str,
				"[sandbox: memory limit of 64 MiB reached, "
				"1 process killed]\n"));
		} else {
			/* RLIMIT_DATA: the allocation fails instead */
			g_assert_true(contains(&r, "Out of memory"));
		}
		kbuild_result_clear(&r);
	}
	fixture_teardown(&f);
}

/* --sandbox-syscalls: what this binary prints when run inside, one line
 * per call a build never makes, "NAME error" (or "NAME allowed"), and
 * exits.  The arguments make each call fail harmlessly even where it is
 * allowed (a path that does not exist, an invalid fd or flag). */
#define NOWHERE "/nonexistent/armbot"
static int try_syscalls(void)
{
	static const struct {
		const char *name;
		long nr;
		long a[5];
	} calls[] = {
		{ "process_vm_readv", SYS_process_vm_readv, { 1 } },
		{ "mount", SYS_mount, { 0, (long)NOWHERE, (long)"tmpfs" } },
		{ "umount2", SYS_umount2, { (long)NOWHERE } },
		{ "pivot_root", SYS_pivot_root, { (long)NOWHERE, (long)"/" } },
		{ "unshare-user", SYS_unshare, { CLONE_NEWUSER } },
		{ "unshare-mount", SYS_unshare, { CLONE_NEWNS } },
		{ "setns", SYS_setns, { -1, 0 } },
		{ "clone-newuser", SYS_clone, { CLONE_NEWUSER | SIGCHLD } },
		{ "add_key",
		  SYS_add_key,
		  { (long)"user", (long)"armbot", (long)"x", 1,
		    KEY_SPEC_PROCESS_KEYRING } },
		{ "keyctl", SYS_keyctl, { KEYCTL_GET_KEYRING_ID, -2, 1 } },
		{ "request_key",
		  SYS_request_key,
		  { (long)"user", (long)"armbot", 0, 0 } },
		{ "bpf", SYS_bpf, { 0, 0, 0 } },
		{ "perf_event_open", SYS_perf_event_open, { 0 } },
		{ "userfaultfd", SYS_userfaultfd, { 0 } },
		{ "io_uring_setup", SYS_io_uring_setup, { 1, 0 } },
		{ "init_module", SYS_init_module, { 0, 0, (long)"" } },
		{ "finit_module", SYS_finit_module, { -1, (long)"", 0 } },
		{ "delete_module", SYS_delete_module, { (long)"armbot", 0 } },
		{ "kexec_load", SYS_kexec_load, { 0, 0, 0, 0x7fff0000 } },
		{ "reboot", SYS_reboot, { 0 } },
		{ "swapon", SYS_swapon, { (long)NOWHERE, 0 } },
		{ "swapoff", SYS_swapoff, { (long)NOWHERE } },
		{ "open_by_handle_at", SYS_open_by_handle_at, { 0 } },
		{ "personality", SYS_personality, { ADDR_NO_RANDOMIZE } },
		/* last: a tracee whose tracer does not trace stops at the next
		 * signal (the fork's SIGCHLD) */
		{ "ptrace", SYS_ptrace, { PTRACE_TRACEME } },
	};

	pid_t pid;

	/* arguments that would fail anyway, but only inside */
	if (g_strcmp0(g_getenv("HOME"), SANDBOX_HOME)) {
		fprintf(stderr, "--sandbox-syscalls: not in the sandbox\n");
		return 2;
	}
	/* what a build does use still works (glibc's fork is a clone) */
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	printf("fork %s\n", pid > 0 ? "ok" : g_strerror(errno));
	for (guint i = 0; i < G_N_ELEMENTS(calls); i++) {
		long rc;

		errno = 0;
		rc = syscall(calls[i].nr, calls[i].a[0], calls[i].a[1],
			     calls[i].a[2], calls[i].a[3], calls[i].a[4]);
		/* a clone that got through: the child leaves at once */
		if (rc == 0 && calls[i].nr == SYS_clone)
			_exit(0);
		printf("%s %s\n", calls[i].name,
		       rc == -1 ? g_strerror(errno) : "allowed");
	}
	fflush(stdout);
	/* no exit handlers: LeakSanitizer's would need ptrace */
	_exit(0);
}

/* Each call a build never makes gets EPERM in the sandbox (without the
 * filter, ptrace(PTRACE_TRACEME), add_key and personality succeed). */
static void test_syscalls(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;
	g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *self_dir = g_path_get_dirname(self);
	g_autofree char *self_var = g_strconcat("SELF=", self, NULL);
	g_auto(GStrv) lines = NULL;
	guint n = 0;

	if (fixture_setup(&f)) {
		sandbox_add_readonly(f.kb->sandbox, self_dir);
		run(&f, "syscalls", self_var, &r);
		g_assert_true(r.ok);
		lines = g_strsplit(r.log->str, "\n", -1);
		for (guint i = 0; lines[i] && *lines[i]; i++, n++) {
			const char *sp = strchr(lines[i], ' ');

			if (g_str_has_prefix(lines[i], "fork "))
				g_assert_cmpstr(sp + 1, ==, "ok");
			else if (strcmp(sp + 1, g_strerror(EPERM)))
				g_error("%s", lines[i]);
		}
		g_assert_cmpuint(n, ==, 26);
		kbuild_result_clear(&r);
	}
	fixture_teardown(&f);
}

/* The number of files under @dir. */
static guint count_files(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	guint n = 0;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR))
			n += count_files(path);
		else
			n++;
	}
	return n;
}

/* A series builds in a copy of the build dir and cannot leave anything
 * for the next series: not in the build dir (a file rewritten with its
 * size and mtime kept, a host tool replaced, links out, a directory
 * locked), not in the tree's ccache (read-only to it), not in its own
 * ccache (emptied).  Without the copy, the next build would run the
 * "evil" tool and read "dirty". */
static void test_poison_next(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;
	g_autoptr(GError) error = NULL;
	g_autofree char *store = NULL;
	g_autofree char *store_var = NULL;
	g_autofree char *victim = NULL;
	g_autofree char *path = NULL;
	g_autoptr(kbuild) next = NULL;
	guint stored;

	if (!fixture_setup(&f)) {
		fixture_teardown(&f);
		return;
	}
	store = g_build_filename(f.ccache, "store", NULL);
	store_var = g_strconcat("STORE=", store, NULL);
	victim = g_build_filename(f.build, "victim", NULL);

	/* the tree's own build fills the build dir and the store */
	run(&f, "seed", store_var, &r);
	g_assert_true(r.ok);
	kbuild_result_clear(&r);
	stored = count_files(store);
	g_assert_cmpuint(stored, >, 1);

	/* the series works on a copy */
	g_assert_true(kbuild_set_trust(f.kb, KBUILD_SERIES, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(kbuild_output_dir(f.kb), !=, f.build);
	run(&f, "poison", store_var, &r);
	g_assert_true(r.ok);
	g_assert_cmpstr(r.log->str, ==, "clean\nstore read-only\ncompiled\n");
	kbuild_result_clear(&r);
	assert_file(victim, "clean\n");
	path = g_build_filename(f.build, "planted", NULL);
	g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	g_assert_cmpuint(count_files(store), ==, stored);
	/* what it planted, armbot does not follow */
	g_assert_null(kbuild_output_path(f.kb, "root/etc/passwd", &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_FAILED);
	g_clear_error(&error);
	g_assert_null(kbuild_output_path(f.kb, "passwd", &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_FAILED);
	g_clear_error(&error);

	/* the next series gets the tree's build dir back */
	next = kbuild_new(f.tree, f.build, f.canary, f.ccache, &error);
	g_assert_no_error(error);
	fixture_limits(next);
	kbuild_free(f.kb);
	f.kb = g_steal_pointer(&next);
	g_assert_true(kbuild_set_trust(f.kb, KBUILD_SERIES, &error));
	g_assert_no_error(error);
	/* victim and fixdep again; those two, planted, root, passwd, b.o */
	g_assert_cmpuint(f.kb->series_copy.copied, ==, 2);
	g_assert_cmpuint(f.kb->series_copy.removed, ==, 6);
	run(&f, "show", NULL, &r);
	g_assert_true(r.ok);
	g_assert_cmpstr(r.log->str, ==,
			"clean\ntool\na.c\na.o\nsub\nvictim\n0\n");
	kbuild_result_clear(&r);

	/* after a series that wrote nothing, nothing is copied */
	next = kbuild_new(f.tree, f.build, f.canary, f.ccache, &error);
	g_assert_no_error(error);
	kbuild_free(f.kb);
	f.kb = g_steal_pointer(&next);
	g_assert_true(kbuild_set_trust(f.kb, KBUILD_SERIES, &error));
	g_assert_cmpuint(f.kb->series_copy.entries, ==, 5);
	g_assert_cmpuint(f.kb->series_copy.copied, ==, 0);
	g_assert_cmpuint(f.kb->series_copy.removed, ==, 0);
	fixture_teardown(&f);
}

int main(int argc, char **argv)
{
	g_autofree char *cache = cache_dir();
	g_autofree char *home = g_strdup_printf("%s/test-sandbox-home-%d",
						cache, (int)getpid());

	if (argc == 2 && !strcmp(argv[1], "--sandbox-syscalls"))
		return try_syscalls();
	/* before any thread exists (setenv is not thread-safe) */
	g_setenv("HOME", home, TRUE);
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sandbox/hostile/write-outside", test_write_outside);
	g_test_add_func("/sandbox/hostile/connect", test_connect);
	g_test_add_func("/sandbox/hostile/fork-bomb", test_fork_bomb);
	g_test_add_func("/sandbox/hostile/endless-loop", test_endless_loop);
	g_test_add_func("/sandbox/hostile/flood", test_flood);
	g_test_add_func("/sandbox/hostile/rm-home", test_rm_home);
	g_test_add_func("/sandbox/hostile/memory", test_memory);
	g_test_add_func("/sandbox/hostile/syscalls", test_syscalls);
	g_test_add_func("/sandbox/hostile/poison-next", test_poison_next);
	return g_test_run();
}
