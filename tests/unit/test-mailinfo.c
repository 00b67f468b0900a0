/* Unit tests for mailparse/mailinfo.c and mailparse/charset.c: the pieces
 * of git mailinfo's rules, with git's own behaviour as the expectation. */
#include <string.h>

#include "mailparse/charset.h"
#include "mailparse/mailinfo.h"

static struct mailinfo_result *run(const char *mail,
				   const struct mailinfo_options *opts)
{
	struct mailinfo_options defaults = MAILINFO_OPTIONS_INIT;
	g_autoptr(GBytes) raw = g_bytes_new(mail, strlen(mail));

	return mailinfo_run(raw, opts ? opts : &defaults);
}

static void test_scissors(void)
{
	g_assert_true(mailinfo_is_scissors_line("-- >8 --\n"));
	g_assert_true(mailinfo_is_scissors_line("-- 8< --\n"));
	g_assert_true(mailinfo_is_scissors_line("------ >8 ------ cut here\n"));
	g_assert_true(mailinfo_is_scissors_line("  -- %< --  \n"));
	g_assert_false(mailinfo_is_scissors_line(">8\n"));
	g_assert_false(mailinfo_is_scissors_line("--------\n"));
	g_assert_false(mailinfo_is_scissors_line(
		"-- >8 -- this text is far too long for a cut mark\n"));
	g_assert_false(mailinfo_is_scissors_line(""));
}

static void test_patch_break(void)
{
	g_assert_true(mailinfo_is_patch_break("---\n", 4));
	g_assert_true(mailinfo_is_patch_break("---  \n", 6));
	g_assert_true(mailinfo_is_patch_break("--- a/file\n", 11));
	g_assert_true(mailinfo_is_patch_break("diff --git a/x b/x\n", 19));
	g_assert_true(mailinfo_is_patch_break("Index: x\n", 9));
	g_assert_false(mailinfo_is_patch_break("---", 3));
	g_assert_false(mailinfo_is_patch_break("----\n", 5));
	/* git: "--- " then the end of the string counts as a filename */
	g_assert_true(mailinfo_is_patch_break("--- ", 4));
	g_assert_false(mailinfo_is_patch_break("---\t", 4));
	g_assert_true(mailinfo_is_patch_break("diff -u a b\n", 12));
}

static void assert_subject(const char *in, gboolean b, const char *expected)
{
	g_autofree char *out = mailinfo_cleanup_subject(in, b);

	g_assert_cmpstr(out, ==, expected);
}

static void test_subject(void)
{
	assert_subject("[PATCH] [other] [PATCH] message", FALSE, "message");
	assert_subject("[PATCH] [other] [PATCH] message", TRUE,
		       "[other] message");
	assert_subject("Re: Re: Re: [PATCH 1/5 v2] [foo] third", FALSE,
		       "third");
	assert_subject("Re: Re: Re: [PATCH 1/5 v2] [foo] third", TRUE,
		       "[foo] third");
	assert_subject("RE:re: x", FALSE, "x");
	assert_subject("Re:", FALSE, "Re:");
	assert_subject("Revert \"x\"", FALSE, "Revert \"x\"");
	assert_subject("[PATCH no close", FALSE, "[PATCH no close");
	assert_subject("  a\t\tb  c ", FALSE, "a b c");
	assert_subject("", FALSE, "");
}

static void test_full_mail(void)
{
	g_autoptr(mailinfo_result)
		r = run("From: =?UTF-8?q?J=C3=B6rg?= <j@example.org>\n"
			"Subject: [PATCH v2 3/4] arm: fix\n"
			"  the thing\n"
			"Date: Mon, 15 Jun 2020 10:00:00 +0200\n"
			"Message-ID: <id@x>\n"
			"\n"
			"The message.\n"
			"---\n"
			" a | 1 +\n"
			"diff --git a/a b/a\n",
			NULL);

	g_assert_false(r->failed);
	g_assert_cmpstr(r->author, ==, "Jörg");
	g_assert_cmpstr(r->email, ==, "j@example.org");
	g_assert_cmpstr(r->subject, ==, "arm: fix the thing");
	g_assert_cmpstr(r->date, ==, "Mon, 15 Jun 2020 10:00:00 +0200");
	g_assert_cmpstr(r->message_id, ==, "<id@x>");
	g_assert_cmpstr(r->info->str, ==,
			"Author: Jörg\nEmail: j@example.org\n"
			"Subject: arm: fix the thing\n"
			"Date: Mon, 15 Jun 2020 10:00:00 +0200\n\n");
	g_assert_cmpstr(r->msg->str, ==, "The message.\n");
	g_assert_cmpstr(r->patch->str, ==,
			"---\n a | 1 +\ndiff --git a/a b/a\n");
}

static void test_threading(void)
{
	g_autoptr(mailinfo_result)
		r = run("From 1234 Mon Sep 17 00:00:00 2001\n"
			"From: a <a@b>\n"
			"Subject: Re: x\n"
			"Message-ID: <reply@example.org> (a comment)\n"
			"In-Reply-To: <parent@example.org>\n"
			"References: <root@example.org>\n"
			"\t<parent@example.org>\n"
			"\n"
			"body\n",
			NULL);
	g_autoptr(mailinfo_result) none = run("Subject: x\n\nb\n", NULL);
	g_autoptr(mailinfo_result) folded =
		run("Return-Path: <unterminated\nmessage-id:\n <f@x>\r\n"
		    "In-Reply-To: <a@x> (Alice's message of today)\n\nb\n",
		    NULL);

	g_assert_cmpstr(r->msgid, ==, "reply@example.org");
	g_assert_cmpstr(r->message_id, ==, "<reply@example.org> (a comment)");
	g_assert_cmpstr(r->in_reply_to, ==, "parent@example.org");
	g_assert_cmpuint(r->references->len, ==, 2);
	g_assert_cmpstr(r->references->pdata[0], ==, "root@example.org");
	g_assert_cmpstr(r->references->pdata[1], ==, "parent@example.org");
	g_assert_cmpstr(folded->msgid, ==, "f@x");
	g_assert_cmpstr(folded->in_reply_to, ==, "a@x");
	g_assert_null(none->msgid);
	g_assert_null(none->in_reply_to);
	g_assert_cmpuint(none->references->len, ==, 0);
}

static void test_options(void)
{
	struct mailinfo_options opts = MAILINFO_OPTIONS_INIT;
	const char *mail =
		"From: a <a@b>\nSubject: [PATCH] s\nMessage-ID: <m>\n"
		"\nFrom: Other <o@b>\n\nintro\n-- >8 --\n"
		"Subject: cut\n\nafter\n---\ndiff -u x y\n";
	g_autoptr(mailinfo_result) plain = run(mail, &opts);
	g_autoptr(mailinfo_result) scissors = NULL;
	g_autoptr(mailinfo_result) noinbody = NULL;
	g_autoptr(mailinfo_result) msgid = NULL;

	g_assert_cmpstr(plain->author, ==, "Other");
	g_assert_cmpstr(plain->msg->str, ==,
			"intro\n-- >8 --\nSubject: cut\n\n"
			"after\n");
	opts.use_scissors = 1;
	scissors = run(mail, &opts);
	g_assert_cmpstr(scissors->author, ==, "a");
	g_assert_cmpstr(scissors->subject, ==, "cut");
	g_assert_cmpstr(scissors->msg->str, ==, "after\n");
	opts.use_scissors = -1;
	opts.use_inbody_headers = FALSE;
	noinbody = run(mail, &opts);
	g_assert_cmpstr(noinbody->author, ==, "a");
	g_assert_cmpstr(noinbody->msg->str, ==,
			"From: Other <o@b>\n\nintro\n-- >8 --\nSubject: cut\n\n"
			"after\n");
	opts.use_inbody_headers = TRUE;
	opts.add_message_id = TRUE;
	msgid = run(mail, &opts);
	g_assert_true(g_str_has_suffix(msgid->msg->str, "\nMessage-Id: <m>\n"));
}

static void test_bad_input(void)
{
	struct mailinfo_options opts = MAILINFO_OPTIONS_INIT;
	g_autoptr(mailinfo_result) empty = run(" \n\t\n", NULL);
	g_autoptr(mailinfo_result) charset = run(
		"From: a <a@b>\nContent-Type: text/plain; charset=x-none\n\n"
		"text\n",
		NULL);
	g_autoptr(mailinfo_result) nul =
		run("From: a <a@b>\nSubject: =?UTF-8?Q?x=00y?=\n\nb\n", NULL);
	g_autoptr(mailinfo_result) parsed = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) deep = NULL;
	g_autoptr(GString) s = g_string_new("From: a <a@b>\n");
	g_autoptr(mailinfo_result) toodeep = NULL;

	g_assert_true(empty->empty && empty->failed);
	g_assert_cmpstr(empty->problem, ==, "empty patch");
	g_assert_true(charset->failed);
	g_assert_cmpstr(charset->diagnostics->str, ==,
			"error: cannot convert from x-none to UTF-8\n");
	g_assert_cmpstr(charset->msg->str, ==, "");
	g_assert_true(nul->failed);
	g_assert_cmpstr(nul->problem, ==,
			"a NUL byte in 'Subject' is not allowed.");

	/* the GError form */
	deep = g_bytes_new_static("From: a\nSubject: =?bad\n\nb\n", 26);
	g_assert_false(mailinfo_parse(&parsed, deep, &opts, &error));
	g_assert_null(parsed);
	g_assert_cmpstr(
		error->message, ==,
		"malformed RFC 2047 encoded word in the Subject header");

	/* five nested boundaries: git gives up on the fifth */
	for (int i = 0; i < 5; i++)
		g_string_append_printf(s,
				       "Content-Type: multipart/mixed; "
				       "boundary=b%d\n",
				       i);
	g_string_append(s, "\n--b3\n\nx\n");
	toodeep = run(s->str, NULL);
	g_assert_true(toodeep->failed);
	g_assert_cmpstr(toodeep->diagnostics->str, ==,
			"error: Too many boundaries to handle\n");
}

static void test_huge_input(void)
{
	/* linear time on hostile shapes: long whitespace runs, many
	 * prefixes, one long base64 line without newlines */
	g_autoptr(GString) s = g_string_new("From: a <a@b>\nSubject: ");
	g_autoptr(mailinfo_result) r = NULL;

	for (int i = 0; i < 200000; i++)
		g_string_append(s, "Re: [x]  \t ");
	g_string_append(s, "end\nContent-Transfer-Encoding: base64\n\n");
	for (int i = 0; i < 100000; i++)
		g_string_append(s, "QUFB");
	g_string_append(s, "\n");
	r = run(s->str, NULL);
	g_assert_cmpstr(r->subject, ==, "end");
	g_assert_cmpuint(r->msg->len, ==, 300000);
}

static void test_charset(void)
{
	g_autoptr(charset_converter) conv = charset_converter_new();
	gsize len;
	g_autofree char *latin = NULL;
	g_autofree char *again = NULL;
	g_autofree char *bad = NULL;
	g_autofree char *fallback = NULL;

	g_assert_true(charset_same_encoding("UTF-8", "utf8"));
	g_assert_true(charset_same_encoding(NULL, "Utf-8"));
	g_assert_true(charset_same_encoding("latin1", "LATIN1"));
	g_assert_false(charset_same_encoding("UTF-8", "UTF-16"));
	latin = charset_convert(conv, "caf\xe9", 4, "UTF-8", "ISO-8859-1",
				&len);
	g_assert_cmpstr(latin, ==, "café");
	/* the cached descriptor gives the same again */
	again = charset_convert(conv, "caf\xe9", 4, "UTF-8", "ISO-8859-1",
				&len);
	g_assert_cmpstr(again, ==, "café");
	bad = charset_convert(conv, "\xff", 1, "UTF-16", "UTF-8", &len);
	g_assert_null(bad);
	fallback = charset_convert(conv, "x", 1, "UTF-8", "latin-1", &len);
	g_assert_cmpstr(fallback, ==, "x");
	g_assert_null(charset_convert(conv, "x", 1, "UTF-8", "no-such", &len));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mailinfo/scissors", test_scissors);
	g_test_add_func("/mailinfo/patch-break", test_patch_break);
	g_test_add_func("/mailinfo/subject", test_subject);
	g_test_add_func("/mailinfo/full-mail", test_full_mail);
	g_test_add_func("/mailinfo/threading", test_threading);
	g_test_add_func("/mailinfo/options", test_options);
	g_test_add_func("/mailinfo/bad-input", test_bad_input);
	g_test_add_func("/mailinfo/huge-input", test_huge_input);
	g_test_add_func("/mailinfo/charset", test_charset);
	return g_test_run();
}
