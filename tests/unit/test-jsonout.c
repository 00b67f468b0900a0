/* Unit tests for bot/common/jsonout.c: the members of the bot's JSON
 * documents, byte for byte as json-glib writes them. */
#include "bot/common/jsonout.h"

static void test_members(void)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autofree char *text = NULL;

	json_builder_begin_object(b);
	jsonout_string(b, "s", "a\"b\\c\n\001");
	jsonout_string(b, "none", NULL);
	/* RFC 8259 8.1: a byte that is not UTF-8 becomes U+FFFD */
	jsonout_string(b, "bad", "x\xffy");
	jsonout_bytes(b, "nul", "a\0b", 3);
	jsonout_bytes(b, "nobytes", NULL, 0);
	jsonout_int(b, "neg", -34);
	jsonout_bool(b, "t", TRUE);
	jsonout_id(b, "id", 7);
	jsonout_id(b, "noid", 0);
	jsonout_time(b, "time", 1592298000);
	jsonout_time(b, "never", 0);
	jsonout_double(b, "half", 0.5);
	jsonout_null(b, "nothing");
	jsonout_begin_array(b, "list");
	jsonout_string(b, NULL, "x");
	jsonout_id(b, NULL, 0);
	jsonout_begin_object(b, NULL);
	jsonout_int(b, "in", 1);
	json_builder_end_object(b);
	json_builder_end_array(b);
	jsonout_begin_object(b, "obj");
	g_assert_true(jsonout_json(b, "doc", "{\"a\": [1, true]}"));
	g_assert_false(jsonout_json(b, "bad", "{\"a\":"));
	g_assert_false(jsonout_json(b, "absent", NULL));
	json_builder_end_object(b);
	json_builder_end_object(b);
	text = jsonout_finish(b);
	g_assert_cmpstr(text, ==,
			"{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"none\":null,"
			"\"bad\":\"x\xef\xbf\xbdy\",\"nul\":\"a\xef\xbf\xbd"
			"b\",\"nobytes\":null,\"neg\":-34,\"t\":true,"
			"\"id\":7,\"noid\":null,"
			"\"time\":\"2020-06-16T09:00:00Z\",\"never\":null,"
			"\"half\":0.5,\"nothing\":null,"
			"\"list\":[\"x\",null,{\"in\":1}],"
			"\"obj\":{\"doc\":{\"a\":[1,true]}}}\n");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/jsonout/members", test_members);
	return g_test_run();
}
