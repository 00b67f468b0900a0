/* Unit tests for bot/daemon/treeset.c: the trees of the configuration and of the
 * store together, and the choice for a stored series. */
#include <glib/gstdio.h>
#include <string.h>

#include "bot/store/trees.h"
#include "bot/daemon/treeset.h"
#include "bot/daemon/tree-pick.h"

static void add_message(struct store *st, const char *text)
{
	g_autoptr(GBytes) raw = g_bytes_new(text, strlen(text));
	g_autoptr(GError) error = NULL;
	g_autoptr(message) msg = message_parse(raw, &error);
	g_autoptr(series_message) info = series_message_from(msg, 1);
	gboolean added;

	g_assert_no_error(error);
	g_assert_true(store_add_message(st, msg, info, "t", &added, &error));
	g_assert_no_error(error);
}

static void put_tree(struct store *st, const char *name, gboolean active,
		     const char *data)
{
	struct store_tree t = {
		(char *)name, (char *)data, active, "tony@atomide.com", 1, 1
	};

	g_assert_true(store_tree_put(st, &t, NULL));
}

static void test_pick_stored(void)
{
	g_autofree char *dir = g_dir_make_tmp("armbot-treeset-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "store.sqlite", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(store) st = store_open(path, &error);
	g_autoptr(armbot_config) config = config_new_default();
	g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(treeset) ts = NULL;
	struct store_series s = { 0 };
	struct tree_pick_result r;

	g_assert_no_error(error);
	g_ptr_array_add(config->trees,
			treefile_parse("arm", "trees.d/arm.conf",
				       "[tree]\nurl=https://e.org/arm.git\n"
				       "[paths]\nF=arch/arm/\n",
				       &config->defaults, NULL, &error));
	g_assert_no_error(error);
	put_tree(st, "omap", TRUE,
		 "[tree]\nurl=https://e.org/omap.git\n"
		 "[paths]\nF=arch/arm/mach-omap2/\n");
	put_tree(st, "old", FALSE,
		 "[tree]\nurl=https://e.org/old.git\n"
		 "[paths]\nF=arch/arm/mach-omap2/pm.c\n");
	put_tree(st, "arm", TRUE, "[tree]\nurl=https://e.org/other.git\n");
	ts = treeset_load(config, st, errors, &error);
	g_assert_no_error(error);
	/* arm of the file, omap of the store; old is opted out */
	g_assert_cmpuint(ts->trees->len, ==, 2);
	g_assert_cmpuint(errors->len, ==, 1);
	g_assert_cmpstr(errors->pdata[0], ==,
			"tree arm is registered in the store and configured "
			"by trees.d/arm.conf: the file is used");
	g_assert_nonnull(ts->distro);

	add_message(st, "From: A <a@e.org>\nSubject: [PATCH 0/1] omap\n"
			"Message-ID: <c@e>\n\ncover\n");
	add_message(st, "From: A <a@e.org>\nSubject: [PATCH 1/1] omap pm\n"
			"Message-ID: <p@e>\nIn-Reply-To: <c@e>\n\nx\n---\n"
			"diff --git a/arch/arm/mach-omap2/pm.c "
			"b/arch/arm/mach-omap2/pm.c\n--- a/arch/arm/mach-omap2/"
			"pm.c\n+++ b/arch/arm/mach-omap2/pm.c\n@@ -1 +1 @@\n"
			"-a\n+b\n");
	s.cover = "c@e";
	s.patches = g_ptr_array_new();
	g_ptr_array_add(s.patches, "p@e");
	g_assert_true(treeset_pick_series(ts, st, &s, NULL, &r, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(r.tree->name, ==, "omap");
	g_assert_cmpstr(r.reason, ==,
			"touches arch/arm/mach-omap2/pm.c (F: "
			"arch/arm/mach-omap2/ in the opt-in of "
			"tony@atomide.com); wins over arm (F: arch/arm/ in "
			"trees.d/arm.conf)");
	tree_pick_result_clear(&r);
	/* a message the store does not have */
	g_ptr_array_add(s.patches, "missing@e");
	g_assert_false(treeset_pick_series(ts, st, &s, NULL, &r, &error));
	g_assert_nonnull(error);
	g_ptr_array_unref(s.patches);

	g_clear_pointer(&st, store_free);
	{
		g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
		const char *name;

		while ((name = g_dir_read_name(d))) {
			g_autofree char *p = g_build_filename(dir, name, NULL);

			g_remove(p);
		}
	}
	g_rmdir(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/treeset/pick-stored", test_pick_stored);
	return g_test_run();
}
