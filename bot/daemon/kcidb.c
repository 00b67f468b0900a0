/* The checks of one series as a KCIDB document (see bot/daemon/kcidb.h). */
#include "bot/daemon/kcidb.h"

#include <string.h>

#include "bot/common/jsonout.h"
#include "kernel/build/sparse-check.h"
#include "mailparse/mailbox.h"
#include "qemu/boot.h"
#include "qemu/ktap.h"

/* KCIDB allows no null: a member that is not known is left out. */
static void member(JsonBuilder *b, const char *name, const char *s)
{
	if (s)
		jsonout_string(b, name, s);
}

static const char *check_status(enum report_status s)
{
	return report_status_pick(s, "SKIP", "PASS", "FAIL", "FAIL");
}

static const char *case_status(enum ktap_status s)
{
	switch (s) {
	case KTAP_PASS:
		return "PASS";
	case KTAP_FAIL:
		return "FAIL";
	case KTAP_SKIP:
		return "SKIP";
	default:
		return "ERROR"; /* it crashed: no result */
	}
}

/* A test path element: the schema's [.a-zA-Z0-9_-], anything else '_'
 * (a case that crashed before printing its name is "#N"). */
static void append_path(GString *s, const char *name)
{
	for (const char *p = name; *p; p++)
		g_string_append_c(s, g_ascii_isalnum(*p) || *p == '_' ||
						     *p == '-' || *p == '.' ?
					     *p :
					     '_');
}

/* The sha256 of each patch of the series' mbox, newline-terminated, then
 * the sha256 of that: "sha256sum *.patch | cut -c-64 | sha256sum" of
 * kcidb-io's patchset_hash.  NULL when the mbox cannot be read. */
static char *patchset_hash(const char *log_dir, guint *n_patches)
{
	struct mailbox_options mo = MAILBOX_OPTIONS_INIT;
	g_autofree char *path = g_build_filename(log_dir, "series.mbox", NULL);
	g_autoptr(GChecksum) all = g_checksum_new(G_CHECKSUM_SHA256);
	g_autoptr(GError) error = NULL;
	struct mailbox *mb;
	GBytes *msg = NULL;

	*n_patches = 0;
	mo.format = MAILBOX_MBOX;
	mb = mailbox_open(path, &mo, &error);
	if (!mb)
		return NULL;
	while (mailbox_next(mb, &msg, &error) && msg) {
		gsize len;
		const guchar *data = g_bytes_get_data(msg, &len);
		g_autofree char *one = g_compute_checksum_for_data(
			G_CHECKSUM_SHA256, data, len);

		g_checksum_update(all, (const guchar *)one, strlen(one));
		g_checksum_update(all, (const guchar *)"\n", 1);
		g_bytes_unref(msg);
		msg = NULL;
		(*n_patches)++;
	}
	mailbox_free(mb);
	if (error)
		return NULL;
	return *n_patches ? g_strdup(g_checksum_get_string(all)) : g_strdup("");
}

static gboolean git_url_ok(const char *url)
{
	return url && (g_str_has_prefix(url, "https://") ||
		       g_str_has_prefix(url, "git://"));
}

static void checkout(JsonBuilder *b, const struct pipeline_outcome *out,
		     const struct kcidb_input *in, const char *id)
{
	const struct pipeline_check *apply = &out->checks[REPORT_CHECK_APPLY];
	guint n = 0;
	g_autofree char *hash = patchset_hash(out->log_dir, &n);

	json_builder_begin_object(b);
	member(b, "id", id);
	member(b, "origin", KCIDB_ORIGIN);
	member(b, "tree_name", out->tree_name);
	if (git_url_ok(in->tree_url)) {
		member(b, "git_repository_url", in->tree_url);
		member(b, "git_repository_branch", in->tree_branch);
	}
	if (out->base_commit && strlen(out->base_commit) == 40)
		member(b, "git_commit_hash", out->base_commit);
	if (in->series_url && n) {
		g_autofree char *url =
			g_strconcat(in->series_url, "/mbox", NULL);

		/* git apply (and git am) take the whole mbox */
		jsonout_begin_array(b, "patchset_files");
		json_builder_begin_object(b);
		member(b, "name", "series.mbox");
		member(b, "url", url);
		json_builder_end_object(b);
		json_builder_end_array(b);
	}
	member(b, "patchset_hash", hash);
	member(b, "message_id", out->parent_message_id);
	member(b, "comment", in->subject);
	if (in->start_time)
		jsonout_time(b, "start_time", in->start_time);
	jsonout_begin_array(b, "contacts");
	if (out->author_email)
		jsonout_string(b, NULL, out->author_email);
	if (out->list)
		jsonout_string(b, NULL, out->list);
	json_builder_end_array(b);
	if (apply->status != REPORT_STATUS_SKIPPED)
		jsonout_bool(b, "valid", apply->status == REPORT_STATUS_OK);
	jsonout_begin_object(b, "misc");
	jsonout_int(b, "series_id", out->series_id);
	member(b, "head_commit", out->head_commit);
	member(b, "tree_description", out->tree_description);
	member(b, "base_reason", out->base_reason);
	member(b, "not_tested", out->not_tested);
	member(b, "dirstat", out->dirstat);
	jsonout_json(b, "verdict", out->verdict_json);
	json_builder_end_object(b);
	json_builder_end_object(b);
}

static void build(JsonBuilder *b, const char *checkout_id, const char *id,
		  const char *config, const char *compiler,
		  const struct pipeline_check *c, gboolean say_valid,
		  const char *comment)
{
	json_builder_begin_object(b);
	member(b, "checkout_id", checkout_id);
	member(b, "id", id);
	member(b, "origin", KCIDB_ORIGIN);
	member(b, "comment", comment);
	member(b, "architecture", "arm");
	member(b, "compiler", compiler);
	member(b, "config_name", config);
	if (c && c->seconds > 0)
		jsonout_double(b, "duration", c->seconds);
	if (say_valid && c)
		jsonout_bool(b, "valid", c->status == REPORT_STATUS_OK);
	json_builder_end_object(b);
}

static void test(JsonBuilder *b, const char *build_id, const char *prefix,
		 const char *path, const char *status, const char *comment,
		 double seconds, const char *excerpt)
{
	g_autofree char *id = g_strconcat(prefix, "-", path, NULL);

	json_builder_begin_object(b);
	member(b, "build_id", build_id);
	member(b, "id", id);
	member(b, "origin", KCIDB_ORIGIN);
	member(b, "path", path);
	member(b, "status", status);
	member(b, "comment", comment);
	if (seconds > 0)
		jsonout_double(b, "duration", seconds);
	if (excerpt && *excerpt) {
		/* the schema's maxLength, in characters */
		g_autofree char *cut = g_utf8_make_valid(excerpt, -1);

		if (g_utf8_strlen(cut, -1) > 16384)
			*g_utf8_offset_to_pointer(cut, 16384) = '\0';
		member(b, "log_excerpt", cut);
	}
	json_builder_end_object(b);
}

static void check_test(JsonBuilder *b, const char *build_id, const char *prefix,
		       const char *path, const struct pipeline_check *c)
{
	test(b, build_id, prefix, path, check_status(c->status),
	     c->status == REPORT_STATUS_SKIPPED ? c->reason : c->summary,
	     c->seconds, c->detail);
}

/* kunit.SUITE.CASE for every case the series' boot printed. */
static void kunit_cases(JsonBuilder *b, const char *build_id,
			const char *prefix, const char *log_dir)
{
	g_autofree char *path =
		g_build_filename(log_dir, "console-series.log", NULL);
	g_autofree char *console = NULL;
	g_autoptr(ktap_report) rep = NULL;

	if (!g_file_get_contents(path, &console, NULL, NULL))
		return;
	rep = ktap_parse(console);
	for (guint i = 0; i < rep->cases->len; i++) {
		const struct ktap_case *k = rep->cases->pdata[i];
		g_autoptr(GString) p = g_string_new("kunit.");
		g_autofree char *diag = NULL;

		append_path(p, k->suite);
		g_string_append_c(p, '.');
		append_path(p, k->name);
		if (k->diagnostics && k->diagnostics->len) {
			g_ptr_array_add(k->diagnostics, NULL);
			diag = g_strjoinv("\n", (char **)k->diagnostics->pdata);
			g_ptr_array_remove_index(k->diagnostics,
						 k->diagnostics->len - 1);
		}
		test(b, build_id, prefix, p->str, case_status(k->status),
		     k->directive, 0, k->status == KTAP_PASS ? NULL : diag);
	}
}

/* A board the series selects (struct pipeline_board, the pipeline's
 * boards row): a build of its own, rpm-BOARD, booted on its machine.  A
 * board not booted here has neither. */
static char *board_build_id(const char *prefix, const struct pipeline_board *pb)
{
	return g_strdup_printf("%s-rpm-%s", prefix, pb->name);
}

static void board_build(JsonBuilder *b, const char *prefix,
			const struct pipeline_board *pb)
{
	g_autofree char *id = NULL;
	g_autofree char *config = NULL;
	g_autofree char *comment = NULL;

	if (pb->status == REPORT_STATUS_SKIPPED)
		return;
	id = board_build_id(prefix, pb);
	config = g_strdup_printf("rpm-%s", pb->name);
	comment = g_strdup_printf("allnoconfig with armbot's qemu/%s.config, "
				  "for the board %s (%s)",
				  pb->name, pb->name,
				  pb->reason ? pb->reason : "selected");
	build(b, prefix, id, config, NULL, NULL, FALSE, comment);
}

static void board_test(JsonBuilder *b, const char *prefix,
		       const struct pipeline_board *pb)
{
	g_autofree char *id = NULL;
	g_autofree char *test_prefix = NULL;

	if (pb->status == REPORT_STATUS_SKIPPED)
		return;
	id = board_build_id(prefix, pb);
	test_prefix = g_strdup_printf("%s-%s", prefix, pb->name);
	test(b, id, test_prefix, "boot", check_status(pb->status), pb->summary,
	     pb->seconds, pb->detail);
}

char *kcidb_document(const struct pipeline_outcome *out,
		     const struct kcidb_input *in)
{
	static const char *const default_configs[] = {
		SPARSE_CHECK_DEFAULT_CONFIGS, NULL
	};
	const struct pipeline_check *sparse = &out->checks[REPORT_CHECK_SPARSE];
	const struct pipeline_check *bld = &out->checks[REPORT_CHECK_BUILD];
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autofree char *prefix = g_strdup_printf(
		KCIDB_ORIGIN ":s%" G_GINT64_FORMAT "-%s", out->series_id,
		out->tree_name ? out->tree_name : "tree");
	g_autofree char *sparse_id = g_strconcat(prefix, "-sparse", NULL);
	g_autofree char *boot_id =
		g_strconcat(prefix, "-" BOOT_CONFIG_NAME, NULL);
	g_autofree char *configs = g_strjoinv(
		"+", (char **)(in->sparse_configs ? in->sparse_configs :
						    default_configs));
	gboolean have_sparse = sparse->status != REPORT_STATUS_SKIPPED;
	gboolean have_build = bld->status != REPORT_STATUS_SKIPPED;

	json_builder_begin_object(b);
	jsonout_begin_object(b, "version");
	jsonout_int(b, "major", KCIDB_VERSION_MAJOR);
	jsonout_int(b, "minor", KCIDB_VERSION_MINOR);
	json_builder_end_object(b);

	jsonout_begin_array(b, "checkouts");
	checkout(b, out, in, prefix);
	json_builder_end_array(b);

	jsonout_begin_array(b, "builds");
	if (have_sparse)
		build(b, prefix, sparse_id, configs, NULL, sparse, FALSE,
		      "the builds sparse checked (C=1), at the base and "
		      "with the series");
	if (have_build)
		build(b, prefix, boot_id, BOOT_CONFIG_NAME, out->compiler, bld,
		      TRUE,
		      "allnoconfig with armbot's qemu/virt.config and the "
		      "runtime-PM KUnit module");
	for (guint i = 0; out->boards && i < out->boards->len; i++)
		board_build(b, prefix, out->boards->pdata[i]);
	json_builder_end_array(b);

	jsonout_begin_array(b, "tests");
	if (have_sparse)
		check_test(b, sparse_id, prefix, "sparse", sparse);
	if (have_build && bld->status == REPORT_STATUS_OK) {
		struct pipeline_check virt = out->checks[REPORT_CHECK_BOOT];

		/* rpm-virt's boot alone: the boards are builds of their
		 * own */
		if (out->board_failed)
			virt.status = out->virt_boot;
		check_test(b, boot_id, prefix, "boot", &virt);
		check_test(b, boot_id, prefix, "kunit",
			   &out->checks[REPORT_CHECK_RUNTIME_PM]);
		kunit_cases(b, boot_id, prefix, out->log_dir);
	}
	for (guint i = 0; out->boards && i < out->boards->len; i++)
		board_test(b, prefix, out->boards->pdata[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
	return jsonout_finish(b);
}

gboolean kcidb_write(const struct pipeline_outcome *out,
		     const struct kcidb_input *in, char **path, GError **error)
{
	g_autofree char *doc = kcidb_document(out, in);
	g_autofree char *file =
		g_build_filename(out->log_dir, KCIDB_FILE, NULL);

	if (!g_file_set_contents(file, doc, -1, error))
		return FALSE;
	if (path)
		*path = g_steal_pointer(&file);
	return TRUE;
}
