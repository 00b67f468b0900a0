/* Unit tests for qemu/dtsscan.c: what a device tree source includes and
 * which compatibles it and its root node name, what a driver matches; odd
 * and cut input never makes it read past the end (issue 21). */
#include <string.h>

#include "qemu/dtsscan.h"

static char *joined(GPtrArray *a)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < a->len; i++)
		g_string_append_printf(s, "%s%s", i ? " " : "",
				       (char *)a->pdata[i]);
	return g_string_free(g_steal_pointer(&s), FALSE);
}

static const char source[] =
	"// SPDX-License-Identifier: GPL-2.0\n"
	"/dts-v1/;\n"
	"#include \"imx6ul.dtsi\"\n"
	"  #  include <dt-bindings/gpio/gpio.h>\n"
	"#define X(a) \\\n  compatible = \"not,a-macro\"\n"
	"/include/ \"skeleton.dtsi\"\n"
	"/* compatible = \"not,a-comment\"; */\n"
	"/ {\n"
	"\tmodel = \"compatible = \\\"not,a-string\\\"\";\n"
	"\tcompatible = \"fsl,imx6ul-14x14-evk\", /* c */ \"fsl,imx6ul\";\n"
	"\t#address-cells = <1>;\n"
	"\tsoc: soc@0 {\n"
	"\t\tcompatible = \"simple-bus\";\n"
	"\t\tuart1: serial@2020000 {\n"
	"\t\t\tcompatible = \"fsl,imx6ul-uart\",\n"
	"\t\t\t\t     \"fsl,imx6q-uart\";\n"
	"\t\t\tstatus = \"bad string\", \"esc\\\"aped\";\n"
	"\t\t};\n\t};\n};\n"
	"&uart1 { compatible = \"x,overlay\"; };\n";

static void test_source(void)
{
	g_auto(dtsscan) s = { NULL, NULL, NULL };
	g_autofree char *inc = NULL;
	g_autofree char *compat = NULL;
	g_autofree char *root = NULL;

	dtsscan_init(&s);
	dtsscan_source(&s, source, sizeof(source) - 1);
	inc = joined(s.includes);
	compat = joined(s.compatibles);
	root = joined(s.root);
	g_assert_cmpstr(
		inc, ==,
		"\"imx6ul.dtsi <dt-bindings/gpio/gpio.h \"skeleton.dtsi");
	g_assert_cmpstr(compat, ==,
			"fsl,imx6ul-14x14-evk fsl,imx6ul simple-bus "
			"fsl,imx6ul-uart fsl,imx6q-uart x,overlay");
	g_assert_cmpstr(root, ==, "fsl,imx6ul-14x14-evk fsl,imx6ul");
}

/* Every prefix of the source, and the source with each byte turned into
 * NUL, '"', '{', '}', '/' or '#' in turn: the scan ends (under ASan, in
 * bounds) and keeps no more than the whole source names. */
static void test_cut_and_odd(void)
{
	static const char subst[] = { 0, '"', '{', '}', '/', '#', '\\' };
	const gsize n = sizeof(source) - 1;

	for (gsize len = 0; len <= n; len++) {
		g_auto(dtsscan) s = { NULL, NULL, NULL };
		g_autofree char *copy = g_memdup2(source, len);

		dtsscan_init(&s);
		dtsscan_source(&s, copy, len);
		g_assert_cmpuint(s.includes->len, <=, 3);
		g_assert_cmpuint(s.compatibles->len, <=, 6);
	}
	for (gsize i = 0; i < n; i++)
		for (guint k = 0; k < G_N_ELEMENTS(subst); k++) {
			g_auto(dtsscan) s = { NULL, NULL, NULL };
			g_autofree char *copy = g_memdup2(source, n);

			copy[i] = subst[k];
			dtsscan_init(&s);
			dtsscan_source(&s, copy, n);
			g_assert_cmpuint(s.compatibles->len, <=, 8);
		}
}

/* Nodes nested deeper than counted, and a thousand includes: bounded. */
static void test_bounds(void)
{
	g_autoptr(GString) t = g_string_new("/ { compatible = \"a,b\";\n");
	g_auto(dtsscan) s = { NULL, NULL, NULL };

	for (guint i = 0; i < 5000; i++)
		g_string_append(t, "n {");
	for (guint i = 0; i < 5000; i++)
		g_string_append(t, "};");
	g_string_append(t, "};\n/ { compatible = \"c,d\"; };\n");
	for (guint i = 0; i < 1000; i++)
		g_string_append_printf(t, "#include \"f%u.dtsi\"\n", i);
	dtsscan_init(&s);
	dtsscan_source(&s, t->str, t->len);
	g_assert_cmpuint(s.includes->len, ==, 512);
	g_assert_cmpuint(s.root->len, ==, 2);
}

static void test_driver_compatibles(void)
{
	static const char text[] =
		"static const struct of_device_id ids[] = {\n"
		"\t{ .compatible = \"fsl,imx6q-uart\", .data = &x },\n"
		"\t{ .compatible=\"fsl,imx1-uart\" },\n"
		"\t{ .compatible = \"fsl,imx6q-uart\" },\n"
		"\t{ .compatible = \"bad string\" },\n"
		"\t{ .compatible = \"esc\\\"aped\" },\n"
		"\t{ .compatibles = \"not,this\" },\n"
		"};\n"
		"CLK_OF_DECLARE_DRIVER(imx6q, \"fsl,imx6q-ccm\", init);\n"
		"IRQCHIP_DECLARE(gic, \"arm,gic-400\", gic_of_init);\n"
		"OF_EARLYCON_DECLARE(ec, \"fsl,ec\", setup);\n"
		"#define X_DECLARE(a, b) foo\n"
		"\t{ .compatible = \"unterminated";
	g_autoptr(GPtrArray) c = NULL;
	g_autoptr(GString) s = g_string_new(NULL);

	c = dtsscan_driver_compatibles(text, sizeof(text) - 1);
	for (guint i = 0; i < c->len; i++)
		g_string_append_printf(s, "%s%s", i ? " " : "",
				       (char *)c->pdata[i]);
	g_assert_cmpstr(s->str, ==,
			"fsl,imx6q-uart fsl,imx1-uart fsl,imx6q-ccm "
			"arm,gic-400 fsl,ec");
	/* every prefix of the text: no read past its end */
	for (gsize n = 0; n < sizeof(text) - 1; n++) {
		g_autofree char *part = g_memdup2(text, n);
		g_autoptr(GPtrArray) p = dtsscan_driver_compatibles(part, n);

		g_assert_cmpuint(p->len, <=, 5);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/dtsscan/source", test_source);
	g_test_add_func("/dtsscan/cut-and-odd", test_cut_and_odd);
	g_test_add_func("/dtsscan/bounds", test_bounds);
	g_test_add_func("/dtsscan/driver-compatibles", test_driver_compatibles);
	return g_test_run();
}
