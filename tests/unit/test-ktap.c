/* Unit tests for qemu/ktap.c on real KUnit console output (captured from
 * the rpm-test suite booting Debian's 6.1 in qemu -M virt, in
 * tests/unit/data/ktap/) and on the KTAP spec's own shapes. */
#include <string.h>

#include "qemu/ktap.h"

static char *fixture(const char *name)
{
	g_autofree char *path =
		g_build_filename("tests", "unit", "data", "ktap", name, NULL);
	g_autoptr(GError) error = NULL;
	char *text = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	return text;
}

static void assert_case(const struct ktap_report *r, const char *suite,
			const char *name, enum ktap_status status)
{
	const struct ktap_case *c = ktap_find(r, suite, name);

	if (!c)
		g_error("no case %s.%s", suite, name);
	g_assert_cmpstr(ktap_status_name(c->status), ==,
			ktap_status_name(status));
}

static gboolean diagnostics_contain(const struct ktap_case *c,
				    const char *needle)
{
	for (guint i = 0; i < c->diagnostics->len; i++)
		if (strstr(c->diagnostics->pdata[i], needle))
			return TRUE;
	return FALSE;
}

/* The whole suite passing: five suites, 40 cases, kernel messages and the
 * guest init's lines interleaved. */
static void test_real_pass(void)
{
	g_autofree char *text = fixture("pass.log");
	g_autoptr(ktap_report) r = ktap_parse(text);
	static const char *const suites[] = { "rpm_domain", "rpm_platform",
					      "rpm_core", "rpm_genpd",
					      "rpm_pm_clk" };
	static const guint planned[] = { 10, 2, 16, 8, 4 };

	g_assert_false(r->crashed);
	g_assert_cmpuint(r->cases->len, ==, 40);
	g_assert_cmpuint(ktap_count(r, KTAP_PASS), ==, 40);
	g_assert_cmpuint(r->suites->len, ==, 5);
	for (guint i = 0; i < 5; i++) {
		struct ktap_suite *s = r->suites->pdata[i];

		g_assert_cmpstr(s->name, ==, suites[i]);
		g_assert_cmpuint(s->planned, ==, planned[i]);
		g_assert_cmpuint(s->seen, ==, planned[i]);
		g_assert_true(s->has_result);
		g_assert_cmpint(s->status, ==, KTAP_PASS);
	}
	assert_case(r, "rpm_domain", "rpm_test_domain_resume", KTAP_PASS);
	assert_case(r, "rpm_pm_clk", "rpm_test_genpd_pm_clk", KTAP_PASS);
	g_assert_cmpuint(((struct ktap_case *)r->cases->pdata[39])->number, ==,
			 4);
}

/* An oops in the first case, then the kernel hangs: the output ends
 * inside the suite, the running case is reported crashed with the oops
 * as its diagnostics. */
static void test_real_oops_hang(void)
{
	g_autofree char *text = fixture("oops-hang.log");
	g_autoptr(ktap_report) r = ktap_parse(text);
	const struct ktap_case *c;
	struct ktap_suite *s;

	g_assert_true(r->crashed);
	g_assert_cmpuint(r->cases->len, ==, 1);
	c = r->cases->pdata[0];
	g_assert_cmpstr(c->suite, ==, "rpm_domain");
	g_assert_cmpstr(c->name, ==, "#1");
	g_assert_cmpint(c->status, ==, KTAP_CRASHED);
	g_assert_true(diagnostics_contain(
		c, "Unable to handle kernel NULL pointer dereference"));
	g_assert_true(diagnostics_contain(c, "PC is at get_device_parent"));
	g_assert_false(diagnostics_contain(c, "Booting Linux"));
	s = r->suites->pdata[0];
	g_assert_cmpuint(s->planned, ==, 8);
	g_assert_cmpuint(s->seen, ==, 0);
	g_assert_cmpint(s->status, ==, KTAP_CRASHED);
}

/* The kernel with the bus's callbacks winning over the PM domain's: six
 * cases fail, each with KUnit's expectation messages as diagnostics. */
static void test_real_failures(void)
{
	g_autofree char *text = fixture("precedence.log");
	g_autoptr(ktap_report) r = ktap_parse(text);
	const struct ktap_case *c;

	g_assert_false(r->crashed);
	g_assert_cmpuint(r->cases->len, ==, 40);
	g_assert_cmpuint(ktap_count(r, KTAP_FAIL), ==, 6);
	g_assert_cmpuint(ktap_count(r, KTAP_PASS), ==, 34);
	c = ktap_find(r, "rpm_domain", "rpm_test_domain_resume");
	g_assert_nonnull(c);
	g_assert_cmpint(c->status, ==, KTAP_FAIL);
	g_assert_true(
		diagnostics_contain(c, "calls of the domain's runtime_resume"));
	g_assert_true(diagnostics_contain(
		c, "# rpm_test_domain_resume: EXPECTATION FAILED at"));
	assert_case(r, "rpm_platform", "rpm_test_platform_domain", KTAP_FAIL);
	assert_case(r, "rpm_genpd", "rpm_test_genpd_power_on", KTAP_PASS);
	c = ktap_find(r, "rpm_genpd", "rpm_test_genpd_power_on");
	g_assert_cmpuint(c->diagnostics->len, ==, 0);
	g_assert_cmpint(((struct ktap_suite *)r->suites->pdata[0])->status, ==,
			KTAP_FAIL);
	g_assert_cmpint(((struct ktap_suite *)r->suites->pdata[3])->status, ==,
			KTAP_PASS);
}

/* A failed expectation as KUnit 6.1 prints it: the "#" line and its
 * continuation lines belong to the case. */
static void test_failure_diagnostics(void)
{
	g_autoptr(ktap_report) r = ktap_parse(
		"[    0.98] booting\n"
		"[    0.98]     KTAP version 1\n"
		"[    0.98]     # Subtest: rpm_core\n"
		"[    0.98]     1..2\n"
		"[    0.98]     ok 1 rpm_test_a\n"
		"[    0.99]     # rpm_test_b: EXPECTATION FAILED at x.c:819\n"
		"[    0.99]     Expected pm_request_idle(dev) == -11, but\n"
		"[    0.99]         pm_request_idle(dev) == -13\n"
		"[    0.99]     not ok 2 rpm_test_b\n"
		"[    0.99] # rpm_core: pass:1 fail:1 skip:0 total:2\n"
		"[    0.99] not ok 3 rpm_core\n");
	const struct ktap_case *b = ktap_find(r, "rpm_core", "rpm_test_b");
	const struct ktap_case *a = ktap_find(r, "rpm_core", "rpm_test_a");
	struct ktap_suite *s = r->suites->pdata[0];

	g_assert_nonnull(a);
	g_assert_nonnull(b);
	g_assert_cmpint(b->status, ==, KTAP_FAIL);
	g_assert_cmpuint(b->diagnostics->len, ==, 3);
	g_assert_cmpstr(b->diagnostics->pdata[2], ==,
			"        pm_request_idle(dev) == -13");
	g_assert_cmpuint(a->diagnostics->len, ==, 0);
	g_assert_cmpint(s->status, ==, KTAP_FAIL);
	g_assert_false(r->crashed);
}

/* ktap.rst: "ok 1 - name # SKIP reason", nested subtests, TAP-style dash;
 * a parameterised case's own result line is a case of the suite. */
static void test_spec_shapes(void)
{
	g_autoptr(ktap_report)
		r = ktap_parse("KTAP version 1\n"
			       "1..1\n"
			       "  KTAP version 1\n"
			       "  # Subtest: outer\n"
			       "  1..2\n"
			       "  ok 1 - plain # SKIP no hardware\n"
			       "    KTAP version 1\n"
			       "    # Subtest: params\n"
			       "    1..2\n"
			       "    ok 1 - p0\n"
			       "    not ok 2 - p1\n"
			       "  not ok 2 - params\n"
			       "not ok 1 - outer\n");

	g_assert_cmpuint(r->cases->len, ==, 4);
	assert_case(r, "outer", "plain", KTAP_SKIP);
	g_assert_cmpstr(ktap_find(r, "outer", "plain")->directive, ==,
			"SKIP no hardware");
	assert_case(r, "outer.params", "p0", KTAP_PASS);
	assert_case(r, "outer.params", "p1", KTAP_FAIL);
	assert_case(r, "outer", "params", KTAP_FAIL);
	g_assert_cmpuint(r->suites->len, ==, 2);
	g_assert_false(r->crashed);
}

/* A panic after two of three cases: the third is the crashed one. */
static void test_crash_mid_suite(void)
{
	g_autoptr(ktap_report)
		r = ktap_parse("    # Subtest: s\n"
			       "    1..3\n"
			       "    ok 1 a\n"
			       "    ok 2 b\n"
			       "Kernel panic - not syncing: boom\n");
	const struct ktap_case *c;

	g_assert_true(r->crashed);
	g_assert_cmpuint(r->cases->len, ==, 3);
	c = ktap_find(r, "s", "#3");
	g_assert_nonnull(c);
	g_assert_cmpint(c->status, ==, KTAP_CRASHED);
	g_assert_cmpuint(c->number, ==, 3);
	g_assert_true(diagnostics_contain(c, "Kernel panic"));
}

static void test_no_ktap(void)
{
	g_autoptr(ktap_report) r = ktap_parse("[ 0.1] Booting Linux\nok\n");

	g_assert_cmpuint(r->cases->len, ==, 0);
	g_assert_cmpuint(r->suites->len, ==, 0);
	g_assert_false(r->crashed);
}

static void test_compare(void)
{
	g_autoptr(ktap_report) base = ktap_parse("  # Subtest: s\n  1..4\n"
						 "  ok 1 a\n  not ok 2 b\n"
						 "  not ok 3 c\n  ok 4 d\n"
						 "not ok 1 s\n");
	g_autoptr(ktap_report) now = ktap_parse("  # Subtest: s\n  1..4\n"
						"  not ok 1 a\n  ok 2 b\n"
						"  not ok 3 c\n  ok 4 e\n"
						"not ok 1 s\n");
	struct ktap_diff d;

	ktap_compare(base, now, &d);
	g_assert_cmpuint(d.new_failures->len, ==, 1);
	g_assert_cmpstr(((struct ktap_case *)d.new_failures->pdata[0])->name,
			==, "a");
	g_assert_cmpuint(d.fixed->len, ==, 1);
	g_assert_cmpstr(((struct ktap_case *)d.fixed->pdata[0])->name, ==, "b");
	g_assert_cmpuint(d.still_failing->len, ==, 1);
	g_assert_cmpuint(d.passed->len, ==, 1);
	g_assert_cmpstr(((struct ktap_case *)d.passed->pdata[0])->name, ==,
			"e");
	g_assert_cmpuint(d.not_run->len, ==, 1);
	g_assert_cmpstr(((struct ktap_case *)d.not_run->pdata[0])->name, ==,
			"d");
	ktap_diff_clear(&d);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/ktap/real-pass", test_real_pass);
	g_test_add_func("/ktap/real-oops-hang", test_real_oops_hang);
	g_test_add_func("/ktap/real-failures", test_real_failures);
	g_test_add_func("/ktap/failure-diagnostics", test_failure_diagnostics);
	g_test_add_func("/ktap/spec-shapes", test_spec_shapes);
	g_test_add_func("/ktap/crash-mid-suite", test_crash_mid_suite);
	g_test_add_func("/ktap/no-ktap", test_no_ktap);
	g_test_add_func("/ktap/compare", test_compare);
	return g_test_run();
}
