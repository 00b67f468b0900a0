/* Unit tests for kernel/similar/: the normalised tokens, winnowing, the
 * pieces of a patch, drivers in the wrong place, and index files that do
 * not read back.  The index of a real tree and the near-copy of a real
 * driver are tests/e2e/similar-distro.t. */
#include <glib/gstdio.h>
#include <string.h>

#include "kernel/similar/ctoken.h"
#include "kernel/similar/misplaced.h"
#include "kernel/similar/simindex.h"
#include "kernel/similar/simpatch.h"
#include "kernel/similar/winnow.h"

static void check_describe(const char *src, const char *want)
{
	g_autofree char *got = ctoken_describe(src, strlen(src));

	g_assert_cmpstr(got, ==, want);
}

static void test_tokens(void)
{
	check_describe("", "");
	check_describe("int foo = 0x1f;", "int I = L ;");
	check_describe("a->b += \"s\\\"x\" 'c' L\"w\" 1.5e-3",
		       "I -> I += L L L L");
	check_describe("/* c\n * d */ x // e\ny", "I I");
	check_describe("#include <linux/io.h>\n#define A(x) \\\n  (x)\nint",
		       "int");
	check_describe("a<<=b...c", "I <<= I ... I");
	/* not at a line's start: an operator */
	check_describe("a # b", "I # I");
	/* unterminated: to the end, no crash */
	check_describe("x /* open", "I");
	check_describe("x \"open", "I L");
	check_describe("\xff\x01", "\xff \x01");
}

static void test_boilerplate(void)
{
	check_describe("MODULE_LICENSE(\"GPL\");\nint a;", "int I ;");
	check_describe("int a;\nEXPORT_SYMBOL_GPL(a);\nint b;",
		       "int I ; int I ;");
	check_describe("static const struct of_device_id ids[] = {\n"
		       "\t{ .compatible = \"x,y\" },\n\t{ }\n};\n"
		       "MODULE_DEVICE_TABLE(of, ids);\nvoid f(void) {}",
		       "void I ( void ) { }");
	/* inside a function, MODULE_ is an identifier like any other */
	check_describe("void f(void) { MODULE_X(); }",
		       "void I ( void ) { I ( ) ; }");
}

static GArray *prints_of(const char *src)
{
	g_autoptr(GArray) t = ctoken_scan(src, strlen(src));

	return winnow_prints(t);
}

static gboolean same_hashes(GArray *a, GArray *b)
{
	if (a->len != b->len)
		return FALSE;
	for (guint i = 0; i < a->len; i++)
		if (g_array_index(a, struct winnow_print, i).hash !=
		    g_array_index(b, struct winnow_print, i).hash)
			return FALSE;
	return TRUE;
}

static void test_winnow(void)
{
	g_autoptr(GString) a = g_string_new(NULL);
	g_autoptr(GString) b = g_string_new(NULL);
	g_autoptr(GString) c = g_string_new(NULL);
	g_autoptr(GArray) pa = NULL;
	g_autoptr(GArray) pb = NULL;
	g_autoptr(GArray) pc = NULL;
	g_autoptr(GArray) few = prints_of("int a = 1;");
	guint last_first = 0;

	/* shorter than one k-gram: nothing */
	g_assert_cmpuint(few->len, ==, 0);
	for (int i = 0; i < 40; i++) {
		g_string_append_printf(
			a,
			"static int f%d(struct s *p)\n{\n\tif (p->x > %d)\n"
			"\t\treturn -1;\n\tp->y[%d] = p->x << 2;\n\treturn 0;\n}\n",
			i, i, i);
		/* renamed, other literals, other comments and spacing */
		g_string_append_printf(
			b,
			"/* copy %d */ static int g%d(struct t *q) {\n"
			"  if (q->z > 0x%x) return -7;\n  q->w[%d] = q->z << 3;\n"
			"  return 1; }\n",
			i, i, i, i * 2);
		g_string_append_printf(
			c,
			"void h%d(void)\n{\n\twhile (k%d--)\n\t\tcall(%d);\n}\n",
			i, i, i);
	}
	pa = prints_of(a->str);
	pb = prints_of(b->str);
	pc = prints_of(c->str);
	g_assert_cmpuint(pa->len, >, 0);
	g_assert_true(same_hashes(pa, pb));
	g_assert_false(same_hashes(pa, pc));
	/* a window of W k-grams always holds one: density at least 1/W */
	{
		g_autoptr(GArray) t = ctoken_scan(a->str, a->len);

		g_assert_cmpuint(pa->len * WINNOW_W, >=, t->len - WINNOW_K + 1);
	}
	for (guint i = 0; i < pa->len; i++) {
		const struct winnow_print *p =
			&g_array_index(pa, struct winnow_print, i);

		g_assert_cmpuint(p->first_line, <=, p->last_line);
		g_assert_cmpuint(p->first_line, >=, last_first);
		last_first = p->first_line;
	}
}

static const char patch[] =
	"From: A <a@b>\nSubject: [PATCH] x\n\n---\n"
	"diff --git a/arch/arm/mach-foo/irq.c b/arch/arm/mach-foo/irq.c\n"
	"new file mode 100644\nindex 0000000..1111111\n--- /dev/null\n"
	"+++ b/arch/arm/mach-foo/irq.c\n@@ -0,0 +1,6 @@\n"
	"+#include <linux/irq.h>\n+\n+static struct irq_chip foo_chip = {\n"
	"+\t.name = \"foo\",\n+};\n+MACHINE_START(FOO, \"Foo\")\n"
	"diff --git a/drivers/x.c b/drivers/x.c\nindex 1..2 100644\n"
	"--- a/drivers/x.c\n+++ b/drivers/x.c\n@@ -10,3 +10,5 @@\n"
	" a\n-b\n+c\n+d\n e\n+f\n@@ -40,1 +42,2 @@\n x\n+y\n"
	"diff --git a/arch/arm/plat-bar/c.c b/arch/arm/plat-bar/c.c\n"
	"--- a/arch/arm/plat-bar/c.c\n+++ b/arch/arm/plat-bar/c.c\n"
	"@@ -1 +1,3 @@\n x\n+struct clk_ops *not_a_definition(void);\n"
	"+\tstruct gpio_chip member;\n"
	"-- \n2.39.5\n";

/* @p is the piece of @path, a new file or not, with @added lines added
 * from @first to @last. */
static void assert_piece(const struct simpatch_piece *p, const char *path,
			 gboolean new_file, guint added, guint first,
			 guint last)
{
	g_assert_cmpstr(p->path, ==, path);
	g_assert_cmpint(!!p->new_file, ==, !!new_file);
	g_assert_cmpuint(p->added, ==, added);
	g_assert_cmpuint(p->first_line, ==, first);
	g_assert_cmpuint(p->last_line, ==, last);
}

static void test_pieces(void)
{
	g_autoptr(GPtrArray) all = simpatch_pieces(patch, strlen(patch), 1);
	g_autoptr(GPtrArray) big = simpatch_pieces(patch, strlen(patch), 3);
	const struct simpatch_piece *p;

	g_assert_cmpuint(all->len, ==, 4);
	assert_piece(all->pdata[0], "arch/arm/mach-foo/irq.c", TRUE, 6, 1, 6);
	p = all->pdata[1];
	assert_piece(p, "drivers/x.c", FALSE, 3, 11, 14);
	g_assert_cmpstr(p->text->str, ==, "c\nd\nf\n");
	p = all->pdata[2];
	g_assert_cmpuint(p->first_line, ==, 43);
	p = all->pdata[3];
	g_assert_cmpuint(p->added, ==, 2);
	/* the signature is not part of the diff */
	g_assert_null(strstr(p->text->str, "2.39"));
	/* the new file whatever its size, hunks from 3 lines */
	g_assert_cmpuint(big->len, ==, 2);
	g_assert_cmpstr(((struct simpatch_piece *)big->pdata[1])->path, ==,
			"drivers/x.c");
}

static void test_misplaced(void)
{
	g_autoptr(GPtrArray) all = simpatch_pieces(patch, strlen(patch), 1);
	g_autoptr(GPtrArray) m = misplaced_find(all);
	const struct misplaced *x;

	g_assert_true(misplaced_arm_path("arch/arm/mach-omap2/a.c"));
	g_assert_true(misplaced_arm_path("arch/arm/plat-orion/b/c.c"));
	g_assert_false(misplaced_arm_path("arch/arm/mm/a.c"));
	g_assert_false(misplaced_arm_path("arch/arm/mach-foo"));
	g_assert_false(misplaced_arm_path("drivers/gpio/a.c"));
	/* the pointer declaration is no definition, the member is one; the
	 * drivers/ file is in its place */
	g_assert_cmpuint(m->len, ==, 3);
	x = m->pdata[0];
	g_assert_cmpstr(x->what, ==, "irq_chip");
	g_assert_cmpstr(x->folder, ==, "drivers/irqchip/");
	g_assert_cmpuint(x->line, ==, 3);
	x = m->pdata[1];
	g_assert_cmpstr(x->what, ==, "MACHINE_START");
	g_assert_null(x->folder);
	g_assert_cmpuint(x->line, ==, 6);
	x = m->pdata[2];
	g_assert_cmpstr(x->path, ==, "arch/arm/plat-bar/c.c");
	g_assert_cmpstr(x->folder, ==, "drivers/gpio/");
	g_assert_cmpuint(x->line, ==, 3);
}

static void test_misplaced_calls(void)
{
	static const char p2[] =
		"diff --git a/arch/arm/mach-q/t.c b/arch/arm/mach-q/t.c\n"
		"new file mode 100644\n--- /dev/null\n+++ b/arch/arm/mach-q/t.c\n"
		"@@ -0,0 +1,5 @@\n"
		"+static struct platform_driver q_driver = { };\n"
		"+TIMER_OF_DECLARE(q, \"q,timer\", q_init);\n"
		"+\treturn devm_gpiochip_add_data(dev, &q->gc, q);\n"
		"+static struct clk_ops *ops;\n"
		"+void f(struct irq_chip c);\n";
	g_autoptr(GPtrArray) all = simpatch_pieces(p2, strlen(p2), 1);
	g_autoptr(GPtrArray) m = misplaced_find(all);

	/* the platform driver is the timer's and the gpio chip's: named by
	 * theirs; the pointer and the parameter are none */
	g_assert_cmpuint(m->len, ==, 2);
	g_assert_cmpstr(((struct misplaced *)m->pdata[0])->folder, ==,
			"drivers/clocksource/");
	g_assert_cmpuint(((struct misplaced *)m->pdata[0])->line, ==, 2);
	g_assert_cmpstr(((struct misplaced *)m->pdata[1])->folder, ==,
			"drivers/gpio/");
}

static void check_corrupt(const char *data, gsize len)
{
	g_autofree char *dir = g_dir_make_tmp("test-similar-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "x.idx", NULL);
	g_autoptr(GError) error = NULL;
	struct simindex *ix;

	g_assert_true(g_file_set_contents(path, data, len, NULL));
	ix = simindex_load(path, &error);
	g_assert_null(ix);
	g_assert_error(error, SIMINDEX_ERROR, SIMINDEX_ERROR_CORRUPT);
	g_unlink(path);
	g_rmdir(dir);
}

static void test_bad_files(void)
{
	/* header, counts: 1 file, 1 print, 1 path byte */
	static const char one[] =
		"ARMBSIM2\1\0\0\0\1\0\0\0\1\0\0\0"
		"aaaaaaaaaaaaaaaaaaaa\0\0\0\0\1\0\0\0" /* blob, path 0+1 */
		"p\0\0\0" /* the path, padded to 4 bytes */
		"\5\0\0\0\0\0\0\0\1\0\0\0\2\0\0\0"; /* hash 5 file 0 */
	char bad[sizeof(one)];

	check_corrupt("", 0);
	check_corrupt("ARMBSIM3\0\0\0\0\0\0\0\0\0\0\0\0", 20);
	/* the format before the padding: built again */
	check_corrupt("ARMBSIM1\0\0\0\0\0\0\0\0\0\0\0\0", 20);
	/* counts beyond the bounds, before any allocation */
	check_corrupt("ARMBSIM2\xff\xff\xff\xff\0\0\0\0\0\0\0\0", 20);
	/* the size does not match */
	check_corrupt(one, sizeof(one) - 2);
	/* a path past the table */
	memcpy(bad, one, sizeof(one));
	bad[20 + 24] = 2;
	check_corrupt(bad, sizeof(one) - 1);
	/* a print of file 1 of 1 */
	memcpy(bad, one, sizeof(one));
	bad[20 + 28 + 4 + 4] = 1;
	check_corrupt(bad, sizeof(one) - 1);
	/* the good one reads */
	{
		g_autofree char *dir =
			g_dir_make_tmp("test-similar-XXXXXX", NULL);
		g_autofree char *path = g_build_filename(dir, "x.idx", NULL);
		g_autoptr(simindex) ix = NULL;

		g_assert_true(
			g_file_set_contents(path, one, sizeof(one) - 1, NULL));
		ix = simindex_load(path, NULL);
		g_assert_nonnull(ix);
		g_assert_cmpuint(simindex_files(ix), ==, 1);
		g_assert_cmpuint(simindex_prints(ix), ==, 1);
		g_unlink(path);
		g_rmdir(dir);
	}
}

/* random bytes and random mixes of C and diff pieces: no crash, lines in
 * range (ASan and UBSan in the asan build) */
static void test_random(void)
{
	static const char *const bits[] = {
		"/*",
		"*/",
		"//",
		"\"",
		"'",
		"\\",
		"\n",
		"#",
		"{",
		"}",
		";",
		"struct of_device_id",
		"MODULE_LICENSE(",
		"diff --git a/x b/x\n",
		"+++ b/arch/arm/mach-a/x.c\n",
		"@@ -1 +1,9 @@\n",
		"+",
		" ",
		"new file mode 100644\n",
		"struct irq_chip c =",
		"0x",
		"L'",
	};
	GRand *r = g_rand_new_with_seed(22);

	for (int round = 0; round < 2000; round++) {
		g_autoptr(GString) s = g_string_new(NULL);
		int n = g_rand_int_range(r, 0, 200);

		for (int i = 0; i < n; i++) {
			if (g_rand_boolean(r))
				g_string_append(
					s, bits[g_rand_int_range(
						   r, 0, G_N_ELEMENTS(bits))]);
			else
				g_string_append_c(
					s, (char)g_rand_int_range(r, 0, 256));
		}
		{
			g_autoptr(GArray) t = ctoken_scan(s->str, s->len);
			g_autoptr(GArray) p = winnow_prints(t);
			g_autoptr(GPtrArray)
				pieces = simpatch_pieces(s->str, s->len, 1);
			g_autoptr(GPtrArray) m = misplaced_find(pieces);
			guint lines = 1;

			for (gsize i = 0; i < s->len; i++)
				lines += s->str[i] == '\n';
			for (guint i = 0; i < t->len; i++)
				g_assert_cmpuint(
					g_array_index(t, struct ctoken, i).line,
					<=, lines);
		}
	}
	g_rand_free(r);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/similar/tokens", test_tokens);
	g_test_add_func("/similar/boilerplate", test_boilerplate);
	g_test_add_func("/similar/winnow", test_winnow);
	g_test_add_func("/similar/pieces", test_pieces);
	g_test_add_func("/similar/misplaced", test_misplaced);
	g_test_add_func("/similar/misplaced-calls", test_misplaced_calls);
	g_test_add_func("/similar/bad-files", test_bad_files);
	g_test_add_func("/similar/random", test_random);
	return g_test_run();
}
