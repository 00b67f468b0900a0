/* Unit tests for bot/mail/compose.c: the headers of the bot's own mail
 * (the series reply's are covered byte for byte by test-report). */
#include <string.h>

#include "bot/mail/compose.h"

static char *compose(const struct mail_compose *m, const char *body)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) raw = mail_compose(m, body, &error);
	gsize len;
	const char *data;

	g_assert_no_error(error);
	data = g_bytes_get_data(raw, &len);
	return g_strndup(data, len);
}

static void test_plain(void)
{
	g_autoptr(GPtrArray) refs = g_ptr_array_new();
	struct mail_compose m = {
		.from_name = "armbot",
		.from_address = "armbot@example.org",
		.to_name = "Tony Lindgren",
		.to_address = "tony@atomide.com",
		.subject = "Re: armbot opt-in omap",
		.date = 1764756000,
		.message_id = "armbot-optin-1@example.org",
		.in_reply_to = "req.1@atomide.com",
		.references = refs,
		.auto_submitted = MAIL_COMPOSE_AUTO_REPLIED,
	};
	g_autofree char *text = NULL;

	g_ptr_array_add(refs, "root@atomide.com");
	g_ptr_array_add(refs, "bad ref");
	g_ptr_array_add(refs, "req.1@atomide.com");
	text = compose(&m, "Done.\n");
	g_assert_cmpstr(text, ==,
			"From: armbot <armbot@example.org>\n"
			"To: Tony Lindgren <tony@atomide.com>\n"
			"Subject: Re: armbot opt-in omap\n"
			"Date: Wed, 03 Dec 2025 10:00:00 +0000\n"
			"Message-ID: <armbot-optin-1@example.org>\n"
			"In-Reply-To: <req.1@atomide.com>\n"
			"References: <root@atomide.com> <req.1@atomide.com>\n"
			"MIME-Version: 1.0\n"
			"Content-Type: text/plain; charset=utf-8\n"
			"Content-Transfer-Encoding: 7bit\n"
			"Auto-Submitted: auto-replied\n"
			"X-Auto-Response-Suppress: All\n"
			"\n"
			"Done.\n");
}

static void test_cc_and_encoding(void)
{
	const char *cc[] = { "a@lists.test", "b@lists.test", NULL };
	struct mail_compose m = {
		.from_address = "armbot@example.org",
		.to_name = "Jürgen \"JB\" Beißer",
		.to_address = "jb@example.org",
		.cc = cc,
		.subject = "subscribe",
		.date = 0,
		.message_id = "x@example.org",
	};
	g_autofree char *text = compose(&m, "é\n");

	g_assert_nonnull(strstr(text, "From: armbot@example.org\n"));
	g_assert_nonnull(
		strstr(text, "To: =?UTF-8?q?J=C3=BCrgen_=22JB=22_Bei=C3=9Fer?= "
			     "<jb@example.org>\n"));
	g_assert_nonnull(strstr(text, "Cc: a@lists.test, b@lists.test\n"));
	g_assert_nonnull(
		strstr(text, "Date: Thu, 01 Jan 1970 00:00:00 +0000\n"));
	g_assert_null(strstr(text, "In-Reply-To:"));
	g_assert_null(strstr(text, "References:"));
	g_assert_nonnull(strstr(text, "Content-Transfer-Encoding: 8bit\n"));
	g_assert_nonnull(strstr(text, "Auto-Submitted: auto-generated\n"));
}

static void test_folding(void)
{
	struct mail_compose m = {
		.from_address = "armbot@example.org",
		.to_address = "x@example.org",
		.subject = "Your confirmation is needed to join the "
			   "linux-arm-kernel@lists.infradead.org mailing list.",
		.message_id = "x@example.org",
	};
	g_autofree char *text = compose(&m, "");

	/* RFC 5322 2.2.3: folded before white space, lines within 78 */
	g_assert_nonnull(strstr(
		text, "Subject: Your confirmation is needed to join the\n"
		      " linux-arm-kernel@lists.infradead.org mailing list.\n"));
}

static void test_refused(void)
{
	static const char *const bad[] = { "a b@example.org", "a@x>\nBcc: y",
					   "", "<a@b>" };

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		struct mail_compose m = {
			.from_address = "armbot@example.org",
			.to_address = bad[i],
			.subject = "s",
			.message_id = "x@example.org",
		};
		g_autoptr(GError) error = NULL;
		g_autoptr(GBytes) raw = mail_compose(&m, "", &error);

		g_assert_null(raw);
		g_assert_error(error, MAIL_COMPOSE_ERROR,
			       MAIL_COMPOSE_ERROR_INVALID);
	}
}

static void test_message_id(void)
{
	g_autofree char *a = mail_compose_message_id("confirm", "arm@l\nT",
						     "armbot@Example.ORG");
	g_autofree char *b = mail_compose_message_id("confirm", "arm@l\nT",
						     "armbot@example.org");
	g_autofree char *c = mail_compose_message_id("confirm", "arm@l\nU",
						     "armbot@example.org");
	g_autofree char *d = mail_compose_message_id("x", "k", "nodomain");

	g_assert_cmpstr(a, ==, b);
	g_assert_cmpstr(a, !=, c);
	g_assert_true(g_str_has_prefix(a, "armbot-confirm-"));
	g_assert_true(g_str_has_suffix(a, "@example.org"));
	g_assert_cmpuint(strlen(a), ==,
			 strlen("armbot-confirm-") + 32 +
				 strlen("@example.org"));
	g_assert_true(g_str_has_suffix(d, "@armbot.invalid"));
}

static void test_reply_subject(void)
{
	g_autofree char *a = mail_compose_reply_subject("confirm abc");
	g_autofree char *b = mail_compose_reply_subject("RE: confirm abc");
	g_autofree char *c = mail_compose_reply_subject(" a\n b ");

	g_assert_cmpstr(a, ==, "Re: confirm abc");
	g_assert_cmpstr(b, ==, "RE: confirm abc");
	g_assert_cmpstr(c, ==, "Re: a  b");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mail-compose/plain", test_plain);
	g_test_add_func("/mail-compose/cc-and-encoding", test_cc_and_encoding);
	g_test_add_func("/mail-compose/folding", test_folding);
	g_test_add_func("/mail-compose/refused", test_refused);
	g_test_add_func("/mail-compose/message-id", test_message_id);
	g_test_add_func("/mail-compose/reply-subject", test_reply_subject);
	return g_test_run();
}
