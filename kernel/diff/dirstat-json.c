#include "kernel/diff/dirstat-json.h"

#include <json-glib/json-glib.h>

static void add_int(JsonBuilder *b, const char *name, gint64 v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_int_value(b, v);
}

static void add_bool(JsonBuilder *b, const char *name, gboolean v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_boolean_value(b, v);
}

/* A file name from a tree may hold any bytes; JSON text is UTF-8 (RFC
 * 8259 8.1), so each bad byte becomes U+FFFD; NULL is null. */
static void add_string(JsonBuilder *b, const char *name, const char *s)
{
	g_autofree char *valid = s ? g_utf8_make_valid(s, -1) : NULL;

	json_builder_set_member_name(b, name);
	if (valid)
		json_builder_add_string_value(b, valid);
	else
		json_builder_add_null_value(b);
}

/* The document, compact, ended by a newline. */
static char *finish(JsonBuilder *b)
{
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	g_autofree char *text = json_to_string(root, FALSE);

	return g_strconcat(text, "\n", NULL);
}

char *dirstat_json_report(const struct dirstat_report *report)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	add_string(b, "mode", dirstat_mode_name(report->mode));
	add_bool(b, "signed", report->is_signed);
	add_bool(b, "cumulative", report->cumulative);
	add_int(b, "limit_permille", report->permille);
	add_int(b, "files", report->files);
	add_int(b, "total", report->total);
	add_bool(b, "balanced", dirstat_report_balanced(report));
	json_builder_set_member_name(b, "directories");
	json_builder_begin_array(b);
	for (guint i = 0; i < report->rows->len; i++) {
		const struct dirstat_row *row = report->rows->pdata[i];
		gboolean negative = row->value < 0;
		g_autofree char *percent =
			g_strdup_printf("%s%d.%d", negative ? "-" : "",
					row->permille / 10, row->permille % 10);

		json_builder_begin_object(b);
		add_string(b, "path", row->dir);
		add_int(b, "value", row->value);
		add_int(b, "permille",
			negative ? -row->permille : row->permille);
		add_string(b, "percent", percent);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	return finish(b);
}

char *dirstat_json_verdict(const struct dirstat_verdict *v)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autofree char *sentence = dirstat_verdict_sentence(v);

	json_builder_begin_object(b);
	add_string(b, "path", v->path);
	add_string(b, "verdict", dirstat_verdict_kind_name(v->kind));
	add_int(b, "files", v->files);
	add_int(b, "added", v->added);
	add_int(b, "removed", v->deleted);
	add_int(b, "net", v->net);
	add_string(b, "sentence", sentence);
	json_builder_set_member_name(b, "directories");
	json_builder_begin_array(b);
	for (guint i = 0; i < v->dirs->len; i++) {
		const struct dirstat_verdict_dir *d = v->dirs->pdata[i];

		json_builder_begin_object(b);
		add_string(b, "path", d->path);
		add_int(b, "added", d->added);
		add_int(b, "removed", d->deleted);
		add_int(b, "net", d->net);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	return finish(b);
}
