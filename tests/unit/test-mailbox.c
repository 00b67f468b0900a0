/* Unit tests for mailparse/mailbox.c: splitting as git mailsplit does. */
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <string.h>

#include "mailparse/mailbox.h"

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
	g_autofree char *dir = g_dir_make_tmp("armbot-mailbox-XXXXXX", &error);
	g_autofree char *cur = g_build_filename(dir, "cur", NULL);
	g_autofree char *f1 = g_build_filename(cur, "1.a", NULL);
	g_autofree char *f2 = g_build_filename(cur, "2.b", NULL);
	g_autoptr(mailbox) mb = NULL;
	g_autoptr(mailbox) single = NULL;
	GBytes *msg = NULL;

	g_assert_no_error(error);
	g_assert_cmpint(g_mkdir(cur, 0755), ==, 0);
	g_assert_true(g_file_set_contents(f2, "Subject: 2\r\n", -1, NULL));
	g_assert_true(g_file_set_contents(f1, "Subject: 1\n", -1, NULL));
	mb = mailbox_open(dir, NULL, &error);
	g_assert_no_error(error);
	g_assert_true(mailbox_next(mb, &msg, &error));
	g_assert_cmpmem(g_bytes_get_data(msg, NULL), g_bytes_get_size(msg),
			"Subject: 1\n", 11);
	g_bytes_unref(msg);
	g_assert_true(mailbox_next(mb, &msg, &error));
	g_assert_cmpmem(g_bytes_get_data(msg, NULL), g_bytes_get_size(msg),
			"Subject: 2\n", 11);
	g_assert_true(g_str_has_suffix(mailbox_position(mb), "2.b"));
	g_bytes_unref(msg);
	g_assert_true(mailbox_next(mb, &msg, &error));
	g_assert_null(msg);

	single = mailbox_open(f1, NULL, &error);
	g_assert_no_error(error);
	g_assert_true(mailbox_next(single, &msg, &error));
	g_assert_nonnull(msg);
	g_bytes_unref(msg);

	g_assert_null(mailbox_open("/nonexistent/mbox", NULL, &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);

	g_unlink(f1);
	g_unlink(f2);
	g_rmdir(cur);
	g_rmdir(dir);
}

/* A symlink out of the maildir ("new/1.evil -> canary") and a FIFO in
 * new/ are skipped with a warning, unread; the mail after them is read. */
static void test_maildir_not_mail(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("armbot-mailbox-XXXXXX", &error);
	g_autofree char *new_dir = g_build_filename(dir, "new", NULL);
	g_autofree char *canary = g_build_filename(dir, "canary", NULL);
	g_autofree char *evil = g_build_filename(new_dir, "1.evil", NULL);
	g_autofree char *fifo = g_build_filename(new_dir, "2.fifo", NULL);
	g_autofree char *good = g_build_filename(new_dir, "3.good", NULL);
	g_autoptr(mailbox) mb = NULL;
	GBytes *msg = NULL;

	g_assert_no_error(error);
	g_assert_cmpint(g_mkdir(new_dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(canary, "SECRET\n", -1, NULL));
	g_assert_true(g_file_set_contents(good, "Subject: 3\n", -1, NULL));
	g_assert_cmpint(symlink(canary, evil), ==, 0);
	g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
	mb = mailbox_open(dir, NULL, &error);
	g_assert_no_error(error);
	g_test_expect_message(G_LOG_DOMAIN, G_LOG_LEVEL_WARNING,
			      "cannot open '*1.evil': a symbolic link");
	g_test_expect_message(G_LOG_DOMAIN, G_LOG_LEVEL_WARNING,
			      "cannot read '*2.fifo': not a regular file");
	g_assert_true(mailbox_next(mb, &msg, &error));
	g_test_assert_expected_messages();
	g_assert_no_error(error);
	g_assert_nonnull(msg);
	g_assert_cmpmem(g_bytes_get_data(msg, NULL), g_bytes_get_size(msg),
			"Subject: 3\n", 11);
	g_bytes_unref(msg);
	g_assert_true(mailbox_next(mb, &msg, &error));
	g_assert_null(msg);
	g_assert_true(g_file_test(evil, G_FILE_TEST_IS_SYMLINK));

	g_unlink(evil);
	g_unlink(fifo);
	g_unlink(good);
	g_unlink(canary);
	g_rmdir(new_dir);
	g_rmdir(dir);
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
