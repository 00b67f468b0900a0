/* Unit tests for qemu/boards.c: the board map qemu/boards.conf is read and
 * checked against the distro tree (every path glob matches a file, every
 * DTB has its .dts), bad maps are refused with FILE:LINE, and boards are
 * chosen from the paths a series touches, on made-up paths and on real ARM
 * patches of ../shared/corpora (issue 21). */
#include <string.h>

#include "config/datadir.h"
#include "qemu/boards.h"

#define CORPORA "../shared/corpora/arm61"

/* The names of the boards chosen for @paths, ' '-joined. */
static char *chosen(const struct board_map *map, const char *const *paths,
		    guint n, GString *reasons)
{
	g_autoptr(GPtrArray) c = board_select(map, paths, n);
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

/* Every glob of the map matches a file of the distro tree, and every DTB
 * has its .dts in arch/ARCH/boot/dts (arm64: a vendor folder below). */
static void test_against_tree(void)
{
	const char *cache = g_getenv("ARMBOT_CACHE_DIR");
	g_autofree char *git_dir = NULL;
	g_autofree char *out = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = board_map_load(NULL, &error);
	g_auto(GStrv) files = NULL;
	int status = 0;

	g_assert_no_error(error);
	git_dir = cache ? g_build_filename(cache, "distro-git", NULL) :
			  g_build_filename(g_get_home_dir(), ".cache", "armbot",
					   "distro-git", NULL);
	if (!g_file_test(git_dir, G_FILE_TEST_IS_DIR)) {
		g_test_skip("no imported distro tree (armbot tree import)");
		return;
	}
	{
		const char *argv[] = { "git", "-C",	     git_dir, "ls-tree",
				       "-r",  "--name-only", "HEAD",  NULL };

		g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL,
					   G_SPAWN_SEARCH_PATH, NULL, NULL,
					   &out, NULL, &status, &error));
	}
	g_assert_no_error(error);
	g_assert_cmpint(status, ==, 0);
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
	const char *cache = g_getenv("ARMBOT_CACHE_DIR");
	g_autofree char *git_dir = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = board_map_load(NULL, &error);
	guint checked = 0;

	g_assert_no_error(error);
	git_dir = cache ? g_build_filename(cache, "distro-git", NULL) :
			  g_build_filename(g_get_home_dir(), ".cache", "armbot",
					   "distro-git", NULL);
	if (!g_file_test(git_dir, G_FILE_TEST_IS_DIR)) {
		g_test_skip("no imported distro tree (armbot tree import)");
		return;
	}
	for (guint i = 0; i < map->boards->len; i++) {
		const struct board *b = map->boards->pdata[i];
		g_auto(GStrv) lines = fragment_lines(b);

		for (guint j = 0; b->paths[j]; j++) {
			const char *p = b->paths[j];
			g_autofree char *rev = NULL;
			g_autofree char *kconfig = NULL;
			gboolean found = FALSE;
			int status = 0;

			if (!g_str_has_prefix(p, "arch/arm/mach-") ||
			    !g_str_has_suffix(p, "/"))
				continue;
			rev = g_strdup_printf("HEAD:%sKconfig", p);
			{
				const char *argv[] = { "git",  "-C", git_dir,
						       "show", rev,  NULL };

				g_assert_true(g_spawn_sync(
					NULL, (char **)argv, NULL,
					G_SPAWN_SEARCH_PATH, NULL, NULL,
					&kconfig, NULL, &status, &error));
			}
			g_assert_no_error(error);
			g_assert_cmpint(status, ==, 0);
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
	return g_test_run();
}
