/* Unit tests for mailparse/classify.c. */
#include <string.h>

#include "mailparse/classify.h"

static enum classify_kind kind_of(const char *text)
{
	g_autoptr(GBytes) raw = g_bytes_new_static(text, strlen(text));
	g_autoptr(message) msg = message_parse(raw, NULL);
	struct subject_tags tags = SUBJECT_TAGS_INIT;
	g_autofree char *patch = NULL;
	g_autofree char *body = NULL;
	enum classify_kind k;

	g_assert_nonnull(msg);
	body = message_body_text(msg, &patch);
	subject_tags_parse(&tags, msg->subject);
	k = classify_message(msg, &tags, body,
			     classify_has_diff(patch) ? patch : NULL);
	subject_tags_clear(&tags);
	return k;
}

#define DIFF "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"

static void test_kinds(void)
{
	g_assert_cmpint(
		kind_of("From: a@x\nSubject: [PATCH 1/2] x\n\nmsg\n---\n" DIFF),
		==, CLASSIFY_PATCH);
	g_assert_cmpint(kind_of("From: a@x\nSubject: [PATCH 0/2] x\n\ncover\n"),
			==, CLASSIFY_COVER);
	g_assert_cmpint(kind_of("From: a@x\nSubject: Re: [PATCH 1/2] x\n"
				"In-Reply-To: <p@x>\n\n> " DIFF "ok\n"),
			==, CLASSIFY_REPLY);
	g_assert_cmpint(kind_of("From: a@x\nSubject: [GIT PULL] soc\n\nhi\n"),
			==, CLASSIFY_PULL);
	g_assert_cmpint(kind_of("From: a@x\nSubject: soc\n\nare available in "
				"the Git repository at:\n\n  "
				"git://git.kernel.org/pub/x.git tags/t\n\n"
				"for you to fetch changes\n"),
			==, CLASSIFY_PULL);
	g_assert_cmpint(
		kind_of("From: lkp@intel.com\nSubject: Re: [PATCH] x\n\nbuild\n"),
		==, CLASSIFY_BOT);
	g_assert_cmpint(kind_of("From: a@x\nAuto-Submitted: auto-generated\n"
				"Subject: report\n\nx\n"),
			==, CLASSIFY_BOT);
	g_assert_cmpint(kind_of("From: a@x\nSubject: hello\n\nx\n"), ==,
			CLASSIFY_OTHER);
}

static void test_quoted_diff(void)
{
	g_assert_false(classify_has_diff("> diff --git a/f b/f\n> --- a/f\n"));
	g_assert_true(classify_has_diff(
		"Index: f\n====\n--- f\n+++ f\n@@ -1 +1 @@\n"));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/classify/kinds", test_kinds);
	g_test_add_func("/classify/quoted-diff", test_quoted_diff);
	return g_test_run();
}
