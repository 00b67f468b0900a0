/* Unit tests for kernel/diff/linediff.c: hand cases with the counts git 2.39.5
 * prints for them (`git diff --no-index --numstat a b`); the thousands of
 * generated and real pairs are in tests/conformance/linediff-git.t. */
#include "kernel/diff/linediff.h"

#include <string.h>

struct tcase {
	const char *name;
	const char *a, *b;
	guint64 added, deleted;
};

static void check(const char *name, const char *a, gsize alen, const char *b,
		  gsize blen, guint64 want_added, guint64 want_deleted)
{
	guint64 added = 99, deleted = 99;

	linediff_count(a, alen, b, blen, &added, &deleted);
	if (added != want_added || deleted != want_deleted)
		g_test_message("%s: got +%" G_GUINT64_FORMAT
			       " -%" G_GUINT64_FORMAT,
			       name, added, deleted);
	g_assert_cmpuint(added, ==, want_added);
	g_assert_cmpuint(deleted, ==, want_deleted);
}

static void test_hand(void)
{
	static const struct tcase cases[] = {
		{ "both empty", "", "", 0, 0 },
		{ "from empty", "", "a\nb\n", 2, 0 },
		{ "to empty", "a\nb\n", "", 0, 2 },
		{ "identical", "a\nb\nc\n", "a\nb\nc\n", 0, 0 },
		/* a last line without newline is another line */
		{ "newline added", "a", "a\n", 1, 1 },
		{ "last newline added", "a\nb", "a\nb\n", 1, 1 },
		{ "last newline removed", "a\nb\nc\n", "a\nb\nc", 1, 1 },
		{ "both without newline", "a\nb", "a\nc", 1, 1 },
		/* the CR is part of the line */
		{ "crlf", "a\r\nb\r\nc\r\n", "a\nb\r\nc\n", 2, 2 },
		{ "all different", "a\nb\nc\n", "x\ny\n", 2, 3 },
		{ "moved block", "1\n2\n3\n4\n5\n6\n7\n8\n",
		  "5\n6\n7\n1\n2\n3\n4\n8\n", 3, 3 },
		{ "blank lines", "\n\n\n", "\n\n\n\n\n", 2, 0 },
		/* "}" has 11 matches in b, over xdl_bogosqrt(19) = 8, and
		 * sits between lines without match: xdl_cleanup_records
		 * discards it, so it is counted although an LCS would keep
		 * it (+8 -8) */
		{ "too many matches, discarded",
		  "}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n"
		  "x1\nx2\nx3\nx4\n}\nx5\nx6\nx7\nx8\n",
		  "}\n}\n}\n}\n}\n}\n}\n}\n}\n}\n"
		  "y1\ny2\ny3\ny4\n}\ny5\ny6\ny7\ny8\n",
		  9, 9 },
		/* the same line in a shorter run is kept and matched */
		{ "too many matches, kept",
		  "}\n}\n}\n}\n}\n}\n}\n}\n}\n}\nx1\n}\nx2\n",
		  "}\n}\n}\n}\n}\n}\n}\n}\n}\n}\ny1\n}\ny2\n", 2, 2 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		const struct tcase *c = &cases[i];

		check(c->name, c->a, strlen(c->a), c->b, strlen(c->b), c->added,
		      c->deleted);
	}
}

/* An empty GBytes gives NULL data: no pointer arithmetic on it (clang's
 * UBSan reports NULL + 0; tests/fuzz/fuzz-linediff.c found it). */
static void test_null_empty(void)
{
	check("NULL a", NULL, 0, "a\n", 2, 1, 0);
	check("NULL b", "a\nb", 3, NULL, 0, 0, 2);
	check("NULL both", NULL, 0, NULL, 0, 0, 0);
}

/* @n lines "l<k>" from the C library's old rand(): the same texts as
 * the Python that asked git for the counts */
static char *lcg_text(guint64 seed, guint n, guint k, gsize *len)
{
	GString *s = g_string_new(NULL);
	guint64 x = seed;

	for (guint i = 0; i < n; i++) {
		x = (x * 1103515245 + 12345) & 0x7fffffff;
		g_string_append_printf(s, "l%u\n", (guint)((x >> 16) % k));
	}
	*len = s->len;
	return g_string_free(s, FALSE);
}

/* Random texts over 4 and 30 lines: the edit cost passes
 * XDL_HEUR_MIN_COST and mxcost, and git's counts are not minimal
 * (`--minimal` gives +1044 -1044 and +13871 -13871). */
static void test_heuristics(void)
{
	gsize alen, blen;
	g_autofree char *a = lcg_text(1, 3000, 4, &alen);
	g_autofree char *b = lcg_text(2, 3000, 4, &blen);
	g_autofree char *c = NULL;
	g_autofree char *d = NULL;

	check("3000 lines of 4", a, alen, b, blen, 1049, 1049);
	c = lcg_text(3, 20000, 30, &alen);
	d = lcg_text(4, 20000, 30, &blen);
	check("20000 lines of 30", c, alen, d, blen, 14250, 14250);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/linediff/hand", test_hand);
	g_test_add_func("/linediff/null-empty", test_null_empty);
	g_test_add_func("/linediff/heuristics", test_heuristics);
	return g_test_run();
}
