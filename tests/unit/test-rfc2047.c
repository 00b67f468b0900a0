/* Unit tests for mailparse/rfc2047.c and mailparse/transfer.c: encoded
 * words and transfer encodings undone with git mailinfo's tolerance, git's
 * own behaviour (git 2.39) as the expectation. */
#include <string.h>

#include "mailparse/rfc2047.h"
#include "mailparse/transfer.h"

static void assert_decode(const char *in, const char *expected)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GString) out =
		rfc2047_decode(in, strlen(in), "UTF-8", NULL, &error);

	g_assert_no_error(error);
	g_assert_cmpstr(out->str, ==, expected);
}

static void test_rfc2047(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GString) bad = NULL;
	g_autoptr(GString) unknown = NULL;
	g_autoptr(GString) raw = NULL;

	assert_decode("plain text", "plain text");
	assert_decode("=?UTF-8?Q?caf=C3=A9_au_lait?=", "café au lait");
	assert_decode("=?utf-8?q?a?= =?utf-8?q?b?=", "ab");
	assert_decode("x =?ISO-8859-1?Q?=E9?= y", "x é y");
	assert_decode("=?ISO-8859-1?B?U2No9m4=?=", "Schön");
	assert_decode("=?iso-2022-jp?B?GyRCJEgkaiRHJDkbKEI=?=", "とりです");
	/* git's rules beyond the RFC's: an encoded word inside a word, blanks
	 * in a Q word, quotes around an encoded word kept */
	assert_decode("foo=?UTF-8?Q?=C3=A9?=bar", "fooébar");
	assert_decode("=?UTF-8?Q?a b?=", "a b");
	assert_decode("\"=?UTF-8?Q?a?=\"", "\"a\"");
	/* a lone "=?" makes git give up on the header */
	bad = rfc2047_decode("a =? b", 6, "UTF-8", NULL, &error);
	g_assert_null(bad);
	g_assert_error(error, RFC2047_ERROR, RFC2047_ERROR_MALFORMED);
	g_clear_error(&error);
	unknown = rfc2047_decode("=?x-nope?Q?a?=", 14, "UTF-8", NULL, &error);
	g_assert_null(unknown);
	g_assert_error(error, RFC2047_ERROR, RFC2047_ERROR_CHARSET);
	g_assert_cmpstr(error->message, ==,
			"cannot convert from x-nope to UTF-8");
	g_clear_error(&error);
	/* -n: no re-coding, the bytes of the word as they are */
	raw = rfc2047_decode("=?ISO-8859-1?Q?=E9?=", 20, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(raw->str, ==, "\xe9");
}

static void assert_gstring(GString *got, const char *expected, gsize len)
{
	g_assert_cmpmem(got->str, got->len, expected, len);
	g_string_free(got, TRUE);
}

static void test_qp(void)
{
	assert_gstring(transfer_decode_qp("a=3Db=\n", FALSE), "a=b", 3);
	assert_gstring(transfer_decode_qp("a_b", TRUE), "a b", 3);
	assert_gstring(transfer_decode_qp("a_b", FALSE), "a_b", 3);
	/* garbage after "=" is kept, lower-case hex is fine */
	assert_gstring(transfer_decode_qp("=ZZ=4=3d", FALSE), "=ZZ=4=", 6);
	/* "=" then CR is not a soft line break */
	assert_gstring(transfer_decode_qp("x=\r\n", FALSE), "x=\r\n", 4);
	assert_gstring(transfer_decode_qp("nul=00x", FALSE), "nul\0x", 5);
	assert_gstring(transfer_decode_qp("end=", FALSE), "end", 3);
}

static void test_base64(void)
{
	assert_gstring(transfer_decode_base64("aGVsbG8=\n"), "hello", 5);
	assert_gstring(transfer_decode_base64("aG Vs!b G8"), "hello", 5);
	assert_gstring(transfer_decode_base64("AA=="), "\0", 1);
	/* a lone trailing sextet gives nothing */
	assert_gstring(transfer_decode_base64("QUJD\nQ"), "ABC", 3);
	/* two and three letters at the end: one and two bytes */
	assert_gstring(transfer_decode_base64("QQ"), "A", 1);
	assert_gstring(transfer_decode_base64("QUI"), "AB", 2);
	/* git skips "=" and goes on counting: what follows padding is
	 * decoded out of step, as git does */
	assert_gstring(transfer_decode_base64("QQ==QUJD"), "A\x04\x14$", 4);
	assert_gstring(transfer_decode_base64(""), "", 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/rfc2047/decode", test_rfc2047);
	g_test_add_func("/transfer/quoted-printable", test_qp);
	g_test_add_func("/transfer/base64", test_base64);
	return g_test_run();
}
