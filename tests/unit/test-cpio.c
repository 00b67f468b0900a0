/* Unit tests for qemu/cpio.c: the archive is read back by GNU cpio, the
 * peer that defines the newc format as the kernel unpacks it. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "kernel/build/runner.h"
#include "qemu/cpio.h"

static void test_layout(void)
{
	struct cpio *c = cpio_new();
	g_autoptr(GBytes) b = NULL;
	g_autoptr(GError) error = NULL;
	const char *data;
	gsize len;

	cpio_add_file(c, "a", 0644, "xyz", 3);
	b = cpio_finish(c, &error);
	g_assert_no_error(error);
	data = g_bytes_get_data(b, &len);
	/* header 110 + "a\0" -> 112, data 3 padded to 4: 116; then the
	 * trailer: 110 + 11 -> 121 padded to 124 */
	g_assert_cmpuint(len, ==, 116 + 124);
	/* magic, ino 1, mode 0100644, uid 0, gid 0, nlink 1, mtime 0, size 3,
	 * dev 0:0, rdev 0:0, namesize 2, check 0: nothing of the host */
	g_assert_cmpmem(data, 110,
			"070701"
			"00000001000081a4000000000000000000000001"
			"0000000000000003000000000000000000000000"
			"000000000000000200000000",
			110);
	g_assert_cmpmem(data + 110, 2, "a\0", 2);
	g_assert_cmpmem(data + 112, 4, "xyz\0", 4);
	/* the trailer: ino 0, mode 0, nlink 1, namesize 11 */
	g_assert_cmpmem(data + 116, 110,
			"070701"
			"0000000000000000000000000000000000000001"
			"0000000000000000000000000000000000000000"
			"000000000000000b00000000",
			110);
	g_assert_cmpmem(data + 116 + 110, 14, "TRAILER!!!\0\0\0\0", 14);
}

/* The same calls give the same bytes, whenever and by whomever made: the
 * initramfs is rebuilt for every boot. */
static void test_deterministic(void)
{
	g_autoptr(GBytes) first = NULL;
	g_autoptr(GBytes) second = NULL;

	for (int i = 0; i < 2; i++) {
		struct cpio *c = cpio_new();
		g_autoptr(GError) error = NULL;

		cpio_add_dir(c, "dev", 0755);
		cpio_add_chardev(c, "dev/console", 0600, 5, 1);
		cpio_add_file(c, "init", 0755, "#!x\n", 4);
		if (i)
			second = cpio_finish(c, &error);
		else
			first = cpio_finish(c, &error);
		g_assert_no_error(error);
		if (!i)
			g_usleep(1100 * 1000); /* another second */
	}
	g_assert_true(g_bytes_equal(first, second));
}

/* GNU cpio lists what we wrote: types, modes, device numbers, sizes. */
static void test_gnu_cpio_reads_it(void)
{
	g_autofree char *cpio = g_find_program_in_path("cpio");
	g_autofree char *dir = NULL;
	g_autofree char *path = NULL;
	g_autofree char *listed = NULL;
	g_autoptr(GBytes) b = NULL;
	g_autoptr(GError) error = NULL;
	const char *env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", "TZ=UTC",
			      NULL };
	struct runner_opts o = RUNNER_OPTS_INIT;
	struct runner_result r;
	struct cpio *c;

	if (!cpio) {
		g_test_skip("cpio not installed");
		return;
	}
	c = cpio_new();
	cpio_add_dir(c, "dev", 0755);
	cpio_add_chardev(c, "dev/console", 0600, 5, 1);
	cpio_add_file(c, "init", 0755, "#!x\n", 4);
	cpio_add_file(c, "empty", 0644, "", 0);
	b = cpio_finish(c, &error);
	g_assert_no_error(error);
	dir = g_dir_make_tmp("armbot-cpio-XXXXXX", &error);
	g_assert_no_error(error);
	path = g_build_filename(dir, "a.cpio", NULL);
	g_assert_true(g_file_set_contents(path, g_bytes_get_data(b, NULL),
					  g_bytes_get_size(b), &error));
	{
		const char *argv[] = { "cpio", "-t", "-v", "--quiet",
				       "-F",   path, NULL };

		o.env = env;
		o.timeout_ms = 10000;
		g_assert_true(runner_run(argv, &o, &r, &error));
	}
	g_assert_no_error(error);
	g_assert_true(runner_result_ok(&r));
	/* GNU cpio -tv: mode, links, owner, group, size or major, minor,
	 * date, name; keep what is not the date */
	{
		g_auto(GStrv) lines = g_strsplit(r.output->str, "\n", -1);
		GString *s = g_string_new(NULL);

		for (guint i = 0; lines[i] && lines[i][0]; i++) {
			g_auto(GStrv) f = g_strsplit_set(lines[i], " ", -1);
			GPtrArray *w = g_ptr_array_new();

			for (guint j = 0; f[j]; j++)
				if (f[j][0])
					g_ptr_array_add(w, f[j]);
			/* mode, size (or "major,"/"major, minor"), name */
			g_string_append_printf(s, "%s %s %s\n",
					       (char *)w->pdata[0],
					       (char *)w->pdata[4],
					       (char *)w->pdata[w->len - 1]);
			g_ptr_array_unref(w);
		}
		listed = g_string_free(s, FALSE);
	}
	g_assert_cmpstr(listed, ==,
			"drwxr-xr-x 0 dev\n"
			"crw------- 5, dev/console\n"
			"-rwxr-xr-x 4 init\n"
			"-rw-r--r-- 0 empty\n");
	runner_result_clear(&r);
	g_unlink(path);
	g_rmdir(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/cpio/layout", test_layout);
	g_test_add_func("/cpio/deterministic", test_deterministic);
	g_test_add_func("/cpio/gnu-cpio-reads-it", test_gnu_cpio_reads_it);
	return g_test_run();
}
