/* Unit tests for mailparse/series.c on hand-made message summaries. */
#include <string.h>

#include "mailparse/series.h"

/* A message from "A <@from>", received at its @date, appended to @all in
 * arrival order. */
static struct series_message *
message_add(GPtrArray *all, const char *id, const char *parent,
	    const char *from, const char *subject, enum classify_kind kind,
	    guint version, guint index, guint total, gint64 date)
{
	struct series_message *m = series_message_new();

	m->message_id = g_strdup(id);
	m->in_reply_to = g_strdup(parent);
	m->from_email = g_strdup(from);
	m->author = g_strdup_printf("A <%s>", from);
	m->subject = g_strdup(subject);
	m->kind = kind;
	m->version = version;
	m->has_version = version > 1;
	m->has_index = TRUE;
	m->index = index;
	m->total = total;
	m->date = date;
	m->received = date;
	m->seq = all->len;
	g_ptr_array_add(all, m);
	return m;
}

/* A message from a@x whose subject is its @id. */
static struct series_message *msg(GPtrArray *all, const char *id,
				  const char *parent, enum classify_kind kind,
				  guint version, guint index, guint total,
				  gint64 date)
{
	return message_add(all, id, parent, "a@x", id, kind, version, index,
			   total, date);
}

static void test_partition(void)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(
		(GDestroyNotify)series_message_free);
	struct series_options opts = SERIES_OPTIONS_INIT;
	g_autoptr(series_assembly) a = NULL;
	struct series *s1, *s2;

	/* v1 out of order, then v2 in reply to v1's cover */
	msg(all, "p2", "c", CLASSIFY_PATCH, 1, 2, 2, 102);
	msg(all, "p1", "c", CLASSIFY_PATCH, 1, 1, 2, 101);
	msg(all, "c", NULL, CLASSIFY_COVER, 1, 0, 2, 100);
	msg(all, "r", "p1", CLASSIFY_REPLY, 1, 1, 1, 150);
	msg(all, "c2", "c", CLASSIFY_COVER, 2, 0, 2, 200);
	msg(all, "q1", "c2", CLASSIFY_PATCH, 2, 1, 2, 201);
	opts.now = 10000000;
	a = series_assemble(all, &opts);
	g_assert_cmpuint(a->series->len, ==, 2);
	s1 = a->series->pdata[0];
	s2 = a->series->pdata[1];
	g_assert_cmpuint(s1->patches->len, ==, 2);
	g_assert_true(s1->complete);
	g_assert_cmpint(s1->state, ==, SERIES_SUPERSEDED);
	g_assert_true(s2->supersedes == s1);
	g_assert_cmpint(s2->state, ==, SERIES_INCOMPLETE);
	g_assert_true(s2->expired);
	g_assert_null(g_hash_table_lookup(a->by_message, "r"));
}

/* One posting.  Message-IDs are NAME-0 for the cover, NAME-I for patch I;
 * the patches reply to the cover, or without one to @in_reply_to. */
struct posting {
	const char *name;
	const char *in_reply_to; /* of the cover (or of each patch) */
	const char *from; /* "a@x" unless set */
	guint version; /* 1 unless set */
	gboolean resend;
	/* "cover|one|two": the cover's subject (empty: no cover), then the
	 * subject of each patch */
	const char *parts;
	guint first; /* index of the first patch, 1 unless set */
	guint total; /* the number of patches unless set */
	gint64 date; /* of the cover; patch I is dated date + I */
};

static void post(GPtrArray *all, const struct posting *p)
{
	g_auto(GStrv) parts = g_strsplit(p->parts, "|", -1);
	guint n = g_strv_length(parts) - 1;
	guint first = p->first ? p->first : 1;
	g_autofree char *cover = g_strdup_printf("%s-0", p->name);

	for (guint i = 0; i <= n; i++) {
		g_autofree char *id = NULL;

		if (!i && !*parts[0])
			continue;
		id = i ? g_strdup_printf("%s-%u", p->name, first + i - 1) :
			 g_strdup(cover);
		message_add(all, id, i && *parts[0] ? cover : p->in_reply_to,
			    p->from ? p->from : "a@x", parts[i],
			    i ? CLASSIFY_PATCH : CLASSIFY_COVER,
			    p->version ? p->version : 1, i ? first + i - 1 : 0,
			    p->total ? p->total : n, p->date + i)
			->resend = p->resend;
	}
}

/* Post each of the @n @postings in order. */
static void post_all(GPtrArray *all, const struct posting *postings, gsize n)
{
	for (gsize i = 0; i < n; i++)
		post(all, &postings[i]);
}

/* The series of message @id. */
static struct series *of(const struct series_assembly *a, const char *id)
{
	struct series *s = g_hash_table_lookup(a->by_message, id);

	g_assert_nonnull(s);
	return s;
}

static struct series_assembly *assemble(GPtrArray *all)
{
	struct series_options opts = SERIES_OPTIONS_INIT;

	opts.now = 10000000;
	return series_assemble(all, &opts);
}

/* Post each of the @n @postings to @all in order, and assemble @all. */
static struct series_assembly *
post_assemble(GPtrArray *all, const struct posting *postings, gsize n)
{
	post_all(all, postings, n);
	return assemble(all);
}

static GPtrArray *messages_new(void)
{
	return g_ptr_array_new_with_free_func(
		(GDestroyNotify)series_message_free);
}

/* Assert the states of the series of @ids ("o-0 superseded r-0 ready"). */
static void assert_states(const struct series_assembly *a, const char *want)
{
	g_auto(GStrv) w = g_strsplit(want, " ", -1);

	for (guint i = 0; w[i] && w[i + 1]; i += 2)
		g_assert_cmpstr(series_state_name(of(a, w[i])->state), ==,
				w[i + 1]);
}

/* The subject tag and the series_message built from a whole mail. */
static void test_resend_tag(void)
{
	static const char *const subjects[] = {
		"[RESEND] x",
		"[PATCH RESEND] x",
		"[PATCH v2 RESEND] x",
		"[RESEND PATCH v3 0/4] x",
		"[PATCH RESEND v2 1/2] x",
	};
	static const char diff[] =
		"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n";

	for (gsize i = 0; i < G_N_ELEMENTS(subjects); i++) {
		g_autofree char *text = g_strdup_printf(
			"From: A <a@x>\nMessage-ID: <m@x>\nSubject: %s\n\n"
			"msg\n---\n%s",
			subjects[i], diff);
		g_autoptr(GBytes) raw = g_bytes_new(text, strlen(text));
		g_autoptr(message) msg = message_parse(raw, NULL);
		g_autoptr(series_message) m = NULL;

		g_assert_nonnull(msg);
		m = series_message_from(msg, 0);
		g_assert_true(m->resend);
		g_assert_cmpstr(m->subject, ==, "x");
	}
}

/* A resend in a new thread supersedes the original, with or without a
 * cover letter, and its JSON fields follow from supersedes/superseded_by. */
static void test_resend_new_thread(void)
{
	static const struct posting postings[] = {
		{ .name = "o", .parts = "w|a|b", .date = 100 },
		{ .name = "r", .resend = TRUE, .parts = "w|a|b", .date = 200 },
		{ .name = "p", .parts = "|one", .date = 300 },
		{ .name = "q", .resend = TRUE, .parts = "|one", .date = 400 },
	};
	g_autoptr(GPtrArray) all = messages_new();
	g_autoptr(series_assembly) a = NULL;

	a = post_assemble(all, postings, G_N_ELEMENTS(postings));
	g_assert_cmpuint(a->series->len, ==, 4);
	g_assert_true(of(a, "r-0")->resend);
	g_assert_false(of(a, "o-0")->resend);
	g_assert_true(of(a, "r-0")->supersedes == of(a, "o-0"));
	g_assert_true(of(a, "o-0")->superseded_by == of(a, "r-0"));
	g_assert_true(of(a, "q-1")->supersedes == of(a, "p-1"));
	g_assert_null(of(a, "q-1")->partial_of);
	assert_states(a, "o-0 superseded r-0 ready p-1 superseded q-1 ready");
}

/* A resend in reply to the original supersedes it. */
static void test_resend_in_reply(void)
{
	static const struct posting postings[] = {
		{ .name = "o", .version = 2, .parts = "w|a|b", .date = 100 },
		{ .name = "r",
		  .in_reply_to = "o-0",
		  .version = 2,
		  .resend = TRUE,
		  .parts = "w|a|b",
		  .date = 200 },
	};
	g_autoptr(GPtrArray) all = messages_new();
	g_autoptr(series_assembly) a = NULL;

	a = post_assemble(all, postings, G_N_ELEMENTS(postings));
	g_assert_cmpuint(a->series->len, ==, 2);
	g_assert_true(of(a, "r-0")->supersedes == of(a, "o-0"));
	g_assert_null(of(a, "r-0")->partial_of);
	assert_states(a, "o-0 superseded r-0 ready");
}

/* Without RESEND the same subjects at the same version are two series,
 * in a new thread or in reply; another sender's resend is not ours. */
static void test_same_version_no_resend(void)
{
	static const struct posting postings[] = {
		{ .name = "o", .parts = "w|a|b", .date = 100 },
		{ .name = "n", .parts = "w|a|b", .date = 200 },
		{ .name = "m",
		  .in_reply_to = "o-0",
		  .parts = "w|a|b",
		  .date = 300 },
		{ .name = "x",
		  .from = "b@x",
		  .resend = TRUE,
		  .parts = "w|a|b",
		  .date = 400 },
	};
	g_autoptr(GPtrArray) all = messages_new();
	g_autoptr(series_assembly) a = NULL;

	a = post_assemble(all, postings, G_N_ELEMENTS(postings));
	g_assert_cmpuint(a->series->len, ==, 4);
	for (guint i = 0; i < a->series->len; i++) {
		struct series *s = a->series->pdata[i];

		g_assert_null(s->supersedes);
		g_assert_cmpint(s->state, ==, SERIES_READY);
	}
}

/* Renumber the arrival order of @all after a reordering. */
static void renumber(GPtrArray *all)
{
	for (guint i = 0; i < all->len; i++)
		((struct series_message *)all->pdata[i])->seq = i;
}

static void reverse(GPtrArray *all)
{
	for (guint i = 0, j = all->len - 1; i < j; i++, j--) {
		gpointer t = all->pdata[i];

		all->pdata[i] = all->pdata[j];
		all->pdata[j] = t;
	}
	renumber(all);
}

static void shuffle(GPtrArray *all, GRand *rand)
{
	for (guint i = all->len; i > 1; i--) {
		guint j = g_rand_int_range(rand, 0, i);
		gpointer t = all->pdata[i - 1];

		all->pdata[i - 1] = all->pdata[j];
		all->pdata[j] = t;
	}
	renumber(all);
}

/* original, resend, resend again in reply to the original: a chain, the
 * latest resend ready.  The same in any arrival order: the dates decide,
 * not the input. */
static void test_resend_chain_any_order(void)
{
	static const struct posting postings[] = {
		{ .name = "o", .parts = "w|a|b", .date = 100 },
		{ .name = "r", .resend = TRUE, .parts = "w|a|b", .date = 200 },
		{ .name = "s",
		  .in_reply_to = "o-0",
		  .resend = TRUE,
		  .parts = "w|a|b",
		  .date = 300 },
	};
	g_autoptr(GPtrArray) all = messages_new();
	g_autoptr(GRand) rand = g_rand_new_with_seed(42);

	post_all(all, postings, G_N_ELEMENTS(postings));
	for (guint round = 0; round < 22; round++) {
		g_autoptr(series_assembly) a = NULL;

		/* as posted, then the latest resend first, then at random */
		if (round == 1)
			reverse(all);
		else if (round > 1)
			shuffle(all, rand);
		a = assemble(all);
		g_assert_cmpuint(a->series->len, ==, 3);
		g_assert_true(of(a, "s-0")->supersedes == of(a, "r-0"));
		g_assert_true(of(a, "r-0")->supersedes == of(a, "o-0"));
		g_assert_null(of(a, "o-0")->supersedes);
		g_assert_true(of(a, "o-0")->superseded_by == of(a, "r-0"));
		g_assert_true(of(a, "r-0")->superseded_by == of(a, "s-0"));
		assert_states(a, "o-0 superseded r-0 superseded s-0 ready");
	}
}

/* Sent in the same second: the resend is the later, whichever arrives
 * first, and the v2 sent after them supersedes the resend. */
static void test_resend_same_second(void)
{
	static const struct posting postings[] = {
		{ .name = "r", .resend = TRUE, .parts = "|one", .date = 100 },
		{ .name = "o", .parts = "|one", .date = 100 },
		{ .name = "v", .version = 2, .parts = "|one", .date = 200 },
	};
	g_autoptr(GPtrArray) all = messages_new();

	post_all(all, postings, G_N_ELEMENTS(postings));
	for (guint round = 0; round < 2; round++) {
		g_autoptr(series_assembly) a = NULL;

		if (round)
			reverse(all);
		a = assemble(all);
		g_assert_true(of(a, "r-1")->supersedes == of(a, "o-1"));
		g_assert_null(of(a, "o-1")->supersedes);
		g_assert_true(of(a, "v-1")->supersedes == of(a, "r-1"));
		assert_states(a, "o-1 superseded r-1 superseded v-1 ready");
	}
}

/* A resend of v2 supersedes v2, never v3: neither the v3 sent before it
 * nor one sent after (which supersedes the resend, the latest v2). */
static void test_resend_older_version(void)
{
	static const struct posting v3_first[] = {
		{ .name = "v2", .version = 2, .parts = "w|a|b", .date = 100 },
		{ .name = "v3", .version = 3, .parts = "w|a|b", .date = 200 },
		{ .name = "r2",
		  .version = 2,
		  .resend = TRUE,
		  .parts = "w|a|b",
		  .date = 300 },
	};
	static const struct posting v3_last[] = {
		{ .name = "v2", .version = 2, .parts = "w|a|b", .date = 100 },
		{ .name = "r2",
		  .version = 2,
		  .resend = TRUE,
		  .parts = "w|a|b",
		  .date = 200 },
		{ .name = "v3", .version = 3, .parts = "w|a|b", .date = 300 },
	};
	g_autoptr(GPtrArray) all = messages_new();
	g_autoptr(series_assembly) a = NULL;
	g_autoptr(series_assembly) b = NULL;

	a = post_assemble(all, v3_first, G_N_ELEMENTS(v3_first));
	g_assert_true(of(a, "v3-0")->supersedes == of(a, "v2-0"));
	g_assert_true(of(a, "r2-0")->supersedes == of(a, "v2-0"));
	g_assert_null(of(a, "v3-0")->superseded_by);
	assert_states(a, "v2-0 superseded v3-0 ready r2-0 ready");

	/* v3 after the resend of v2 */
	g_ptr_array_set_size(all, 0);
	b = post_assemble(all, v3_last, G_N_ELEMENTS(v3_last));
	g_assert_true(of(b, "r2-0")->supersedes == of(b, "v2-0"));
	g_assert_true(of(b, "v3-0")->supersedes == of(b, "r2-0"));
	assert_states(b, "v2-0 superseded r2-0 superseded v3-0 ready");
}

/* The same work as same_work() judges it for rerolls: a resend with fewer
 * or more patches and one subject in common supersedes; one with nothing
 * in common does not.  A resend with no posting of its version supersedes
 * as a reroll of that version would. */
static void test_resend_same_work(void)
{
	static const struct posting postings[] = {
		{ .name = "o", .parts = "|a|b|c", .date = 100 },
		{ .name = "f", .resend = TRUE, .parts = "|a|c", .date = 200 },
		{ .name = "m",
		  .resend = TRUE,
		  .parts = "|a|c|d|e",
		  .date = 300 },
		{ .name = "x", .resend = TRUE, .parts = "|y|z", .date = 400 },
		{ .name = "v1", .parts = "k|k1", .date = 500 },
		{ .name = "v2",
		  .version = 2,
		  .resend = TRUE,
		  .parts = "k|k1",
		  .date = 600 },
	};
	g_autoptr(GPtrArray) all = messages_new();
	g_autoptr(series_assembly) a = NULL;

	a = post_assemble(all, postings, G_N_ELEMENTS(postings));
	g_assert_true(of(a, "f-1")->supersedes == of(a, "o-1"));
	g_assert_true(of(a, "m-1")->supersedes == of(a, "f-1"));
	g_assert_null(of(a, "x-1")->supersedes);
	g_assert_true(of(a, "v2-0")->supersedes == of(a, "v1-0"));
	assert_states(a, "o-1 superseded f-1 superseded m-1 ready x-1 ready "
			 "v1-0 superseded v2-0 ready");
}

/* A series o of three patches with a cover, then its whole resend r. */
static const struct posting resent[] = {
	{ .name = "o", .parts = "w|a|b|c", .date = 100 },
	{ .name = "r", .resend = TRUE, .parts = "w|a|b|c", .date = 200 },
};

/* Post p, a partial resend of patch 2/3 without a cover, in reply to
 * @in_reply_to. */
static void post_partial_resend(GPtrArray *all, const char *in_reply_to)
{
	post(all, &(struct posting){ .name = "p",
				     .in_reply_to = in_reply_to,
				     .resend = TRUE,
				     .parts = "|b",
				     .first = 2,
				     .total = 3,
				     .date = 300 });
}

/* Assert that p-2, a partial resend of 2/3 posted after resent[], patches
 * the whole resend r-0 into a complete series; returns its series. */
static struct series *assert_partial_of_resend(const struct series_assembly *a)
{
	struct series *p = of(a, "p-2");

	g_assert_true(p->supersedes == of(a, "r-0"));
	g_assert_true(p->partial_of == of(a, "r-0"));
	g_assert_true(p->complete);
	assert_states(a, "o-0 superseded r-0 superseded p-2 ready");
	return p;
}

/* RESEND on the cover only marks the whole series; "[PATCH RESEND 2/3]" in
 * reply to 2/3 is a partial resend, complete with the other patches. */
static void test_resend_cover_only_and_partial(void)
{
	g_autoptr(GPtrArray) all = messages_new();
	g_autoptr(series_assembly) a = NULL;
	g_autoptr(GPtrArray) order = NULL;
	struct series *p;

	post_all(all, resent, G_N_ELEMENTS(resent));
	for (guint i = 0; i < all->len; i++) {
		struct series_message *m = all->pdata[i];

		m->resend = !strcmp(m->message_id, "r-0");
	}
	post_partial_resend(all, "r-2");
	a = assemble(all);
	g_assert_true(of(a, "r-1")->resend);
	g_assert_true(of(a, "r-0")->supersedes == of(a, "o-0"));
	p = assert_partial_of_resend(a);
	g_assert_true(p != of(a, "r-0"));
	order = series_apply_order(p);
	g_assert_cmpuint(order->len, ==, 3);
	g_assert_cmpstr(((struct series_message *)order->pdata[0])->message_id,
			==, "r-1");
	g_assert_cmpstr(((struct series_message *)order->pdata[1])->message_id,
			==, "p-2");
	g_assert_cmpstr(((struct series_message *)order->pdata[2])->message_id,
			==, "r-3");
}

/* A partial resend in reply to the original's 2/3 when a whole resend came
 * between: it patches the latest posting, the whole resend. */
static void test_resend_partial_of_latest(void)
{
	g_autoptr(GPtrArray) all = messages_new();
	g_autoptr(series_assembly) a = NULL;

	post_all(all, resent, G_N_ELEMENTS(resent));
	post_partial_resend(all, "o-2");
	a = assemble(all);
	assert_partial_of_resend(a);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/series/partition", test_partition);
	g_test_add_func("/series/resend/tag", test_resend_tag);
	g_test_add_func("/series/resend/new-thread", test_resend_new_thread);
	g_test_add_func("/series/resend/in-reply", test_resend_in_reply);
	g_test_add_func("/series/resend/same-version-no-resend",
			test_same_version_no_resend);
	g_test_add_func("/series/resend/chain-any-order",
			test_resend_chain_any_order);
	g_test_add_func("/series/resend/same-second", test_resend_same_second);
	g_test_add_func("/series/resend/older-version",
			test_resend_older_version);
	g_test_add_func("/series/resend/same-work", test_resend_same_work);
	g_test_add_func("/series/resend/cover-only-and-partial",
			test_resend_cover_only_and_partial);
	g_test_add_func("/series/resend/partial-of-latest",
			test_resend_partial_of_latest);
	return g_test_run();
}
