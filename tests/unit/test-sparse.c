/* kernel/sparse.c on captured output of real sparse 0.6.4 and gcc 12
 * (tests/unit/data/sparse: drv.c at a base and at a head that adds a
 * comment above everything, makes 'counter' static, adds a non-static
 * 'probes', and is built with -Wmissing-declarations). */
#include <string.h>

#include "kernel/sparse.h"

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

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sparse/parse", test_parse);
	g_test_add_func("/sparse/report", test_sparse_report);
	g_test_add_func("/sparse/gcc-report", test_gcc_report);
	g_test_add_func("/sparse/identity", test_identity);
	return g_test_run();
}
