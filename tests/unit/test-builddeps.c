/* Unit tests of kernel/build/builddeps.c: which changed paths a warm
 * build dir's build read.  A path taken as not read when it was would
 * report the base's boot for a kernel the series changed, so every rule
 * is checked on a build dir laid out as kbuild 6.1 leaves it (the .cmd
 * format as fixdep writes it, with the tree's absolute path). */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/build/builddeps.h"
#include "kernel/tree/rmtree.h"
#include "tests/unit/scratch.h"

struct fixture {
	char *dir, *src, *build;
};

/* A .cmd file as fixdep writes it for @target, compiled from @source
 * with the headers @deps (NULL-terminated), all tree-relative. */
static void write_cmd(struct fixture *f, const char *cmd_file,
		      const char *target, const char *source,
		      const char *const *deps)
{
	g_autoptr(GString) t = g_string_new(NULL);

	g_string_append_printf(t,
			       "cmd_%s := arm-linux-gnueabihf-gcc -c -o %s "
			       "%s/%s\n\nsource_%s := %s/%s\n\ndeps_%s := \\\n"
			       "    $(wildcard include/config/PM) \\\n",
			       target, target, f->src, source, target, f->src,
			       source, target);
	for (guint i = 0; deps && deps[i]; i++)
		g_string_append_printf(t, "  %s/%s \\\n", f->src, deps[i]);
	g_string_append_printf(t,
			       "  include/generated/autoconf.h \\\n\n"
			       "%s: $(deps_%s)\n\n$(deps_%s):\n",
			       target, target, target);
	scratch_write_file(f->build, cmd_file, t->str);
}

static void setup(struct fixture *f, gconstpointer data)
{
	f->dir = scratch_dir_new("armbot-builddeps-XXXXXX");
	f->src = g_build_filename(f->dir, "src", NULL);
	f->build = g_build_filename(f->dir, "build", NULL);
	scratch_write_file(f->src, "mm/Makefile", "obj-y += page_alloc.o\n");
	scratch_write_file(f->src, "arch/arm/boot/dts/Makefile",
			   "dtb-$(CONFIG_ARCH_VIRT) += xenvm-4.2.dtb\n");
	scratch_write_file(f->src, "drivers/tty/vt/Makefile",
			   "obj-y += vt.o consolemap_deftbl.o\n");
	write_cmd(f, "mm/.page_alloc.o.cmd", "mm/page_alloc.o",
		  "mm/page_alloc.c",
		  (const char *const[]){ "include/linux/mm.h", "mm/internal.h",
					 "drivers/base/base.h", NULL });
	write_cmd(f, "arch/arm/boot/dts/.xenvm-4.2.dtb.cmd",
		  "arch/arm/boot/dts/xenvm-4.2.dtb",
		  "arch/arm/boot/dts/xenvm-4.2.dts",
		  (const char *const[]){ "arch/arm/boot/dts/skeleton.dtsi",
					 NULL });
	/* a rule's copy of a file of a directory the build did not go to */
	{
		g_autofree char *text = g_strdup_printf(
			"cmd_arch/arm/boot/compressed/lib1funcs.S := cat "
			"%s/arch/arm/lib/lib1funcs.S > "
			"arch/arm/boot/compressed/lib1funcs.S\n",
			f->src);

		scratch_write_file(f->build,
				   "arch/arm/boot/compressed/.lib1funcs.S.cmd",
				   text);
	}
	write_cmd(f, "drivers/tty/vt/.vt.o.cmd", "drivers/tty/vt/vt.o",
		  "drivers/tty/vt/vt.c", NULL);
}

static void teardown(struct fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(rmtree(f->dir, &error));
	g_free(f->dir);
	g_free(f->src);
	g_free(f->build);
}

/* Whether @path alone is read; *why checked to name it. */
static gboolean reads(struct fixture *f, const char *path)
{
	g_autofree char *why = NULL;
	gboolean read = builddeps_reads_any(
		f->build, f->src, (const char *const[]){ path }, 1, &why);

	if (read) {
		g_assert_nonnull(why);
		g_assert_nonnull(strstr(why, path));
	} else {
		g_assert_null(why);
	}
	return read;
}

static void test_recorded(struct fixture *f, gconstpointer data)
{
	/* compiled, included (from a directory the build did not go to) */
	g_assert_true(reads(f, "mm/page_alloc.c"));
	g_assert_true(reads(f, "mm/internal.h"));
	g_assert_true(reads(f, "drivers/base/base.h"));
	/* a device tree the build compiled, a .dtsi it included */
	g_assert_true(reads(f, "arch/arm/boot/dts/xenvm-4.2.dts"));
	g_assert_true(reads(f, "arch/arm/boot/dts/skeleton.dtsi"));
	/* named on a command line only */
	g_assert_true(reads(f, "arch/arm/lib/lib1funcs.S"));
}

static void test_not_read(struct fixture *f, gconstpointer data)
{
	const char *const series[] = {
		"arch/arm/boot/dts/imx6q-evi.dts",
		"arch/arm/boot/dts/imx6qdl.dtsi",
		"drivers/net/dsa/mv88e6xxx/chip.c",
		"drivers/net/dsa/mv88e6xxx/chip.h",
		"mm/other.c",
		"Documentation/devicetree/bindings/arm/fsl.yaml",
	};
	g_autofree char *why = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(series); i++)
		g_assert_false(reads(f, series[i]));
	g_assert_false(builddeps_reads_any(f->build, f->src, series,
					   G_N_ELEMENTS(series), &why));
	/* one read path among them is enough */
	g_assert_true(builddeps_reads_any(
		f->build, f->src,
		(const char *const[]){ series[0], series[2], "mm/internal.h" },
		3, &why));
	g_assert_nonnull(strstr(why, "mm/internal.h"));
}

static void test_rules(struct fixture *f, gconstpointer data)
{
	/* read by every build, whatever its .cmd files say */
	g_assert_true(reads(f, "drivers/net/dsa/Kconfig"));
	g_assert_true(reads(f, "arch/arm/mach-imx/Kconfig.debug"));
	g_assert_true(reads(f, "drivers/net/dsa/mv88e6xxx/Makefile"));
	g_assert_true(reads(f, "drivers/net/dsa/Kbuild"));
	g_assert_true(reads(f, "arch/arm/lib/extra.mk"));
	g_assert_true(reads(f, "MAINTAINERS"));
	g_assert_true(reads(f, "scripts/dtc/dtc.c"));
	g_assert_true(reads(f, "include/dt-bindings/clock/imx6qdl-clock.h"));
	g_assert_true(reads(f, "usr/gen_init_cpio.c"));
	g_assert_true(reads(f, "tools/objtool/check.c"));
	g_assert_true(reads(f, "arch/arm/include/asm/io.h"));
	g_assert_true(reads(f, "arch/arm/tools/syscall.tbl"));
	/* not a C, assembly or DTS file, in a directory the build went to:
	 * a rule may read it (a table, a logo, a keymap) */
	g_assert_true(reads(f, "drivers/tty/vt/cp437.uni"));
	g_assert_true(reads(f, "mm/page_alloc.txt"));
}

static void test_wildcard(struct fixture *f, gconstpointer data)
{
	g_assert_false(reads(f, "arch/arm/boot/dts/new-board.dts"));
	scratch_write_file(f->src, "arch/arm/boot/dts/Makefile",
			   "dtb-y := $(patsubst %.dts,%.dtb,"
			   "$(notdir $(wildcard $(src)/*.dts)))\n");
	g_assert_true(reads(f, "arch/arm/boot/dts/new-board.dts"));
	/* a Kbuild beside the Makefile counts too */
	g_assert_false(reads(f, "mm/other.c"));
	scratch_write_file(f->src, "mm/Kbuild",
			   "obj-y += $(wildcard $(src)/*.c)\n");
	g_assert_true(reads(f, "mm/other.c"));
}

static void test_hostile_build_dir(struct fixture *f, gconstpointer data)
{
	g_autofree char *link = g_build_filename(f->build, "source", NULL);
	g_autofree char *big =
		g_build_filename(f->build, "mm/.big.o.cmd", NULL);
	g_autofree char *why = NULL;
	FILE *fp;

	/* kbuild's `source` link to the tree is not followed: a .cmd file
	 * of the tree's is not the build's */
	write_cmd(f, "../src/drivers/net/dsa/.x.o.cmd", "x.o",
		  "drivers/net/dsa/mv88e6xxx/chip.c", NULL);
	g_assert_cmpint(symlink(f->src, link), ==, 0);
	g_assert_false(reads(f, "drivers/net/dsa/mv88e6xxx/chip.c"));
	/* a .cmd file that cannot be one counts as reading everything */
	fp = fopen(big, "w");
	g_assert_nonnull(fp);
	g_assert_cmpint(fseek(fp, 9 << 20, SEEK_SET), ==, 0);
	g_assert_cmpint(fputc('x', fp), !=, EOF);
	g_assert_cmpint(fclose(fp), ==, 0);
	g_assert_true(builddeps_reads_any(
		f->build, f->src,
		(const char *const[]){ "drivers/net/dsa/mv88e6xxx/chip.c" }, 1,
		&why));
	g_assert_nonnull(strstr(why, "cannot read"));
	g_clear_pointer(&why, g_free);
	g_assert_cmpint(g_unlink(big), ==, 0);
	/* the tree seen at another path than the build's: nothing of it is
	 * named, which is not "nothing read" */
	g_assert_true(builddeps_reads_any(
		f->build, "/elsewhere/linux",
		(const char *const[]){ "drivers/net/dsa/mv88e6xxx/chip.c" }, 1,
		&why));
	g_assert_nonnull(strstr(why, "names a file"));
	g_clear_pointer(&why, g_free);
	/* a path the .cmd files' words would split */
	g_assert_true(builddeps_reads_any(
		f->build, "/tmp/a b",
		(const char *const[]){ "drivers/net/dsa/mv88e6xxx/chip.c" }, 1,
		&why));
	g_assert_nonnull(strstr(why, "cannot be told apart"));
	g_clear_pointer(&why, g_free);
	/* no build dir: everything is read */
	g_assert_true(builddeps_reads_any(
		"/nonexistent/build", f->src,
		(const char *const[]){ "drivers/net/dsa/mv88e6xxx/chip.c" }, 1,
		&why));
	g_assert_nonnull(why);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/builddeps/recorded", struct fixture, NULL, setup,
		   test_recorded, teardown);
	g_test_add("/builddeps/not-read", struct fixture, NULL, setup,
		   test_not_read, teardown);
	g_test_add("/builddeps/rules", struct fixture, NULL, setup, test_rules,
		   teardown);
	g_test_add("/builddeps/wildcard", struct fixture, NULL, setup,
		   test_wildcard, teardown);
	g_test_add("/builddeps/hostile-build-dir", struct fixture, NULL, setup,
		   test_hostile_build_dir, teardown);
	return g_test_run();
}
