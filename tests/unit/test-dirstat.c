/* Unit tests for kernel/diff/dirstat.c, kernel/diff/diffcount.c,
 * kernel/diff/patchstat.c, kernel/diff/dirstat-verdict.c and
 * bot/common/dirstat-json.c.  Differential tests against real git are in
 * tests/conformance/dirstat-*.t. */
#include <string.h>

#include "kernel/diff/diffcount.h"
#include "kernel/diff/diffrename.h"
#include "bot/common/dirstat-json.h"
#include "kernel/diff/dirstat-verdict.h"
#include "kernel/diff/dirstat.h"
#include "kernel/diff/patchstat.h"

static void test_params(void)
{
	struct dirstat_options opts = DIRSTAT_OPTIONS_INIT;
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(opts.permille, ==, 30);
	g_assert_true(
		dirstat_parse_params(&opts, "lines,cumulative,16.75", &error));
	g_assert_cmpint(opts.mode, ==, DIRSTAT_LINES);
	g_assert_true(opts.cumulative);
	g_assert_cmpint(opts.permille, ==, 167);
	g_assert_true(
		dirstat_parse_params(&opts, "files,noncumulative,3.", &error));
	g_assert_cmpint(opts.mode, ==, DIRSTAT_FILES);
	g_assert_false(opts.cumulative);
	g_assert_cmpint(opts.permille, ==, 30);
	g_assert_true(dirstat_parse_params(&opts, "", &error));
	g_assert_false(dirstat_parse_params(&opts, "5%,bogus", &error));
	g_assert_cmpstr(error->message, ==,
			"Failed to parse --dirstat/-X option parameter:\n"
			"  Failed to parse dirstat cut-off percentage '5%'\n"
			"  Unknown dirstat parameter 'bogus'\n");
}

static void count(const char *a, gsize alen, const char *b, gsize blen,
		  guint64 *copied, guint64 *added)
{
	g_autoptr(diffcount_spans) sa = diffcount_spans_new(
		(const guint8 *)a, alen,
		!diffcount_is_binary((const guint8 *)a, alen));
	g_autoptr(diffcount_spans) sb = diffcount_spans_new(
		(const guint8 *)b, blen,
		!diffcount_is_binary((const guint8 *)b, blen));

	diffcount_changes(sa, sb, copied, added);
}

static void test_diffcount(void)
{
	guint64 copied, added;
	g_autofree char *zeros = g_malloc0(1100);

	count("a\nb\n", 4, "a\nc\n", 4, &copied, &added);
	g_assert_cmpuint(copied, ==, 2);
	g_assert_cmpuint(added, ==, 2);
	/* text: the CR of CRLF is not hashed */
	count("a\r\nb\n", 5, "a\nb\n", 4, &copied, &added);
	g_assert_cmpuint(copied, ==, 4);
	g_assert_cmpuint(added, ==, 0);
	/* git ignores an unterminated last span */
	count("abc", 3, "abcd", 4, &copied, &added);
	g_assert_cmpuint(copied, ==, 0);
	g_assert_cmpuint(added, ==, 0);
	/* binary: 64-byte spans; 1000 zeros are 15 spans, 1100 are 17 */
	count(zeros, 1000, zeros, 1100, &copied, &added);
	g_assert_cmpuint(copied, ==, 960);
	g_assert_cmpuint(added, ==, 128);
	/* repeated lines count as a multiset */
	count("x\nx\ny\n", 6, "x\ny\ny\n", 6, &copied, &added);
	g_assert_cmpuint(copied, ==, 4);
	g_assert_cmpuint(added, ==, 2);
	g_assert_true(diffcount_is_binary((const guint8 *)"a\0b", 3));
	g_assert_false(diffcount_is_binary((const guint8 *)"abc", 3));
}

static void test_rename_score(void)
{
	g_assert_cmpint(diffrename_parse_score("50%"), ==, 30000);
	g_assert_cmpint(diffrename_parse_score("5"), ==, 30000);
	g_assert_cmpint(diffrename_parse_score("0.9"), ==, 54000);
	g_assert_cmpint(diffrename_parse_score("100%"), ==, 60000);
	g_assert_cmpint(diffrename_parse_score("75"), ==, 45000);
	g_assert_cmpint(diffrename_parse_score("x"), ==, -1);
}

static const char sample_patch[] =
	"diff --git a/arch/arm/mach-x/a.c b/arch/arm/mach-x/a.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/arch/arm/mach-x/a.c\n"
	"+++ b/arch/arm/mach-x/a.c\n"
	"@@ -1,4 +1,3 @@\n"
	" one\n"
	"-two\n"
	"-three\n"
	"+TWO\n"
	" four\n"
	"diff --git a/old/name.c b/drivers/new.c\n"
	"similarity index 90%\n"
	"rename from arch/arm/plat-y/name.c\n"
	"rename to drivers/new.c\n"
	"--- a/arch/arm/plat-y/name.c\n"
	"+++ b/drivers/new.c\n"
	"@@ -1 +1,2 @@\n"
	" a\n"
	"+b\n"
	"\\ No newline at end of file\n"
	"diff --git a/fw.bin b/fw.bin\n"
	"new file mode 100644\n"
	"index 0000000..3333333\n"
	"Binary files /dev/null and b/fw.bin differ\n"
	"diff --git a/gone.c b/gone.c\n"
	"deleted file mode 100644\n"
	"--- a/gone.c\n"
	"+++ /dev/null\n"
	"@@ -1,2 +0,0 @@\n"
	"-x\n"
	"-- \n"
	"-- \n"
	"2.39.5\n"
	"\n";

/* An empty array of struct dirstat_filestat, which it owns. */
static GPtrArray *filestats_new(void)
{
	return g_ptr_array_new_with_free_func(
		(GDestroyNotify)dirstat_filestat_free);
}

/* @f is the change of @status to @path, @added and @deleted lines. */
static void assert_filestat(const struct dirstat_filestat *f, const char *path,
			    char status, guint added, guint deleted)
{
	g_assert_cmpstr(f->path, ==, path);
	g_assert_cmpint(f->status, ==, status);
	g_assert_cmpuint(f->added, ==, added);
	g_assert_cmpuint(f->deleted, ==, deleted);
}

static void test_patchstat(void)
{
	g_autoptr(GPtrArray) fs = filestats_new();
	const struct dirstat_filestat *f;

	g_assert_cmpuint(
		patchstat_parse(sample_patch, strlen(sample_patch), fs), ==, 4);
	assert_filestat(fs->pdata[0], "arch/arm/mach-x/a.c", 'M', 1, 2);
	f = fs->pdata[1];
	assert_filestat(f, "drivers/new.c", 'R', 1, 0);
	g_assert_cmpstr(f->old_path, ==, "arch/arm/plat-y/name.c");
	f = fs->pdata[2];
	g_assert_cmpstr(f->path, ==, "fw.bin");
	g_assert_true(f->binary);
	g_assert_cmpint(f->status, ==, 'A');
	/* two lines of the hunk, then the signature is not counted */
	f = fs->pdata[3];
	g_assert_cmpint(f->status, ==, 'D');
	g_assert_cmpuint(f->deleted, ==, 2);
	g_assert_cmpuint(f->added, ==, 0);
}

static void add_fs(GPtrArray *fs, const char *path, char status, guint64 added,
		   guint64 deleted)
{
	struct dirstat_filestat *f = g_new0(struct dirstat_filestat, 1);

	f->path = g_strdup(path);
	f->old_path = g_strdup(path);
	f->status = status;
	f->added = added;
	f->deleted = deleted;
	g_ptr_array_add(fs, f);
}

/* The report of @fs with the --dirstat parameters @params. */
static struct dirstat_report *report_of(GPtrArray *fs, const char *params,
					gboolean is_signed)
{
	struct dirstat_options opts = DIRSTAT_OPTIONS_INIT;
	g_autoptr(GError) error = NULL;
	struct dirstat_report *report;

	opts.is_signed = is_signed;
	g_assert_true(dirstat_parse_params(&opts, params, &error));
	report = dirstat_report_from_filestats(fs, &opts, &error);
	g_assert_no_error(error);
	return report;
}

/* The report of @fs with @params written by @write (the text or the
 * JSON). */
static char *written(char *(*write)(const struct dirstat_report *),
		     GPtrArray *fs, const char *params, gboolean is_signed)
{
	g_autoptr(dirstat_report) report = report_of(fs, params, is_signed);

	return write(report);
}

static char *format(GPtrArray *fs, const char *params, gboolean is_signed)
{
	return written(dirstat_report_format, fs, params, is_signed);
}

static void test_report(void)
{
	g_autoptr(GPtrArray) fs = filestats_new();
	g_autofree char *unsigned_out = NULL;
	g_autofree char *signed_out = NULL;
	g_autofree char *tiny = NULL;
	g_autoptr(GPtrArray) empty = g_ptr_array_new();

	add_fs(fs, "a/b/x", 'M', 10, 30);
	add_fs(fs, "a/c/y", 'M', 20, 0);
	add_fs(fs, "d/z", 'D', 0, 40);
	/* unsigned: 40 + 20 + 40 = 100; a/ gets b/ and c/ */
	unsigned_out = format(fs, "lines,0,cumulative", FALSE);
	g_assert_cmpstr(unsigned_out, ==,
			"  40.0% a/b/\n  20.0% a/c/\n  60.0% a/\n  40.0% d/\n");
	/* signed: |nets| 20 + 20 + 40 = 80; a/ sums to 0 and is skipped */
	signed_out = format(fs, "lines,0,cumulative", TRUE);
	g_assert_cmpstr(signed_out, ==,
			" -25.0% a/b/\n  25.0% a/c/\n -50.0% d/\n");
	/* |nets| now add up to 1002; below 0.1% keeps its sign */
	add_fs(fs, "e/w", 'M', 0, 1);
	add_fs(fs, "f/v", 'A', 921, 0);
	tiny = format(fs, "lines,0", TRUE);
	g_assert_cmpstr(tiny, ==,
			"  -1.9% a/b/\n   1.9% a/c/\n  -3.9% d/\n  -0.0% e/\n"
			"  91.9% f/\n");
	g_free(tiny);
	tiny = format(empty, "lines", TRUE);
	g_assert_cmpstr(tiny, ==, "");
}

/* The verdict on @fs for @path is @want; the verdict itself. */
static struct dirstat_verdict *assert_verdict(GPtrArray *fs, const char *path,
					      const char *want)
{
	struct dirstat_verdict *v = dirstat_verdict_compute(fs, path);
	g_autofree char *s = dirstat_verdict_sentence(v);

	g_assert_cmpstr(s, ==, want);
	return v;
}

static void test_verdict(void)
{
	g_autoptr(GPtrArray) fs = filestats_new();
	g_autoptr(dirstat_verdict) v = NULL;

	dirstat_verdict_free(assert_verdict(
		fs, NULL, "This series does not touch arch/arm."));

	add_fs(fs, "arch/arm/mach-omap2/pm.c", 'M', 10, 200);
	add_fs(fs, "arch/arm/plat-omap/x.c", 'M', 378, 400);
	add_fs(fs, "arch/arm64/y.c", 'M', 1000, 0);
	add_fs(fs, "drivers/z.c", 'M', 7, 0);
	v = assert_verdict(
		fs, "arch/arm/",
		"This series shrinks arch/arm by 212 lines (+388 -600).");
	g_assert_cmpuint(v->dirs->len, ==, 2);
	g_assert_cmpstr(((struct dirstat_verdict_dir *)v->dirs->pdata[0])->path,
			==, "arch/arm/mach-omap2/");

	dirstat_verdict_free(assert_verdict(
		fs, "drivers",
		"This series grows drivers by 7 lines (+7 -0)."));
	add_fs(fs, "drivers/w.c", 'M', 0, 6);
	dirstat_verdict_free(assert_verdict(
		fs, "drivers", "This series grows drivers by 1 line (+7 -6)."));
	add_fs(fs, "drivers/u.c", 'M', 0, 1);
	dirstat_verdict_free(assert_verdict(
		fs, "drivers",
		"This series touches drivers, but its additions and removals balance."));
}

static char *report_json(GPtrArray *fs, const char *params, gboolean is_signed)
{
	return written(dirstat_json_report, fs, params, is_signed);
}

/* The JSON of the report and the verdict, byte for byte what the
 * hand-written writer before json-glib printed (key order, compact, the
 * percentage as a string), escapes included (RFC 8259 7). */
static void test_json(void)
{
	g_autoptr(GPtrArray) fs = filestats_new();
	g_autoptr(GPtrArray) balanced = filestats_new();
	g_autoptr(dirstat_verdict) v = NULL;
	g_autofree char *s = NULL;

	add_fs(fs, "a/b/x", 'M', 10, 30);
	add_fs(fs, "a/c/y", 'M', 20, 0);
	add_fs(fs, "d/z", 'D', 0, 40);
	add_fs(fs, "q\"\\\t\001/f", 'M', 3, 0);
	s = report_json(fs, "lines,0,cumulative", TRUE);
	g_assert_cmpstr(
		s, ==,
		"{\"mode\":\"lines\",\"signed\":true,\"cumulative\":true,"
		"\"limit_permille\":0,\"files\":4,\"total\":83,"
		"\"balanced\":false,\"directories\":["
		"{\"path\":\"a/b/\",\"value\":-20,\"permille\":-240,"
		"\"percent\":\"-24.0\"},"
		"{\"path\":\"a/c/\",\"value\":20,\"permille\":240,"
		"\"percent\":\"24.0\"},"
		"{\"path\":\"d/\",\"value\":-40,\"permille\":-481,"
		"\"percent\":\"-48.1\"},"
		"{\"path\":\"q\\\"\\\\\\t\\u0001/\",\"value\":3,"
		"\"permille\":36,\"percent\":\"3.6\"}]}\n");
	g_clear_pointer(&s, g_free);

	add_fs(balanced, "a/x", 'M', 5, 5);
	s = report_json(balanced, "lines", TRUE);
	g_assert_cmpstr(s, ==,
			"{\"mode\":\"lines\",\"signed\":true,"
			"\"cumulative\":false,\"limit_permille\":30,"
			"\"files\":1,\"total\":0,\"balanced\":true,"
			"\"directories\":[]}\n");
	g_clear_pointer(&s, g_free);

	/* a file name that is not UTF-8: U+FFFD, so that the JSON is */
	g_ptr_array_set_size(balanced, 0);
	add_fs(balanced, "b\xff/x", 'A', 1, 0);
	s = report_json(balanced, "files", FALSE);
	g_assert_nonnull(strstr(s, "\"path\":\"b\xef\xbf\xbd/\""));
	g_clear_pointer(&s, g_free);

	g_ptr_array_set_size(fs, 0);
	add_fs(fs, "arch/arm/mach-omap2/pm.c", 'M', 10, 200);
	add_fs(fs, "arch/arm/plat-omap/x.c", 'M', 378, 400);
	add_fs(fs, "arch/arm64/y.c", 'M', 1000, 0);
	v = dirstat_verdict_compute(fs, NULL);
	s = dirstat_json_verdict(v);
	g_assert_cmpstr(
		s, ==,
		"{\"path\":\"arch/arm\",\"verdict\":\"shrinks\",\"files\":2,"
		"\"added\":388,\"removed\":600,\"net\":-212,"
		"\"sentence\":\"This series shrinks arch/arm by 212 lines "
		"(+388 -600).\",\"directories\":["
		"{\"path\":\"arch/arm/mach-omap2/\",\"added\":10,"
		"\"removed\":200,\"net\":-190},"
		"{\"path\":\"arch/arm/plat-omap/\",\"added\":378,"
		"\"removed\":400,\"net\":-22}]}\n");
	g_clear_pointer(&v, dirstat_verdict_free);
	g_clear_pointer(&s, g_free);

	v = dirstat_verdict_compute(fs, "fs");
	s = dirstat_json_verdict(v);
	g_assert_cmpstr(s, ==,
			"{\"path\":\"fs\",\"verdict\":\"untouched\","
			"\"files\":0,\"added\":0,\"removed\":0,\"net\":0,"
			"\"sentence\":\"This series does not touch fs.\","
			"\"directories\":[]}\n");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/dirstat/params", test_params);
	g_test_add_func("/dirstat/diffcount", test_diffcount);
	g_test_add_func("/dirstat/rename-score", test_rename_score);
	g_test_add_func("/dirstat/patchstat", test_patchstat);
	g_test_add_func("/dirstat/report", test_report);
	g_test_add_func("/dirstat/verdict", test_verdict);
	g_test_add_func("/dirstat/json", test_json);
	return g_test_run();
}
