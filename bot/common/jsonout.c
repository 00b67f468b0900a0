#include "bot/common/jsonout.h"

#include <string.h>

static void member(JsonBuilder *b, const char *name)
{
	if (name)
		json_builder_set_member_name(b, name);
}

void jsonout_bytes(JsonBuilder *b, const char *name, const char *data,
		   gsize len)
{
	g_autofree char *valid = data ? g_utf8_make_valid(data, len) : NULL;

	member(b, name);
	if (valid)
		json_builder_add_string_value(b, valid);
	else
		json_builder_add_null_value(b);
}

void jsonout_string(JsonBuilder *b, const char *name, const char *s)
{
	jsonout_bytes(b, name, s, s ? strlen(s) : 0);
}

void jsonout_int(JsonBuilder *b, const char *name, gint64 v)
{
	member(b, name);
	json_builder_add_int_value(b, v);
}

void jsonout_bool(JsonBuilder *b, const char *name, gboolean v)
{
	member(b, name);
	json_builder_add_boolean_value(b, v);
}

void jsonout_double(JsonBuilder *b, const char *name, double v)
{
	member(b, name);
	json_builder_add_double_value(b, v);
}

void jsonout_null(JsonBuilder *b, const char *name)
{
	member(b, name);
	json_builder_add_null_value(b);
}

void jsonout_begin_object(JsonBuilder *b, const char *name)
{
	member(b, name);
	json_builder_begin_object(b);
}

void jsonout_begin_array(JsonBuilder *b, const char *name)
{
	member(b, name);
	json_builder_begin_array(b);
}

gboolean jsonout_json(JsonBuilder *b, const char *name, const char *text)
{
	JsonNode *node = text ? json_from_string(text, NULL) : NULL;

	if (!node)
		return FALSE;
	member(b, name);
	json_builder_add_value(b, node);
	return TRUE;
}

void jsonout_id(JsonBuilder *b, const char *name, gint64 id)
{
	if (id)
		jsonout_int(b, name, id);
	else
		jsonout_null(b, name);
}

void jsonout_time(JsonBuilder *b, const char *name, gint64 t)
{
	g_autoptr(GDateTime) d = t ? g_date_time_new_from_unix_utc(t) : NULL;
	g_autofree char *s = d ? g_date_time_format_iso8601(d) : NULL;

	jsonout_string(b, name, s);
}

char *jsonout_finish(JsonBuilder *b)
{
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	g_autofree char *text = json_to_string(root, FALSE);

	return g_strconcat(text, "\n", NULL);
}
