/* kernel/build/sparse.c on captured output of real sparse 0.6.4 and gcc 12
 * (tests/unit/data/sparse: drv.c at a base and at a head that adds a
 * comment above everything, makes 'counter' static, adds a non-static
 * 'probes', and is built with -Wmissing-declarations). */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/build/sparse.h"

static char *data_path(const char *name)
{
	return g_build_filename("tests", "unit", "data", "sparse", name, NULL);
}

static GPtrArray *load(const char *side, const char *tool)
{
	g_autofree char *name = g_strdup_printf("%s-%s.log", side, tool);
	g_autofree char *path = data_path(name);
	g_autofree char *dir = data_path(side);
	g_autofree char *log = NULL;
	g_autoptr(GError) error = NULL;
	GPtrArray *w;

	g_assert_true(g_file_get_contents(path, &log, NULL, &error));
	g_assert_no_error(error);
	w = sparse_parse(log, tool);
	sparse_attach_source(w, dir);
	return w;
}

static void test_parse(void)
{
	g_autoptr(GPtrArray) w = load("base", "sparse");
	g_autoptr(GPtrArray) g = load("head", "gcc");
	struct sparse_warning *x;

	g_assert_cmpuint(w->len, ==, 6);
	x = w->pdata[2];
	g_assert_cmpstr(x->file, ==, "drv.c");
	g_assert_cmpuint(x->line, ==, 14);
	g_assert_cmpuint(x->column, ==, 16);
	g_assert_cmpstr(x->severity, ==, "warning");
	g_assert_cmpstr(x->message, ==,
			"incorrect type in return expression (different base "
			"types) @@ expected unsigned int @@ got restricted "
			"le32 [usertype] v");
	g_assert_cmpstr(x->source, ==, "return v;");
	/* gcc: the source excerpt and caret lines are not warnings */
	g_assert_cmpuint(g->len, ==, 4);
	x = g->pdata[3];
	g_assert_cmpstr(x->message, ==,
			"no previous declaration for 'to_cpu' "
			"[-Wmissing-declarations]");
	g_assert_cmpstr(x->source, ==, "unsigned int to_cpu(le32 v)");
}

static char *compare(const char *tool)
{
	g_autoptr(GPtrArray) base = load("base", tool);
	g_autoptr(GPtrArray) head = load("head", tool);
	g_autoptr(GArray) is_new = NULL;
	g_autoptr(GPtrArray) fixed = NULL;
	GString *out = g_string_new(NULL);

	sparse_compare(base, head, &is_new, &fixed);
	sparse_report(out,
		      strcmp(tool, "sparse") ? SPARSE_TITLE_CC : SPARSE_TITLE,
		      head, is_new, fixed);
	return g_string_free(out, FALSE);
}

/* Every line moved by 3 (or 2): only 'probes' is new, 'counter' fixed. */
static void test_sparse_report(void)
{
	g_autofree char *got = compare("sparse");

	g_assert_cmpstr(
		got, ==,
		"sparse warnings: (new ones prefixed by >>)\n"
		">> drv.c:8:5: sparse: sparse: symbol 'probes' was not "
		"declared. Should it be static?\n"
		"   drv.c:12:11: sparse: sparse: cast removes address space "
		"'__iomem' of expression\n"
		"   drv.c:17:16: sparse: sparse: incorrect type in return "
		"expression (different base types) @@ expected unsigned int "
		"@@ got restricted le32 [usertype] v\n"
		"   drv.c:15:14: sparse: sparse: symbol 'to_cpu' was not "
		"declared. Should it be static?\n"
		"   drv.c:22:19: sparse: sparse: incorrect type in argument 1 "
		"(different address spaces) @@ expected void [noderef] "
		"__iomem *addr @@ got void *p\n"
		"   drv.c:27:6: sparse: sparse: symbol 'hook' was not "
		"declared. Should it be static?\n"
		"\n"
		"fixed warnings:\n"
		"   drv.c:5:5: sparse: sparse: symbol 'counter' was not "
		"declared. Should it be static?\n");
}

static void test_gcc_report(void)
{
	g_autofree char *got = compare("gcc");

	g_assert_cmpstr(
		got, ==,
		"All warnings (new ones prefixed by >>):\n"
		"   drv.c:3:1: warning: 'bitwise' attribute directive ignored "
		"[-Wattributes]\n"
		"   drv.c:10:1: warning: 'noderef' attribute directive ignored "
		"[-Wattributes]\n"
		"   drv.c:10:1: warning: 'address_space' attribute directive "
		"ignored [-Wattributes]\n"
		">> drv.c:15:14: warning: no previous declaration for 'to_cpu' "
		"[-Wmissing-declarations]\n");
}

/* The same message on a line whose text changed is new (and the old one
 * fixed); a warning that appears twice where it was once is new once. */
static void test_identity(void)
{
	const char *base_log = "a.c:1:1: warning: w\n";
	const char *head_log = "a.c:1:1: warning: w\n"
			       "a.c:2:1: warning: w\n"
			       "a.c:7:1: warning: w\n";
	g_autoptr(GPtrArray) base = sparse_parse(base_log, "sparse");
	g_autoptr(GPtrArray) head = sparse_parse(head_log, "sparse");
	g_autoptr(GArray) is_new = NULL;
	g_autoptr(GPtrArray) fixed = NULL;
	struct sparse_warning *w;

	/* as sparse_attach_source would fill them in */
	w = base->pdata[0];
	w->source = g_strdup("int x;");
	w = head->pdata[0];
	w->source = g_strdup("int y;");
	w = head->pdata[1];
	w->source = g_strdup("int x;");
	w = head->pdata[2];
	w->source = g_strdup("int x;");
	sparse_compare(base, head, &is_new, &fixed);
	g_assert_true(g_array_index(is_new, gboolean, 0));
	g_assert_false(g_array_index(is_new, gboolean, 1));
	g_assert_true(g_array_index(is_new, gboolean, 2));
	g_assert_cmpuint(fixed->len, ==, 0);
}

/* A sandbox: @dir/tree/a.c, and @dir/canary outside the tree. */
static char *make_tree(char **canary_out)
{
	g_autoptr(GError) error = NULL;
	char *dir = g_dir_make_tmp("test-sparse-XXXXXX", &error);
	g_autofree char *tree = NULL;
	g_autofree char *a = NULL;

	g_assert_no_error(error);
	tree = g_build_filename(dir, "tree", NULL);
	g_assert_cmpint(g_mkdir(tree, 0700), ==, 0);
	a = g_build_filename(tree, "a.c", NULL);
	g_assert_true(g_file_set_contents(a, "int a;\n", -1, NULL));
	*canary_out = g_build_filename(dir, "canary", NULL);
	g_assert_true(g_file_set_contents(*canary_out, "SECRET\n", -1, NULL));
	return dir;
}

static void remove_tree(const char *dir)
{
	const char *argv[] = { "rm", "-rf", dir, NULL };

	g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL,
				   G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
				   NULL, NULL));
}

/* The source of @line's warning, read from @dir/tree. */
static char *source_of(const char *dir, const char *line)
{
	g_autofree char *tree = g_build_filename(dir, "tree", NULL);
	g_autoptr(GPtrArray) w = sparse_parse(line, "sparse");
	struct sparse_warning *x;

	g_assert_cmpuint(w->len, ==, 1);
	sparse_attach_source(w, tree);
	x = w->pdata[0];
	return g_strdup(x->source);
}

/* Files outside the tree are not read: absolute names, "..", a symlink in
 * the tree (to a file or a directory) that leads out. */
static void test_outside(void)
{
	g_autofree char *canary = NULL;
	g_autofree char *dir = make_tree(&canary);
	g_autofree char *link = g_build_filename(dir, "tree", "link.c", NULL);
	g_autofree char *dlink = g_build_filename(dir, "tree", "up", NULL);
	g_autofree char *tree = g_build_filename(dir, "tree", NULL);
	const char *lines[] = {
		"/etc/passwd:1:1: warning: x\n",
		"/etc/shadow:1:1: warning: x\n",
		"../canary:1:1: warning: x\n",
		"./../canary:1:1: warning: x\n",
		"link.c:1:1: warning: x\n",
		"up/canary:1:1: warning: x\n",
		NULL,
	};

	g_assert_cmpint(symlink(canary, link), ==, 0);
	g_assert_cmpint(symlink(dir, dlink), ==, 0);
	for (guint i = 0; lines[i]; i++) {
		g_autofree char *src = source_of(dir, lines[i]);

		g_test_message("%s", lines[i]);
		g_assert_null(src);
	}
	{
		g_autofree char *abs_line =
			g_strdup_printf("%s:1:1: warning: x\n", canary);
		g_autofree char *src = source_of(dir, abs_line);

		g_assert_null(src);
	}
	{
		/* the tree's own files, by either spelling */
		g_autofree char *abs_line =
			g_strdup_printf("%s/a.c:1:1: warning: x\n", tree);
		g_autofree char *src = source_of(dir, abs_line);
		g_autofree char *rel =
			source_of(dir, "./a.c:1:1: warning: x\n");

		g_assert_cmpstr(src, ==, "int a;");
		g_assert_cmpstr(rel, ==, "int a;");
	}
	remove_tree(dir);
}

/* /dev/zero would grow memory until the kernel kills a process: in a
 * child whose address space is capped (not under ASan: its shadow needs
 * terabytes), the peak resident size must not grow. */
static void test_device(void)
{
	if (g_test_subprocess()) {
		g_autofree char *canary = NULL;
		g_autofree char *dir = make_tree(&canary);
		g_autofree char *link =
			g_build_filename(dir, "tree", "zero.c", NULL);
		g_autofree char *src = NULL;
		g_autofree char *src2 = NULL;
		struct rusage before, after;

#ifndef __SANITIZE_ADDRESS__
		struct rlimit cap = { 1UL << 31, 1UL << 31 };

		g_assert_cmpint(setrlimit(RLIMIT_AS, &cap), ==, 0);
#endif
		g_assert_cmpint(symlink("/dev/zero", link), ==, 0);
		getrusage(RUSAGE_SELF, &before);
		src = source_of(dir, "/dev/zero:1:1: warning: x\n");
		src2 = source_of(dir, "zero.c:1:1: warning: x\n");
		getrusage(RUSAGE_SELF, &after);
		remove_tree(dir);
		g_assert_null(src);
		g_assert_null(src2);
		g_assert_cmpint(after.ru_maxrss - before.ru_maxrss, <, 65536);
		return;
	}
	g_test_trap_subprocess(NULL, 20 * G_USEC_PER_SEC, 0);
	g_test_trap_assert_passed();
}

/* A FIFO in the tree: opening it for reading would block for ever. */
static void test_fifo(void)
{
	if (g_test_subprocess()) {
		g_autofree char *canary = NULL;
		g_autofree char *dir = make_tree(&canary);
		g_autofree char *fifo =
			g_build_filename(dir, "tree", "f.c", NULL);
		g_autofree char *src = NULL;

		g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
		src = source_of(dir, "f.c:1:1: warning: x\n");
		remove_tree(dir);
		g_assert_null(src);
		return;
	}
	g_test_trap_subprocess(NULL, 10 * G_USEC_PER_SEC, 0);
	g_test_trap_assert_passed();
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sparse/parse", test_parse);
	g_test_add_func("/sparse/report", test_sparse_report);
	g_test_add_func("/sparse/gcc-report", test_gcc_report);
	g_test_add_func("/sparse/identity", test_identity);
	g_test_add_func("/sparse/outside", test_outside);
	g_test_add_func("/sparse/device", test_device);
	g_test_add_func("/sparse/fifo", test_fifo);
	return g_test_run();
}
