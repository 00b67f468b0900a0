/* Unit tests for qemu/boards.c: the board map qemu/boards.conf is read and
 * checked against the distro tree (every path glob matches a file, every
 * DTB has its .dts), bad maps are refused with FILE:LINE, and boards are
 * chosen from the paths a series touches, on made-up paths and on real ARM
 * patches of ../shared/corpora (issue 21); the paths derived from a tree
 * (qemu/boardderive.c) on small synthetic trees and on the distro tree. */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "config/datadir.h"
#include "kernel/git/repo.h"
#include "qemu/boardderive.h"
#include "qemu/boards.h"

#define CORPORA "../shared/corpora/arm61"

/* The names of the boards of the choices @c, ' '-joined; their reasons,
 * one a line, appended to @reasons unless NULL. */
static char *choice_names(const GPtrArray *c, GString *reasons)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < c->len; i++) {
		const struct board_choice *bc = c->pdata[i];

		g_string_append_printf(s, "%s%s", i ? " " : "",
				       bc->board->name);
		if (reasons)
			g_string_append_printf(reasons, "%s\n", bc->reason);
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* The names of the boards chosen for @paths, ' '-joined. */
static char *chosen(const struct board_map *map, const char *const *paths,
		    guint n, GString *reasons)
{
	g_autoptr(GPtrArray) c = board_select(map, paths, n);

	return choice_names(c, reasons);
}

static void test_glob(void)
{
	g_assert_true(board_glob_match("arch/arm/mach-imx/",
				       "arch/arm/mach-imx/src.c"));
	g_assert_false(board_glob_match("arch/arm/mach-imx/",
					"arch/arm/mach-imx6/x.c"));
	g_assert_true(
		board_glob_match("arch/arm/boot/dts/sun8i-h3*",
				 "arch/arm/boot/dts/sun8i-h3-orangepi-pc.dts"));
	g_assert_false(
		board_glob_match("arch/arm/boot/dts/sun8i-h3*",
				 "arch/arm/boot/dts/sun8i-h2-plus.dtsi"));
	/* '*' stops at '/' */
	g_assert_false(board_glob_match("arch/*", "arch/arm/Kconfig"));
}

static void test_load(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = board_map_load(NULL, &error);

	g_assert_no_error(error);
	g_assert_nonnull(board_map_find(map, "virt"));
	g_assert_nonnull(board_map_find(map, "virt-arm64"));
	g_assert_cmpstr(board_map_find(map, "orangepi-pc")->machine, ==,
			"orangepi-pc");
	g_assert_cmpstr(board_map_find(map, "sabrelite")->dtb, ==,
			"imx6q-sabrelite.dtb");
	g_assert_cmpuint(board_map_find(map, "orangepi-pc")->mem_mb, ==, 1024);
	g_assert_cmpstr(board_map_find(map, "vexpress-a9")->append, ==,
			"maxcpus=1");
	g_assert_null(board_map_find(map, "virt")->append);
}

static void test_bad_maps(void)
{
	static const struct {
		const char *text;
		const char *error; /* a substring of the first error */
	} bad[] = {
		{ "[virt]\narch = arm\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\npaths = arch/arm/\n",
		  "no fallback board for arm" },
		{ "[x]\narch = mips\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\npaths = a/\nfallback = true\n",
		  "t:2: arch must be arm or arm64" },
		{ "[x]\narch = arm\nmachine = virt;rm -rf\nbase = tinyconfig\n"
		  "console = ttyAMA0\npaths = a/\nfallback = true\n",
		  "t:3: board x needs a machine" },
		{ "[x]\narch = arm\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\npaths = ../etc/\nfallback = true\n",
		  "t:6: path '../etc/' is not relative" },
		{ "[x]\narch = arm\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\npaths = a/\nfallback = true\ncolour = red\n",
		  "t:8:" },
		{ "[x]\narch = arm\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\ndtb = x.dts\npaths = a/\nfallback = true\n",
		  "t:6: dtb 'x.dts' is not a NAME.dtb" },
		{ "[x]\narch = arm\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\npaths = a/\nfallback = true\n"
		  "[y]\narch = arm\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\npaths = a/\nfallback = true\n",
		  "a second fallback board for arm" },
		{ "[x]\narch = arm\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\nappend = a;reboot\npaths = a/\n"
		  "fallback = true\n",
		  "t:6: append 'a;reboot' is not words" },
		{ "[x]\narch = arm\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\nappend = a  b\npaths = a/\n"
		  "fallback = true\n",
		  "t:6: append" },
		{ "[x]\narch = arm\nmachine = virt\nbase = tinyconfig\n"
		  "console = ttyAMA0\nmemory = 99999\npaths = a/\n"
		  "fallback = true\n",
		  "t:6:" },
		{ "not a key file\0\xff", "t:1:" },
		{ "", "no fallback board for arm" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GPtrArray) errors = NULL;
		struct board_map *map = board_map_parse(
			"t", bad[i].text, strlen(bad[i].text), &errors);

		g_assert_null(map);
		g_assert_nonnull(errors);
		g_assert_cmpuint(errors->len, >, 0);
		if (!strstr(errors->pdata[0], bad[i].error))
			g_error("map %u: '%s' does not say '%s'", i,
				(char *)errors->pdata[0], bad[i].error);
	}
}

static void test_select(void)
{
	static const struct {
		const char *paths; /* ' '-separated */
		const char *boards;
		const char *reason; /* a substring of the reasons */
	} table[] = {
		{ "arch/arm/boot/dts/sun8i-h3-orangepi-pc.dts", "orangepi-pc",
		  "touches arch/arm/boot/dts/sun8i-h3-orangepi-pc.dts "
		  "(arch/arm/boot/dts/sun8i-h3*) → orangepi-pc" },
		{ "arch/arm/mach-sunxi/platsmp.c", "orangepi-pc cubieboard",
		  "(arch/arm/mach-sunxi/) → cubieboard" },
		{ "arch/arm/mach-imx/cpu.c arch/arm/mach-versatile/v2m.c",
		  "sabrelite mcimx6ul-evk vexpress-a9", "→ vexpress-a9" },
		{ "arch/arm/boot/dts/imx6ul-14x14-evk.dtsi", "mcimx6ul-evk",
		  NULL },
		{ "arch/arm/mach-omap1/clock.c", "virt",
		  "touches arch/arm/mach-omap1/clock.c, no board more specific "
		  "→ virt" },
		{ "drivers/gpio/gpio-mvebu.c", "virt",
		  "no board-specific path → virt" },
		{ "arch/arm64/boot/dts/arm/juno.dts", "virt-arm64",
		  "→ virt-arm64" },
		{ "arch/arm64/kernel/setup.c arch/arm/boot/dts/sun4i-a10.dtsi",
		  "cubieboard virt-arm64", NULL },
		{ "", "virt", NULL },
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = board_map_load(NULL, &error);

	g_assert_no_error(error);
	for (guint i = 0; i < G_N_ELEMENTS(table); i++) {
		g_auto(GStrv) paths = g_strsplit(table[i].paths, " ", -1);
		g_autoptr(GString) reasons = g_string_new(NULL);
		guint n = *table[i].paths ? g_strv_length(paths) : 0;
		g_autofree char *got =
			chosen(map, (const char *const *)paths, n, reasons);

		g_assert_cmpstr(got, ==, table[i].boards);
		if (table[i].reason && !strstr(reasons->str, table[i].reason))
			g_error("'%s': reasons\n%s do not say '%s'",
				table[i].paths, reasons->str, table[i].reason);
	}
}

/* The paths a patch touches: its "+++ b/PATH" and "--- a/PATH" lines
 * (a deleted file has +++ /dev/null). */
static GPtrArray *patch_paths(const char *text)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (guint i = 0; lines[i]; i++) {
		const char *l = lines[i];
		const char *p;

		if (!g_str_has_prefix(l, "+++ ") &&
		    !g_str_has_prefix(l, "--- "))
			continue;
		p = l + 4;
		if (!strncmp(p, "/dev/null", 9) || !(p = strchr(p, '/')))
			continue;
		p++;
		g_ptr_array_add(out, g_strndup(p, strcspn(p, "\t ")));
	}
	return out;
}

static void test_corpora(void)
{
	static const struct {
		const char *patch;
		const char *boards;
	} table[] = {
		{ "bcm2711-6.1/0001-Make-proc-cpuinfo-consistent-on-arm64-and-arm.patch",
		  "virt-arm64" },
		{ "bcm2711-6.1/1003-remote-wakeup.patch", "virt" },
		{ "imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch",
		  "sabrelite" },
		{ "imx6-6.1/0007-ARM-dts-imx6q-evi-Fix-onboard-hub-reset-line.patch",
		  "sabrelite" },
		{ "meson-6.1/odroidc1-dts-Enable-HDMI.patch", "virt" },
		{ "meson-6.1/generic-0001-m8-m8b-m8m2-Support-HDMI.patch",
		  "virt" },
		{ "mvebu-6.1/09-pci-link-retraining.patch", "virt" },
		{ "mvebu-6.1/92-mvebu-gpio-remove-hardcoded-timer-assignment.patch",
		  "virt" },
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = board_map_load(NULL, &error);

	g_assert_no_error(error);
	if (!g_file_test(CORPORA, G_FILE_TEST_IS_DIR)) {
		g_test_skip("no " CORPORA);
		return;
	}
	for (guint i = 0; i < G_N_ELEMENTS(table); i++) {
		g_autofree char *file =
			g_build_filename(CORPORA, table[i].patch, NULL);
		g_autofree char *text = NULL;
		g_autoptr(GPtrArray) paths = NULL;
		g_autofree char *got = NULL;

		g_assert_true(g_file_get_contents(file, &text, NULL, NULL));
		paths = patch_paths(text);
		g_assert_cmpuint(paths->len, >, 0);
		got = chosen(map, (const char *const *)paths->pdata, paths->len,
			     NULL);
		if (strcmp(got, table[i].boards))
			g_error("%s: boards '%s', expected '%s'",
				table[i].patch, got, table[i].boards);
	}
}

/* The imported distro tree's git dir (ARMBOT_CACHE_DIR, by default
 * ~/.cache/armbot, then distro-git), owned by the caller; NULL, the test
 * skipped, where there is none. */
static char *distro_git_dir(void)
{
	const char *cache = g_getenv("ARMBOT_CACHE_DIR");
	g_autofree char *git_dir = NULL;

	g_autofree char *complete = NULL;
	g_autofree char *lock = NULL;
	int fd;

	git_dir = cache ? g_build_filename(cache, "distro-git", NULL) :
			  g_build_filename(g_get_home_dir(), ".cache", "armbot",
					   "distro-git", NULL);
	complete = g_build_filename(git_dir, ".armbot-complete", NULL);
	/* tests/lib/am-oracle.sh's am_distro_git() makes it under an
	 * exclusive lock on DIR.lock, held until its test ends, and marks it
	 * complete last: while a test beside this one makes it, wait for
	 * that test; a tree without the mark is not read */
	lock = g_strconcat(git_dir, ".lock", NULL);
	if (!g_file_test(complete, G_FILE_TEST_EXISTS) &&
	    (fd = open(lock, O_RDONLY | O_CLOEXEC)) >= 0) {
		while (flock(fd, LOCK_SH) != 0 && errno == EINTR)
			;
		close(fd);
	}
	if (!g_file_test(complete, G_FILE_TEST_EXISTS)) {
		g_test_skip(
			"no distro tree in the cache (tests/e2e/am-distro.t "
			"makes it)");
		return NULL;
	}
	return g_steal_pointer(&git_dir);
}

/* The stdout of `git -C @git_dir ARGS...`, which must exit with 0; owned
 * by the caller. */
#define distro_git(git_dir, ...)                                       \
	distro_git_argv((const char *const[]){ "git", "-C", (git_dir), \
					       __VA_ARGS__, NULL })

static char *distro_git_argv(const char *const *argv)
{
	g_autoptr(GError) error = NULL;
	char *out = NULL;
	int status = 0;

	g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL,
				   G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL,
				   &status, &error));
	g_assert_no_error(error);
	g_assert_cmpint(status, ==, 0);
	return out;
}

/* Every glob of the map matches a file of the distro tree, and every DTB
 * has its .dts in arch/ARCH/boot/dts (arm64: a vendor folder below). */
static void test_against_tree(void)
{
	g_autofree char *git_dir = NULL;
	g_autofree char *out = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = board_map_load(NULL, &error);
	g_auto(GStrv) files = NULL;

	g_assert_no_error(error);
	git_dir = distro_git_dir();
	if (!git_dir)
		return;
	out = distro_git(git_dir, "ls-tree", "-r", "--name-only", "HEAD");
	files = g_strsplit(out, "\n", -1);
	g_assert_cmpuint(g_strv_length(files), >, 10000);
	for (guint i = 0; i < map->boards->len; i++) {
		const struct board *b = map->boards->pdata[i];
		g_autofree char *dts = NULL;
		gboolean dts_found = !b->dtb;

		if (b->dtb)
			dts = g_strdup_printf(
				"%.*s.dts", (int)(strlen(b->dtb) - 4), b->dtb);
		for (guint j = 0; b->paths[j]; j++) {
			gboolean found = FALSE;

			for (guint f = 0; files[f] && !found; f++)
				found = board_glob_match(b->paths[j], files[f]);
			if (!found)
				g_error("%s: path '%s' matches nothing in the "
					"distro tree",
					b->name, b->paths[j]);
		}
		for (guint f = 0; files[f] && !dts_found; f++) {
			g_autofree char *prefix =
				g_strdup_printf("arch/%s/boot/dts/", b->arch);

			dts_found =
				g_str_has_prefix(files[f], prefix) &&
				g_str_has_suffix(files[f], dts) &&
				files[f][strlen(files[f]) - strlen(dts) - 1] ==
					'/';
		}
		if (!dts_found)
			g_error("%s: no %s in the distro tree", b->name, dts);
	}
}

/* The config lines of @b's fragment: its lines, or those of its fragment
 * file (one word without '=', relative to the source dir). */
static char **fragment_lines(const struct board *b)
{
	g_autofree char *path = NULL;
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;

	if (!b->fragment || !b->fragment[0] || b->fragment[1] ||
	    strchr(b->fragment[0], '='))
		return g_strdupv(b->fragment);
	path = g_build_filename(datadir_source_dir(), b->fragment[0], NULL);
	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	return g_strsplit(text, "\n", -1);
}

/* A board selected by arch/arm/mach-X/ enables in its fragment a symbol
 * that arch/arm/mach-X/Kconfig defines (its ARCH_ or SOC_ symbol): the map
 * agrees with the tree on which platform code the board builds. */
static void test_kconfig(void)
{
	g_autofree char *git_dir = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = board_map_load(NULL, &error);
	guint checked = 0;

	g_assert_no_error(error);
	git_dir = distro_git_dir();
	if (!git_dir)
		return;
	for (guint i = 0; i < map->boards->len; i++) {
		const struct board *b = map->boards->pdata[i];
		g_auto(GStrv) lines = fragment_lines(b);

		for (guint j = 0; b->paths[j]; j++) {
			const char *p = b->paths[j];
			g_autofree char *rev = NULL;
			g_autofree char *kconfig = NULL;
			gboolean found = FALSE;

			if (!g_str_has_prefix(p, "arch/arm/mach-") ||
			    !g_str_has_suffix(p, "/"))
				continue;
			rev = g_strdup_printf("HEAD:%sKconfig", p);
			kconfig = distro_git(git_dir, "show", rev);
			for (guint f = 0; lines && lines[f] && !found; f++) {
				const char *line = lines[f];
				g_autofree char *sym = NULL;
				g_autofree char *def = NULL;
				g_autofree char *menudef = NULL;

				if (!g_str_has_prefix(line, "CONFIG_") ||
				    !g_str_has_suffix(line, "=y"))
					continue;
				sym = g_strndup(line + 7, strlen(line) - 9);
				def = g_strdup_printf("\nconfig %s\n", sym);
				menudef = g_strdup_printf("\nmenuconfig %s\n",
							  sym);
				found = strstr(kconfig, def) ||
					strstr(kconfig, menudef);
			}
			if (!found)
				g_error("%s: selected by %s but its fragment "
					"enables no symbol of %sKconfig",
					b->name, p, p);
			checked++;
		}
	}
	g_assert_cmpuint(checked, >=, 4);
}

/* ---- the paths derived from a tree (qemu/boardderive.c) ---- */

/* The names of the boards @d chooses for the ' '-separated @paths, and
 * their reasons into @reasons (may be NULL). */
static char *derived_chosen(struct boardderive *d, const struct board_map *map,
			    const char *paths, GString *reasons)
{
	g_auto(GStrv) v = g_strsplit(paths, " ", -1);
	g_autoptr(GPtrArray) c = boardderive_select(
		d, map, (const char *const *)v, *paths ? g_strv_length(v) : 0);

	return choice_names(c, reasons);
}

/* The boards @d chooses for some paths, and a substring of its reasons
 * (unless NULL). */
struct derive_case {
	const char *paths;
	const char *boards;
	const char *reason;
};

/* @d chooses the boards of each of the @n cases of @table, for their
 * reasons. */
static void check_derived(struct boardderive *d, const struct board_map *map,
			  const struct derive_case *table, gsize n)
{
	for (gsize i = 0; i < n; i++) {
		g_autoptr(GString) reasons = g_string_new(NULL);
		g_autofree char *got =
			derived_chosen(d, map, table[i].paths, reasons);

		if (strcmp(got, table[i].boards))
			g_error("'%s': boards '%s', expected '%s'\n%s",
				table[i].paths, got, table[i].boards,
				reasons->str);
		if (table[i].reason && !strstr(reasons->str, table[i].reason))
			g_error("'%s': reasons\n%s do not say '%s'",
				table[i].paths, reasons->str, table[i].reason);
	}
}

static void git_run(const char *dir, const char *const *args)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	int status = 0;

	g_ptr_array_add(argv, "git");
	g_ptr_array_add(argv, "-C");
	g_ptr_array_add(argv, (char *)dir);
	g_ptr_array_add(argv, "-c");
	g_ptr_array_add(argv, "user.name=t");
	g_ptr_array_add(argv, "-c");
	g_ptr_array_add(argv, "user.email=t@example.org");
	for (guint i = 0; args[i]; i++)
		g_ptr_array_add(argv, (char *)args[i]);
	g_ptr_array_add(argv, NULL);
	g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL,
				   G_SPAWN_SEARCH_PATH |
					   G_SPAWN_STDOUT_TO_DEV_NULL |
					   G_SPAWN_STDERR_TO_DEV_NULL,
				   NULL, NULL, NULL, NULL, &status, &error));
	g_assert_no_error(error);
	g_assert_cmpint(status, ==, 0);
}

static void write_file(const char *top, const char *path, const char *text,
		       gssize len)
{
	g_autofree char *file = g_build_filename(top, path, NULL);
	g_autofree char *dir = g_path_get_dirname(file);
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_file_set_contents(file, text, len, &error);
	g_assert_no_error(error);
}

static void make_link(const char *top, const char *path, const char *target)
{
	g_autofree char *file = g_build_filename(top, path, NULL);
	g_autofree char *dir = g_path_get_dirname(file);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_cmpint(symlink(target, file), ==, 0);
}

#define DTS "arch/arm/boot/dts/"

/* A tree of two SoCs of two vendors (acme, bolt), a board of each in the
 * map, a sibling acme board that is not, include cycles, a missing
 * include, a symlink loop, shared headers and generic compatibles. */
static const struct {
	const char *path;
	const char *text; /* "-> TARGET": a symlink */
} synthetic[] = {
	{ DTS "a-board.dts",
	  "/dts-v1/;\n#include \"a-soc.dtsi\"\n#include \"loop.dtsi\"\n"
	  "/ {\n\tmodel = \"A\";\n\tcompatible = \"acme,a-board\", "
	  "\"acme,a-soc\";\n};\n" },
	{ DTS "a-sibling.dts",
	  "#include \"a-soc.dtsi\"\n/ { compatible = \"acme,a-sibling\", "
	  "\"acme,a-soc\"; };\n" },
	{ DTS "a-soc.dtsi",
	  "// compatible = \"not,a-comment\";\n"
	  "#include <dt-bindings/gpio/gpio.h>\n"
	  "#include <dt-bindings/clock/a-clock.h>\n"
	  "/include/ \"a-cycle.dtsi\"\n#include \"missing.dtsi\"\n"
	  "#include <loop/x.h>\n"
	  "/ {\n\t#address-cells = <1>;\n\tsoc {\n"
	  "\t\tcompatible = \"simple-bus\";\n"
	  "\t\tuart: serial@1000 { compatible = \"acme,a-uart\", "
	  "/* \"acme,hidden\" */ \"arm,pl011\"; };\n"
	  "\t\tpanel { compatible = \"cool,panel\"; };\n\t};\n};\n" },
	{ DTS "a-cycle.dtsi",
	  "#include \"a-soc.dtsi\"\n"
	  "/ { timer { compatible = \"acme,a-timer\"; }; };\n" },
	{ DTS "loop.dtsi", "/include/ \"loop.dtsi\"\n" },
	{ DTS "b-board.dts",
	  "#include \"b-soc.dtsi\"\n/ { compatible = \"bolt,b-board\", "
	  "\"bolt,b-soc\"; serial { compatible = \"arm,pl011\"; }; };\n" },
	{ DTS "b-soc.dtsi", "#include <dt-bindings/gpio/gpio.h>\n"
			    "/ { uart { compatible = \"bolt,b-uart\"; };\n"
			    "  panel { compatible = \"bolt,panel\"; }; };\n" },
	/* an overlay: no root compatible, so it does not count */
	{ DTS "b-overlay.dts",
	  "/plugin/;\n&uart { compatible = \"acme,a-uart\"; };\n" },
	/* odd input: unterminated comment, string and nodes */
	{ DTS "odd.dts", "/ { compatible = \"bolt,odd\"; {{{{ \"x /* y" },
	{ "include/dt-bindings/gpio/gpio.h", "#define GPIO_ACTIVE_LOW 1\n" },
	{ "include/dt-bindings/clock/a-clock.h",
	  "#include <dt-bindings/clock/a-clock.h>\n#define A_CLK 1\n" },
	{ "scripts/dtc/include-prefixes/dt-bindings",
	  "-> ../../../include/dt-bindings" },
	{ "scripts/dtc/include-prefixes/loop", "-> loop" },
	{ "drivers/tty/serial/a-uart.c",
	  "static const struct of_device_id a_ids[] = {\n"
	  "\t{ .compatible = \"acme,a-uart\" },\n\t{}\n};\n" },
	{ "drivers/tty/serial/pl011.c",
	  "static const struct of_device_id ids[] = {\n"
	  "\t{.compatible=\"arm,pl011\"}, {}\n};\n" },
	{ "drivers/clocksource/a-timer.c",
	  "TIMER_OF_DECLARE(a_timer, \"acme,a-timer\", a_timer_init);\n" },
	{ "drivers/bus/simple.c", "{ .compatible = \"simple-bus\" },\n" },
	{ "drivers/gpu/panel.c", "{ .compatible = \"cool,panel\" },\n" },
	{ "drivers/misc/hidden.c", "{ .compatible = \"acme,hidden\" },\n" },
	{ "drivers/misc/comment.c", "{ .compatible = \"not,a-comment\" },\n" },
	{ "arch/arm/boot/dts/a-uart.c",
	  "{ .compatible = \"acme,a-uart\" },\n" },
	{ "arch/arm/Kconfig", "config ARCH_MULTI_V7\n\tbool\n" },
	{ "arch/arm/mach-a/Kconfig",
	  "menuconfig ARCH_A\n\tbool\nif ARCH_A\nconfig SOC_A \n\tbool\n"
	  "config ACME_X\n\ttristate\nendif\n" },
	{ "arch/arm/mach-b/Kconfig", "config ACME_X\n" },
	{ "arch/arm/mach-a/a.c", "int a;\n" },
};

static const char synthetic_map[] =
	"[virt]\narch = arm\nmachine = virt\nbase = allnoconfig\n"
	"console = ttyAMA0\npaths = arch/arm/\nfallback = true\n"
	"[a]\narch = arm\nmachine = a\nbase = allnoconfig\n"
	"fragment = CONFIG_ARCH_MULTI_V7=y;CONFIG_SOC_A=y;CONFIG_ACME_X=m\n"
	"console = ttyS0\ndtb = a-board.dtb\npaths = drivers/a-only/\n"
	"[b]\narch = arm\nmachine = b\nbase = allnoconfig\n"
	"console = ttyS0\ndtb = b-board.dtb\npaths = arch/arm/mach-b/\n"
	"[nodts]\narch = arm\nmachine = c\nbase = allnoconfig\n"
	"console = ttyS0\ndtb = gone.dtb\npaths = arch/arm/mach-c/\n";

static void test_derive_synthetic(void)
{
	static const struct derive_case table[] = {
		{ DTS "a-soc.dtsi", "a",
		  "touches " DTS "a-soc.dtsi (in a-board.dtb, included by "
		  "a-board.dts) → a" },
		{ DTS "a-board.dts", "a", "(the .dts of a-board.dtb) → a" },
		/* through /include/ and a cycle back to a-soc.dtsi */
		{ DTS "a-cycle.dtsi", "a", "included by a-soc.dtsi) → a" },
		{ DTS "loop.dtsi", "a", NULL },
		{ "include/dt-bindings/clock/a-clock.h", "a",
		  "(in a-board.dtb, included by a-soc.dtsi) → a" },
		/* a sibling board's .dts is not the board's */
		{ DTS "a-sibling.dts", "virt", "no board more specific" },
		/* included by both vendors' boards: selects neither */
		{ "include/dt-bindings/gpio/gpio.h", "virt",
		  "no board-specific path" },
		{ "drivers/tty/serial/a-uart.c", "a",
		  "touches drivers/tty/serial/a-uart.c (driver of acme,a-uart "
		  "in a-board.dtb) → a" },
		{ "drivers/clocksource/a-timer.c", "a",
		  "(driver of acme,a-timer in a-board.dtb)" },
		{ "drivers/tty/serial/pl011.c", "virt", NULL },
		{ "drivers/bus/simple.c", "virt", NULL },
		/* one vendor's boards use it, but it is not that vendor's */
		{ "drivers/gpu/panel.c", "virt", NULL },
		{ "drivers/misc/hidden.c drivers/misc/comment.c", "virt",
		  NULL },
		{ "arch/arm/boot/dts/a-uart.c", "virt", NULL },
		{ "drivers/tty/serial/new-file.c", "virt", NULL },
		{ "arch/arm/mach-a/a.c", "a",
		  "touches arch/arm/mach-a/a.c (the board's config enables "
		  "SOC_A of arch/arm/mach-a/Kconfig) → a" },
		{ "arch/arm/Kconfig", "virt", NULL },
		{ "drivers/tty/serial/pl011.c drivers/tty/serial/a-uart.c "
		  "arch/arm/mach-b/x.c",
		  "a b", "(arch/arm/mach-b/) → b" },
	};
	g_autofree char *top = g_dir_make_tmp("boardderive-XXXXXX", NULL);
	g_autofree char *cache = g_build_filename(top, "cache", NULL);
	g_autofree char *work = g_build_filename(top, "tree", NULL);
	g_autoptr(GPtrArray) errors = NULL;
	g_autoptr(board_map) map = board_map_parse(
		"t", synthetic_map, sizeof(synthetic_map) - 1, &errors);
	g_autoptr(GError) error = NULL;
	g_autoptr(gitrepo) repo = NULL;
	struct gitoid head;
	const char *init[] = { "init", "-q", NULL };
	const char *add[] = { "add", "-A", NULL };
	const char *commit[] = { "commit", "-q", "-m", "t", NULL };

	g_assert_nonnull(map);
	g_assert_cmpint(g_mkdir_with_parents(work, 0755), ==, 0);
	git_run(work, init);
	for (guint i = 0; i < G_N_ELEMENTS(synthetic); i++)
		if (g_str_has_prefix(synthetic[i].text, "-> "))
			make_link(work, synthetic[i].path,
				  synthetic[i].text + 3);
		else
			write_file(work, synthetic[i].path, synthetic[i].text,
				   -1);
	/* more includes than a file may have, nodes nested deeper than
	 * the scan counts, a compatible cut by the end of the file */
	{
		g_autoptr(GString) big = g_string_new(NULL);

		for (guint i = 0; i < 2000; i++)
			g_string_append_printf(big, "#include \"no%u.dtsi\"\n",
					       i);
		g_string_append(big, "/ { compatible = \"bolt,big\";\n");
		for (guint i = 0; i < 3000; i++)
			g_string_append(big, "n { ");
		g_string_append(big, "compatible = \"bolt,cut\", \"x");
		write_file(work, DTS "big.dts", big->str, big->len);
	}
	git_run(work, add);
	git_run(work, commit);
	repo = gitrepo_open(work, &error);
	g_assert_no_error(error);
	g_assert_true(gitrepo_revparse(repo, "HEAD", &head, &error));
	/* computed, then read back from the cache: the same answers */
	for (int pass = 0; pass < 2; pass++) {
		struct boardderive_stats st;
		g_autoptr(boardderive) d =
			boardderive_new(repo, &head, map, cache, &st, &error);
		const struct boardderive_board *a, *nodts;

		g_assert_no_error(error);
		g_assert_cmpint(st.from_cache, ==, pass == 1);
		if (!pass)
			g_assert_cmpuint(st.dts_read, ==, 6);
		a = d->boards->pdata[1];
		nodts = d->boards->pdata[3];
		g_assert_cmpstr(a->dts, ==, DTS "a-board.dts");
		g_assert_null(nodts->dts);
		/* gpio.h: shared with bolt; the rest is acme's */
		g_assert_cmpuint(g_hash_table_size(a->files), ==, 5);
		g_assert_cmpuint(g_hash_table_size(a->compatibles), ==, 4);
		g_assert_true(
			g_hash_table_contains(a->compatibles, "acme,a-soc"));
		g_assert_false(
			g_hash_table_contains(a->compatibles, "arm,pl011"));
		g_assert_false(
			g_hash_table_contains(a->compatibles, "acme,hidden"));
		/* mach-b's ACME_X is a module in a's config: not enabled */
		g_assert_cmpuint(g_hash_table_size(a->machs), ==, 1);
		check_derived(d, map, table, G_N_ELEMENTS(table));
	}
	/* a broken cache file is derived again */
	{
		g_autoptr(GDir) dir = g_dir_open(cache, 0, NULL);
		const char *name = g_dir_read_name(dir);
		g_autofree char *file = g_build_filename(cache, name, NULL);
		struct boardderive_stats st;
		g_autoptr(boardderive) d = NULL;

		g_assert_null(g_dir_read_name(dir));
		g_file_set_contents(file, "armbot boardderive 1\nboard x\ty\n",
				    -1, &error);
		g_assert_no_error(error);
		d = boardderive_new(repo, &head, map, cache, &st, &error);
		g_assert_no_error(error);
		g_assert_false(st.from_cache);
		g_assert_cmpstr(
			((struct boardderive_board *)d->boards->pdata[1])->dts,
			==, DTS "a-board.dts");
	}
	/* the cache keeps the 256 newest derivations, the new one too */
	{
		g_autofree char *cache2 = g_build_filename(top, "cache2", NULL);
		g_autoptr(boardderive) d = NULL;
		g_autoptr(GDir) dir = NULL;
		guint n = 0;
		gboolean found = FALSE;

		g_assert_cmpint(g_mkdir_with_parents(cache2, 0755), ==, 0);
		for (guint i = 0; i < 300; i++) {
			g_autofree char *name =
				g_strdup_printf("%040x-%012x.txt", i, i);

			write_file(cache2, name, "old\n", -1);
		}
		d = boardderive_new(repo, &head, map, cache2, NULL, &error);
		g_assert_no_error(error);
		dir = g_dir_open(cache2, 0, NULL);
		for (const char *e; (e = g_dir_read_name(dir)); n++)
			found = found || g_str_has_prefix(e, gitoid_hex(&head));
		g_assert_cmpuint(n, ==, 256);
		g_assert_true(found);
	}
	{
		const char *argv[] = { "rm", "-rf", top, NULL };

		g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH,
			     NULL, NULL, NULL, NULL, NULL, NULL);
	}
}

/* The distro tree at HEAD with the real map: real paths select the
 * boards whose hardware they are. */
static void test_derive_distro(void)
{
	static const struct derive_case table[] = {
		{ "arch/arm/boot/dts/imx6ul.dtsi", "mcimx6ul-evk", NULL },
		{ "drivers/tty/serial/imx.c", "sabrelite mcimx6ul-evk",
		  "touches drivers/tty/serial/imx.c (driver of fsl,imx6q-uart "
		  "in imx6ul-14x14-evk.dtb) → mcimx6ul-evk" },
		{ "drivers/clk/sunxi-ng/ccu-sun8i-h3.c", "orangepi-pc", NULL },
		{ "drivers/tty/serial/amba-pl011.c", "virt",
		  "no board-specific path → virt" },
		{ "drivers/mmc/host/sunxi-mmc.c", "orangepi-pc cubieboard",
		  "(driver of allwinner,sun4i-a10-mmc in "
		  "sun4i-a10-cubieboard.dtb) → cubieboard" },
		{ "include/dt-bindings/clock/imx6ul-clock.h", "mcimx6ul-evk",
		  "(in imx6ul-14x14-evk.dtb, included by imx6ul.dtsi)" },
		{ "include/dt-bindings/gpio/gpio.h", "virt", NULL },
		{ "arch/arm/boot/dts/vexpress-v2m.dtsi", "vexpress-a9", NULL },
		{ "drivers/clk/versatile/clk-vexpress-osc.c",
		  "vexpress-a9 vexpress-a15",
		  "(driver of arm,vexpress-osc in vexpress-v2p-ca9.dtb)" },
		{ "drivers/irqchip/irq-gic.c drivers/clk/clk-fixed-rate.c "
		  "drivers/gpu/drm/panel/panel-simple.c "
		  "drivers/tty/serial/8250/8250_dw.c",
		  "virt", NULL },
		/* a sibling of orangepi-pc that includes its SoC's dtsi */
		{ "arch/arm/boot/dts/sun8i-h2-plus-orangepi-zero.dts", "virt",
		  NULL },
	};
	g_autofree char *git_dir = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = board_map_load(NULL, &error);
	g_autoptr(gitrepo) repo = NULL;
	g_autoptr(boardderive) d = NULL;
	struct boardderive_stats st;
	struct gitoid head;

	g_assert_no_error(error);
	git_dir = distro_git_dir();
	if (!git_dir)
		return;
	repo = gitrepo_open(git_dir, &error);
	g_assert_no_error(error);
	g_assert_true(gitrepo_revparse(repo, "HEAD", &head, &error));
	/* no cache: this is the derivation itself */
	d = boardderive_new(repo, &head, map, NULL, &st, &error);
	g_assert_no_error(error);
	g_test_message("derived in %.3f s: %u .dts, %u files parsed",
		       st.seconds, st.dts_read, st.files_parsed);
	g_assert_cmpuint(st.dts_read, >, 1000);
	check_derived(d, map, table, G_N_ELEMENTS(table));
	/* the platform code the boards' configs enable (their globs say
	 * the same, so it is checked here, not through the selection) */
	{
		static const char *const machs[][3] = {
			{ "sabrelite", "arch/arm/mach-imx/pm-imx6.c",
			  "the board's config enables ARCH_MXC of "
			  "arch/arm/mach-imx/Kconfig" },
			{ "orangepi-pc", "arch/arm/mach-sunxi/platsmp.c",
			  "the board's config enables ARCH_SUNXI of "
			  "arch/arm/mach-sunxi/Kconfig" },
			{ "vexpress-a9", "arch/arm/mach-versatile/v2m.c",
			  "the board's config enables ARCH_VEXPRESS of "
			  "arch/arm/mach-versatile/Kconfig" },
			{ "vexpress-a9", "arch/arm/mach-imx/pm-imx6.c", NULL },
		};

		for (guint i = 0; i < G_N_ELEMENTS(machs); i++) {
			g_autofree char *why = boardderive_match(
				d, board_map_find(map, machs[i][0]),
				machs[i][1]);

			g_assert_cmpstr(why, ==, machs[i][2]);
		}
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/boards/glob", test_glob);
	g_test_add_func("/boards/load", test_load);
	g_test_add_func("/boards/bad-maps", test_bad_maps);
	g_test_add_func("/boards/select", test_select);
	g_test_add_func("/boards/corpora", test_corpora);
	g_test_add_func("/boards/against-tree", test_against_tree);
	g_test_add_func("/boards/kconfig", test_kconfig);
	g_test_add_func("/boards/derive-synthetic", test_derive_synthetic);
	g_test_add_func("/boards/derive-distro", test_derive_distro);
	return g_test_run();
}
