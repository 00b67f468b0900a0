/* Unit tests for bot/store/store.c: schema version, idempotent adds. */
#include <glib/gstdio.h>
#include <string.h>

#include "bot/store/store.h"

static void test_idempotent(void)
{
	g_autofree char *dir = g_dir_make_tmp("armbot-store-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "s.sqlite", NULL);
	const char *text = "From: A <a@x>\nSubject: [PATCH] x\n"
			   "Message-ID: <m@x>\n\nbody\n";
	g_autoptr(GBytes) raw = g_bytes_new_static(text, strlen(text));
	g_autoptr(GError) error = NULL;
	gint64 n, r;

	for (int round = 0; round < 2; round++) {
		g_autoptr(store) st = store_open(path, &error);
		g_autoptr(message) msg = message_parse(raw, &error);
		g_autoptr(series_message) info = series_message_from(msg, 1);
		g_autoptr(GBytes) back = NULL;
		gboolean added;

		g_assert_no_error(error);
		g_assert_true(
			store_add_message(st, msg, info, "t", &added, &error));
		g_assert_no_error(error);
		g_assert_cmpint(added, ==, round == 0);
		g_assert_true(store_count(st, &n, &r, &error));
		g_assert_cmpint(n, ==, 1);
		back = store_message_raw(st, "m@x", &error);
		g_assert_nonnull(back);
		g_assert_true(g_bytes_equal(back, raw));
	}
	g_assert_cmpint(store_schema_version(), >=, 1);
	g_remove(path);
	{
		g_autofree char *wal = g_strconcat(path, "-wal", NULL);
		g_autofree char *shm = g_strconcat(path, "-shm", NULL);

		g_remove(wal);
		g_remove(shm);
	}
	g_rmdir(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/store/idempotent", test_idempotent);
	return g_test_run();
}
