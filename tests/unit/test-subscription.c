/* Unit tests for bot/control/subscription.c: Mailman's requests, and its
 * confirmation mails (tests/unit/data/mailman/, modelled on the real
 * templates) recognised, with forged shapes that must not pass. */
#include <string.h>

#include "bot/control/subscription.h"

#define TOKEN "5f0c6d0b8e2a4c1f9a7d3e5b2c4a6e8f0d1b3c5a"

/* Fixture @name with its placeholders filled, then @from and @to
 * (may be NULL) replacing text of it. */
static struct message *fixture(const char *name, const char *from,
			       const char *to)
{
	g_autofree char *path = g_build_filename("tests", "unit", "data",
						 "mailman", name, NULL);
	g_autofree char *text = NULL;
	g_autoptr(GString) s = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) raw = NULL;
	struct message *msg;

	g_assert_true(g_file_get_contents(path, &text, NULL, &error));
	s = g_string_new(text);
	if (from)
		g_string_replace(s, from, to, 0);
	g_string_replace(s, "@LIST@", "arm", 0);
	g_string_replace(s, "@HOST@", "lists.test", 0);
	g_string_replace(s, "@BOT@", "armbot@example.org", 0);
	g_string_replace(s, "@TOKEN@", TOKEN, 0);
	raw = g_bytes_new(s->str, s->len);
	msg = message_parse(raw, &error);
	g_assert_no_error(error);
	return msg;
}

static void test_requests(void)
{
	/* the request to arm@lists.test: its To and Subject (NULL: not
	 * checked) */
	static const struct {
		enum subscription_via via;
		gboolean subscribe;
		const char *to;
		const char *subject;
	} requests[] = {
		{ SUBSCRIPTION_MAILMAN2, TRUE, "arm-request@lists.test",
		  "subscribe" },
		{ SUBSCRIPTION_MAILMAN2, FALSE, NULL, "unsubscribe" },
		{ SUBSCRIPTION_MAILMAN3, TRUE, "arm-join@lists.test", NULL },
		{ SUBSCRIPTION_MAILMAN3, FALSE, "arm-leave@lists.test", NULL },
	};
	struct subscription_request r = { 0 };
	g_autofree char *local = NULL;
	g_autofree char *host = NULL;
	g_autoptr(GError) error = NULL;
	enum subscription_via via;

	for (guint i = 0; i < G_N_ELEMENTS(requests); i++) {
		subscription_request_make("arm", "lists.test", requests[i].via,
					  requests[i].subscribe, &r);
		if (requests[i].to)
			g_assert_cmpstr(r.to, ==, requests[i].to);
		if (requests[i].subject)
			g_assert_cmpstr(r.subject, ==, requests[i].subject);
		subscription_request_clear(&r);
	}

	g_assert_true(subscription_list_parse(
		"Linux-ARM-Kernel@Lists.Infradead.ORG", &local, &host, &error));
	g_assert_cmpstr(local, ==, "linux-arm-kernel");
	g_assert_cmpstr(host, ==, "lists.infradead.org");
	for (guint i = 0; i < 6; i++) {
		static const char *const bad[] = { "arm",
						   "@lists.test",
						   "a@b@c",
						   "a b@lists.test",
						   "<a@lists.test>",
						   "a@-lists.test" };
		g_autofree char *l = NULL;
		g_autofree char *h = NULL;
		g_autoptr(GError) e = NULL;

		g_assert_false(subscription_list_parse(bad[i], &l, &h, &e));
		g_assert_nonnull(e);
	}
	g_assert_true(subscription_via_parse("mailman3", &via));
	g_assert_cmpint(via, ==, SUBSCRIPTION_MAILMAN3);
	g_assert_false(subscription_via_parse("majordomo", &via));
}

static void test_mailman2(void)
{
	g_autoptr(message) msg = fixture("mailman2-verify.eml", NULL, NULL);
	struct subscription_confirmation c;

	g_assert_true(subscription_confirmation_parse(msg, &c));
	g_assert_cmpstr(c.list, ==, "arm@lists.test");
	g_assert_cmpstr(c.token, ==, TOKEN);
	g_assert_cmpint(c.asks, ==, SUBSCRIPTION_ASKS_JOIN);
	g_assert_cmpstr(c.reply_to, ==, "arm-request@lists.test");
	g_assert_cmpstr(c.reply_subject, ==, "Re: confirm " TOKEN);
	g_assert_null(c.problem);
	subscription_confirmation_clear(&c);
}

/* Mailman 2.1 with VERP_CONFIRMATIONS: the token in the address, the
 * join in the subject */
static void test_mailman2_verp(void)
{
	g_autoptr(message) a = fixture("mailman2-verify.eml",
				       "From: @LIST@-request@@HOST@",
				       "From: @LIST@-confirm+@TOKEN@@@HOST@");
	g_autoptr(message) msg = NULL;
	struct subscription_confirmation c;
	g_autoptr(GBytes) raw = NULL;
	g_autoptr(GString) s = NULL;
	g_autoptr(GError) error = NULL;

	s = g_string_new_len(g_bytes_get_data(a->raw, NULL),
			     g_bytes_get_size(a->raw));
	g_string_replace(s, "Subject: confirm " TOKEN,
			 "Subject: Your confirmation is required to join the "
			 "arm mailing list",
			 1);
	raw = g_bytes_new(s->str, s->len);
	msg = message_parse(raw, &error);
	g_assert_no_error(error);
	g_assert_true(subscription_confirmation_parse(msg, &c));
	g_assert_cmpstr(c.list, ==, "arm@lists.test");
	g_assert_cmpstr(c.token, ==, TOKEN);
	g_assert_cmpint(c.asks, ==, SUBSCRIPTION_ASKS_JOIN);
	g_assert_cmpstr(c.reply_to, ==, "arm-confirm+" TOKEN "@lists.test");
	g_assert_cmpstr(c.reply_subject, ==,
			"Re: Your confirmation is required to join the arm "
			"mailing list");
	subscription_confirmation_clear(&c);
}

static void test_mailman3(void)
{
	g_autoptr(message) msg = fixture("mailman3-subscribe.eml", NULL, NULL);
	g_autoptr(message) leave = fixture("mailman3-subscribe.eml",
					   "needed to join", "needed to leave");
	struct subscription_confirmation c;

	g_assert_true(subscription_confirmation_parse(msg, &c));
	g_assert_cmpstr(c.list, ==, "arm@lists.test");
	g_assert_cmpstr(c.token, ==, TOKEN);
	g_assert_cmpint(c.asks, ==, SUBSCRIPTION_ASKS_JOIN);
	g_assert_cmpstr(c.reply_to, ==, "arm-confirm+" TOKEN "@lists.test");
	g_assert_null(c.problem);
	subscription_confirmation_clear(&c);
	g_assert_true(subscription_confirmation_parse(leave, &c));
	g_assert_cmpint(c.asks, ==, SUBSCRIPTION_ASKS_LEAVE);
	subscription_confirmation_clear(&c);
}

static void test_forged(void)
{
	struct subscription_confirmation c;
	/* another sender: no list */
	g_autoptr(message) a = fixture("mailman2-verify.eml",
				       "From: @LIST@-request@@HOST@",
				       "From: mallory@example.org");
	/* the address and the body disagree */
	g_autoptr(message) b =
		fixture("mailman3-subscribe.eml", "    confirm @TOKEN@",
			"    confirm 0000000000000000000000000000000000000000");
	/* a token that could carry something else */
	g_autoptr(message)
		d = fixture("mailman2-verify.eml", "Subject: confirm @TOKEN@",
			    "Subject: confirm a@b");
	/* the robot of a list's posting address is no robot */
	g_autoptr(message) e = fixture("mailman2-verify.eml",
				       "From: @LIST@-request@@HOST@",
				       "From: @LIST@@@HOST@");

	g_assert_true(subscription_confirmation_parse(a, &c));
	g_assert_null(c.list);
	g_assert_cmpstr(c.token, ==, TOKEN);
	subscription_confirmation_clear(&c);
	g_assert_true(subscription_confirmation_parse(b, &c));
	g_assert_nonnull(c.problem);
	g_assert_nonnull(strstr(c.problem, "differ"));
	subscription_confirmation_clear(&c);
	g_assert_true(subscription_confirmation_parse(d, &c));
	g_assert_nonnull(c.problem);
	subscription_confirmation_clear(&c);
	g_assert_true(subscription_confirmation_parse(e, &c));
	g_assert_null(c.list);
	subscription_confirmation_clear(&c);
}

/* Mail that is no confirmation, the opt-in's "confirm: TOKEN" among it */
static void test_not_a_confirmation(void)
{
	static const char *const mails[] = {
		"From: Tony <tony@atomide.com>\nTo: armbot@example.org\n"
		"Subject: Re: armbot opt-in omap\n\n"
		"confirm: 0123456789abcdef0123456789abcdef\n",
		"From: arm-request@lists.test\nTo: armbot@example.org\n"
		"Subject: Welcome to the \"arm\" mailing list\n\n"
		"Welcome to the arm@lists.test mailing list!\n",
		"From: jane@example.org\nTo: arm@lists.test\n"
		"Subject: [PATCH] ARM: confirm the clock rate\n\n---\n",
	};

	for (guint i = 0; i < G_N_ELEMENTS(mails); i++) {
		g_autoptr(GBytes)
			raw = g_bytes_new_static(mails[i], strlen(mails[i]));
		g_autoptr(message) msg = message_parse(raw, NULL);
		struct subscription_confirmation c;

		g_assert_nonnull(msg);
		g_assert_false(subscription_confirmation_parse(msg, &c));
		g_assert_null(c.list);
		g_assert_null(c.token);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/subscription/requests", test_requests);
	g_test_add_func("/subscription/mailman2", test_mailman2);
	g_test_add_func("/subscription/mailman2-verp", test_mailman2_verp);
	g_test_add_func("/subscription/mailman3", test_mailman3);
	g_test_add_func("/subscription/forged", test_forged);
	g_test_add_func("/subscription/not-a-confirmation",
			test_not_a_confirmation);
	return g_test_run();
}
