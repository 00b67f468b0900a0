/* Driver of tests/conformance/linediff-git.t and bench/linediff.sh: makes
 * pairs of texts and counts their lines with linediff_count(), for a
 * comparison with `git diff --numstat` over the same pairs.
 *
 *   linediff-git gen SEED DIR [FILE...]
 *	write pairs DIR/a/NAME and DIR/b/NAME: random texts over small
 *	alphabets, large files with scattered edits, and each FILE edited
 *	at random (insertions, deletions, replacements, block moves and
 *	copies, runs of "}" and blank lines, CRLF, a lost last newline)
 *   linediff-git count DIR
 *	print "ADDED<TAB>DELETED<TAB>NAME" for every pair that differs, as
 *	git --numstat does; the time spent counting goes to stderr */
#include "kernel/diff/linediff.h"

#include <stdio.h>
#include <stdlib.h>

/* The lines of one text: each without its '\n'; @noeol when the last
 * line has none. */
struct text {
	GPtrArray *lines;
	gboolean noeol;
};

static const char *const common_lines[] = {
	"}",	      "",	"\t}",		 "{",	"\treturn 0;",
	"\t\tbreak;", "#endif", "\treturn ret;", " */", "\t\treturn -EINVAL;",
};

/* a line for an insertion: often one of @alphabet (or a common line),
 * sometimes a line seen nowhere else */
static char *pick_line(GRand *rand, GPtrArray *alphabet)
{
	guint r = g_rand_int_range(rand, 0, 10);

	if (r < 5 && alphabet->len)
		return g_strdup(g_ptr_array_index(
			alphabet, g_rand_int_range(rand, 0, alphabet->len)));
	if (r < 8)
		return g_strdup(common_lines[g_rand_int_range(
			rand, 0, G_N_ELEMENTS(common_lines))]);
	return g_strdup_printf("\tnew_%08x(%u);", g_rand_int(rand),
			       g_rand_int_range(rand, 0, 100));
}

static guint pick_len(GRand *rand, guint max)
{
	/* mostly short runs, now and then a long one */
	if (g_rand_int_range(rand, 0, 8) == 0)
		max *= 8;
	return g_rand_int_range(rand, 1, max + 1);
}

static void insert_lines(GPtrArray *lines, guint at, GPtrArray *src, guint from,
			 guint n)
{
	for (guint i = 0; i < n; i++)
		g_ptr_array_insert(lines, at + i,
				   g_strdup(g_ptr_array_index(src, from + i)));
}

/* one random edit of @t */
static void edit_text(GRand *rand, struct text *t, GPtrArray *alphabet,
		      guint maxlen)
{
	GPtrArray *lines = t->lines;
	guint len = lines->len;
	guint at = g_rand_int_range(rand, 0, len + 1);
	guint n = pick_len(rand, maxlen);

	/* MIN() evaluates twice: draw first */
	n = MIN(n, len - at);

	switch (g_rand_int_range(rand, 0, 9)) {
	case 0: /* insertion */
	case 1:
		n = pick_len(rand, maxlen);
		for (guint i = 0; i < n; i++)
			g_ptr_array_insert(lines, at + i,
					   pick_line(rand, alphabet));
		break;
	case 2: /* deletion */
		if (n)
			g_ptr_array_remove_range(lines, at, n);
		break;
	case 3: /* replacement */
		if (n)
			g_ptr_array_remove_range(lines, at, n);
		n = pick_len(rand, maxlen);
		for (guint i = 0; i < n; i++)
			g_ptr_array_insert(lines, at + i,
					   pick_line(rand, alphabet));
		break;
	case 4: /* block move */
	case 5: /* block copy */
		if (n) {
			g_autoptr(GPtrArray)
				block = g_ptr_array_new_with_free_func(g_free);
			guint to;

			insert_lines(block, 0, lines, at, n);
			if (g_rand_boolean(rand))
				g_ptr_array_remove_range(lines, at, n);
			to = g_rand_int_range(rand, 0, lines->len + 1);
			insert_lines(lines, to, block, 0, n);
		}
		break;
	case 6: /* runs of the lines that match too often */
		n = pick_len(rand, maxlen);
		for (guint i = 0; i < n; i++) {
			guint pos = g_rand_int_range(rand, 0, lines->len + 1);

			g_ptr_array_insert(lines, pos,
					   g_strdup(g_rand_boolean(rand) ? "}" :
									   ""));
		}
		break;
	case 7: /* CRLF */
		for (guint i = at; i < at + n; i++) {
			char *l = g_ptr_array_index(lines, i);

			lines->pdata[i] = g_strconcat(l, "\r", NULL);
			g_free(l);
		}
		break;
	default: /* the last newline */
		t->noeol = !t->noeol;
		break;
	}
}

static struct text text_copy(const struct text *t)
{
	struct text c = { g_ptr_array_new_with_free_func(g_free), t->noeol };

	insert_lines(c.lines, 0, t->lines, 0, t->lines->len);
	return c;
}

static void text_write(const struct text *t, const char *path)
{
	g_autoptr(GString) s = g_string_new(NULL);
	g_autoptr(GError) error = NULL;

	for (guint i = 0; i < t->lines->len; i++) {
		g_string_append(s, g_ptr_array_index(t->lines, i));
		if (i + 1 < t->lines->len || !t->noeol)
			g_string_append_c(s, '\n');
	}
	if (!g_file_set_contents(path, s->str, s->len, &error)) {
		g_printerr("linediff-git: %s\n", error->message);
		exit(2);
	}
}

static void text_from(struct text *t, const char *buf, gsize len)
{
	g_auto(GStrv) parts = NULL;
	guint n;

	t->lines = g_ptr_array_new_with_free_func(g_free);
	t->noeol = len && buf[len - 1] != '\n';
	if (!len)
		return;
	parts = g_strsplit(buf, "\n", -1);
	n = g_strv_length(parts);
	/* "a\nb\n" splits into a, b and an empty tail */
	if (!t->noeol)
		n--;
	for (guint i = 0; i < n; i++)
		g_ptr_array_add(t->lines, g_strdup(parts[i]));
}

static void write_text_pair(const char *dir, const char *name,
			    const struct text *a, const struct text *b)
{
	g_autofree char *pa = g_build_filename(dir, "a", name, NULL);
	g_autofree char *pb = g_build_filename(dir, "b", name, NULL);

	text_write(a, pa);
	text_write(b, pb);
}

/* write the pair @name: @a and @a edited @nedits times */
static void write_pair(GRand *rand, const char *dir, const char *name,
		       const struct text *a, GPtrArray *alphabet, guint nedits,
		       guint maxlen)
{
	struct text b = text_copy(a);
	g_autofree char *pa = g_build_filename(dir, "a", name, NULL);
	g_autofree char *pb = g_build_filename(dir, "b", name, NULL);

	for (guint i = 0; i < nedits; i++)
		edit_text(rand, &b, alphabet, maxlen);
	text_write(a, pa);
	text_write(&b, pb);
	g_ptr_array_unref(b.lines);
}

static void random_text(GRand *rand, struct text *t, GPtrArray *alphabet,
			guint n)
{
	t->lines = g_ptr_array_new_with_free_func(g_free);
	t->noeol = g_rand_int_range(rand, 0, 8) == 0;
	for (guint i = 0; i < n; i++)
		g_ptr_array_add(t->lines, pick_line(rand, alphabet));
}

/* The alphabet of @k lines PREFIX0SUFFIX .. PREFIX(k-1)SUFFIX, owned by
 * the caller. */
static GPtrArray *alphabet_new(const char *prefix, guint k, const char *suffix)
{
	GPtrArray *alphabet = g_ptr_array_new_with_free_func(g_free);

	for (guint j = 0; j < k; j++)
		g_ptr_array_add(alphabet,
				g_strdup_printf("%s%u%s", prefix, j, suffix));
	return alphabet;
}

static int cmd_gen(guint32 seed, const char *dir, gboolean huge, int nfiles,
		   char **files)
{
	g_autoptr(GRand) rand = g_rand_new_with_seed(seed);
	g_autofree char *da = g_build_filename(dir, "a", NULL);
	g_autofree char *db = g_build_filename(dir, "b", NULL);
	guint n = 0;

	g_mkdir_with_parents(da, 0755);
	g_mkdir_with_parents(db, 0755);

	/* small texts over alphabets of 1 to 40 lines: many equal lines */
	for (guint i = 0; i < 2500; i++) {
		g_autoptr(GPtrArray) alphabet =
			alphabet_new("l", g_rand_int_range(rand, 1, 41), "");
		g_autofree char *name = g_strdup_printf("small-%05u", n++);
		struct text a;

		random_text(rand, &a, alphabet, g_rand_int_range(rand, 0, 400));
		write_pair(rand, dir, name, &a, alphabet,
			   g_rand_int_range(rand, 0, 30), 6);
		g_ptr_array_unref(a.lines);
	}

	/* large texts with many edits scattered: the cost limits */
	for (guint i = 0; i < 24; i++) {
		g_autoptr(GPtrArray) alphabet = alphabet_new(
			"\tcall_", g_rand_int_range(rand, 50, 3000), "(x);");
		g_autofree char *name = g_strdup_printf("large-%05u", n++);
		struct text a;

		random_text(rand, &a, alphabet,
			    g_rand_int_range(rand, 20000, 40000));
		write_pair(rand, dir, name, &a, alphabet,
			   g_rand_int_range(rand, 1, 1500),
			   g_rand_int_range(rand, 1, 40));
		g_ptr_array_unref(a.lines);
	}

	/* long runs of lines without match around lines matching too
	 * often: xdl_clean_mmatch and its window of 100 lines */
	for (guint i = 0; i < 120; i++) {
		g_autoptr(GPtrArray) alphabet = alphabet_new("w", 200, "");
		g_autofree char *name = g_strdup_printf("runs-%05u", n++);
		struct text a, b;

		random_text(rand, &a, alphabet,
			    g_rand_int_range(rand, 500, 4000));
		b = text_copy(&a);
		for (guint e = g_rand_int_range(rand, 1, 4); e; e--) {
			guint at = g_rand_int_range(rand, 0, b.lines->len + 1);
			guint del = g_rand_int_range(rand, 0, 600);
			guint ins = g_rand_int_range(rand, 100, 1500);
			gint32 pct = g_rand_int_range(rand, 5, 60);

			g_ptr_array_remove_range(b.lines, at,
						 MIN(del, b.lines->len - at));
			for (guint j = 0; j < ins; j++)
				g_ptr_array_insert(
					b.lines, at + j,
					g_rand_int_range(rand, 0, 100) < pct ?
						g_strdup(
							common_lines[g_rand_int_range(
								rand, 0, 3)]) :
						g_strdup_printf("u%u-%u", i,
								j));
		}
		write_text_pair(dir, name, &a, &b);
		g_ptr_array_unref(a.lines);
		g_ptr_array_unref(b.lines);
	}

	/* a long common head and tail around a middle of few distinct
	 * lines: the limit of matches counts the trimmed lines too */
	for (guint i = 0; i < 200; i++) {
		g_autoptr(GPtrArray) alphabet = NULL;
		g_autofree char *name = g_strdup_printf("framed-%05u", n++);
		guint head = g_rand_int_range(rand, 0, 6000);
		guint tail = g_rand_int_range(rand, 0, 3000);
		guint k = g_rand_int_range(rand, 1, 8);
		struct text a, mid, b;

		alphabet = alphabet_new("m", k, "");
		random_text(rand, &mid, alphabet,
			    g_rand_int_range(rand, 10, 300));
		mid.noeol = FALSE;
		a.lines = g_ptr_array_new_with_free_func(g_free);
		a.noeol = FALSE;
		for (guint j = 0; j < head + tail; j++) {
			/* the frame holds some of the middle's lines */
			if (j == head)
				insert_lines(a.lines, a.lines->len, mid.lines,
					     0, mid.lines->len);
			g_ptr_array_add(
				a.lines,
				g_rand_int_range(rand, 0, 4) ?
					g_strdup_printf("f%u", j) :
					g_strdup(g_ptr_array_index(
						alphabet,
						g_rand_int_range(
							rand, 0,
							alphabet->len))));
		}
		if (head + tail == head)
			insert_lines(a.lines, a.lines->len, mid.lines, 0,
				     mid.lines->len);
		b = text_copy(&a);
		for (guint e = g_rand_int_range(rand, 1, 20); e; e--) {
			guint at = head +
				   g_rand_int_range(rand, 0, mid.lines->len);
			char *l = b.lines->pdata[at];

			b.lines->pdata[at] = g_strdup(g_ptr_array_index(
				alphabet,
				g_rand_int_range(rand, 0, alphabet->len)));
			g_free(l);
			if (g_rand_boolean(rand))
				g_ptr_array_insert(b.lines, at,
						   g_strdup_printf("x%u", e));
		}
		write_text_pair(dir, name, &a, &b);
		g_ptr_array_unref(a.lines);
		g_ptr_array_unref(mid.lines);
		g_ptr_array_unref(b.lines);
	}

	/* over 2^20 lines: xdl_bogosqrt passes XDL_MAX_EQLIMIT (1024), and
	 * "c", 1400 times in both, is one of the lines matching too often
	 * in a replaced region where it is discarded */
	if (huge) {
		struct text a = { g_ptr_array_new_with_free_func(g_free), 0 };
		struct text b = { g_ptr_array_new_with_free_func(g_free), 0 };
		guint total = (1 << 20) + 5000;

		for (guint j = 0; j < total; j++) {
			char *l = j % 750 ? g_strdup_printf("h%u", j) :
					    g_strdup("c");

			/* one "c" in six lines: dense enough to be discarded */
			if (j == 600000) {
				for (guint r = 0; r < 1800; r++) {
					g_ptr_array_add(
						a.lines,
						r % 6 ? g_strdup_printf("ua%u",
									r) :
							g_strdup("c"));
					g_ptr_array_add(
						b.lines,
						r % 6 ? g_strdup_printf("ub%u",
									r) :
							g_strdup("c"));
				}
			}
			g_ptr_array_add(a.lines, l);
			g_ptr_array_add(b.lines, g_strdup(l));
		}
		write_text_pair(dir, "huge", &a, &b);
		g_ptr_array_unref(a.lines);
		g_ptr_array_unref(b.lines);
	}

	/* real files, each edited a few ways */
	for (int f = 0; f < nfiles; f++) {
		g_autofree char *buf = NULL;
		gsize len;
		struct text a;

		if (!g_file_get_contents(files[f], &buf, &len, NULL))
			continue;
		text_from(&a, buf, len);
		for (guint v = 0; v < 3; v++) {
			g_autofree char *name =
				g_strdup_printf("file-%05u", n++);
			guint nedits = v == 2 ?
					       g_rand_int_range(rand, 50, 800) :
					       g_rand_int_range(rand, 1, 12);

			write_pair(rand, dir, name, &a, a.lines, nedits,
				   v == 2 ? 30 : 10);
		}
		g_ptr_array_unref(a.lines);
	}
	return 0;
}

static int cmd_count(const char *dir)
{
	g_autofree char *da = g_build_filename(dir, "a", NULL);
	g_autoptr(GDir) d = g_dir_open(da, 0, NULL);
	g_autoptr(GString) out = g_string_new(NULL);
	const char *name;
	gint64 spent = 0;
	guint pairs = 0;

	if (!d) {
		g_printerr("linediff-git: cannot open %s\n", da);
		return 2;
	}
	while ((name = g_dir_read_name(d))) {
		g_autofree char *pa = g_build_filename(dir, "a", name, NULL);
		g_autofree char *pb = g_build_filename(dir, "b", name, NULL);
		g_autofree char *a = NULL;
		g_autofree char *b = NULL;
		gsize alen, blen;
		guint64 added, deleted;
		gint64 t0;

		if (!g_file_get_contents(pa, &a, &alen, NULL) ||
		    !g_file_get_contents(pb, &b, &blen, NULL)) {
			g_printerr("linediff-git: cannot read pair %s\n", name);
			return 2;
		}
		t0 = g_get_monotonic_time();
		linediff_count(a, alen, b, blen, &added, &deleted);
		spent += g_get_monotonic_time() - t0;
		pairs++;
		if (alen == blen && !memcmp(a, b, alen))
			continue;
		g_string_append_printf(out,
				       "%" G_GUINT64_FORMAT
				       "\t%" G_GUINT64_FORMAT "\t%s\n",
				       added, deleted, name);
	}
	fwrite(out->str, 1, out->len, stdout);
	g_printerr("counted %u pairs in %.3f s\n", pairs, spent / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "gen"))
		return cmd_gen(strtoul(argv[2], NULL, 10), argv[3],
			       g_getenv("LINEDIFF_HUGE") != NULL, argc - 4,
			       argv + 4);
	if (argc == 3 && !strcmp(argv[1], "count"))
		return cmd_count(argv[2]);
	g_printerr("usage: linediff-git gen SEED DIR [FILE...] | count DIR\n");
	return 2;
}
