/* Hostile patches against the build path (kernel/build/kbuild.c through
 * kernel/build/sandbox.c): a tiny fake tree whose Makefile does what a hostile
 * series could make kbuild do.  Each run must end with a clear reason in
 * its result, leave the host unchanged (canaries outside the build
 * directory untouched, no connection made) and leave no process behind. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/build/kbuild.h"

/* Recipes run by make in the tree; $(TOKEN) names the run in every
 * process's command line, so that leftovers can be found in /proc. */
static const char makefile[] =
	"all:\n"
	"\t@echo nothing\n"
	"outside:\n"
	"\t@: $(TOKEN); echo fine > $(O)/inside\n"
	"\t@cat $(CANARY)\n"
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
	"\t@: $(TOKEN); sh scripts/clean.sh\n";

/* scripts/clean.sh, as a hostile series would replace a kbuild script */
static const char clean_sh[] = "ls \"$HOME\"\n"
			       "rm -rf \"$HOME\"\n";

struct fixture {
	char *base; /* not under /tmp: the sandbox must see the canaries */
	char *tree;
	char *build;
	char *canary; /* outside the build dir, visible read-only */
	char *home;
	char *home_canary;
	char *token;
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
	write_file(f->canary, "canary\n");
	write_file(f->home_canary, "home canary\n");
	f->kb = kbuild_new(f->tree, f->build, f->canary, NULL, &error);
	if (!f->kb) {
		g_test_skip(error->message);
		return FALSE;
	}
	f->kb->jobs = 1;
	f->kb->nice = 0;
	f->kb->timeout_s = 30;
	sandbox_set_max_procs(f->kb->sandbox, 64);
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
	const char *targets[] = { target, NULL };
	const char *vars[] = { tok, can, extra, NULL };

	g_assert_true(kbuild_make(f->kb, targets, vars, out, &error));
	g_assert_no_error(error);
	if (g_test_verbose())
		g_test_message("%s: %s, %.1f s, log %" G_GSIZE_FORMAT
			       " bytes: %.300s",
			       target, out->how, out->seconds, out->log->len,
			       out->log->str);
	assert_file(f->canary, "canary\n");
	assert_file(f->home_canary, "home canary\n");
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
}

static gboolean contains(const struct kbuild_result *r, const char *text)
{
	return strstr(r->log->str, text) != NULL;
}

/* The build dir is writable, the rest of the host is not (but visible:
 * the recipe read the canary before failing to overwrite it). */
static void test_write_outside(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;
	g_autofree char *inside = NULL;

	if (fixture_setup(&f)) {
		run(&f, "outside", NULL, &r);
		g_assert_false(r.ok);
		g_assert_true(contains(&r, "canary\n"));
		g_assert_true(contains(&r, "Read-only file system"));
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

/* A kbuild script replaced by one that deletes $HOME: it sees $HOME
 * (ls lists the canary) and cannot remove anything. */
static void test_rm_home(void)
{
	struct fixture f = { 0 };
	struct kbuild_result r;

	if (fixture_setup(&f)) {
		run(&f, "rmhome", NULL, &r);
		g_assert_false(r.ok);
		g_assert_true(g_str_has_prefix(r.log->str, "canary\n"));
		g_assert_true(contains(&r, "Read-only file system"));
		kbuild_result_clear(&r);
	}
	fixture_teardown(&f);
}

int main(int argc, char **argv)
{
	g_autofree char *cache = cache_dir();
	g_autofree char *home = g_strdup_printf("%s/test-sandbox-home-%d",
						cache, (int)getpid());

	/* before any thread exists (setenv is not thread-safe) */
	g_setenv("HOME", home, TRUE);
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sandbox/hostile/write-outside", test_write_outside);
	g_test_add_func("/sandbox/hostile/connect", test_connect);
	g_test_add_func("/sandbox/hostile/fork-bomb", test_fork_bomb);
	g_test_add_func("/sandbox/hostile/endless-loop", test_endless_loop);
	g_test_add_func("/sandbox/hostile/flood", test_flood);
	g_test_add_func("/sandbox/hostile/rm-home", test_rm_home);
	return g_test_run();
}
