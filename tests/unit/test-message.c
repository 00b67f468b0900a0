/* Unit tests of mailparse/message.c: what the store keeps of a mail is what
 * git am makes of it (mailparse/mailinfo.h, kernel/patch/am.c), for the
 * headers both read: the subject and the date. */
#include <string.h>

#include "mailparse/date.h"
#include "mailparse/mailinfo.h"
#include "mailparse/message.h"

/* A mail of @headers and a one-patch body, parsed for the store (*@msg)
 * and as git am reads it (*@mi). */
static void parse_both(const char *headers, struct message **msg,
		       struct mailinfo_result **mi)
{
	struct mailinfo_options opts = MAILINFO_OPTIONS_INIT;
	g_autofree char *text =
		g_strconcat("From: A U Thor <author@example.org>\n", headers,
			    "\nBody.\n---\ndiff --git a/x b/x\n", NULL);
	g_autoptr(GBytes) raw = g_bytes_new(text, strlen(text));
	g_autoptr(GError) error = NULL;

	*msg = message_parse(raw, &error);
	g_assert_no_error(error);
	*mi = mailinfo_run(raw, &opts);
}

/* A mail with @subject: the stored subject is @stored and, as git
 * mailinfo cleans it up, the commit subject. */
static void assert_same_subject(const char *subject, const char *stored)
{
	g_autofree char *headers = g_strdup_printf("Subject: %s\n", subject);
	g_autoptr(message) msg = NULL;
	g_autoptr(mailinfo_result) mi = NULL;
	g_autofree char *cleaned = NULL;

	parse_both(headers, &msg, &mi);
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

/* A mail with @date: the stored date is the author date git am gives
 * the commit (@expected, from `git log --date=raw`). */
static void assert_same_date(const char *date, gint64 expected)
{
	g_autofree char *headers =
		g_strdup_printf("Subject: [PATCH] x\nDate: %s\n", date);
	g_autoptr(message) msg = NULL;
	g_autoptr(mailinfo_result) mi = NULL;
	gint64 author = 0;
	int offset;

	parse_both(headers, &msg, &mi);
	if (!date_parse(mi->date, &author, &offset))
		author = 0;
	g_assert_cmpint(msg->date, ==, expected);
	g_assert_cmpint(msg->date, ==, author);
}

/* Dates libetpan's RFC 5322 parser (which message.c used) refused or read
 * otherwise: git's parser for both now. */
static void test_date_as_git_am(void)
{
	assert_same_date("Mon, 2 Jan 2023 10:00:00 +0100", 1672650000);
	/* not RFC 5322, but git takes them: libetpan stored 0 */
	assert_same_date("2023-01-02 10:00:00 +0100", 1672650000);
	assert_same_date("Mon Jan 2 10:00:00 2023 +0100", 1672650000);
	/* folded, and in a zone git knows by name */
	assert_same_date("Mon, 2 Jan 2023\n 10:00:00 EST", 1672671600);
	/* git refuses dates before 1970: no date */
	assert_same_date("Wed, 31 Dec 1969 23:59:59 +0000", 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/message/subject-as-git-am", test_subject_as_git_am);
	g_test_add_func("/message/date-as-git-am", test_date_as_git_am);
	return g_test_run();
}
