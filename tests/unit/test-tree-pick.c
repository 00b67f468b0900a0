/* Unit tests for bot/daemon/tree-pick.c: the order of the steps, path
 * specificity and the reasons. */
#include <string.h>

#include "bot/daemon/tree-pick.h"
#include "kernel/tree/tree.h"

static struct config_policy defaults = {
	CONFIG_CHECK_ALL,
	CONFIG_REPLY_ALWAYS,
	CONFIG_REPLY_TO_LIST,
	20,
	TRUE,
	CONFIG_UNKNOWN_BASE_SILENT,
	CONFIG_UPDATE_INTERVAL_DEFAULT,
};

static void add_tree(GPtrArray *trees, const char *name, const char *text)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *origin = g_strdup_printf("trees.d/%s.conf", name);
	struct treefile *tf =
		treefile_parse(name, origin, text, &defaults, NULL, &error);

	g_assert_no_error(error);
	g_ptr_array_add(trees, tf);
}

static GPtrArray *make_trees(void)
{
	GPtrArray *trees =
		g_ptr_array_new_with_free_func((GDestroyNotify)treefile_free);

	add_tree(trees, "arm",
		 "[tree]\nurl=https://example.org/arm.git\n"
		 "lists=linux-arm-kernel@lists.infradead.org\n"
		 "[paths]\nF=arch/arm/\nX=arch/arm/boot/dts/\n");
	add_tree(trees, "omap",
		 "[tree]\nurl=https://example.org/omap.git\n"
		 "lists=linux-omap@vger.kernel.org\n"
		 "[paths]\nF=arch/arm/mach-omap2/;drivers/bus/ti-sysc.c\n");
	add_tree(trees, "soc-next",
		 "[tree]\nurl=https://example.org/soc.git\n"
		 "[paths]\nF=arch/arm/mach-*/;arch/arm/plat-*/\n");
	add_tree(trees, "net",
		 "[tree]\nurl=https://example.org/net.git\n"
		 "[paths]\nF=drivers/net/;net/\n");
	return trees;
}

/* A patch mail touching @files (blank separated) with @subject, @headers
 * and @body_extra before the diff. */
static struct message *patch(const char *subject, const char *headers,
			     const char *files, const char *body_extra)
{
	g_auto(GStrv) list = g_strsplit(files, " ", -1);
	GString *t = g_string_new(NULL);
	g_autoptr(GBytes) raw = NULL;
	g_autoptr(GError) error = NULL;
	struct message *msg;

	g_string_append_printf(t,
			       "From: A <a@example.org>\nSubject: %s\n"
			       "Message-ID: <%s@x>\n%s\nmessage\n---\n",
			       subject, files, headers);
	for (guint i = 0; list[i]; i++)
		g_string_append_printf(t,
				       "diff --git a/%s b/%s\n"
				       "index 1111111..2222222 100644\n"
				       "--- a/%s\n+++ b/%s\n@@ -1 +1 @@\n"
				       "-a\n+b\n",
				       list[i], list[i], list[i], list[i]);
	g_string_append_printf(t, "%s-- \n2.39.5\n", body_extra);
	raw = g_bytes_new(t->str, t->len);
	g_string_free(t, TRUE);
	msg = message_parse(raw, &error);
	g_assert_no_error(error);
	return msg;
}

static gboolean has_commit(const struct treefile *tf, const char *hex,
			   gpointer data)
{
	return !strcmp(tf->name, data) && g_str_has_prefix(hex, "1234abcd");
}

/* Pick for one mail; checks tree and reason. */
static void check(struct message *msg, const char *tree, enum tree_pick_by by,
		  const char *reason)
{
	g_autoptr(GPtrArray) trees = make_trees();
	g_autoptr(GPtrArray) msgs =
		g_ptr_array_new_with_free_func((GDestroyNotify)message_free);
	g_autoptr(tree_pick_series) s = NULL;
	g_autoptr(treefile) distro = treefile_new_distro(&defaults);
	struct tree_pick_result r;

	g_ptr_array_add(msgs, msg);
	s = tree_pick_series_new(msgs);
	tree_pick(s, trees, distro, has_commit, "soc-next", &r);
	g_assert_cmpstr(r.tree->name, ==, tree);
	g_assert_cmpstr(r.reason, ==, reason);
	g_assert_cmpint(r.by, ==, by);
	tree_pick_result_clear(&r);
}

static void test_steps(void)
{
	check(patch("[PATCH soc-next v2 1/3] ARM: omap2: x", "",
		    "arch/arm/mach-omap2/pm.c", ""),
	      "soc-next", TREE_PICK_PREFIX,
	      "subject prefix [PATCH soc-next v2 1/3] names tree soc-next "
	      "(trees.d/soc-next.conf)");
	check(patch("[PATCH] ARM: omap2: x", "", "arch/arm/mach-omap2/pm.c",
		    "\nbase-commit: 1234abcd5678\n"),
	      "soc-next", TREE_PICK_BASE_COMMIT,
	      "base-commit 1234abcd5678 found in soc-next");
	check(patch("[PATCH] ARM: omap2: x", "", "arch/arm/mach-omap2/pm.c",
		    "\nbase-commit: ffffabcd5678\n"),
	      "omap", TREE_PICK_PATHS,
	      "touches arch/arm/mach-omap2/pm.c (F: arch/arm/mach-omap2/ in "
	      "trees.d/omap.conf); wins over soc-next (F: arch/arm/mach-*/ "
	      "in trees.d/soc-next.conf)");
	check(patch("[PATCH] ARM: dts: x",
		    "List-Id: <linux-omap.vger.kernel.org>\n",
		    "arch/arm/boot/dts/omap4.dtsi", ""),
	      "omap", TREE_PICK_LIST,
	      "came from list linux-omap.vger.kernel.org "
	      "(linux-omap@vger.kernel.org in trees.d/omap.conf)");
	check(patch("[PATCH] ARM: dts: x",
		    "Cc: Linux-ARM-Kernel@lists.infradead.org\n",
		    "arch/arm/boot/dts/omap4.dtsi", ""),
	      "arm", TREE_PICK_LIST,
	      "came from list linux-arm-kernel@lists.infradead.org "
	      "(linux-arm-kernel@lists.infradead.org in trees.d/arm.conf)");
	check(patch("[PATCH] fs: x", "", "fs/ext4/inode.c", ""), "distro-6.1",
	      TREE_PICK_DISTRO,
	      "no tree claims it (no subject prefix, base-commit, path or "
	      "list matched): the distro tree distro-6.1");
	/* an unknown topic word does not decide */
	check(patch("[PATCH net-next] fs: x", "", "fs/ext4/inode.c", ""),
	      "distro-6.1", TREE_PICK_DISTRO,
	      "no tree claims it (no subject prefix, base-commit, path or "
	      "list matched): the distro tree distro-6.1");
}

static void test_specificity(void)
{
	/* three files under arm's paths only, one under omap's: arm owns
	 * three files, omap one */
	check(patch("[PATCH] ARM: x", "",
		    "arch/arm/kernel/setup.c arch/arm/mm/init.c "
		    "arch/arm/kernel/smp.c arch/arm/mach-omap2/pm.c",
		    ""),
	      "arm", TREE_PICK_PATHS,
	      "touches arch/arm/kernel/setup.c (F: arch/arm/ in "
	      "trees.d/arm.conf) and 3 more files; wins over omap "
	      "(F: arch/arm/mach-omap2/ in trees.d/omap.conf)");
	/* one file each: the deeper match wins (a file pattern is one
	 * deeper than its directory) */
	check(patch("[PATCH] bus: x", "",
		    "drivers/bus/ti-sysc.c drivers/net/x.c", ""),
	      "omap", TREE_PICK_PATHS,
	      "touches drivers/bus/ti-sysc.c (F: drivers/bus/ti-sysc.c in "
	      "trees.d/omap.conf); it covers 1 of the 2 files; wins over net "
	      "(F: drivers/net/ in trees.d/net.conf)");
}

static void test_literal(void)
{
	/* arch/arm/mach-omap2/ and arch/arm/mach-* both have depth 3: the
	 * longer literal start is the more specific */
	check(patch("[PATCH] ARM: x", "", "arch/arm/mach-omap2/pm.c", ""),
	      "omap", TREE_PICK_PATHS,
	      "touches arch/arm/mach-omap2/pm.c (F: arch/arm/mach-omap2/ in "
	      "trees.d/omap.conf); wins over soc-next (F: arch/arm/mach-*/ in "
	      "trees.d/soc-next.conf)");
	/* two machines: soc-next owns the other one and covers both */
	check(patch("[PATCH] ARM: x", "",
		    "arch/arm/mach-omap2/pm.c arch/arm/mach-exynos/pm.c", ""),
	      "soc-next", TREE_PICK_PATHS,
	      "touches arch/arm/mach-omap2/pm.c (F: arch/arm/mach-*/ in "
	      "trees.d/soc-next.conf) and 1 more file; wins over omap (F: "
	      "arch/arm/mach-omap2/ in trees.d/omap.conf)");
}

static void test_series_input(void)
{
	g_autoptr(GPtrArray) msgs =
		g_ptr_array_new_with_free_func((GDestroyNotify)message_free);
	g_autoptr(tree_pick_series) s = NULL;

	g_ptr_array_add(msgs, patch("[PATCH omap 0/2] cover", "", "a/b.c", ""));
	g_ptr_array_add(
		msgs,
		patch("[PATCH omap 1/2] x",
		      "List-Id: Linux OMAP <Linux-OMAP.vger.kernel.org>\n",
		      "a/b.c a/c.c", ""));
	s = tree_pick_series_new(msgs);
	g_assert_cmpuint(s->topics->len, ==, 1);
	g_assert_cmpstr(s->topics->pdata[0], ==, "omap");
	g_assert_cmpstr(s->prefix, ==, "[PATCH omap 0/2]");
	g_assert_cmpuint(s->files->len, ==, 2);
	g_assert_cmpstr(s->list_ids->pdata[0], ==,
			"linux-omap.vger.kernel.org");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tree-pick/steps", test_steps);
	g_test_add_func("/tree-pick/specificity", test_specificity);
	g_test_add_func("/tree-pick/literal", test_literal);
	g_test_add_func("/tree-pick/series", test_series_input);
	return g_test_run();
}
