/* Unit tests for bot/control/control.c: which mail to the bot is answered, and
 * how (a store of its own, messages ingested as a source stores them;
 * the outbox is what would be sent). */
#include <glib/gstdio.h>
#include <string.h>

#include "bot/control/control.h"
#include "bot/sources/ingest.h"
#include "bot/store/lists.h"
#include "bot/store/pipeline.h"
#include "tests/unit/scratch-bot.h"

static const char maintainers_text[] = "OMAP2+ SUPPORT\n"
				       "M:\tTony Lindgren <tony@atomide.com>\n"
				       "F:\tarch/arm/mach-omap2/\n";

#define TOKEN "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"

struct fixture {
	struct scratch_bot bot;
	struct control_options o;
};

static void set_up(struct fixture *f, gconstpointer data)
{
	scratch_bot_init(&f->bot, "armbot-control-XXXXXX", maintainers_text);
	f->o.config = f->bot.config;
	f->o.maintainers = f->bot.m;
	f->o.now = 1764756000;
	f->o.source = "maildir:/test";
}

static void tear_down(struct fixture *f, gconstpointer data)
{
	scratch_bot_clear(&f->bot);
}

/* Store @text as a source would and handle it; the mails queued. */
static guint deliver(struct fixture *f, const char *text)
{
	g_autoptr(GBytes) raw = g_bytes_new(text, strlen(text));
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	struct ingest_counts counts = { 0 };
	guint queued = 0;

	g_assert_true(ingest_message(f->bot.st, raw, "test", &counts, ids, NULL,
				     &error));
	g_assert_no_error(error);
	g_assert_cmpuint(ids->len, ==, 1);
	g_assert_true(control_handle_message(f->bot.st, &f->o, ids->pdata[0],
					     &queued, &error));
	g_assert_no_error(error);
	return queued;
}

static GPtrArray *outbox(struct fixture *f)
{
	g_autoptr(GError) error = NULL;
	GPtrArray *rows = store_outbox_in_state(f->bot.st, "pending", &error);

	g_assert_no_error(error);
	return rows;
}

static void test_optin(struct fixture *f, gconstpointer data)
{
	g_autoptr(GPtrArray) rows = NULL;
	const struct store_outbox *o;
	const char *raw;

	g_assert_cmpuint(deliver(f, "From: Tony Lindgren <tony@atomide.com>\n"
				    "To: armbot <armbot@localhost>\n"
				    "Subject: armbot opt-in omap\n"
				    "Message-ID: <r1@atomide.com>\n\n"
				    "url: https://example.org/omap.git\n"
				    "paths: arch/arm/mach-omap2/\n"),
			 ==, 1);
	rows = outbox(f);
	g_assert_cmpuint(rows->len, ==, 1);
	o = rows->pdata[0];
	g_assert_cmpstr(o->recipients, ==, "tony@atomide.com");
	g_assert_cmpstr(o->sender, ==, "armbot@localhost");
	raw = g_bytes_get_data(o->raw, NULL);
	g_assert_nonnull(strstr(raw, "To: Tony Lindgren <tony@atomide.com>\n"));
	g_assert_nonnull(strstr(raw, "In-Reply-To: <r1@atomide.com>\n"));
	g_assert_nonnull(strstr(raw, "\nconfirm: "));
	g_assert_nonnull(strstr(raw, "Auto-Submitted: auto-replied\n"));
	g_assert_true(g_str_has_prefix(o->message_id, "armbot-optin-"));
}

/* Mail the bot must not answer: its own, the list's, automatic mail */
static void test_not_answered(struct fixture *f, gconstpointer data)
{
	g_autoptr(GPtrArray) rows = NULL;
	static const char *const mails[] = {
		"From: armbot@localhost\nTo: armbot@localhost\n"
		"Subject: armbot opt-in x\nMessage-ID: <n1@t>\n\nurl: x\n",
		"From: tony@atomide.com\nTo: arm@lists.test\n"
		"Subject: armbot opt-in x\nMessage-ID: <n2@t>\n\nurl: x\n",
		"From: tony@atomide.com\nTo: armbot@localhost\n"
		"Auto-Submitted: auto-replied\n"
		"Subject: armbot opt-in x\nMessage-ID: <n3@t>\n\nurl: x\n",
		"From: tony@atomide.com\nTo: armbot@localhost\n"
		"Precedence: bulk\n"
		"Subject: armbot opt-in x\nMessage-ID: <n4@t>\n\nurl: x\n",
		"From: tony@atomide.com\nTo: armbot@localhost\n"
		"Subject: hello\nMessage-ID: <n5@t>\n\nhi\n",
	};

	for (guint i = 0; i < G_N_ELEMENTS(mails); i++)
		g_assert_cmpuint(deliver(f, mails[i]), ==, 0);
	rows = outbox(f);
	g_assert_cmpuint(rows->len, ==, 0);
}

static void pend(struct fixture *f, const char *state)
{
	struct store_list l = {
		.address = "arm@lists.test",
		.via = "mailman3",
		.state = (char *)state,
		.requested = 1,
		.updated = 1,
	};
	g_autoptr(GError) error = NULL;

	g_assert_true(store_list_put(f->bot.st, &l, &error));
	g_assert_no_error(error);
}

static char *state(struct fixture *f)
{
	g_autoptr(store_list) l = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_true(store_list_get(f->bot.st, "arm@lists.test", &l, &error));
	g_assert_nonnull(l);
	return g_strdup(l->state);
}

static char *confirmation(const char *from, const char *id, const char *what)
{
	return g_strdup_printf(
		"From: %s\nTo: armbot@localhost\nMessage-ID: <%s>\n"
		"Subject: Your confirmation is needed to %s the arm@lists.test "
		"mailing list.\nAuto-Submitted: auto-generated\n\n"
		"    confirm " TOKEN "\n",
		from, id, what);
}

static void test_list_confirmation(struct fixture *f, gconstpointer data)
{
	const char *robot = "arm-confirm+" TOKEN "@lists.test";
	g_autofree char *nopend = confirmation(robot, "c0@l", "join");
	g_autofree char *forged =
		confirmation("arm-confirm+" TOKEN "@evil.test", "c1@l", "join");
	g_autofree char *leave = confirmation(robot, "c2@l", "leave");
	g_autofree char *good = confirmation(robot, "c3@l", "join");
	g_autofree char *again = confirmation(robot, "c4@l", "join");
	g_autofree char *s = NULL;
	g_autoptr(GPtrArray) rows = NULL;
	const struct store_outbox *o;
	g_autoptr(store_list) l = NULL;

	g_assert_cmpuint(deliver(f, nopend), ==, 0);
	pend(f, "subscribe-pending");
	g_assert_cmpuint(deliver(f, forged), ==, 0);
	g_assert_cmpuint(deliver(f, leave), ==, 0);
	s = state(f);
	g_assert_cmpstr(s, ==, "subscribe-pending");
	g_assert_cmpuint(deliver(f, good), ==, 1);
	g_clear_pointer(&s, g_free);
	s = state(f);
	g_assert_cmpstr(s, ==, "subscribed");
	/* the same confirmation again, then a new request replaying it */
	g_assert_cmpuint(deliver(f, again), ==, 0);
	pend(f, "subscribe-pending");
	g_assert_cmpuint(deliver(f, "From: arm-confirm+" TOKEN "@lists.test\n"
				    "To: armbot@localhost\n"
				    "Message-ID: <c5@l>\nSubject: x\n\n"
				    "confirm " TOKEN "\n"),
			 ==, 0);
	rows = outbox(f);
	g_assert_cmpuint(rows->len, ==, 1);
	o = rows->pdata[0];
	g_assert_cmpstr(o->recipients, ==, robot);
	g_assert_nonnull(strstr(g_bytes_get_data(o->raw, NULL),
				"\nTo: arm-confirm+" TOKEN "@lists.test\n"));
	g_assert_true(store_list_get(f->bot.st, "arm@lists.test", &l, NULL));
	g_assert_cmpstr(l->state, ==, "subscribe-pending");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/control/optin", struct fixture, NULL, set_up, test_optin,
		   tear_down);
	g_test_add("/control/not-answered", struct fixture, NULL, set_up,
		   test_not_answered, tear_down);
	g_test_add("/control/list-confirmation", struct fixture, NULL, set_up,
		   test_list_confirmation, tear_down);
	return g_test_run();
}
