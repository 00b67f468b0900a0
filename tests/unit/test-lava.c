/* Unit tests for qemu/lava.c: the job definition, and reading back what
 * a real LAVA 2023.01 server answered (tests/unit/data/lava/: the status
 * and log of a job that booted the rpm-test kernel on a qemu device,
 * captured from the instance tests/e2e/lava.t starts). */
#include <string.h>

#include "qemu/ktap.h"
#include "qemu/lava.h"
#include "qemu/virt.h"

static char *fixture(const char *name, gsize *len)
{
	g_autofree char *path =
		g_build_filename("tests", "unit", "data", "lava", name, NULL);
	g_autoptr(GError) error = NULL;
	char *text = NULL;

	g_file_get_contents(path, &text, len, &error);
	g_assert_no_error(error);
	return text;
}

static void test_definition(void)
{
	struct lava_job_input in = {
		.name = "armbot \"x\"\nname",
		.kernel_url = "http://127.0.0.1:1234/tok/zImage",
		.initrd_url = "http://127.0.0.1:1234/tok/armbot-initramfs.cpio",
		.machine = "virt",
		.append = "console=ttyAMA0 panic=-1",
		.timeout_s = 90,
	};
	g_autofree char *y = lava_job_definition(&in);
	g_autofree char *with_dtb = NULL;

	g_assert_true(g_str_has_prefix(y, "device_type: qemu\n"));
	/* the name is one quoted scalar: no injected key */
	g_assert_nonnull(
		strstr(y, "job_name: \"armbot \\\"x\\\"\\x0aname\"\n"));
	g_assert_null(strstr(y, "\nname"));
	g_assert_nonnull(strstr(y, "    to: tmpfs\n"));
	g_assert_nonnull(strstr(
		y, "        url: \"http://127.0.0.1:1234/tok/zImage\"\n"));
	g_assert_nonnull(strstr(y, "image_arg: \"-kernel {kernel} -append "
				   "'console=ttyAMA0 panic=-1'\"\n"));
	g_assert_nonnull(strstr(y, "image_arg: \"-initrd {ramdisk}\"\n"));
	g_assert_null(strstr(y, "dtb"));
	g_assert_nonnull(strstr(y, "    method: qemu\n"));
	g_assert_nonnull(strstr(y, "  machine: \"virt\"\n"));
	g_assert_nonnull(strstr(y, "  arch: arm\n"));
	/* 90 s: 2 minutes for the boot and the monitor */
	g_assert_nonnull(strstr(y, "- boot:\n    method: qemu\n    media: "
				   "tmpfs\n    timeout: {minutes: 3}\n"));
	g_assert_nonnull(strstr(y, "      end: \"armbot-init: done\"\n"));
	in.dtb_url = "http://127.0.0.1:1234/tok/virt.dtb";
	with_dtb = lava_job_definition(&in);
	g_assert_nonnull(strstr(
		with_dtb, "      dtb:\n        image_arg: \"-dtb {dtb}\"\n"
			  "        url: \"http://127.0.0.1:1234/tok/"
			  "virt.dtb\"\n"));
}

static void test_complete_job(void)
{
	gsize len;
	g_autofree char *json = fixture("job-complete.json", &len);
	g_autofree char *text = NULL;
	struct lava_job_status st;
	struct lava_log log;
	struct virt_result vm = { 0 };
	g_autoptr(ktap_report) k = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_true(lava_job_status_parse(json, len, &st, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(st.id, ==, 1);
	g_assert_cmpstr(st.state, ==, "Finished");
	g_assert_cmpstr(st.health, ==, "Complete");
	g_assert_cmpstr(st.device, ==, "qemu-01");
	text = fixture("job-complete.yaml", &len);
	lava_log_parse(text, len, 16u << 20, &log);
	g_assert_null(log.error_type);
	g_assert_false(log.timed_out);
	g_assert_true(log.monitor_end);
	g_assert_cmpint(lava_job_outcome(&st, &log), ==, LAVA_JOB_COMPLETE);
	/* the console is the target's lines: the KTAP parser reads it as
	 * it reads a local boot's */
	k = ktap_parse(log.console->str);
	g_assert_cmpuint(k->cases->len, >=, 30);
	g_assert_cmpuint(ktap_count(k, KTAP_FAIL), ==, 0);
	g_assert_cmpuint(ktap_count(k, KTAP_CRASHED), ==, 0);
	g_assert_nonnull(ktap_find(k, "rpm_core", "rpm_test_barrier"));
	/* LAVA's monitor parsed cases too (LAVA's own suite left out) */
	g_assert_cmpuint(log.cases->len, >=, 30);
	for (guint i = 0; i < log.cases->len; i++)
		g_assert_null(strstr(log.cases->pdata[i], "execute-qemu"));
	virt_result_from_console(&vm, g_steal_pointer(&log.console));
	g_assert_true(vm.userspace);
	g_assert_true(vm.init_done);
	g_assert_false(vm.panicked);
	virt_result_clear(&vm);
	lava_log_clear(&log);
	lava_job_status_clear(&st);
}

static enum lava_job_outcome outcome_of(const char *health, const char *log)
{
	struct lava_job_status st = { 0 };
	struct lava_log l;
	enum lava_job_outcome o;

	st.state = g_strdup("Finished");
	st.health = g_strdup(health);
	lava_log_parse(log, strlen(log), 1 << 20, &l);
	o = lava_job_outcome(&st, &l);
	lava_log_clear(&l);
	lava_job_status_clear(&st);
	return o;
}

#define LAVA_RESULT(type)                                              \
	"- {\"dt\": \"x\", \"lvl\": \"results\", \"msg\": {\"case\": " \
	"\"job\", \"definition\": \"lava\", \"result\": \"fail\", "    \
	"\"extra\": {\"error_type\": \"" type "\", \"error_msg\": \"m\"}}}\n"

static void test_outcomes(void)
{
	struct lava_job_status st = { 0 };

	g_assert_cmpint(outcome_of("Incomplete", LAVA_RESULT("Infrastructure")),
			==, LAVA_JOB_INFRA);
	g_assert_cmpint(outcome_of("Incomplete", LAVA_RESULT("Bug")), ==,
			LAVA_JOB_INFRA);
	g_assert_cmpint(outcome_of("Incomplete", LAVA_RESULT("Job")), ==,
			LAVA_JOB_INCOMPLETE);
	g_assert_cmpint(outcome_of("Incomplete", LAVA_RESULT("LAVATimeout")),
			==, LAVA_JOB_TIMEOUT);
	g_assert_cmpint(outcome_of("Canceled", LAVA_RESULT("Canceled")), ==,
			LAVA_JOB_CANCELED);
	g_assert_cmpint(outcome_of("Complete", ""), ==, LAVA_JOB_COMPLETE);
	st.state = g_strdup("Running");
	st.health = g_strdup("Unknown");
	g_assert_cmpint(lava_job_outcome(&st, NULL), ==, LAVA_JOB_PENDING);
	lava_job_status_clear(&st);
}

static void test_bad_answers(void)
{
	static const char *const bad[] = {
		"",
		"[]",
		"{\"id\": \"1\", \"state\": \"Finished\", \"health\": \"x\"}",
		"{\"id\": -3, \"state\": \"Finished\", \"health\": \"x\"}",
		"{\"id\": 3, \"state\": null, \"health\": \"x\"}",
		"{\"id\": 3",
	};
	static const char *const logs[] = {
		"- {",
		"- {\"lvl\": \"target\"}",
		"- {\"lvl\": 3, \"msg\": 4}\n",
		"- {\"lvl\": \"target\", \"msg\": {\"a\": 1}}\n- [1, 2]\n",
		"- {\"lvl\": \"results\", \"msg\": \"x\"}",
	};
	g_autoptr(GError) error = NULL;
	struct lava_log l;
	struct lava_job_status st;

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_assert_false(lava_job_status_parse(bad[i], strlen(bad[i]),
						     &st, &error));
		g_assert_nonnull(error);
		g_clear_error(&error);
	}
	g_assert_cmpuint(lava_submit_answer_parse("{\"job_ids\": [42]}", 17,
						  &error),
			 ==, 42);
	g_assert_no_error(error);
	g_assert_cmpuint(lava_submit_answer_parse("{\"job_ids\": []}", 15,
						  &error),
			 ==, 0);
	g_assert_nonnull(error);
	g_clear_error(&error);
	for (guint i = 0; i < G_N_ELEMENTS(logs); i++) {
		lava_log_parse(logs[i], strlen(logs[i]), 1 << 20, &l);
		g_assert_cmpuint(l.console->len, ==, 0);
		g_assert_null(l.error_type);
		g_assert_false(l.monitor_end);
		lava_log_clear(&l);
	}
	/* the monitor's end found, init's "done" cut from the target's
	 * lines (seen in CI): init finished; the same words from the
	 * target are not the monitor's */
	{
		static const char cut[] =
			"- {\"lvl\": \"target\", \"msg\": \"armbot-init: "
			"userspace up uptime=0.61\"}\n"
			"- {\"lvl\": \"info\", \"msg\": \"ok: end string found, "
			"lava test monitoring stopped\"}\n";
		static const char target[] =
			"- {\"lvl\": \"target\", \"msg\": \"ok: end string "
			"found\"}\n";

		lava_log_parse(cut, strlen(cut), 1 << 20, &l);
		g_assert_true(l.monitor_end);
		g_assert_null(strstr(l.console->str, "armbot-init: done"));
		lava_log_clear(&l);
		lava_log_parse(target, strlen(target), 1 << 20, &l);
		g_assert_false(l.monitor_end);
		lava_log_clear(&l);
	}
	/* the console is capped */
	lava_log_parse(
		"- {\"lvl\": \"target\", \"msg\": \"0123456789\"}\n"
		"- {\"lvl\": \"target\", \"msg\": \"abc\"}\n",
		strlen("- {\"lvl\": \"target\", \"msg\": \"0123456789\"}\n"
		       "- {\"lvl\": \"target\", \"msg\": \"abc\"}\n"),
		12, &l);
	g_assert_cmpstr(l.console->str, ==, "0123456789\n");
	lava_log_clear(&l);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/lava/definition", test_definition);
	g_test_add_func("/lava/complete-job", test_complete_job);
	g_test_add_func("/lava/outcomes", test_outcomes);
	g_test_add_func("/lava/bad-answers", test_bad_answers);
	return g_test_run();
}
