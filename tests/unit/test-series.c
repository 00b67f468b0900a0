/* Unit tests for mailparse/series.c on hand-made message summaries. */
#include "mailparse/series.h"

static struct series_message *msg(GPtrArray *all, const char *id,
				  const char *parent, enum classify_kind kind,
				  guint version, guint index, guint total,
				  gint64 date)
{
	struct series_message *m = series_message_new();

	m->message_id = g_strdup(id);
	m->in_reply_to = g_strdup(parent);
	m->from_email = g_strdup("a@x");
	m->author = g_strdup("A <a@x>");
	m->subject = g_strdup(id);
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

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/series/partition", test_partition);
	return g_test_run();
}
