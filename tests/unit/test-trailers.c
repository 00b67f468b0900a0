/* Unit tests for mailparse/trailers.c. */
#include "mailparse/trailers.h"

static void test_parse(void)
{
	g_autoptr(GPtrArray) t = trailers_parse(
		"Looks good.  Please add Reviewed-by when resending.\n"
		"> Acked-by: Quoted Person <q@example.com>\n"
		"Reviewed-by: is what I would give\n"
		"Reviewed-by: Re Viewer <r@example.com>\n"
		"tested-by: t@example.com\n"
		"Fixes: 0123456789ab (\"foo: bar\")\n"
		"Fixes: the bug\n"
		"Link: https://lore.kernel.org/r/x@y\n");
	const char *want[][2] = {
		{ "Reviewed-by", "Re Viewer <r@example.com>" },
		{ "Tested-by", "t@example.com" },
		{ "Fixes", "0123456789ab (\"foo: bar\")" },
		{ "Link", "https://lore.kernel.org/r/x@y" },
	};

	g_assert_cmpuint(t->len, ==, G_N_ELEMENTS(want));
	for (guint i = 0; i < t->len; i++) {
		struct trailer *x = t->pdata[i];

		g_assert_cmpstr(x->name, ==, want[i][0]);
		g_assert_cmpstr(x->value, ==, want[i][1]);
	}
}

static void test_info(void)
{
	struct trailers_info info = { 0 };

	trailers_info_parse(&info, "text\n\nbase-commit: abc123\n"
				   "prerequisite-patch-id: 1111\n"
				   "prerequisite-message-id: <m@x>\n"
				   "change-id: 20240101-foo-1234\n");
	g_assert_cmpstr(info.base_commit, ==, "abc123");
	g_assert_cmpstr(info.change_id, ==, "20240101-foo-1234");
	g_assert_cmpuint(info.prerequisite_patch_ids->len, ==, 1);
	g_assert_cmpstr(info.prerequisite_message_ids->pdata[0], ==, "m@x");
	trailers_info_clear(&info);
}

static void test_fold(void)
{
	g_autoptr(GPtrArray) extra =
		g_ptr_array_new_with_free_func((GDestroyNotify)trailer_free);
	struct trailer *t = g_new(struct trailer, 1);
	g_autofree char *out = NULL;
	g_autofree char *again = NULL;

	t->name = g_strdup("Acked-by");
	t->value = g_strdup("A <a@x>");
	g_ptr_array_add(extra, t);
	out = trailers_fold("subject body\n\nSigned-off-by: S <s@x>\n---\n"
			    " f | 1 +\n",
			    extra);
	g_assert_cmpstr(out, ==,
			"subject body\n\nSigned-off-by: S <s@x>\n"
			"Acked-by: A <a@x>\n---\n f | 1 +\n");
	/* folding twice adds nothing */
	again = trailers_fold(out, extra);
	g_assert_cmpstr(again, ==, out);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/trailers/parse", test_parse);
	g_test_add_func("/trailers/info", test_info);
	g_test_add_func("/trailers/fold", test_fold);
	return g_test_run();
}
