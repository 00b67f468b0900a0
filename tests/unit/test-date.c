/* Unit tests of mailparse/date.c: dates as git 2.39 reads them (`git
 * commit` with GIT_AUTHOR_DATE and `git log --date=raw`). */
#include "mailparse/date.h"

static void test_git_dates(void)
{
	static const struct {
		const char *in;
		gint64 ts;
		int off;
	} cases[] = {
		{ "Mon, 2 Jan 2023 10:00:00 +0100", 1672650000, 60 },
		{ "Tue, 21 Mar 2023 10:00:00 -0700 (PDT)", 1679418000, -420 },
		{ "2 Jan 2023 10:00:00 GMT", 1672653600, 0 },
		{ "Thu, 5 Oct 2017 13:37:42 +0530", 1507190862, 330 },
	};
	gint64 ts;
	int off;

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_assert_true(date_parse(cases[i].in, &ts, &off));
		g_assert_cmpint(ts, ==, cases[i].ts);
		g_assert_cmpint(off, ==, cases[i].off);
	}
	/* git: "invalid date format" before 1970 */
	g_assert_false(
		date_parse("Wed, 31 Dec 1969 23:59:59 +0000", &ts, &off));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/date/git", test_git_dates);
	return g_test_run();
}
