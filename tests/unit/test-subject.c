/* Unit tests for mailparse/subject.c: the tag shapes of the issue. */
#include "mailparse/subject.h"

struct tcase {
	const char *subject;
	gboolean reply, patch, rfc, resend;
	guint version, minor, index, total;
	const char *topic, *clean;
};

static void test_shapes(void)
{
	static const struct tcase cases[] = {
		{ "[PATCH net-next v2 3/9] net: foo", 0, 1, 0, 0, 2, 0, 3, 9,
		  "net-next", "net: foo" },
		{ "[RFC PATCH v3 00/12] cover", 0, 1, 1, 0, 3, 0, 0, 12, NULL,
		  "cover" },
		{ "[PATCH 0 of 2] hg", 0, 1, 0, 0, 1, 0, 0, 2, NULL, "hg" },
		{ "[PATCHv2 1/3] glued", 0, 1, 0, 0, 2, 0, 1, 3, NULL,
		  "glued" },
		{ "[PATCH v2.1 3/9] partial", 0, 1, 0, 0, 2, 1, 3, 9, NULL,
		  "partial" },
		{ "[PATCH1/8] no space", 0, 1, 0, 0, 1, 0, 1, 8, NULL,
		  "no space" },
		{ "[net,v2,1/2] commas", 0, 0, 0, 0, 2, 0, 1, 2, "net",
		  "commas" },
		{ "Re: [PATCH RESEND 2/2] re", 1, 1, 0, 1, 1, 0, 2, 2, NULL,
		  "re" },
		{ "[RESEND] bare", 0, 0, 0, 1, 1, 0, 0, 1, NULL, "bare" },
		{ "[PATCH v2 RESEND] after", 0, 1, 0, 1, 2, 0, 0, 1, NULL,
		  "after" },
		{ "[RESEND PATCH v3 0/4] before", 0, 1, 0, 1, 3, 0, 0, 4, NULL,
		  "before" },
		{ "[PATCH V3 (RESEND) 1/3] parens", 0, 1, 0, 1, 3, 0, 1, 3,
		  NULL, "parens" },
		{ "[PATCH (net) 1/3] not a tag", 0, 1, 0, 0, 1, 0, 1, 3,
		  "(net)", "not a tag" },
		{ "[Patch 2/2]: colon", 0, 1, 0, 0, 1, 0, 2, 2, NULL, "colon" },
		{ "plain  text\t subject", 0, 0, 0, 0, 1, 0, 0, 1, NULL,
		  "plain text subject" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		const struct tcase *c = &cases[i];
		struct subject_tags t = SUBJECT_TAGS_INIT;

		subject_tags_parse(&t, c->subject);
		g_assert_cmpint(t.reply, ==, c->reply);
		g_assert_cmpint(t.patch, ==, c->patch);
		g_assert_cmpint(t.rfc, ==, c->rfc);
		g_assert_cmpint(t.resend, ==, c->resend);
		g_assert_cmpuint(t.version, ==, c->version);
		g_assert_cmpuint(t.version_minor, ==, c->minor);
		g_assert_cmpuint(t.index, ==, c->index);
		g_assert_cmpuint(t.total, ==, c->total);
		g_assert_cmpstr(t.topic, ==, c->topic);
		g_assert_cmpstr(t.clean, ==, c->clean);
		subject_tags_clear(&t);
	}
}

static void test_version_cmp(void)
{
	g_assert_cmpint(subject_version_cmp(2, 1, 2, 0), >, 0);
	g_assert_cmpint(subject_version_cmp(2, 0, 3, 0), <, 0);
	g_assert_cmpint(subject_version_cmp(1, 0, 1, 0), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/subject/shapes", test_shapes);
	g_test_add_func("/subject/version-cmp", test_version_cmp);
	return g_test_run();
}
