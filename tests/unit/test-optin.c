/* Unit tests for bot/control/optin.c: opt-in, set and opt-out by mail, the token
 * and every refusal (forged sender, wrong, replayed, expired token,
 * unknown key), each of which must change nothing. */
#include <glib/gstdio.h>
#include <string.h>

#include "bot/control/optin.h"
#include "bot/store/trees.h"
#include "config/treefile.h"
#include "tests/unit/scratch-bot.h"

static const char maintainers_text[] =
	"ARM PORT\n"
	"M:\tRussell King <linux@armlinux.org.uk>\n"
	"F:\tarch/arm/\n"
	"X:\tarch/arm/boot/dts/\n"
	"\n"
	"OMAP2+ SUPPORT\n"
	"M:\tTony Lindgren <tony@atomide.com>\n"
	"L:\tlinux-omap@vger.kernel.org\n"
	"F:\tarch/arm/mach-omap2/\n"
	"F:\tarch/arm/plat-omap/\n"
	"F:\tdrivers/bus/ti-sysc.c\n";

struct fixture {
	struct scratch_bot bot;
	struct optin_context ctx;
	guint serial;
};

static void fixture_set_up(struct fixture *f, gconstpointer data)
{
	scratch_bot_init(&f->bot, "armbot-optin-XXXXXX", maintainers_text);
	f->ctx.store = f->bot.st;
	f->ctx.config = f->bot.config;
	f->ctx.maintainers = f->bot.m;
	f->ctx.now = 1700000000;
	f->ctx.token_lifetime = 3600;
}

static void fixture_tear_down(struct fixture *f, gconstpointer data)
{
	scratch_bot_clear(&f->bot);
}

/* Handle a mail from @from with @subject and @body; returns the reply's
 * outcome, the reply in @out. */
static enum optin_outcome handle(struct fixture *f, const char *from,
				 const char *subject, const char *body,
				 struct optin_reply *out)
{
	g_autofree char *text = g_strdup_printf(
		"From: %s\nTo: armbot@localhost\nSubject: %s\n"
		"Message-ID: <m%u@test>\nDate: Tue, 14 Nov 2023 22:13:20 "
		"+0000\n\n%s",
		from, subject, ++f->serial, body);
	g_autoptr(GBytes) raw = g_bytes_new(text, strlen(text));
	g_autoptr(GError) error = NULL;
	g_autoptr(message) msg = message_parse(raw, &error);

	g_assert_no_error(error);
	g_assert_true(optin_handle(&f->ctx, msg, out, &error));
	g_assert_no_error(error);
	return out->outcome;
}

/* The token line of a token-sent reply. */
static char *token_of(const struct optin_reply *r)
{
	const char *p = strstr(r->body, "\nconfirm: ");

	g_assert_nonnull(p);
	return g_strndup(p + 10, 32);
}

static guint count_changes(struct fixture *f)
{
	g_autoptr(GPtrArray) c = store_tree_changes(f->bot.st, NULL, NULL);

	return c->len;
}

/* Tree @name's state: -1 absent, 0 opted out, 1 active. */
static int tree_state(struct fixture *f, const char *name, char **data)
{
	g_autoptr(store_tree) t = NULL;

	g_assert_true(store_tree_get(f->bot.st, name, &t, NULL));
	if (data)
		*data = t ? g_strdup(t->data) : NULL;
	return t ? t->active : -1;
}

static const char request_body[] =
	"url: https://git.kernel.org/pub/scm/linux/kernel/git/tmlind/"
	"linux-omap.git\n"
	"branch: for-next\n"
	"paths: arch/arm/mach-omap2/, arch/arm/plat-omap/\n"
	"checks: apply sparse\n"
	"reply: problems to author\n"
	"\n-- \nTony\n";

/* Opt omap-next in as Tony, and confirm a minute later. */
static void opt_in(struct fixture *f)
{
	struct optin_reply r, c;
	g_autofree char *token = NULL;
	g_autofree char *confirm = NULL;
	g_autofree char *id = NULL;

	g_assert_cmpint(handle(f, "Tony Lindgren <tony@atomide.com>",
			       "armbot opt-in omap-next", request_body, &r),
			==, OPTIN_TOKEN_SENT);
	g_assert_cmpstr(r.to, ==, "tony@atomide.com");
	g_assert_cmpstr(r.subject, ==, "Re: armbot opt-in omap-next");
	id = g_strdup_printf("m%u@test", f->serial);
	g_assert_cmpstr(r.in_reply_to, ==, id);
	token = token_of(&r);
	/* nothing happens before the confirmation */
	g_assert_cmpint(tree_state(f, "omap-next", NULL), ==, -1);
	confirm = g_strdup_printf("> confirm: %s\n\nYes.\n", token);
	f->ctx.now += 60;
	g_assert_cmpint(handle(f, "tony@atomide.com",
			       "Re: armbot opt-in omap-next", confirm, &c),
			==, OPTIN_APPLIED);
	g_assert_cmpstr(c.reason, ==, "opt-in of tree omap-next applied");
	optin_reply_clear(&r);
	optin_reply_clear(&c);
}

static void test_opt_in(struct fixture *f, gconstpointer data)
{
	g_autofree char *text = NULL;
	g_autoptr(GPtrArray) changes = NULL;
	g_autoptr(treefile) tf = NULL;
	const struct store_tree_change *ch;

	opt_in(f);
	g_assert_cmpint(tree_state(f, "omap-next", &text), ==, 1);
	tf = treefile_parse("omap-next", "t", text, &f->bot.config->defaults,
			    NULL, NULL);
	g_assert_nonnull(tf);
	g_assert_cmpstr(tf->url, ==,
			"https://git.kernel.org/pub/scm/linux/kernel/git/"
			"tmlind/linux-omap.git");
	g_assert_cmpstr(tf->branches[0], ==, "for-next");
	g_assert_cmpstr(tf->maintainers[0], ==, "tony@atomide.com");
	g_assert_cmpuint(tf->policy.checks, ==,
			 CONFIG_CHECK_APPLY | CONFIG_CHECK_SPARSE);
	g_assert_cmpint(tf->policy.reply, ==, CONFIG_REPLY_PROBLEMS);
	g_assert_cmpint(tf->policy.reply_to, ==, CONFIG_REPLY_TO_AUTHOR);
	g_assert_cmpuint(tf->paths->patterns->len, ==, 2);
	changes = store_tree_changes(f->bot.st, "omap-next", NULL);
	g_assert_cmpuint(changes->len, ==, 1);
	ch = changes->pdata[0];
	g_assert_cmpstr(ch->who, ==, "tony@atomide.com");
	g_assert_cmpint(ch->at, ==, 1700000060);
	g_assert_cmpstr(ch->what, ==,
			"opt-in: url https://git.kernel.org/pub/scm/linux/"
			"kernel/git/tmlind/linux-omap.git, branches for-next, "
			"paths arch/arm/mach-omap2/ arch/arm/plat-omap/, "
			"checks apply, sparse, reply problems to author");
}

/* A refusal: @outcome REFUSED with @reason, and nothing changed. */
static void assert_refused(struct fixture *f, struct optin_reply *r,
			   enum optin_outcome outcome, const char *reason,
			   guint changes)
{
	g_assert_cmpint(outcome, ==, OPTIN_REFUSED);
	g_assert_cmpstr(r->reason, ==, reason);
	g_assert_nonnull(strstr(r->body, "Nothing was changed."));
	g_assert_null(strstr(r->body, "confirm:"));
	g_assert_cmpuint(count_changes(f), ==, changes);
	optin_reply_clear(r);
}

static void test_not_a_maintainer(struct fixture *f, gconstpointer data)
{
	struct optin_reply r;

	/* a forged request: not an M: entry for those paths */
	assert_refused(f, &r,
		       handle(f, "Mallory <mallory@example.org>",
			      "armbot opt-in omap-next", request_body, &r),
		       "mallory@example.org is not an M: entry of "
		       "MAINTAINERS for arch/arm/mach-omap2/",
		       0);
	g_assert_cmpint(tree_state(f, "omap-next", NULL), ==, -1);
	/* a list address is not a maintainer either */
	assert_refused(f, &r,
		       handle(f, "linux-omap@vger.kernel.org",
			      "armbot opt-in omap-next", request_body, &r),
		       "linux-omap@vger.kernel.org is not an M: entry of "
		       "MAINTAINERS for arch/arm/mach-omap2/",
		       0);
	/* a maintainer of some paths, not of all */
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in arm",
			      "url: https://example.org/arm.git\n"
			      "paths: arch/arm/mach-omap2/ arch/arm/\n",
			      &r),
		       "tony@atomide.com is not an M: entry of MAINTAINERS "
		       "for arch/arm/",
		       0);
	/* ARM PORT excludes the device trees */
	assert_refused(f, &r,
		       handle(f, "linux@armlinux.org.uk", "armbot opt-in dts",
			      "url: https://example.org/arm.git\n"
			      "paths: arch/arm/boot/dts/\n",
			      &r),
		       "linux@armlinux.org.uk is not an M: entry of "
		       "MAINTAINERS for arch/arm/boot/dts/",
		       0);
}

static void test_bad_requests(struct fixture *f, gconstpointer data)
{
	struct optin_reply r;

	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in omap-next",
			      "url: https://example.org/omap.git\n"
			      "paths: arch/arm/mach-omap2/\ncolour: blue\n",
			      &r),
		       "unknown key 'colour' (url, branch, paths, checks, "
		       "reply)",
		       0);
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in omap-next",
			      "url: https://example.org/omap.git\n"
			      "please opt me in\n",
			      &r),
		       "body line 2, 'please opt me in', is not 'key: value'",
		       0);
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in omap-next",
			      "paths: arch/arm/mach-omap2/\n", &r),
		       "an opt-in needs 'url:' and 'paths:' lines", 0);
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in omap-next",
			      "url: https://example.org/omap.git\n"
			      "paths: arch/arm/mach-omap2/\nchecks: fuzz\n",
			      &r),
		       "unknown check 'fuzz' (apply, dirstat, sparse, boot, "
		       "rpm, boards, all, none)",
		       0);
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in omap-next",
			      "url: https://example.org/omap.git\n"
			      "paths: arch/arm/mach-omap2/*.c\n",
			      &r),
		       "path 'arch/arm/mach-omap2/*.c': opting in by mail "
		       "takes directories (ending in /) and files, not "
		       "wildcards",
		       0);
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in omap-next",
			      "url: file:///etc\npaths: arch/arm/mach-omap2/\n",
			      &r),
		       "url must be one https://, http:// or git:// URL, not "
		       "'file:///etc'",
		       0);
	/* a confirm line in a mail that is no reply to a request */
	g_assert_cmpint(handle(f, "tony@atomide.com", "Re: [PATCH] x",
			       "> confirm: the fix works\n", &r),
			==, OPTIN_NOT_FOR_US);
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in distro-6.1",
			      request_body, &r),
		       "distro-6.1 is the distro tree: it is always tested", 0);
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in ../x",
			      request_body, &r),
		       "'../x' is not a tree name ([A-Za-z0-9._-])", 0);
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-out omap-next",
			      "", &r),
		       "tree omap-next is not opted in", 0);
	g_assert_cmpint(handle(f, "tony@atomide.com",
			       "Re: [PATCH 1/2] ARM: OMAP2+: fix", "Thanks\n",
			       &r),
			==, OPTIN_NOT_FOR_US);
	g_assert_null(r.to);
}

static void test_tokens(struct fixture *f, gconstpointer data)
{
	struct optin_reply r, c;
	g_autofree char *token = NULL;
	g_autofree char *confirm = NULL;
	g_autofree char *wrong = NULL;

	g_assert_cmpint(handle(f, "tony@atomide.com", "armbot opt-in omap-next",
			       request_body, &r),
			==, OPTIN_TOKEN_SENT);
	token = token_of(&r);
	optin_reply_clear(&r);
	confirm = g_strdup_printf("confirm: %s\n", token);

	/* a wrong token */
	wrong = g_strdup_printf("confirm: %.31s%c\n", token,
				token[31] == '0' ? '1' : '0');
	assert_refused(f, &c,
		       handle(f, "tony@atomide.com",
			      "Re: armbot opt-in omap-next", wrong, &c),
		       "unknown token: no request is waiting for it", 0);
	assert_refused(
		f, &c,
		handle(f, "tony@atomide.com", "Re: armbot opt-in omap-next",
		       "confirm: yes\n", &c),
		"the confirm line has no valid token (32 hex digits)", 0);
	/* the right token from another address (a forged From can give
	 * the token only to who reads the maintainer's mail) */
	assert_refused(f, &c,
		       handle(f, "mallory@example.org",
			      "Re: armbot opt-in omap-next", confirm, &c),
		       "the token was sent to tony@atomide.com, not to "
		       "mallory@example.org: only the requester can confirm",
		       0);
	/* expired: the lifetime is an hour */
	f->ctx.now += 3601;
	assert_refused(f, &c,
		       handle(f, "tony@atomide.com",
			      "Re: armbot opt-in omap-next", confirm, &c),
		       "the token expired on 2023-11-14 23:13 UTC: send the "
		       "request again",
		       0);
	g_assert_cmpint(tree_state(f, "omap-next", NULL), ==, -1);

	/* a fresh request, confirmed, then replayed */
	f->ctx.now += 10;
	opt_in(f);
	g_assert_cmpuint(count_changes(f), ==, 1);
}

static void test_replay(struct fixture *f, gconstpointer data)
{
	struct optin_reply r, c;
	g_autofree char *token = NULL;
	g_autofree char *confirm = NULL;
	g_autofree char *text = NULL;
	g_autofree char *before = NULL;

	opt_in(f);
	g_assert_cmpint(handle(f, "tony@atomide.com",
			       "armbot set omap-next reply never", "", &r),
			==, OPTIN_TOKEN_SENT);
	token = token_of(&r);
	optin_reply_clear(&r);
	confirm = g_strdup_printf("confirm: %s\n", token);
	g_assert_cmpint(handle(f, "tony@atomide.com",
			       "Re: armbot set omap-next reply never", confirm,
			       &c),
			==, OPTIN_APPLIED);
	optin_reply_clear(&c);
	g_assert_cmpuint(count_changes(f), ==, 2);
	tree_state(f, "omap-next", &before);
	g_assert_nonnull(strstr(before, "reply=never"));
	/* the same confirmation again */
	f->ctx.now += 5;
	assert_refused(f, &c,
		       handle(f, "tony@atomide.com",
			      "Re: armbot set omap-next reply never", confirm,
			      &c),
		       "the token was already used on 2023-11-14 22:14 UTC: a "
		       "token confirms one request once",
		       2);
	tree_state(f, "omap-next", &text);
	g_assert_cmpstr(text, ==, before);
}

static void test_set_and_opt_out(struct fixture *f, gconstpointer data)
{
	struct optin_reply r, c;
	g_autofree char *token = NULL;
	g_autofree char *confirm = NULL;
	g_autoptr(GPtrArray) changes = NULL;

	opt_in(f);
	/* someone else cannot opt the tree out or change it */
	assert_refused(f, &r,
		       handle(f, "mallory@example.org",
			      "armbot opt-out omap-next", "", &r),
		       "mallory@example.org is not an M: entry of "
		       "MAINTAINERS for arch/arm/mach-omap2/",
		       1);
	/* the ARM PORT maintainer is an M: entry for arch/arm/mach-omap2/
	 * too (F: arch/arm/), as get_maintainer.pl lists him: he may */
	g_assert_cmpint(handle(f, "linux@armlinux.org.uk",
			       "armbot set omap-next checks all", "", &r),
			==, OPTIN_TOKEN_SENT);
	optin_reply_clear(&r);
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com",
			      "armbot set omap-next colour blue", "", &r),
		       "unknown key 'colour' (url, branch, paths, checks, "
		       "reply)",
		       1);
	/* an opt-in of a tree that is in already */
	assert_refused(f, &r,
		       handle(f, "tony@atomide.com", "armbot opt-in omap-next",
			      request_body, &r),
		       "tree omap-next is opted in already (by "
		       "tony@atomide.com): use 'armbot set omap-next KEY "
		       "VALUE'",
		       1);
	g_assert_cmpint(handle(f, "tony@atomide.com",
			       "armbot opt-out omap-next", "", &r),
			==, OPTIN_TOKEN_SENT);
	token = token_of(&r);
	optin_reply_clear(&r);
	confirm = g_strdup_printf("confirm: %s\n", token);
	g_assert_cmpint(handle(f, "tony@atomide.com",
			       "Re: armbot opt-out omap-next", confirm, &c),
			==, OPTIN_APPLIED);
	optin_reply_clear(&c);
	g_assert_cmpint(tree_state(f, "omap-next", NULL), ==, 0);
	changes = store_tree_changes(f->bot.st, "omap-next", NULL);
	g_assert_cmpuint(changes->len, ==, 2);
	g_assert_cmpstr(((struct store_tree_change *)changes->pdata[1])->what,
			==, "opt-out");
}

/* Request omap-next as @from; the outcome, and no reply when limited. */
static enum optin_outcome request(struct fixture *f, const char *from)
{
	struct optin_reply r;
	enum optin_outcome o =
		handle(f, from, "armbot opt-in omap-next", request_body, &r);

	if (o == OPTIN_LIMITED) {
		g_assert_null(r.to);
		g_assert_null(r.body);
		g_assert_nonnull(r.reason);
	}
	optin_reply_clear(&r);
	return o;
}

/* The From: is not authenticated: at most OPTIN_LIMIT_SENDER_DAY token
 * mails to one address (in any case) in 24 hours, OPTIN_LIMIT_HOUR to
 * anyone in an hour; over the limit nothing is stored and nothing sent. */
static void test_rate_limit(struct fixture *f, gconstpointer data)
{
	guint n;

	for (guint i = 0; i < OPTIN_LIMIT_SENDER_DAY; i++) {
		g_assert_cmpint(request(f, "tony@atomide.com"), ==,
				OPTIN_TOKEN_SENT);
		f->ctx.now += 3600;
	}
	g_assert_cmpint(request(f, "Tony <TONY@atomide.com>"), ==,
			OPTIN_LIMITED);
	g_assert_true(store_optin_request_count(f->bot.st, "tony@atomide.com",
						0, &n, NULL));
	g_assert_cmpuint(n, ==, OPTIN_LIMIT_SENDER_DAY);
	/* another maintainer is not limited by Tony's count */
	g_assert_cmpint(request(f, "linux@armlinux.org.uk"), ==,
			OPTIN_TOKEN_SENT);
	/* 24 hours after the first one, one more */
	f->ctx.now += 24 * 3600 - OPTIN_LIMIT_SENDER_DAY * 3600 + 1;
	g_assert_cmpint(request(f, "tony@atomide.com"), ==, OPTIN_TOKEN_SENT);

	/* the global cap: token mails to others fill the hour */
	f->ctx.now += 2 * 24 * 3600;
	for (guint i = 0; i < OPTIN_LIMIT_HOUR; i++) {
		g_autofree char *hash = g_strdup_printf("h%u", i);
		g_autofree char *sender = g_strdup_printf("x%u@example.org", i);
		struct store_optin_request r = {
			.token_hash = hash,
			.action = "opt-in",
			.tree = "t",
			.sender = sender,
			.what = "opt-in",
			.created = f->ctx.now - 60,
			.expires = f->ctx.now + 3600,
		};

		g_assert_true(store_optin_request_add(f->bot.st, &r, NULL));
	}
	g_assert_cmpint(request(f, "tony@atomide.com"), ==, OPTIN_LIMITED);
	f->ctx.now += 3600;
	g_assert_cmpint(request(f, "tony@atomide.com"), ==, OPTIN_TOKEN_SENT);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn)                                              \
	g_test_add(path, struct fixture, NULL, fixture_set_up, fn, \
		   fixture_tear_down)
	ADD("/optin/opt-in", test_opt_in);
	ADD("/optin/not-a-maintainer", test_not_a_maintainer);
	ADD("/optin/bad-requests", test_bad_requests);
	ADD("/optin/tokens", test_tokens);
	ADD("/optin/replay", test_replay);
	ADD("/optin/set-and-opt-out", test_set_and_opt_out);
	ADD("/optin/rate-limit", test_rate_limit);
	return g_test_run();
}
