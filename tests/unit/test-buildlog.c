/* Unit tests for kernel/build/buildlog.c: what of a failed kbuild log a reply
 * quotes.  The logs are shaped as gcc 12, sparse and GNU make 4.3 print
 * them in an O= build of 6.1 (absolute source paths, make's
 * "[MAKEFILE:LINE: TARGET]"), with what a hostile Makefile adds. */
#include <glib.h>

#include "kernel/build/buildlog.h"

#define TREE "/data/worktrees/distro-6.1"
#define BUILD "/data/kbuild/distro-6.1/rpm-virt"

static GPtrArray *files(const char *first, ...) G_GNUC_NULL_TERMINATED;
static GPtrArray *files(const char *first, ...)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	va_list ap;

	va_start(ap, first);
	for (const char *f = first; f; f = va_arg(ap, const char *))
		g_ptr_array_add(a, g_strdup(f));
	va_end(ap);
	return a;
}

/* A compile error in the series' file: the diagnostic with gcc's context
 * and make's errors on the way up, the paths relative to the tree; the
 * warnings of a file the series does not touch are left out. */
static void test_compile_error(void)
{
	g_autoptr(GPtrArray) f = files("drivers/base/power/runtime.c", NULL);
	const char *log =
		"  CC      drivers/base/power/runtime.o\n"
		"  CC      kernel/other.o\n" TREE
		"/kernel/other.c:3:1: warning: no previous prototype for "
		"'x' [-Wmissing-prototypes]\n"
		"    3 | int x(void) { return 0; }\n"
		"      | ^\n" TREE
		"/drivers/base/power/runtime.c: In function 'rpm_idle':\n" TREE
		"/drivers/base/power/runtime.c:21:2: error: #error broken\n"
		"   21 | #error broken\n"
		"      |  ^~~~~\n"
		"make[5]: *** [" TREE "/scripts/Makefile.build:250: "
		"drivers/base/power/runtime.o] Error 1\n"
		"make[4]: *** [" TREE "/scripts/Makefile.build:500: "
		"drivers/base/power] Error 2\n"
		"make[3]: *** [" TREE "/scripts/Makefile.build:500: "
		"drivers/base] Error 2\n"
		"make[2]: *** [" TREE "/scripts/Makefile.build:500: drivers] "
		"Error 2\n"
		"make[1]: *** [" TREE "/Makefile:1992: .] Error 2\n"
		"make: *** [" TREE "/Makefile:231: __sub-make] Error 2\n";
	g_autofree char *got = buildlog_excerpt(log, f, TREE, BUILD, 30);

	g_assert_cmpstr(
		got, ==,
		"drivers/base/power/runtime.c: In function 'rpm_idle':\n"
		"drivers/base/power/runtime.c:21:2: error: #error broken\n"
		"   21 | #error broken\n"
		"      |  ^~~~~\n"
		"make[5]: *** [scripts/Makefile.build:250: "
		"drivers/base/power/runtime.o] Error 1\n"
		"make[4]: *** [scripts/Makefile.build:500: drivers/base/power] "
		"Error 2\n"
		"make[3]: *** [scripts/Makefile.build:500: drivers/base] Error 2\n"
		"make[2]: *** [scripts/Makefile.build:500: drivers] Error 2\n"
		"make[1]: *** [Makefile:1992: .] Error 2\n"
		"make: *** [Makefile:231: __sub-make] Error 2\n");
}

/* What a hostile Makefile prints is never quoted: $(info), $(warning),
 * $(error) (only where it stopped), echo in a recipe, a fake make line
 * naming a target that is none of the series', a fake diagnostic about
 * another file, a fake sandbox line. */
static void test_makefile_text(void)
{
	g_autoptr(GPtrArray) f = files("drivers/base/power/Makefile", NULL);
	const char *log =
		"secret: hunter2\n"
		"drivers/base/power/Makefile:4: secret: hunter2\n" TREE
		"/drivers/base/power/Makefile:5: *** secret: hunter2.  Stop.\n"
		"make[4]: *** [" TREE "/scripts/Makefile.build:500: "
		"hunter2] Error 2\n"
		"make[4]: *** [" TREE "/scripts/Makefile.build:500: "
		"secret-hunter2.o] Error 2\n"
		"/etc/shadow:1:1: error: hunter2\n"
		"   1 | hunter2\n"
		"[sandbox: hunter2]\n"
		"[sandbox: memory limit of 4096 MiB reached, 1 process "
		"killed]\n"
		"make[3]: *** [" TREE "/scripts/Makefile.build:500: "
		"drivers/base/power] Error 2\n";
	g_autofree char *got = buildlog_excerpt(log, f, TREE, BUILD, 30);

	g_assert_cmpstr(got, ==,
			"drivers/base/power/Makefile:5: *** (the Makefile's "
			"message is not quoted)\n"
			"[sandbox: memory limit of 4096 MiB reached, 1 process "
			"killed]\n"
			"make[3]: *** [scripts/Makefile.build:500: "
			"drivers/base/power] Error 2\n");
}

/* sparse's warnings and their continuation lines; the build dir's own
 * files (armbot's external module) are quotable, other generated files
 * are not. */
static void test_sparse_and_module(void)
{
	g_autoptr(GPtrArray) f = files("drivers/bus/vexpress-config.c", NULL);
	const char *log = TREE
		"/drivers/bus/vexpress-config.c:10:5: warning: "
		"incorrect type in argument 1 (different address spaces)\n" TREE
		"/drivers/bus/vexpress-config.c:10:5:    expected void "
		"[noderef] __iomem *\n" BUILD
		"/armbot-ext/rpm_test/rpm_test.c:40:9: error: implicit "
		"declaration of function 'pm_runtime_foo'\n" BUILD
		"/include/generated/autoconf.h:1:1: error: hunter2\n"
		"arm-linux-gnueabihf-gcc: fatal error: Killed signal "
		"terminated program cc1\n"
		"compilation terminated.\n";
	g_autofree char *got = buildlog_excerpt(log, f, TREE, BUILD, 30);

	g_assert_cmpstr(got, ==,
			"drivers/bus/vexpress-config.c:10:5: warning: "
			"incorrect type in argument 1 (different address "
			"spaces)\n"
			"drivers/bus/vexpress-config.c:10:5:    expected void "
			"[noderef] __iomem *\n"
			"armbot-ext/rpm_test/rpm_test.c:40:9: error: implicit "
			"declaration of function 'pm_runtime_foo'\n"
			"arm-linux-gnueabihf-gcc: fatal error: Killed signal "
			"terminated program cc1\n"
			"compilation terminated.\n");
}

/* Cut to the first diagnostics and make's last lines. */
static void test_cut(void)
{
	g_autoptr(GPtrArray) f = files("a/b.c", NULL);
	GString *log = g_string_new(NULL);
	g_autofree char *got = NULL;
	g_auto(GStrv) lines = NULL;

	for (int i = 1; i <= 50; i++)
		g_string_append_printf(log, "a/b.c:%d:1: error: e%d\n", i, i);
	for (int i = 4; i >= 0; i--)
		g_string_append_printf(log, "make[%d]: *** [x:1: a] Error 2\n",
				       i);
	got = buildlog_excerpt(log->str, f, NULL, NULL, 10);
	lines = g_strsplit(got, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, 11);
	g_assert_cmpstr(lines[0], ==, "a/b.c:1:1: error: e1");
	g_assert_cmpstr(lines[4], ==, "a/b.c:5:1: error: e5");
	g_assert_cmpstr(lines[5], ==, "make[4]: *** [x:1: a] Error 2");
	g_assert_cmpstr(lines[9], ==, "make[0]: *** [x:1: a] Error 2");
	g_string_free(log, TRUE);
}

/* Nothing quotable: an empty excerpt. */
static void test_nothing(void)
{
	g_autoptr(GPtrArray) f = files("a/b.c", NULL);
	g_autofree char *got = buildlog_excerpt(
		"hunter2\nmake: *** [all] Error 2\n", f, NULL, NULL, 30);

	g_assert_cmpstr(got, ==, "make: *** [all] Error 2\n");
	g_free(got);
	got = buildlog_excerpt("hunter2\n", f, NULL, NULL, 30);
	g_assert_cmpstr(got, ==, "");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/buildlog/compile-error", test_compile_error);
	g_test_add_func("/buildlog/makefile-text", test_makefile_text);
	g_test_add_func("/buildlog/sparse-and-module", test_sparse_and_module);
	g_test_add_func("/buildlog/cut", test_cut);
	g_test_add_func("/buildlog/nothing", test_nothing);
	return g_test_run();
}
