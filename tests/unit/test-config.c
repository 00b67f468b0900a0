/* Unit tests for config/config.c and config/treefile.c: durations
 * (update-interval) read and written, and how a tree file and [defaults]
 * give a tree its interval. */
#include <string.h>

#include "kernel/tree/rmtree.h"
#include "config/config.h"
#include "config/keyfile.h"
#include "config/treefile.h"
#include "kernel/build/icecc.h"
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

/* The boot-runner keys of a trees.d file (qemu/runner.h), refused in a
 * tree kept in the store (registered by mail). */
static void test_boot_runner(void)
{
	g_autofree char *dir = scratch_dir_new("armbot-config-XXXXXX");
	g_autofree char *path = g_build_filename(dir, "lab.conf", NULL);
	g_autoptr(armbot_config) d = config_new_default();
	g_autoptr(GError) error = NULL;
	g_autoptr(treefile) tf = NULL;
	g_autoptr(treefile) plain = NULL;
	g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func(g_free);
	static const char lava[] = "[tree]\nurl = https://e.org/lab.git\n"
				   "boot-runner = lava\n"
				   "lava-url = https://lava.example.org/\n"
				   "lava-token-file = token\n"
				   "lava-serve-host = 192.0.2.1\n"
				   "lava-fallback = local\n"
				   "lava-retries = 3\n";

	scratch_write_file(dir, "lab.conf", lava);
	tf = treefile_load(path, &d->defaults, NULL, &error);
	g_assert_no_error(error);
	g_assert_true(tf->boot.lava);
	g_assert_cmpstr(tf->boot.lava_url, ==, "https://lava.example.org/");
	g_assert_true(g_str_has_suffix(tf->boot.lava_token_file, "/token"));
	g_assert_true(g_path_is_absolute(tf->boot.lava_token_file));
	g_assert_cmpstr(tf->boot.lava_serve_host, ==, "192.0.2.1");
	g_assert_true(tf->boot.lava_fallback_local);
	g_assert_cmpuint(tf->boot.lava_retries, ==, 3);
	g_clear_pointer(&tf, treefile_free);

	/* the defaults: here, one retry, no fallback */
	scratch_write_file(dir, "lab.conf",
			   "[tree]\nurl = https://e.org/lab.git\n");
	plain = treefile_load(path, &d->defaults, NULL, &error);
	g_assert_no_error(error);
	g_assert_false(plain->boot.lava);
	g_assert_false(plain->boot.lava_fallback_local);
	g_assert_cmpuint(plain->boot.lava_retries, ==, 1);

	scratch_write_file(dir, "lab.conf",
			   "[tree]\nurl = https://e.org/lab.git\n"
			   "boot-runner = remote\nlava-fallback = maybe\n"
			   "lava-url = ftp://x/\nlava-serve-host = lab.org\n");
	g_assert_null(treefile_load(path, &d->defaults, errors, NULL));
	g_assert_cmpuint(errors->len, ==, 4);
	g_ptr_array_set_size(errors, 0);
	scratch_write_file(dir, "lab.conf",
			   "[tree]\nurl = https://e.org/lab.git\n"
			   "boot-runner = lava\n");
	g_assert_null(treefile_load(path, &d->defaults, errors, NULL));
	g_assert_nonnull(strstr(errors->pdata[0], "needs lava-url"));

	/* a tree registered by mail names no token file of this machine */
	g_assert_null(treefile_parse("lab", "the store", lava, &d->defaults,
				     NULL, &error));
	g_assert_nonnull(strstr(error->message, "for trees.d files only"));
	rmtree(dir, NULL);
}

/* build-distribute and the icecc keys: a file of trees.d only, checked;
 * kernel/build/icecc.c reads the scheduler's listcs. */
static void test_icecream(void)
{
	/* tree files config_load() refuses, and why */
	static const struct {
		const char *text;
		const char *why;
	} refused[] = {
		{ "[tree]\nurl = https://e.org/p.git\n"
		  "build-distribute = distcc\n",
		  "not local or icecream" },
		{ "[tree]\nurl = https://e.org/p.git\n"
		  "build-distribute = icecream\n"
		  "icecc-scheduler = a b:99999\n",
		  "not HOST or HOST:PORT" },
		{ "[tree]\nurl = https://e.org/p.git\n"
		  "icecc-socket = relative.sock\n",
		  "not an absolute path" },
		{ "[tree]\nurl = https://e.org/p.git\n"
		  "icecc-series-netns = /run/netns/x\n",
		  "set without build-distribute = icecream" },
	};
	g_autofree char *dir = scratch_dir_new("armbot-config-XXXXXX");
	g_autofree char *conf = g_build_filename(dir, "armbot.conf", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(armbot_config) c = NULL;
	g_autoptr(treefile) parsed = NULL;
	g_autofree char *data = NULL;
	const struct treefile *tf;
	struct icecc_cluster cl;

	scratch_write_file(dir, "armbot.conf", "[defaults]\n");
	scratch_write_file(dir, "trees.d/ice.conf",
			   "[tree]\nurl = https://e.org/i.git\n"
			   "build-distribute = icecream\n"
			   "icecc-scheduler = sched.example.org:9000\n");
	scratch_write_file(dir, "trees.d/sock.conf",
			   "[tree]\nurl = https://e.org/s.git\n"
			   "build-distribute = icecream\n"
			   "icecc-socket = /run/ice.sock\n"
			   "icecc-series-netns = /run/netns/armbot-icecc\n");
	scratch_write_file(dir, "trees.d/plain.conf",
			   "[tree]\nurl = https://e.org/p.git\n");
	c = config_load(conf, &error);
	g_assert_no_error(error);
	tf = config_tree(c, "ice");
	g_assert_true(tf->icecream);
	g_assert_cmpstr(tf->icecc.socket, ==, ICECC_SANDBOX_SOCKET);
	g_assert_cmpstr(tf->icecc.scheduler, ==, "sched.example.org:9000");
	g_assert_cmpstr(config_tree(c, "sock")->icecc.socket, ==,
			"/run/ice.sock");
	g_assert_null(config_tree(c, "sock")->icecc.scheduler);
	g_assert_cmpstr(config_tree(c, "sock")->icecc.series_netns, ==,
			"/run/netns/armbot-icecc");
	g_assert_null(tf->icecc.series_netns);
	g_assert_false(config_tree(c, "plain")->icecream);
	/* not written for the store, and not taken from it */
	data = treefile_to_data(tf);
	g_assert_null(strstr(data, "icecc"));
	g_assert_null(strstr(data, "build-distribute"));
	parsed = treefile_parse("x", "the store",
				"[tree]\nurl = https://e.org/x.git\n"
				"build-distribute = icecream\n",
				&c->defaults, NULL, &error);
	g_assert_null(parsed);
	g_assert_nonnull(strstr(error->message, "for trees.d files only"));
	g_clear_error(&error);

	g_clear_pointer(&c, config_free);
	for (gsize i = 0; i < G_N_ELEMENTS(refused); i++) {
		g_test_message("%s", refused[i].text);
		scratch_write_file(dir, "trees.d/plain.conf", refused[i].text);
		c = config_load(conf, &error);
		g_assert_null(c);
		g_assert_nonnull(strstr(error->message, refused[i].why));
		g_clear_error(&error);
	}
	rmtree(dir, NULL);

	/* the answer of icecc-scheduler 1.4 to listcs */
	g_assert_true(icecc_listcs_parse(
		"200-ICECC 1.4.0: 8s uptime, 2 hosts, 1 jobs in queue (17 "
		"total).\r\n200 Use 'help' for help and 'quit' to quit.\r\n"
		" a (127.0.0.1:10245) [x86_64] speed=0.00 jobs=1/2 "
		"load=1000\r\n"
		" b (10.0.0.2:10245) [x86_64] speed=12.5 jobs=0/16 load=20\r\n"
		" garbage\r\n200 done\r\n",
		&cl));
	g_assert_cmpuint(cl.hosts, ==, 2);
	g_assert_cmpuint(cl.queued, ==, 1);
	g_assert_cmpuint(cl.total_jobs, ==, 17);
	g_assert_cmpuint(cl.nodes->len, ==, 2);
	g_assert_cmpstr(((struct icecc_node *)cl.nodes->pdata[1])->address, ==,
			"10.0.0.2:10245");
	g_assert_cmpuint(((struct icecc_node *)cl.nodes->pdata[0])->jobs_used,
			 ==, 1);
	g_assert_cmpuint(((struct icecc_node *)cl.nodes->pdata[1])->load, ==,
			 20);
	g_assert_cmpuint(icecc_cluster_slots(&cl), ==, 18);
	icecc_cluster_clear(&cl);
	g_assert_false(icecc_listcs_parse("HTTP/1.1 400 Bad\r\n", &cl));
	icecc_cluster_clear(&cl);
}

/* config/keyfile.c: GKeyFile is the grammar, the lines are only looked up
 * for the messages. */
static void assert_keyfile_errors(const char *text, const char *expected)
{
	g_autoptr(keyfile) k = keyfile_parse("f.conf", text, strlen(text));
	g_autoptr(GString) got = g_string_new(NULL);

	for (guint i = 0; i < k->errors->len; i++)
		g_string_append_printf(got, "%s\n",
				       (char *)k->errors->pdata[i]);
	g_assert_cmpstr(got->str, ==, expected);
}

static void test_keyfile_lines(void)
{
	g_autoptr(keyfile) k = NULL;
	const char *text = "# c\n[a]\n  x = [b] # not a group\n\n[b]\ny=1\n";

	/* what GKeyFile takes is fine, and each key has its line */
	assert_keyfile_errors(text, "");
	k = keyfile_parse("f.conf", text, strlen(text));
	g_assert_cmpuint(keyfile_line(k, "a", NULL), ==, 2);
	g_assert_cmpuint(keyfile_line(k, "a", "x"), ==, 3);
	g_assert_cmpuint(keyfile_line(k, "b", "y"), ==, 6);
	/* GKeyFile merges what is given twice: named here */
	assert_keyfile_errors(
		"[a]\nk=1\n[b]\nk=2\n[a]\nk = 3\n",
		"f.conf:5: group [a] given twice (first at line 1)\n"
		"f.conf:6: 'k' given twice in [a] (first at "
		"line 2)\n");
	/* the first line GKeyFile refuses is named; what follows is not
	 * read, as GKeyFile does not */
	assert_keyfile_errors("[a]\nk=1\nk=2\nnot a key\n[a\nz\n",
			      "f.conf:3: 'k' given twice in [a] (first at "
			      "line 2)\n"
			      "f.conf:4: 'not a key' is not 'key = value', a "
			      "[group] or a # comment\n");
	assert_keyfile_errors("[a]\n [a]b]\n",
			      "f.conf:2: bad group line '[a]b]'\n");
	assert_keyfile_errors("\nk = v", "f.conf:2: key outside any [group]\n");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/config/duration/parse", test_duration_parse);
	g_test_add_func("/config/duration/string", test_duration_string);
	g_test_add_func("/config/update-interval", test_update_interval);
	g_test_add_func("/config/keyfile-lines", test_keyfile_lines);
	g_test_add_func("/config/boot-runner", test_boot_runner);
	g_test_add_func("/config/icecream", test_icecream);
	return g_test_run();
}
