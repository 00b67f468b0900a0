/* bot/daemon/kcidb.c: the KCIDB document of a series whose boards row
 * booted a board besides virt (the schema itself is checked on real
 * pipeline output by tests/e2e/pipeline-kcidb-patchwork.t). */
#include <json-glib/json-glib.h>
#include <string.h>

#include "bot/daemon/kcidb.h"
#include "bot/daemon/pipeline.h"

/* The object of @array whose "id" is @id, or NULL. */
static JsonObject *by_id(JsonObject *doc, const char *array, const char *id)
{
	JsonArray *a = json_object_get_array_member(doc, array);

	for (guint i = 0; i < json_array_get_length(a); i++) {
		JsonObject *o = json_array_get_object_element(a, i);

		if (!strcmp(json_object_get_string_member(o, "id"), id))
			return o;
	}
	return NULL;
}

static struct pipeline_board *board(const char *name, enum report_status s,
				    const char *summary)
{
	struct pipeline_board *b = g_new0(struct pipeline_board, 1);

	b->name = g_strdup(name);
	b->status = s;
	b->summary = g_strdup(summary);
	b->reason = g_strdup("touches arch/arm/boot/dts/x.dts");
	b->detail = s == REPORT_STATUS_FAIL ? g_strdup("| console\n") : NULL;
	b->seconds = 12.5;
	return b;
}

static void board_free(struct pipeline_board *b)
{
	g_free(b->name);
	g_free(b->summary);
	g_free(b->reason);
	g_free(b->detail);
	g_free(b);
}

static void test_boards(void)
{
	struct pipeline_outcome out = { 0 };
	struct kcidb_input in = { 0 };
	g_autoptr(JsonParser) p = json_parser_new();
	g_autofree char *doc = NULL;
	JsonObject *root, *o;

	out.series_id = 7;
	out.tree_name = "distro-6.1";
	out.head_commit = "0123456789abcdef0123456789abcdef01234567";
	out.log_dir = "/nonexistent";
	for (int i = 0; i < REPORT_N_CHECKS; i++)
		out.checks[i].status = REPORT_STATUS_OK;
	out.checks[REPORT_CHECK_BOOT].summary =
		"userspace at 0.3 s; fails on vexpress-a9";
	/* virt booted; vexpress-a9 failed, so the boot check FAILs */
	out.checks[REPORT_CHECK_BOOT].status = REPORT_STATUS_FAIL;
	out.board_failed = TRUE;
	out.virt_boot = REPORT_STATUS_OK;
	out.boards = g_ptr_array_new_with_free_func((GDestroyNotify)board_free);
	g_ptr_array_add(out.boards, board("vexpress-a9", REPORT_STATUS_FAIL,
					  "no userspace"));
	g_ptr_array_add(out.boards, board("sabrelite", REPORT_STATUS_SKIPPED,
					  "not booted here: not tried yet"));
	in.subject = "[PATCH] ARM: dts: x";

	doc = kcidb_document(&out, &in);
	g_assert_true(json_parser_load_from_data(p, doc, -1, NULL));
	root = json_node_get_object(json_parser_get_root(p));

	/* the virt kernel's boot is virt's alone */
	o = by_id(root, "tests", "armbot:s7-distro-6.1-boot");
	g_assert_nonnull(o);
	g_assert_cmpstr(json_object_get_string_member(o, "status"), ==, "PASS");
	/* the board: a build of its own and its boot */
	o = by_id(root, "builds", "armbot:s7-distro-6.1-rpm-vexpress-a9");
	g_assert_nonnull(o);
	g_assert_cmpstr(json_object_get_string_member(o, "config_name"), ==,
			"rpm-vexpress-a9");
	o = by_id(root, "tests", "armbot:s7-distro-6.1-vexpress-a9-boot");
	g_assert_nonnull(o);
	g_assert_cmpstr(json_object_get_string_member(o, "build_id"), ==,
			"armbot:s7-distro-6.1-rpm-vexpress-a9");
	g_assert_cmpstr(json_object_get_string_member(o, "status"), ==, "FAIL");
	g_assert_cmpstr(json_object_get_string_member(o, "log_excerpt"), ==,
			"| console\n");
	/* a board not booted here is in neither */
	g_assert_null(
		by_id(root, "builds", "armbot:s7-distro-6.1-rpm-sabrelite"));
	g_assert_null(
		by_id(root, "tests", "armbot:s7-distro-6.1-sabrelite-boot"));

	/* without a failed board, the boot test is the boot check's */
	out.board_failed = FALSE;
	out.checks[REPORT_CHECK_BOOT].status = REPORT_STATUS_WARN;
	g_free(doc);
	doc = kcidb_document(&out, &in);
	g_assert_true(json_parser_load_from_data(p, doc, -1, NULL));
	root = json_node_get_object(json_parser_get_root(p));
	o = by_id(root, "tests", "armbot:s7-distro-6.1-boot");
	g_assert_cmpstr(json_object_get_string_member(o, "status"), ==, "FAIL");
	g_ptr_array_unref(out.boards);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/kcidb/boards", test_boards);
	return g_test_run();
}
