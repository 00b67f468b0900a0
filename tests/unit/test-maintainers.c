/* Unit tests for kernel/tree/maintainers.c: the path patterns with
 * scripts/get_maintainer.pl's semantics (Linux 6.1) and the file's
 * sections. */
#include <string.h>

#include "kernel/tree/maintainers.h"

/* Whether pattern @text of @kind matches @file, and at what depth. */
static gboolean match(enum maintainers_pattern_kind kind, const char *text,
		      const char *file, int *depth)
{
	g_autoptr(maintainers_section) s = maintainers_section_new("t");
	g_autoptr(GError) error = NULL;

	g_assert_true(maintainers_section_add_pattern(s, kind, text, 1, NULL,
						      NULL, &error));
	g_assert_no_error(error);
	return maintainers_section_match(s, file, depth, NULL);
}

/* A row of test_patterns() whose depth is not checked. */
#define ANY_DEPTH G_MININT

static void test_patterns(void)
{
	static const struct {
		enum maintainers_pattern_kind kind;
		const char *pattern;
		const char *file;
		gboolean matches;
		int depth;
	} cases[] = {
		/* a directory pattern covers everything below, at any
		 * depth; depth is the number of '/' */
		{ MAINTAINERS_F, "arch/arm/mach-omap2/",
		  "arch/arm/mach-omap2/pm.c", TRUE, 3 },
		{ MAINTAINERS_F, "arch/arm/", "arch/arm/mach-omap2/sub/dir/x.c",
		  TRUE, 2 },
		{ MAINTAINERS_F, "arch/arm/mach-omap2/",
		  "arch/arm/mach-omap1/pm.c", FALSE, ANY_DEPTH },
		/* a file pattern: one more than its '/', same depth as the
		 * file */
		{ MAINTAINERS_F, "drivers/bus/ti-sysc.c",
		  "drivers/bus/ti-sysc.c", TRUE, 3 },
		{ MAINTAINERS_F, "drivers/mfd/*omap*.c",
		  "drivers/mfd/omap-usb-host.c", TRUE, ANY_DEPTH },
		{ MAINTAINERS_F, "drivers/mfd/*omap*.c",
		  "drivers/mfd/sub/omap.c", FALSE, ANY_DEPTH },
		/* '*' crosses '/' inside a directory pattern: arch/arm/mach-* /
		 * covers every machine directory */
		{ MAINTAINERS_F, "arch/arm/mach-*/", "arch/arm/mach-omap2/pm.c",
		  TRUE, 3 },
		/* '?' is one character, [ch] a class, '.' a dot */
		{ MAINTAINERS_F, "drivers/input/misc/da72??.[ch]",
		  "drivers/input/misc/da7280.c", TRUE, ANY_DEPTH },
		{ MAINTAINERS_F, "drivers/input/misc/da72??.[ch]",
		  "drivers/input/misc/da7280.o", FALSE, ANY_DEPTH },
		{ MAINTAINERS_F, "sound/arm/aaci.h", "sound/arm/aacixh", FALSE,
		  ANY_DEPTH },
		/* anchored at the start only, as m@^$pattern@: a file pattern
		 * matches a longer name at the same depth */
		{ MAINTAINERS_F, "sound/arm/aaci.", "sound/arm/aaci.c", TRUE,
		  ANY_DEPTH },
		{ MAINTAINERS_F, "arm/", "arch/arm/x.c", FALSE, ANY_DEPTH },
		/* a pattern starting with '*' has depth -1 */
		{ MAINTAINERS_F, "*/", "fs/ext4/inode.c", TRUE, -1 },
		/* N: anywhere in the path, depth 0 */
		{ MAINTAINERS_N, "omap[0-9]", "drivers/clk/ti/clk-omap4.c",
		  TRUE, 0 },
		{ MAINTAINERS_N, "omap[0-9]", "drivers/clk/ti/clk-omap.c",
		  FALSE, ANY_DEPTH },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		int d = 0;

		g_test_message("%s ~ %s", cases[i].pattern, cases[i].file);
		g_assert_cmpint(match(cases[i].kind, cases[i].pattern,
				      cases[i].file, &d),
				==, cases[i].matches);
		if (cases[i].depth != ANY_DEPTH)
			g_assert_cmpint(d, ==, cases[i].depth);
	}
}

static void test_exclude(void)
{
	g_autoptr(maintainers_section) s = maintainers_section_new("ARM PORT");
	const struct maintainers_pattern *p = NULL;
	int d;

	g_assert_true(maintainers_section_add_pattern(
		s, MAINTAINERS_F, "arch/arm/", 1, NULL, NULL, NULL));
	g_assert_true(maintainers_section_add_pattern(
		s, MAINTAINERS_X, "arch/arm/boot/dts/", 2, NULL, NULL, NULL));
	g_assert_true(maintainers_section_add_pattern(s, MAINTAINERS_F,
						      "arch/arm/kernel/setup.c",
						      3, NULL, NULL, NULL));
	g_assert_true(maintainers_section_match(s, "arch/arm/kernel/setup.c",
						&d, &p));
	/* the most specific of its patterns */
	g_assert_cmpint(d, ==, 4);
	g_assert_cmpstr(p->text, ==, "arch/arm/kernel/setup.c");
	g_assert_false(maintainers_section_match(
		s, "arch/arm/boot/dts/omap4.dtsi", &d, &p));
}

static void test_bad_patterns(void)
{
	g_autoptr(maintainers_section) s = maintainers_section_new("t");
	g_autoptr(GError) e1 = NULL;
	g_autoptr(GError) e2 = NULL;
	g_autoptr(GError) e3 = NULL;

	g_assert_false(maintainers_section_add_pattern(s, MAINTAINERS_N, "a(",
						       1, NULL, NULL, &e1));
	g_assert_nonnull(e1);
	g_assert_false(maintainers_section_add_pattern(s, MAINTAINERS_F, "/etc",
						       1, NULL, NULL, &e2));
	g_assert_cmpstr(e2->message, ==,
			"pattern '/etc' is absolute: paths are from the top "
			"of the tree");
	g_assert_false(maintainers_section_add_pattern(s, MAINTAINERS_F, "  ",
						       1, NULL, NULL, &e3));
	g_assert_cmpstr(e3->message, ==, "empty pattern");
	g_assert_cmpuint(s->patterns->len, ==, 0);
}

static gboolean is_dir(const char *path, gpointer data)
{
	return g_strv_contains(data, path);
}

/* The shape of Linux 6.1's MAINTAINERS: an introduction whose example
 * tags are indented, then sections. */
static const char maintainers_text[] =
	"List of maintainers and how to submit kernel changes\n"
	"\n"
	"Descriptions of section entries and preferred order\n"
	"---------------------------------------------------\n"
	"\n"
	"\tM: *Mail* patches to: FullName <address@domain>\n"
	"\tF: *Files* and directories wildcard patterns.\n"
	"\n"
	"Maintainers List\n"
	"----------------\n"
	"\n"
	"ARM PORT\n"
	"M:\tRussell King <linux@armlinux.org.uk>\n"
	"L:\tlinux-arm-kernel@lists.infradead.org (moderated for "
	"non-subscribers)\n"
	"S:\tOdd Fixes\n"
	"F:\tarch/arm/\n"
	"X:\tarch/arm/boot/dts/\n"
	"\n"
	"ARM SUB-ARCHITECTURES\n"
	"L:\tlinux-arm-kernel@lists.infradead.org (moderated for "
	"non-subscribers)\n"
	"F:\tarch/arm/mach-*/\n"
	"\n"
	"OMAP2+ SUPPORT\n"
	"M:\tTony Lindgren <tony@atomide.com>\n"
	"L:\tlinux-omap@vger.kernel.org\n"
	"F:\tarch/arm/mach-omap2/\n"
	"F:\tdrivers/bus/ti-sysc.c\n"
	"F:\tarch/arm/plat-omap\n"
	"N:\tomap[0-9]\n"
	"K:\t\\bomap\\b\n"
	"\n"
	"THE REST\n"
	"M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
	"F:\t*\n"
	"F:\t*/\n";

static void test_parse(void)
{
	const char *const dirs[] = { "arch/arm/plat-omap", NULL };
	g_autoptr(GError) error = NULL;
	g_autoptr(maintainers) m =
		maintainers_parse(maintainers_text, strlen(maintainers_text),
				  is_dir, (gpointer)dirs, &error);
	g_autoptr(GPtrArray) hits = NULL;
	const struct maintainers_section *omap;
	const struct maintainers_pattern *p;
	g_autofree char *why = NULL;

	g_assert_no_error(error);
	g_assert_cmpuint(m->sections->len, ==, 4);
	omap = m->sections->pdata[2];
	g_assert_cmpstr(omap->name, ==, "OMAP2+ SUPPORT");
	g_assert_cmpuint(omap->line, ==, 23);
	g_assert_cmpuint(omap->maintainers->len, ==, 1);
	g_assert_cmpstr(omap->lists->pdata[0], ==,
			"linux-omap@vger.kernel.org");
	g_assert_cmpstr(omap->keywords->pdata[0], ==, "\\bomap\\b");
	g_assert_cmpuint(omap->patterns->len, ==, 4);
	/* a directory named without its '/' becomes one, as -d does */
	p = omap->patterns->pdata[2];
	g_assert_cmpstr(p->text, ==, "arch/arm/plat-omap/");
	g_assert_cmpuint(p->line, ==, 28);

	/* most specific first: sub-architectures and OMAP (3, in file
	 * order: get_maintainer.pl leaves ties in hash order), ARM PORT
	 * (2), THE REST (-1) */
	hits = maintainers_for_file(m, "arch/arm/mach-omap2/pm.c");
	g_assert_cmpuint(hits->len, ==, 4);
	g_assert_cmpstr(((struct maintainers_section *)hits->pdata[0])->name,
			==, "ARM SUB-ARCHITECTURES");
	g_assert_cmpstr(((struct maintainers_section *)hits->pdata[1])->name,
			==, "OMAP2+ SUPPORT");
	g_assert_cmpstr(((struct maintainers_section *)hits->pdata[2])->name,
			==, "ARM PORT");
	g_assert_cmpstr(((struct maintainers_section *)hits->pdata[3])->name,
			==, "THE REST");

	g_assert_true(maintainers_is_maintainer(
		m, "Tony@Atomide.com",
		(const char *const[]){ "arch/arm/mach-omap2/",
				       "arch/arm/plat-omap/", NULL },
		&why));
	g_assert_null(why);
	/* not arch/arm/ as a whole */
	g_assert_false(maintainers_is_maintainer(
		m, "tony@atomide.com",
		(const char *const[]){ "arch/arm/mach-omap2/", "arch/arm/",
				       NULL },
		&why));
	g_assert_cmpstr(why, ==, "arch/arm/");
	g_clear_pointer(&why, g_free);
	/* a list address is not a maintainer */
	g_assert_false(maintainers_is_maintainer(
		m, "linux-omap@vger.kernel.org",
		(const char *const[]){ "arch/arm/mach-omap2/", NULL }, &why));
	g_clear_pointer(&why, g_free);
	/* the dts are excluded from ARM PORT */
	g_assert_false(maintainers_is_maintainer(
		m, "linux@armlinux.org.uk",
		(const char *const[]){ "arch/arm/boot/dts/omap4.dtsi", NULL },
		&why));
}

static void test_address(void)
{
	g_autofree char *a =
		maintainers_address("Tony Lindgren <Tony@Atomide.com>");
	g_autofree char *b = maintainers_address(" tony@atomide.com ");

	g_assert_cmpstr(a, ==, "tony@atomide.com");
	g_assert_cmpstr(b, ==, "tony@atomide.com");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/maintainers/patterns", test_patterns);
	g_test_add_func("/maintainers/exclude", test_exclude);
	g_test_add_func("/maintainers/bad-patterns", test_bad_patterns);
	g_test_add_func("/maintainers/parse", test_parse);
	g_test_add_func("/maintainers/address", test_address);
	return g_test_run();
}
