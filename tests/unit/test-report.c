/* bot/daemon/report.c: the reply mail, pinned by golden files
 * (tests/unit/data/report/NAME.eml; ARMBOT_UPDATE_GOLDEN=1 rewrites
 * them), and read back by armbot's own parser (mailparse/message.h) and
 * by two independent ones: git mailinfo and Python's email package. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bot/daemon/report.h"
#include "kernel/diff/dirstat.h"
#include "kernel/build/kbuild.h"
#include "qemu/boot.h"
#include "mailparse/message.h"

#define DATE 1751371200 /* Tue, 01 Jul 2025 12:00:00 +0000 */

/* One file pair of a hand-made series. */
struct fs_spec {
	const char *path;
	char status;
	guint64 added, deleted;
};

/* The verdict and signed dirstat (lines, cumulative, 3%) of @files, as
 * the pipeline computes them. */
struct figures {
	struct dirstat_verdict *verdict;
	char *dirstat;
	struct dirstat_verdict *arm64;
};

static void figures_compute(struct figures *out, const struct fs_spec *files)
{
	g_autoptr(GPtrArray) fs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)dirstat_filestat_free);
	struct dirstat_options opts = DIRSTAT_OPTIONS_INIT;
	g_autoptr(dirstat_report) ds = NULL;
	g_autoptr(GError) error = NULL;

	for (; files->path; files++) {
		struct dirstat_filestat *f = g_new0(struct dirstat_filestat, 1);

		f->path = g_strdup(files->path);
		f->old_path = g_strdup(files->path);
		f->status = files->status;
		f->added = files->added;
		f->deleted = files->deleted;
		g_ptr_array_add(fs, f);
	}
	g_assert_true(
		dirstat_parse_params(&opts, "lines,cumulative,3", &error));
	opts.is_signed = TRUE;
	ds = dirstat_report_from_filestats(fs, &opts, &error);
	g_assert_no_error(error);
	out->verdict = dirstat_verdict_compute(fs, NULL);
	out->arm64 = dirstat_verdict_compute(fs, "arch/arm64");
	out->dirstat = dirstat_report_format(ds);
}

static void figures_clear(struct figures *f)
{
	dirstat_verdict_free(f->verdict);
	dirstat_verdict_free(f->arm64);
	g_free(f->dirstat);
}

/* A build as armbot's data dir and cache hold it (kernel/build/kbuild.h), for
 * the steps a reader runs: none of these paths may show in a reply. */
#define FAKE_DATA "/srv/armbot-data"
#define FAKE_CACHE "/srv/armbot-cache"

static void fake_kbuild(struct kbuild *kb, const char *config)
{
	memset(kb, 0, sizeof(*kb));
	kb->src_dir = (char *)FAKE_DATA "/worktrees/distro-6.1";
	kb->build_dir = g_build_filename(FAKE_DATA, "kbuild", "distro-6.1",
					 config, NULL);
	kb->fragment = (char *)"qemu/virt.config";
	kb->ccache_dir = (char *)FAKE_CACHE "/ccache";
	kb->jobs = 2;
}

static void fake_kbuild_clear(struct kbuild *kb)
{
	g_free(kb->build_dir);
}

/* Every string of @r's section 7 is free of armbot's own paths. */
static void assert_no_private_path(const char *body)
{
	g_assert_null(strstr(body, FAKE_DATA));
	g_assert_null(strstr(body, FAKE_CACHE));
	g_assert_null(strstr(body, "ccache"));
}

/* A series as most tests see it: the fields every reply has. */
static void report_base(struct report *r, GPtrArray *refs)
{
	memset(r, 0, sizeof(*r));
	r->bot_name = "armbot";
	r->bot_address = "armbot@armbot.example.org";
	r->author_name = "Jane Doe";
	r->author_email = "jane.doe@example.com";
	r->list_address = "linux-arm-kernel@lists.infradead.org";
	r->subject = "[PATCH v2 0/3] ARM: omap2: remove the LDP board file";
	r->parent_message_id = "20250701101500.1234-1-jane.doe@example.com";
	g_ptr_array_add(refs,
			g_strdup("20250620090000.999-1-jane.doe@example.com"));
	r->parent_references = refs;
	r->version = 2;
	r->date = DATE;
	r->tree_name = "distro-6.1";
	r->tree_description = "Debian linux-source-6.1 6.1.192-3";
	r->base_commit = "4f0b9cd1e2a3b4c5d6e7f8091a2b3c4d5e6f7081";
	r->base_how = REPORT_BASE_TREE_HEAD;
	r->reproduce.distro_package = "linux-source-6.1";
	r->reproduce.distro_version = "6.1.192-3";
	r->reproduce.distro_tarball = "/usr/src/linux-source-6.1.tar.xz";
	r->reproduce.base = r->base_commit;
	r->reproduce.base_tree = "0d1c2b3a4958677685a4b3c2d1e0f9e8d7c6b5a4";
	r->reproduce.message_id = r->parent_message_id;
	r->reproduce.armbot_check =
		"armbot check --tree distro-6.1 "
		"'<20250701101500.1234-1-jane.doe@example.com>'";
	for (int k = 0; k < REPORT_N_CHECKS; k++)
		r->checks[k].status = REPORT_STATUS_OK;
	r->checks[REPORT_CHECK_APPLY].summary = "3/3 patches";
	r->checks[REPORT_CHECK_SPARSE].summary = "no new warnings";
	r->checks[REPORT_CHECK_BUILD].summary = "multi_v7_defconfig";
	r->checks[REPORT_CHECK_BOOT].summary = "qemu virt, 3.2 s";
	r->checks[REPORT_CHECK_RUNTIME_PM].summary = "12/12 tests passed";
}

/* report_base() with the verdict and dirstat of @files (in @f, cleared by
 * the caller). */
static void report_figures(struct report *r, GPtrArray *refs, struct figures *f,
			   const struct fs_spec *files)
{
	report_base(r, refs);
	figures_compute(f, files);
	r->verdict = f->verdict;
	r->arm64 = f->arm64;
	r->dirstat = f->dirstat;
}

/* A test of one rendered report: report_figures() of the fs_spec array
 * the test is added with, the References in @refs; the figures are
 * cleared after the test. */
struct report_case {
	GPtrArray *refs;
	struct report r;
	struct figures f;
};

static void case_setup(struct report_case *rc, gconstpointer spec)
{
	rc->refs = g_ptr_array_new_with_free_func(g_free);
	report_figures(&rc->r, rc->refs, &rc->f, spec);
}

static void case_teardown(struct report_case *rc, gconstpointer spec)
{
	figures_clear(&rc->f);
	g_ptr_array_unref(rc->refs);
}

#define REPORT_CASE(path, spec, fn)                                \
	g_test_add(path, struct report_case, spec, case_setup, fn, \
		   case_teardown)

static const struct fs_spec shrinking[] = {
	{ "arch/arm/mach-omap2/board-ldp.c", 'D', 0, 420 },
	{ "arch/arm/mach-omap2/Kconfig", 'M', 0, 12 },
	{ "arch/arm/mach-omap2/Makefile", 'M', 0, 2 },
	{ "arch/arm/boot/dts/omap3-ldp.dts", 'M', 388, 166 },
	{ "drivers/soc/ti/omap_prm.c", 'M', 40, 3 },
	{ NULL, 0, 0, 0 },
};

static const struct fs_spec growing[] = {
	{ "arch/arm/mach-imx/pm-imx6.c", 'M', 64, 10 },
	{ "arch/arm/plat-orion/gpio.c", 'M', 5, 5 },
	{ "drivers/soc/imx/gpcv2.c", 'M', 120, 4 },
	{ NULL, 0, 0, 0 },
};

static const struct fs_spec balanced[] = {
	{ "arch/arm/mach-omap2/pm34xx.c", 'M', 7, 7 },
	{ NULL, 0, 0, 0 },
};

/* a series of both arches: arch/arm's verdict, and what it does to
 * arch/arm64 */
static const struct fs_spec both_arches[] = {
	{ "arch/arm/boot/dts/imx6qdl-sabrelite.dtsi", 'M', 12, 30 },
	{ "arch/arm64/boot/dts/freescale/imx8mm-evk.dtsi", 'M', 96, 4 },
	{ "drivers/soc/imx/gpcv2.c", 'M', 10, 2 },
	{ NULL, 0, 0, 0 },
};

static const struct fs_spec elsewhere[] = {
	{ "drivers/gpio/gpio-omap.c", 'M', 30, 12 },
	{ "Documentation/devicetree/bindings/gpio/ti,omap-gpio.yaml", 'M', 4,
	  1 },
	{ NULL, 0, 0, 0 },
};

static char *data_path(const char *name)
{
	g_autofree char *file = g_strdup_printf("%s.eml", name);

	return g_build_filename("tests", "unit", "data", "report", file, NULL);
}

/* Is @got the golden file @name, byte for byte? */
static void assert_golden(const char *name, GBytes *got)
{
	g_autofree char *path = data_path(name);
	g_autofree char *want = NULL;
	g_autoptr(GError) error = NULL;
	gsize len;

	if (g_getenv("ARMBOT_UPDATE_GOLDEN")) {
		g_assert_true(
			g_file_set_contents(path, g_bytes_get_data(got, NULL),
					    g_bytes_get_size(got), &error));
		return;
	}
	g_assert_true(g_file_get_contents(path, &want, &len, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(g_bytes_get_data(got, NULL), ==, want);
}

static char *expected_subject(const struct report *r)
{
	return g_str_has_prefix(r->subject, "Re: ") ?
		       g_strdup(r->subject) :
		       g_strconcat("Re: ", r->subject, NULL);
}

/* armbot's own parser reads back what was written. */
static void check_own_parser(const struct report *r, GBytes *raw,
			     const char *body)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(message) msg = message_parse(raw, &error);
	g_autofree char *subject = expected_subject(r);
	g_autofree char *own_id = report_message_id(
		r->parent_message_id, r->version, r->tree_name, r->bot_address);
	g_autofree char *text = NULL;
	const char *raw_body;
	gsize len;
	guint nrefs = r->parent_references ? r->parent_references->len : 0;

	g_assert_no_error(error);
	g_assert_cmpstr(msg->subject, ==, subject);
	g_assert_cmpstr(msg->message_id, ==, own_id);
	g_assert_false(msg->message_id_synthesised);
	g_assert_cmpstr(msg->in_reply_to, ==, r->parent_message_id);
	g_assert_cmpuint(msg->references->len, ==, nrefs + 1);
	for (guint i = 0; i < nrefs; i++)
		g_assert_cmpstr(msg->references->pdata[i], ==,
				r->parent_references->pdata[i]);
	g_assert_cmpstr(msg->references->pdata[nrefs], ==,
			r->parent_message_id);
	g_assert_cmpstr(msg->from_email, ==, r->bot_address);
	g_assert_cmpstr(msg->from_name, ==, r->bot_name);
	g_assert_cmpstr(msg->to->pdata[0], ==, r->author_email);
	g_assert_cmpint(msg->date, ==, r->date);
	g_assert_cmpstr(message_header(msg, "Auto-Submitted"), ==,
			"auto-generated");
	g_assert_cmpstr(message_header(msg, "X-Auto-Response-Suppress"), ==,
			"All");
	raw_body = message_body(msg, &len);
	g_assert_cmpuint(len, ==, strlen(body));
	g_assert_true(!memcmp(raw_body, body, len));
	text = message_body_text(msg, NULL);
	g_assert_cmpstr(text, ==, body);
}

/* Run @argv with @input on stdin; its stdout.  NULL when the program is
 * not installed. */
static char *run_filter(const char *const *argv, GBytes *input)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GSubprocess) p = g_subprocess_newv(
		argv,
		G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
		&error);
	g_autoptr(GBytes) out = NULL;

	if (!p)
		return NULL;
	g_assert_true(
		g_subprocess_communicate(p, input, NULL, &out, NULL, &error));
	g_assert_no_error(error);
	g_assert_true(g_subprocess_get_successful(p));
	return g_strndup(g_bytes_get_data(out, NULL), g_bytes_get_size(out));
}

/* Python's email package (policy.default: RFC 2047 decoding, unfolding)
 * prints what it read, one field a line, then the body. */
static const char python_script[] =
	"import sys, email, email.policy\n"
	"m = email.message_from_binary_file(sys.stdin.buffer,"
	" policy=email.policy.default)\n"
	"w = sys.stdout.buffer.write\n"
	"for h in ('From', 'To'):\n"
	"    a = m[h].addresses[0]\n"
	"    w(('%s|%s\\n' % (a.display_name, a.addr_spec)).encode())\n"
	"for h in ('Cc', 'Subject', 'Message-ID', 'In-Reply-To',"
	" 'References'):\n"
	"    w((str(m[h]) + '\\n').encode())\n"
	"w(m.get_content().encode())\n";

static void check_python(const struct report *r, GBytes *raw, const char *body)
{
	const char *argv[] = { "python3", "-c", python_script, NULL };
	g_autofree char *got = NULL;
	g_autoptr(GString) want = g_string_new(NULL);
	g_autofree char *subject = expected_subject(r);
	g_autofree char *own_id = report_message_id(
		r->parent_message_id, r->version, r->tree_name, r->bot_address);
	g_autofree char *python = g_find_program_in_path("python3");

	if (!python) {
		g_test_message("python3 not installed: skipped");
		return;
	}
	got = run_filter(argv, raw);
	g_string_append_printf(want, "%s|%s\n", r->bot_name, r->bot_address);
	g_string_append_printf(want, "%s|%s\n",
			       r->author_name ? r->author_name : "",
			       r->author_email);
	g_string_append_printf(want, "%s\n",
			       r->list_address ? r->list_address : "None");
	g_string_append_printf(want, "%s\n<%s>\n<%s>\n", subject, own_id,
			       r->parent_message_id);
	for (guint i = 0; r->parent_references && i < r->parent_references->len;
	     i++)
		g_string_append_printf(want, "<%s> ",
				       (char *)r->parent_references->pdata[i]);
	g_string_append_printf(want, "<%s>\n", r->parent_message_id);
	g_string_append(want, body);
	g_assert_cmpstr(got, ==, want->str);
}

/* git mailinfo (git am's parser) finds the same subject and sender's
 * address, and the body in its message and patch files. */
static void check_git_mailinfo(const struct report *r, GBytes *raw,
			       const char *body)
{
	g_autofree char *dir = g_dir_make_tmp("test-report-XXXXXX", NULL);
	g_autofree char *msgf = g_build_filename(dir, "msg", NULL);
	g_autofree char *patchf = g_build_filename(dir, "patch", NULL);
	const char *argv[] = {
		"git", "mailinfo", "-k", "-u", msgf, patchf, NULL
	};
	g_autofree char *info = NULL;
	g_autofree char *msg = NULL, *patch = NULL;
	g_autofree char *subject = expected_subject(r);
	g_autofree char *want_info = NULL;
	g_autoptr(GString) joined = NULL;

	info = run_filter(argv, raw);
	g_assert_nonnull(info);
	want_info = g_strdup_printf("Author: %s\nEmail: %s\nSubject: %s\n"
				    "Date: Tue, 01 Jul 2025 12:00:00 +0000\n\n",
				    r->bot_name, r->bot_address, subject);
	g_assert_cmpstr(info, ==, want_info);
	g_assert_true(g_file_get_contents(msgf, &msg, NULL, NULL));
	g_assert_true(g_file_get_contents(patchf, &patch, NULL, NULL));
	/* the message, then the patch that mailinfo split off where a
	 * detail looked like one (an apply failure's hunk) */
	joined = g_string_new(msg);
	g_string_append(joined, patch);
	g_assert_cmpstr(joined->str, ==, body);
	g_unlink(msgf);
	g_unlink(patchf);
	g_rmdir(dir);
}

/* Render @r, compare with golden @name, parse it back three ways. */
static void check_report(const char *name, const struct report *r)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) raw = report_render(r, &error);
	g_autofree char *body = report_render_body(r, &error);
	const char *text;
	const char *p;

	g_assert_no_error(error);
	assert_golden(name, raw);
	assert_no_private_path(body);
	text = g_bytes_get_data(raw, NULL);
	g_assert_true(g_utf8_validate(text, g_bytes_get_size(raw), NULL));
	g_assert_null(strchr(text, '\r'));
	/* headers are ASCII and at most 78 columns unless one token is
	 * longer */
	p = strstr(text, "\n\n");
	g_assert_nonnull(p);
	{
		g_autofree char *head = g_strndup(text, p - text);
		g_auto(GStrv) lines = g_strsplit(head, "\n", -1);

		g_assert_true(g_str_is_ascii(head));
		for (guint i = 0; lines[i]; i++)
			if (strlen(lines[i]) > 78)
				g_assert_null(strchr(lines[i] + 1, ' '));
	}
	g_assert_true(g_str_has_suffix(text, body));
	check_own_parser(r, raw, body);
	check_python(r, raw, body);
	check_git_mailinfo(r, raw, body);
}

static void test_shrinking_ok(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;

	r->base_how = REPORT_BASE_COMMIT;
	r->series_url = "https://armbot.example.org/series/42";
	check_report("shrinking-ok", r);
}

static const char sparse_detail[] =
	"sparse warnings: (new ones prefixed by >>)\n"
	">> arch/arm/mach-imx/pm-imx6.c:412:14: sparse: sparse: incorrect "
	"type in assignment (different address spaces) @@ expected void "
	"[noderef] __iomem *base @@ got void *\n"
	"   arch/arm/mach-imx/pm-imx6.c:97:6: sparse: sparse: symbol "
	"'imx6_suspend_ocram_base' was not declared. Should it be static?\n"
	">> drivers/soc/imx/gpcv2.c:1402:5: sparse: sparse: symbol "
	"'imx_pgc_probe_count' was not declared. Should it be static?\n";

static const char sparse_fragment[] = "# CONFIG_WERROR is not set\n"
				      "# CONFIG_GCC_PLUGINS is not set\n"
				      "# CONFIG_DEBUG_INFO_BTF is not set\n"
				      "CONFIG_DEBUG_INFO_NONE=y\n";

static void test_sparse_warn(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;
	static const char *const objects[] = { "arch/arm/mach-imx/pm-imx6.o",
					       "drivers/soc/imx/gpcv2.o",
					       NULL };
	static const char *const sparse_vars[] = { "C=2", "CHECK=sparse",
						   NULL };
	g_autoptr(GPtrArray) steps = NULL;
	struct kbuild kb;

	r->author_name = "Peng Fan";
	r->author_email = "peng.fan@nxp.example";
	r->subject = "[PATCH 0/2] ARM: imx6: keep the OCRAM mapped across "
		     "suspend";
	r->version = 1;
	r->checks[REPORT_CHECK_SPARSE].status = REPORT_STATUS_WARN;
	r->checks[REPORT_CHECK_SPARSE].summary = "2 new warnings";
	r->checks[REPORT_CHECK_SPARSE].detail = sparse_detail;
	/* as kernel/build/sparse-check.c makes them for allmodconfig */
	fake_kbuild(&kb, "allmodconfig");
	steps = kbuild_configure_target_steps(&kb, "allmodconfig",
					      sparse_fragment);
	kbuild_steps_add_command(steps, kbuild_make_printable(&kb, objects,
							      sparse_vars));
	r->reproduce.checks[REPORT_CHECK_SPARSE].what =
		"the objects armbot checked, built with sparse at the series, "
		"and the same at the base (git checkout HEAD~2) for the "
		"warnings that were there before";
	r->reproduce.checks[REPORT_CHECK_SPARSE].steps = steps;
	r->series_url = "https://armbot.example.org/series/7";
	r->reproduce.mbox_url = "https://armbot.example.org/series/7/mbox";
	check_report("sparse-warn", r);
	fake_kbuild_clear(&kb);
}

static const char apply_detail[] =
	"Patch 2/3 \"ARM: omap2: drop the LDP board from Kconfig\" does not "
	"apply:\n"
	"error: patch failed: arch/arm/mach-omap2/Kconfig:178\n"
	"error: arch/arm/mach-omap2/Kconfig: patch does not apply\n"
	"\n"
	"@@ -178,7 +178,6 @@ config MACH_OMAP3517EVM\n"
	" config MACH_OMAP_LDP\n"
	" \tbool \"OMAP3 LDP board\"\n"
	"-\tdepends on ARCH_OMAP3\n"
	" \tdefault y\n";

static void test_apply_fail(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;
	const char *why = "the series does not apply";

	r->base_how = REPORT_BASE_COMMIT_MISSING;
	/* a git tree, not the distro's */
	r->tree_name = "soc";
	r->tree_description = "branch for-next of "
			      "https://git.kernel.org/pub/scm/linux/kernel/git/"
			      "soc/soc.git";
	memset(&r->reproduce, 0, sizeof(r->reproduce));
	r->reproduce.tree_url =
		"https://git.kernel.org/pub/scm/linux/kernel/git/soc/soc.git";
	r->reproduce.tree_branch = "for-next";
	r->reproduce.base = r->base_commit;
	r->reproduce.message_id = r->parent_message_id;
	r->reproduce.armbot_check =
		"armbot check --tree soc "
		"'<20250701101500.1234-1-jane.doe@example.com>'";
	r->reproduce.checks[REPORT_CHECK_APPLY].what =
		"git am stops at patch 2/3, the first that does not apply here";
	r->checks[REPORT_CHECK_APPLY].status = REPORT_STATUS_FAIL;
	r->checks[REPORT_CHECK_APPLY].summary = "1/3 patches applied";
	r->checks[REPORT_CHECK_APPLY].detail = apply_detail;
	for (int k = REPORT_CHECK_SPARSE; k < REPORT_N_CHECKS; k++) {
		r->checks[k].status = REPORT_STATUS_SKIPPED;
		r->checks[k].reason = why;
	}
	check_report("apply-fail", r);
}

static const char boot_detail[] =
	"The kernel did not boot: panic after 2.8 s. Console tail:\n"
	"\n"
	"[    2.731044] omap_prm 48306000.prm: probe with driver omap_prm "
	"failed with error -22\n"
	"[    2.802113] Unable to handle kernel NULL pointer dereference at "
	"virtual address 00000004\n"
	"[    2.803001] PC is at omap_prm_reset_init+0x2c/0x1d0\n"
	"[    2.812740] Kernel panic - not syncing: Attempted to kill init! "
	"exitcode=0x0000000b\n"
	"[    2.813322] ---[ end Kernel panic - not syncing: Attempted to "
	"kill init! exitcode=0x0000000b ]---\n";

static const char boot_what[] =
	"the rpm-virt kernel, allnoconfig with armbot's qemu/virt.config, "
	"booted in QEMU's virt machine (which makes its own device tree)";

static const char boot_note[] =
	"%s is armbot's test initramfs: a static init that loads "
	"rpm_test.ko, the runtime-PM KUnit suite (qemu/guest/rpm-test/ in "
	"armbot's sources) built against this kernel, and powers the machine "
	"off.  armbot makes it (`armbot boot --tree distro-6.1 SERIES.mbox` "
	"leaves it in its build dir); a kernel that does not reach userspace "
	"fails the same way with any initramfs.";

static const char build_detail[] =
	"The kernel (rpm-virt, ARCH=arm) does not build with the series "
	"(exit status 2); the last 30 lines of the build:\n"
	"| build/armbot-ext/rpm_test/rpm_test.c:88:9: error: implicit "
	"declaration of function 'pm_runtime_irq_safe'\n"
	"| make[2]: *** [scripts/Makefile.build:250: "
	"build/armbot-ext/rpm_test/rpm_test.o] Error 1\n";

static void test_boot_fail(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;
	g_autoptr(GPtrArray) steps = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *initramfs = NULL;
	g_autofree char *note = NULL;
	struct kbuild kb;

	r->checks[REPORT_CHECK_BOOT].status = REPORT_STATUS_FAIL;
	r->checks[REPORT_CHECK_BOOT].summary = "kernel panic";
	r->checks[REPORT_CHECK_BOOT].detail = boot_detail;
	/* a boot that never reaches init has no KUnit results either: both
	 * come from the one qemu run, printed once */
	r->checks[REPORT_CHECK_RUNTIME_PM].status = REPORT_STATUS_FAIL;
	r->checks[REPORT_CHECK_RUNTIME_PM].summary = "no KUnit results";
	fake_kbuild(&kb, "rpm-virt");
	steps = boot_steps(&kb, FALSE, TRUE, &error);
	g_assert_no_error(error);
	initramfs = boot_printable_initramfs(&kb);
	note = g_strdup_printf(boot_note, initramfs);
	for (int k = REPORT_CHECK_BOOT; k <= REPORT_CHECK_RUNTIME_PM; k++) {
		r->reproduce.checks[k].what = boot_what;
		r->reproduce.checks[k].steps = steps;
		r->reproduce.checks[k].note = note;
	}
	check_report("boot-fail", r);
	fake_kbuild_clear(&kb);
}

static const char board_detail[] =
	"Board vexpress-a9 (qemu-system-arm -M vexpress-a9 -dtb "
	"vexpress-v2p-ca9.dtb, console=ttyAMA0): hung: stopped by the "
	"timeout after 60.0 s; the last 30 console lines:\n"
	"| [    0.052371] Serial: AMBA PL011 UART driver\n"
	"| [    0.061113] amba 10009000.uart: deferred probe pending\n";

/* The boards a series selects besides virt: one line each after the
 * checks, the failure's console in the details, the boot check FAIL. */
static void test_boards(void)
{
	g_autoptr(GPtrArray) refs = g_ptr_array_new_with_free_func(g_free);
	const struct report_board boards[] = {
		{
			.name = "vexpress-a9",
			.status = REPORT_STATUS_FAIL,
			.summary = "hung: stopped by the timeout",
			.reason = "touches arch/arm/boot/dts/"
				  "vexpress-v2p-ca9.dts (arch/arm/boot/dts/"
				  "vexpress-*) → vexpress-a9",
			.detail = board_detail,
		},
		{
			.name = "vexpress-a15",
			.status = REPORT_STATUS_OK,
			.summary = "userspace at 0.61 s",
			.reason = "touches arch/arm/mach-versatile/v2m.c "
				  "(arch/arm/mach-versatile/) → vexpress-a15",
			/* an ok board's detail is not printed */
			.detail = "not printed",
		},
		{
			.name = "sabrelite",
			.status = REPORT_STATUS_SKIPPED,
			.summary = "not booted here: not built or booted yet",
			.reason = "touches arch/arm/mach-imx/pm-imx6.c "
				  "(arch/arm/mach-imx/) → sabrelite",
		},
	};
	struct report r;
	struct figures f;
	g_autofree char *body = NULL;
	g_autoptr(GError) error = NULL;

	report_base(&r, refs);
	figures_compute(&f, shrinking);
	r.verdict = f.verdict;
	r.dirstat = f.dirstat;
	r.checks[REPORT_CHECK_BOOT].status = REPORT_STATUS_FAIL;
	r.checks[REPORT_CHECK_BOOT].summary =
		"userspace at 0.4 s; fails on vexpress-a9";
	r.boards = boards;
	r.n_boards = G_N_ELEMENTS(boards);
	check_report("boards", &r);
	body = report_render_body(&r, &error);
	g_assert_no_error(error);
	g_assert_nonnull(strstr(
		body, "  runtime-PM  ok    12/12 tests passed\n"
		      "  boot vexpress-a9 FAIL hung: stopped by the timeout "
		      "(touches arch/arm/boot/dts/vexpress-v2p-ca9.dts "
		      "(arch/arm/boot/dts/vexpress-*) → vexpress-a9)\n"
		      "  boot vexpress-a15 ok userspace at 0.61 s (touches "
		      "arch/arm/mach-versatile/v2m.c (arch/arm/mach-versatile/)"
		      " → vexpress-a15)\n"
		      "  boot sabrelite skipped not booted here: not built or "
		      "booted yet (touches arch/arm/mach-imx/pm-imx6.c "
		      "(arch/arm/mach-imx/) → sabrelite)\n"));
	g_assert_nonnull(strstr(body, "\n\n"
				      "Board vexpress-a9 (qemu"));
	g_assert_nonnull(strstr(body, "| [    0.061113] amba 10009000.uart"));
	g_assert_null(strstr(body, "not printed"));
	figures_clear(&f);
}

static void test_board_line(void)
{
	struct report_board b = { .name = "orangepi-pc",
				  .status = REPORT_STATUS_OK,
				  .summary = "userspace at 2.10 s" };
	g_autofree char *plain = report_board_line(&b);
	g_autofree char *why = NULL, *warn = NULL;

	g_assert_cmpstr(plain, ==, "boot orangepi-pc ok userspace at 2.10 s");
	b.reason = "touches arch/arm/boot/dts/sun8i-h3-orangepi-pc.dts "
		   "(arch/arm/boot/dts/sun8i-h3*) → orangepi-pc";
	why = report_board_line(&b);
	g_assert_cmpstr(why, ==,
			"boot orangepi-pc ok userspace at 2.10 s (touches "
			"arch/arm/boot/dts/sun8i-h3-orangepi-pc.dts "
			"(arch/arm/boot/dts/sun8i-h3*) → orangepi-pc)");
	b.status = REPORT_STATUS_WARN;
	b.summary = "kernel panic (the base fails too)";
	b.reason = NULL;
	warn = report_board_line(&b);
	g_assert_cmpstr(warn, ==,
			"boot orangepi-pc WARN kernel panic (the base fails "
			"too)");
}

/* The kernel builds, armbot's module does not: the reader sees the
 * config, the makes and the module's. */
static void test_build_fail(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;
	g_autoptr(GPtrArray) steps = NULL;
	g_autoptr(GError) error = NULL;
	struct kbuild kb;

	r->author_name = "Peng Fan";
	r->author_email = "peng.fan@nxp.example";
	r->subject = "[PATCH v3] PM: runtime: drop pm_runtime_irq_safe()";
	r->version = 3;
	r->checks[REPORT_CHECK_BUILD].status = REPORT_STATUS_FAIL;
	r->checks[REPORT_CHECK_BUILD].summary = "exit status 2";
	r->checks[REPORT_CHECK_BUILD].detail = build_detail;
	for (int k = REPORT_CHECK_BOOT; k <= REPORT_CHECK_RUNTIME_PM; k++) {
		r->checks[k].status = REPORT_STATUS_SKIPPED;
		r->checks[k].reason = "the kernel does not build";
	}
	fake_kbuild(&kb, "rpm-virt");
	steps = boot_steps(&kb, TRUE, FALSE, &error);
	g_assert_no_error(error);
	r->reproduce.checks[REPORT_CHECK_BUILD].what =
		"the rpm-virt kernel, allnoconfig with armbot's "
		"qemu/virt.config";
	r->reproduce.checks[REPORT_CHECK_BUILD].steps = steps;
	r->reproduce.checks[REPORT_CHECK_BUILD].note =
		"The kernel builds; the last make, of armbot's runtime-PM "
		"KUnit module rpm_test, fails.  Its sources are "
		"qemu/guest/rpm-test/ in armbot's, copied to "
		"build/armbot-ext/rpm_test.";
	check_report("build-fail", r);
	fake_kbuild_clear(&kb);
}

static const char kunit_detail[] =
	"KUnit runtime-PM failures (2 of 12):\n"
	"\n"
	"not ok 4 rpm_autosuspend_delay\n"
	"    # rpm_autosuspend_delay: EXPECTED dev->power.runtime_status == "
	"RPM_SUSPENDED, but\n"
	"        dev->power.runtime_status == 0 (RPM_ACTIVE)\n"
	"not ok 9 rpm_genpd_off\n"
	"    # rpm_genpd_off: ASSERTION FAILED at "
	"qemu/guest/rpm-test/rpm_test.c:211\n";

static void test_balanced(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;

	r->subject = "[PATCH] ARM: OMAP3: pm: use the generic wake-up path";
	r->version = 1;
	r->checks[REPORT_CHECK_APPLY].summary = "1/1 patch";
	r->checks[REPORT_CHECK_RUNTIME_PM].status = REPORT_STATUS_FAIL;
	r->checks[REPORT_CHECK_RUNTIME_PM].summary = "10/12 tests passed";
	r->checks[REPORT_CHECK_RUNTIME_PM].detail = kunit_detail;
	check_report("balanced", r);
}

static void test_untouched(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;
	GPtrArray *refs = rc->refs;

	r->subject = "[PATCH v3 1/2] gpio: omap: drop the unused wake-up "
		     "quirk";
	r->version = 3;
	/* no References: a first patch that starts its thread */
	g_ptr_array_set_size(refs, 0);
	/* a mail that had no Message-ID (armbot made one up): b4 cannot
	 * find it, the web server's mbox is the way */
	r->reproduce.message_id = NULL;
	r->reproduce.mbox_url = "https://armbot.example.org/series/9/mbox";
	check_report("untouched", r);
}

static void test_arm64(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;

	r->subject = "[PATCH 0/2] arm: dts: imx: power domains";
	check_report("arm64", r);
}

static void test_non_ascii(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;

	r->author_name = "Uwe Kleine-König";
	r->author_email = "u.kleine-koenig@pengutronix.example";
	r->subject = "[PATCH] ARM: dts: imx6: Ströme für die Bürgerbräu-"
		     "Platine (Ŝaltilo ĉe «Zürich»)";
	r->version = 1;
	r->bot_name = "armbot (ARM-Bot)";
	r->checks[REPORT_CHECK_APPLY].summary = "1/1 patch — ok";
	check_report("non-ascii", r);
}

static void test_long_subject(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;
	GPtrArray *refs = rc->refs;

	r->author_name = "Doe, Jane";
	r->subject =
		"[PATCH v2 0/3] ARM: omap2: remove the LDP, Zoom2 and Zoom3 "
		"board files now that their device trees have been in "
		"mainline for more than ten releases and nobody boots them";
	for (guint i = 0; i < 4; i++)
		g_ptr_array_add(refs,
				g_strdup_printf("2025062%u090000.999-%u-jane."
						"doe@example.com",
						i, i));
	check_report("long-subject", r);
}

static void test_skipped(struct report_case *rc, gconstpointer spec)
{
	struct report *r = &rc->r;

	r->author_name = NULL;
	r->author_email = "12345@patches.example";
	r->list_address = NULL;
	memset(&r->reproduce, 0, sizeof(r->reproduce));
	r->checks[REPORT_CHECK_SPARSE].status = REPORT_STATUS_SKIPPED;
	r->checks[REPORT_CHECK_SPARSE].reason = "--no-sparse";
	r->checks[REPORT_CHECK_BOOT].status = REPORT_STATUS_SKIPPED;
	r->checks[REPORT_CHECK_BOOT].reason = "--no-boot";
	r->checks[REPORT_CHECK_BOOT].summary = "ignored when skipped";
	r->checks[REPORT_CHECK_RUNTIME_PM].status = REPORT_STATUS_SKIPPED;
	r->checks[REPORT_CHECK_RUNTIME_PM].reason = "--no-boot";
	check_report("skipped", r);
}

static void test_first_name(void)
{
	static const struct {
		const char *author, *first;
	} cases[] = {
		{ "Jane Doe <jane.doe@example.com>", "Jane" },
		{ "Doe, Jane <jane@example.com>", "Jane" },
		{ "\"Doe, Jane\" <jane@example.com>", "Jane" },
		{ "\"Jane Q. Doe\" <jane@example.com>", "Jane" },
		{ "Uwe Kleine-König", "Uwe" },
		{ "Łukasz Stelmach <l@example.com>", "Łukasz" },
		{ "张三 <zhang@example.com>", "张三" },
		{ "YAMADA Taro <taro@example.jp>", "Taro" },
		{ "Dr. Jane Doe", "Jane" },
		{ "J. Random Hacker <jrh@example.com>", "Random" },
		{ "John Doe, Jr.", "John" },
		{ "Jane Doe (Example Corp) <jane@example.com>", "Jane" },
		{ "<john.smith@example.com>", "john" },
		{ "jdoe@example.com", "jdoe" },
		{ "\"\" <x1234@example.com>", NULL },
		{ "jane@example.com <jane@example.com>", "jane" },
		{ "", NULL },
		{ "   ", NULL },
		{ "Linus", "Linus" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = report_first_name(cases[i].author);

		g_assert_cmpstr(got, ==, cases[i].first);
	}
	g_assert_null(report_first_name(NULL));
}

static void test_message_id(void)
{
	g_autofree char *a = report_message_id("x@example.com", 2, "distro-6.1",
					       "bot@armbot.example.org");
	g_autofree char *b = report_message_id("x@example.com", 2, "distro-6.1",
					       "Bot@ARMBOT.example.org");
	g_autofree char *c = report_message_id("x@example.com", 3, "distro-6.1",
					       "bot@armbot.example.org");
	g_autofree char *d = report_message_id("x@example.com", 2, "next",
					       "bot@armbot.example.org");
	g_autofree char *e =
		report_message_id("x@example.com", 2, "distro-6.1", "nobody");

	g_assert_true(g_str_has_prefix(a, "armbot-"));
	g_assert_true(g_str_has_suffix(a, "@armbot.example.org"));
	g_assert_cmpuint(strlen(a), ==,
			 strlen("armbot-@armbot.example.org") + 32);
	g_assert_cmpstr(a, ==, b);
	g_assert_cmpstr(a, !=, c);
	g_assert_cmpstr(a, !=, d);
	g_assert_true(g_str_has_suffix(e, "@armbot.invalid"));
}

static void test_recipients_and_errors(void)
{
	g_autoptr(GPtrArray) refs = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) rcpt = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) raw = NULL;
	struct report r;

	report_base(&r, refs);
	rcpt = report_recipients(&r);
	g_assert_cmpuint(rcpt->len, ==, 2);
	g_assert_cmpstr(rcpt->pdata[0], ==, "jane.doe@example.com");
	g_assert_cmpstr(rcpt->pdata[1], ==,
			"linux-arm-kernel@lists.infradead.org");
	r.parent_message_id = NULL;
	raw = report_render(&r, &error);
	g_assert_null(raw);
	g_assert_error(error, REPORT_ERROR, REPORT_ERROR_INVALID);
	g_assert_cmpstr(error->message, ==,
			"cannot write the reply: no parent_message_id");
	g_clear_error(&error);

	/* what a hostile mail could carry is refused, not written */
	r.parent_message_id = "p@example.com";
	r.author_email = "jane@example.com\r\nBcc: victim@example.org";
	g_assert_null(report_render(&r, &error));
	g_assert_error(error, REPORT_ERROR, REPORT_ERROR_INVALID);
	g_assert_cmpstr(error->message, ==,
			"cannot write the reply: bad address or Message-ID "
			"'jane@example.com\\r\\nBcc: victim@example.org'");
	g_clear_error(&error);
	g_clear_pointer(&rcpt, g_ptr_array_unref);
	rcpt = report_recipients(&r);
	g_assert_cmpuint(rcpt->len, ==, 1);
	r.author_email = "jane@example.com";
	r.parent_message_id = "p@example.com>\nX-Evil: 1";
	g_assert_null(report_render(&r, &error));
	g_clear_error(&error);
	/* a bad reference is left out */
	r.parent_message_id = "p@example.com";
	g_ptr_array_add(refs, g_strdup("a b@example.com"));
	g_ptr_array_add(refs, g_strdup("ok@example.com"));
	raw = report_render(&r, &error);
	g_assert_no_error(error);
	g_assert_nonnull(strstr(g_bytes_get_data(raw, NULL),
				"\nReferences: "
				"<20250620090000.999-1-jane.doe@example.com> "
				"<ok@example.com>\n <p@example.com>\n"));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	REPORT_CASE("/report/shrinking-ok", shrinking, test_shrinking_ok);
	REPORT_CASE("/report/sparse-warn", growing, test_sparse_warn);
	REPORT_CASE("/report/apply-fail", shrinking, test_apply_fail);
	REPORT_CASE("/report/boot-fail", shrinking, test_boot_fail);
	REPORT_CASE("/report/build-fail", growing, test_build_fail);
	g_test_add_func("/report/boards", test_boards);
	g_test_add_func("/report/board-line", test_board_line);
	REPORT_CASE("/report/balanced", balanced, test_balanced);
	REPORT_CASE("/report/untouched", elsewhere, test_untouched);
	REPORT_CASE("/report/arm64", both_arches, test_arm64);
	REPORT_CASE("/report/non-ascii", shrinking, test_non_ascii);
	REPORT_CASE("/report/long-subject", shrinking, test_long_subject);
	REPORT_CASE("/report/skipped", growing, test_skipped);
	g_test_add_func("/report/first-name", test_first_name);
	g_test_add_func("/report/message-id", test_message_id);
	g_test_add_func("/report/recipients-errors",
			test_recipients_and_errors);
	return g_test_run();
}
