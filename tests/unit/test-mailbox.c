/* Unit tests for mailparse/mailbox.c: splitting as git mailsplit does. */
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string.h>

#include "kernel/tree/rmtree.h"
#include "mailparse/mailbox.h"
#include "tests/unit/scratch.h"

static GPtrArray *split(const char *text, gboolean mboxrd, gboolean keep_cr)
{
	g_autoptr(GBytes) data = g_bytes_new_static(text, strlen(text));

	return mailbox_split_mbox(data, mboxrd, keep_cr);
}

static void assert_message(GPtrArray *msgs, guint i, const char *expected)
{
	gsize len;
	const char *got;

	g_assert_cmpuint(i, <, msgs->len);
	got = g_bytes_get_data(msgs->pdata[i], &len);
	g_assert_cmpmem(got, len, expected, strlen(expected));
}

/* The next mail of @mb is @want. */
static void assert_next(mailbox *mb, const char *want)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) msg = NULL;

	g_assert_true(mailbox_next(mb, &msg, &error));
	g_assert_no_error(error);
	g_assert_nonnull(msg);
	g_assert_cmpmem(g_bytes_get_data(msg, NULL), g_bytes_get_size(msg),
			want, strlen(want));
}

/* @mb has no mail left. */
static void assert_end(mailbox *mb)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) msg = NULL;

	g_assert_true(mailbox_next(mb, &msg, &error));
	g_assert_no_error(error);
	g_assert_null(msg);
}

static void test_from_line(void)
{
	const char *good = "From 1234abcd Mon Sep 17 00:00:00 2001\n";
	const char *prose = "From the start of the file on, it failed\n";
	const char *old_year = "From x Mon Sep 17 00:00:00 90\n";

	g_assert_true(mailbox_is_from_line(good, strlen(good)));
	g_assert_false(mailbox_is_from_line(prose, strlen(prose)));
	g_assert_false(mailbox_is_from_line(old_year, strlen(old_year)));
	g_assert_false(mailbox_is_from_line("From :", 6));
}

static void test_split_mboxo(void)
{
	g_autoptr(GPtrArray) msgs =
		split("\n\nFrom a Mon Sep 17 00:00:00 2001\nSubject: one\n\n"
		      ">From here\nFrom the body, not a separator\n"
		      "From b Tue Sep 18 00:00:00 2001\r\nSubject: two\r\n",
		      FALSE, FALSE);

	g_assert_cmpuint(msgs->len, ==, 2);
	assert_message(msgs, 0,
		       "From a Mon Sep 17 00:00:00 2001\nSubject: one\n\n"
		       ">From here\nFrom the body, not a separator\n");
	assert_message(msgs, 1,
		       "From b Tue Sep 18 00:00:00 2001\nSubject: two\n");
}

static void test_split_mboxrd_keep_cr(void)
{
	g_autoptr(GPtrArray) msgs = split(
		"From a Mon Sep 17 00:00:00 2001\r\n\r\n>From x\r\n>>From y\n"
		">not from\n",
		TRUE, TRUE);

	g_assert_cmpuint(msgs->len, ==, 1);
	assert_message(msgs, 0,
		       "From a Mon Sep 17 00:00:00 2001\r\n\r\nFrom x\r\n"
		       ">From y\n>not from\n");
}

static void test_open_maildir_and_single(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = scratch_dir_new("armbot-mailbox-XXXXXX");
	g_autofree char *f1 = g_build_filename(dir, "cur", "1.a", NULL);
	g_autoptr(mailbox) mb = NULL;
	g_autoptr(mailbox) single = NULL;

	scratch_write_file(dir, "cur/2.b", "Subject: 2\r\n");
	scratch_write_file(dir, "cur/1.a", "Subject: 1\n");
	mb = mailbox_open(dir, NULL, &error);
	g_assert_no_error(error);
	assert_next(mb, "Subject: 1\n");
	assert_next(mb, "Subject: 2\n");
	g_assert_true(g_str_has_suffix(mailbox_position(mb), "2.b"));
	assert_end(mb);

	single = mailbox_open(f1, NULL, &error);
	g_assert_no_error(error);
	assert_next(single, "Subject: 1\n");

	g_assert_null(mailbox_open("/nonexistent/mbox", NULL, &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
	g_assert_true(rmtree(dir, NULL));
}

/* A symlink out of the maildir ("new/1.evil -> canary") and a FIFO in
 * new/ are skipped with a warning, unread; the mail after them is read. */
static void test_maildir_not_mail(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = scratch_dir_new("armbot-mailbox-XXXXXX");
	g_autofree char *canary = g_build_filename(dir, "canary", NULL);
	g_autofree char *evil = g_build_filename(dir, "new", "1.evil", NULL);
	g_autofree char *fifo = g_build_filename(dir, "new", "2.fifo", NULL);
	g_autoptr(mailbox) mb = NULL;

	scratch_write_file(dir, "canary", "SECRET\n");
	scratch_write_file(dir, "new/3.good", "Subject: 3\n");
	g_assert_cmpint(symlink(canary, evil), ==, 0);
	g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
	mb = mailbox_open(dir, NULL, &error);
	g_assert_no_error(error);
	g_test_expect_message(G_LOG_DOMAIN, G_LOG_LEVEL_WARNING,
			      "cannot open '*1.evil': a symbolic link");
	g_test_expect_message(G_LOG_DOMAIN, G_LOG_LEVEL_WARNING,
			      "cannot read '*2.fifo': not a regular file");
	assert_next(mb, "Subject: 3\n");
	g_test_assert_expected_messages();
	assert_end(mb);
	g_assert_true(g_file_test(evil, G_FILE_TEST_IS_SYMLINK));
	g_assert_true(rmtree(dir, NULL));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mailbox/from-line", test_from_line);
	g_test_add_func("/mailbox/split-mboxo", test_split_mboxo);
	g_test_add_func("/mailbox/split-mboxrd-keep-cr",
			test_split_mboxrd_keep_cr);
	g_test_add_func("/mailbox/open-maildir-and-single",
			test_open_maildir_and_single);
	g_test_add_func("/mailbox/maildir-not-mail", test_maildir_not_mail);
	return g_test_run();
}
