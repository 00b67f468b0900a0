#include "bot/common/dirstat-json.h"

#include "bot/common/jsonout.h"

char *dirstat_json_report(const struct dirstat_report *report)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	jsonout_string(b, "mode", dirstat_mode_name(report->mode));
	jsonout_bool(b, "signed", report->is_signed);
	jsonout_bool(b, "cumulative", report->cumulative);
	jsonout_int(b, "limit_permille", report->permille);
	jsonout_int(b, "files", report->files);
	jsonout_int(b, "total", report->total);
	jsonout_bool(b, "balanced", dirstat_report_balanced(report));
	jsonout_begin_array(b, "directories");
	for (guint i = 0; i < report->rows->len; i++) {
		const struct dirstat_row *row = report->rows->pdata[i];
		gboolean negative = row->value < 0;
		g_autofree char *percent =
			g_strdup_printf("%s%d.%d", negative ? "-" : "",
					row->permille / 10, row->permille % 10);

		json_builder_begin_object(b);
		jsonout_string(b, "path", row->dir);
		jsonout_int(b, "value", row->value);
		jsonout_int(b, "permille",
			    negative ? -row->permille : row->permille);
		jsonout_string(b, "percent", percent);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	return jsonout_finish(b);
}

char *dirstat_json_verdict(const struct dirstat_verdict *v)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autofree char *sentence = dirstat_verdict_sentence(v);

	json_builder_begin_object(b);
	jsonout_string(b, "path", v->path);
	jsonout_string(b, "verdict", dirstat_verdict_kind_name(v->kind));
	jsonout_int(b, "files", v->files);
	jsonout_int(b, "added", v->added);
	jsonout_int(b, "removed", v->deleted);
	jsonout_int(b, "net", v->net);
	jsonout_string(b, "sentence", sentence);
	jsonout_begin_array(b, "directories");
	for (guint i = 0; i < v->dirs->len; i++) {
		const struct dirstat_verdict_dir *d = v->dirs->pdata[i];

		json_builder_begin_object(b);
		jsonout_string(b, "path", d->path);
		jsonout_int(b, "added", d->added);
		jsonout_int(b, "removed", d->deleted);
		jsonout_int(b, "net", d->net);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	return jsonout_finish(b);
}
