/* Unit tests for config/config.c and config/treefile.c: durations
 * (update-interval) read and written, and how a tree file and [defaults]
 * give a tree its interval. */
#include <string.h>

#include "kernel/tree/rmtree.h"
#include "config/config.h"
#include "config/treefile.h"
#include "scratch.h"

static void test_duration_parse(void)
{
	static const struct {
		const char *text;
		guint seconds;
	} good[] = {
		{ "0", 0 },
		{ "never", 0 },
		{ "0s", 0 },
		{ "2s", 2 },
		{ "90", 90 },
		{ "3600", 3600 },
		{ "30m", 1800 },
		{ "6h", 21600 },
		{ "1d", 86400 },
		{ "1h30m", 5400 },
		{ "1d2h3m4s", 93784 },
		{ "90m", 5400 }, /* a unit need not be the largest that fits */
		{ "366d", 366 * 86400 },
		{ "31622400", 31622400 },
	};
	static const char *const bad[] = {
		"",
		"h",
		"1x",
		"-1",
		"1.5h",
		"1 h",
		" 1h",
		"1h ",
		"1m1h",
		"1h1h",
		"30M",
		"Never",
		"1hh",
		"367d",
		"31622401",
		"99999999999999999999",
		"1d99999999999s",
	};

	for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
		guint s = 12345;

		g_assert_true(config_parse_duration(good[i].text, &s));
		g_assert_cmpuint(s, ==, good[i].seconds);
	}
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		guint s = 12345;

		if (config_parse_duration(bad[i], &s))
			g_error("'%s' parsed as %u s", bad[i], s);
		g_assert_cmpuint(s, ==, 12345);
	}
	g_assert_false(config_parse_duration(NULL, NULL));
}

/* What config_duration_string() writes, config_parse_duration() reads
 * back to the same seconds. */
static void test_duration_string(void)
{
	static const struct {
		guint seconds;
		const char *text;
	} cases[] = {
		{ 0, "never" },	 { 2, "2s" },		{ 60, "1m" },
		{ 90, "1m30s" }, { 3600, "1h" },	{ 5400, "1h30m" },
		{ 86400, "1d" }, { 93784, "1d2h3m4s" }, { 172800, "2d" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *s = config_duration_string(cases[i].seconds);
		guint back = 1;

		g_assert_cmpstr(s, ==, cases[i].text);
		g_assert_true(config_parse_duration(s, &back));
		g_assert_cmpuint(back, ==, cases[i].seconds);
	}
}

/* [defaults] update-interval is every tree's unless its file sets one;
 * the key file text of a tree (a tree registered by mail) leaves it out,
 * so that such a tree follows [defaults]. */
static void test_update_interval(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-config-XXXXXX");
	g_autofree char *conf = g_build_filename(dir, "armbot.conf", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(armbot_config) c = NULL;
	g_autoptr(armbot_config) plain = config_new_default();
	g_autoptr(treefile) parsed = NULL;
	g_autofree char *data = NULL;

	g_assert_cmpuint(plain->defaults.update_interval, ==, 3600);
	scratch_write_file(dir, "armbot.conf",
			   "[defaults]\nupdate-interval = 6h\n");
	scratch_write_file(dir, "trees.d/next.conf",
			   "[tree]\nurl = https://e.org/next.git\n"
			   "update-interval = 2s\n");
	scratch_write_file(dir, "trees.d/soc.conf",
			   "[tree]\nurl = https://e.org/soc.git\n");
	scratch_write_file(dir, "trees.d/manual.conf",
			   "[tree]\nurl = https://e.org/m.git\n"
			   "update-interval = never\n");
	c = config_load(conf, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(c->defaults.update_interval, ==, 6 * 3600);
	g_assert_cmpuint(config_tree(c, "next")->policy.update_interval, ==, 2);
	g_assert_cmpuint(config_tree(c, "soc")->policy.update_interval, ==,
			 6 * 3600);
	g_assert_cmpuint(config_tree(c, "manual")->policy.update_interval, ==,
			 0);

	data = treefile_to_data(config_tree(c, "next"));
	g_assert_null(strstr(data, "update-interval"));
	parsed = treefile_parse("next", "the store", data, &c->defaults, NULL,
				&error);
	g_assert_no_error(error);
	g_assert_cmpuint(parsed->policy.update_interval, ==, 6 * 3600);

	scratch_write_file(dir, "trees.d/soc.conf",
			   "[tree]\nurl = https://e.org/soc.git\n"
			   "update-interval = 1w\n");
	g_clear_pointer(&c, config_free);
	c = config_load(conf, &error);
	g_assert_null(c);
	g_assert_nonnull(strstr(error->message, "trees.d/soc.conf:3: "
						"update-interval must be a "
						"duration"));
	rmtree(dir, NULL);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/config/duration/parse", test_duration_parse);
	g_test_add_func("/config/duration/string", test_duration_string);
	g_test_add_func("/config/update-interval", test_update_interval);
	return g_test_run();
}
