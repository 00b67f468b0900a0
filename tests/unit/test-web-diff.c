/* Unit tests of bot/web/diff.c and bot/web/archive.c: the line kinds of
 * a patch (a "-- " signature after the last hunk is not a removed line,
 * hunks are counted by their headers), markup in a diff escaped, and the
 * archive URL of a Message-ID per list. */
#include <string.h>

#include "bot/web/archive.h"
#include "bot/web/diff.h"
#include "mailparse/listid.h"

static const char patch[] = "---\n"
			    " a/b.c | 2 +-\n"
			    "\n"
			    "diff --git a/a/b.c b/a/b.c\n"
			    "index 1111111..2222222 100644\n"
			    "--- a/a/b.c\n"
			    "+++ b/a/b.c\n"
			    "@@ -1,3 +1,3 @@ int f(void)\n"
			    " one\n"
			    "--- two <script>\n"
			    "+++ two & three\n"
			    " four\n"
			    "-- \n"
			    "2.39.5\n";

static void test_kinds(void)
{
	static const char *const has[] = {
		"<pre class=\"diff\" id=\"d&quot;1\">",
		"<span class=\"d-stat\"> a/b.c | 2 +-\n",
		"<span class=\"d-file\">diff --git a/a/b.c b/a/b.c\n",
		"<span class=\"d-meta\">index 1111111..2222222 100644\n",
		"<span class=\"d-file\">--- a/a/b.c\n",
		"<span class=\"d-file\">+++ b/a/b.c\n",
		"<span class=\"d-hunk\">@@ -1,3 +1,3 @@ int f(void)\n",
		"<span class=\"d-ctx\"> one\n",
		/* in the hunk: a removed line that starts "--", escaped */
		"<span class=\"d-del\">--- two &lt;script&gt;\n",
		"<span class=\"d-add\">+++ two &amp; three\n",
		/* the hunk is over: the signature is not a removed line */
		"<span class=\"d-meta\">-- \n",
	};
	g_autoptr(GString) out = g_string_new(NULL);

	web_diff_append(out, "d\"1", patch, strlen(patch));
	for (guint i = 0; i < G_N_ELEMENTS(has); i++)
		if (!strstr(out->str, has[i]))
			g_error("no '%s' in\n%s", has[i], out->str);
	g_assert_null(strstr(out->str, "<script>"));
}

static void test_bad_hunks(void)
{
	static const char *const bad[] = {
		"diff --git a/x b/x\n@@ -99999999999999999999999 +1 @@\n-a\n",
		"diff --git a/x b/x\n@@ -,\n+a\n",
		"diff --git a/x b/x\n@@ -1,2 +1,2 @@\n",
		"diff --git a/x b/x\n@@ -1 +1 @@\n\\ No newline\nzzz\n",
		"",
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GString) out = g_string_new(NULL);

		web_diff_append(out, "x", bad[i], strlen(bad[i]));
		g_assert_true(g_str_has_suffix(out->str, "</pre>\n"));
	}
}

static void test_archive(void)
{
	const char *const t[] = {
		"linux-arm-kernel@lists.infradead.org "
		"https://lore.kernel.org/linux-arm-kernel/%s/",
		"* https://lore.kernel.org/all/%s/?q=100%%",
		NULL,
	};
	g_autofree char *a = listid_to_address(
		"Linux ARM <linux-arm-kernel.lists.infradead.org>");
	g_autofree char *b = listid_to_address("<nodot>");
	g_autofree char *c = listid_to_address("a\"b.example.org");
	g_autofree char *u1 = web_archive_url(t, a, "<1.2@x.org>");
	g_autofree char *u2 =
		web_archive_url(t, "other@vger.kernel.org", "a/b c@x.org");
	g_autofree char *u3 = web_archive_url(t + 2, a, "1@x");

	g_assert_cmpstr(a, ==, "linux-arm-kernel@lists.infradead.org");
	g_assert_null(b);
	g_assert_null(c);
	g_assert_cmpstr(u1, ==,
			"https://lore.kernel.org/linux-arm-kernel/1.2@x.org/");
	g_assert_cmpstr(u2, ==,
			"https://lore.kernel.org/all/a%2Fb%20c@x.org/?q=100%");
	g_assert_null(u3);
}

static void test_list_html(void)
{
	g_autoptr(GString) a = g_string_new(NULL);
	g_autoptr(GString) b = g_string_new(NULL);

	web_archive_list_append(a, "<linux-arm-kernel.lists.infradead.org>");
	web_archive_list_append(b, "\"><b>x</b>");
	g_assert_cmpstr(a->str, ==,
			"<span class=\"list\" title=\"List-Id: "
			"&lt;linux-arm-kernel.lists.infradead.org&gt;\">"
			"linux-arm-kernel@lists.infradead.org</span>");
	g_assert_cmpstr(b->str, ==,
			"<span class=\"list\" title=\"List-Id: "
			"&quot;&gt;&lt;b&gt;x&lt;/b&gt;\">&quot;&gt;&lt;b&gt;"
			"x&lt;/b&gt;</span>");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/web-diff/kinds", test_kinds);
	g_test_add_func("/web-diff/bad-hunks", test_bad_hunks);
	g_test_add_func("/web-diff/archive", test_archive);
	g_test_add_func("/web-diff/list-html", test_list_html);
	return g_test_run();
}
