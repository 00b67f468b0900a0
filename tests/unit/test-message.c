/* Unit tests of mailparse/message.c: what the store keeps of a mail is what
 * git am makes of it (mailparse/mailinfo.h), for the headers both read. */
#include <string.h>

#include "mailparse/mailinfo.h"
#include "mailparse/message.h"

/* A mail with @subject, parsed both ways; the stored subject, as
 * git mailinfo cleans it up, is the commit subject. */
static void assert_same_subject(const char *subject, const char *stored)
{
	struct mailinfo_options opts = MAILINFO_OPTIONS_INIT;
	g_autofree char *text = g_strdup_printf(
		"From: A U Thor <author@example.org>\n"
		"Subject: %s\n"
		"Message-ID: <1@example.org>\n"
		"\n"
		"Body.\n"
		"---\n"
		"diff --git a/x b/x\n",
		subject);
	g_autoptr(GBytes) raw = g_bytes_new(text, strlen(text));
	g_autoptr(GError) error = NULL;
	g_autoptr(message) msg = message_parse(raw, &error);
	g_autoptr(mailinfo_result) mi = mailinfo_run(raw, &opts);
	g_autofree char *cleaned = NULL;

	g_assert_no_error(error);
	g_assert_cmpstr(msg->subject, ==, stored);
	cleaned = mailinfo_cleanup_subject(msg->subject, FALSE);
	g_assert_cmpstr(cleaned, ==, mi->subject);
}

/* Subjects on which libetpan's RFC 2047 decoder (which message.c used)
 * and git's (mailinfo.c's) disagreed: one decoder now. */
static void test_subject_as_git_am(void)
{
	/* libetpan read the subject as an RFC 5322 phrase and dropped the
	 * quotes around an encoded word: "Revert ARM: dts: café" */
	assert_same_subject(
		"[PATCH v2 1/2] Revert \"=?UTF-8?Q?ARM:_dts:_caf=C3=A9?=\"",
		"[PATCH v2 1/2] Revert \"ARM: dts: café\"");
	/* a charset iconv does not know: git keeps the whole header as it
	 * was, libetpan decoded the rest ("ARM: fixé") */
	assert_same_subject("[PATCH] =?UTF-8?Q?ARM:_fix?= =?x-unknown?Q?=E9?=",
			    "[PATCH] =?UTF-8?Q?ARM:_fix?= =?x-unknown?Q?=E9?=");
	/* an encoded word inside a word, blanks inside a Q word */
	assert_same_subject("[PATCH] foo=?UTF-8?Q?=C3=A9?=bar =?UTF-8?Q?a b?=",
			    "[PATCH] fooébar a b");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/message/subject-as-git-am", test_subject_as_git_am);
	return g_test_run();
}
