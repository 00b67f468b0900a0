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
	json_builder_set_member_name(b, "list");
	json_builder_begin_array(b);
	jsonout_string(b, NULL, "x");
	jsonout_id(b, NULL, 0);
	json_builder_end_array(b);
	json_builder_end_object(b);
	text = jsonout_finish(b);
	g_assert_cmpstr(text, ==,
			"{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"none\":null,"
			"\"bad\":\"x\xef\xbf\xbdy\",\"nul\":\"a\xef\xbf\xbd"
			"b\",\"nobytes\":null,\"neg\":-34,\"t\":true,"
			"\"id\":7,\"noid\":null,"
			"\"time\":\"2020-06-16T09:00:00Z\",\"never\":null,"
			"\"list\":[\"x\",null]}\n");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/jsonout/members", test_members);
	return g_test_run();
}
