/* Unit tests for the jobs per node of a build through icecream
 * (kernel/build/icecc.c): the scheduler's answer to `listjobs` parsed,
 * bounded and hostile lines skipped, and the last-build record with its
 * nodes written and read back. */
#include <gio/gio.h>
#include <string.h>

#include "kernel/build/icecc.h"
#include "kernel/tree/rmtree.h"
#include "scratch.h"

static GHashTable *jobs_new(void)
{
	return g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
				     g_free);
}

static void test_listjobs(void)
{
	g_autoptr(GHashTable) on = jobs_new();
	g_autofree char *long_name = g_strnfill(65, 'n');
	g_autofree char *hostile = NULL;
	struct icecc_jobs_now now;

	/* the answer of icecc-scheduler 1.4 (dump_job(): "ID STATE
	 * sub:NODE on:NODE FILE", after a space) */
	g_assert_cmpuint(
		icecc_listjobs_parse(
			"200-ICECC 1.4.0: 8s uptime, 2 hosts, 1 jobs in queue "
			"(17 total).\r\n"
			" 12 COMP sub:armbot-local on:armbot-node2 "
			"arch/arm/kernel/setup.c\r\n"
			" 13 COMP sub:armbot-local on:armbot-local traps.c\r\n"
			" 14 PEND sub:armbot-local on:<unknown> time.c\r\n"
			" 15 WAIT sub:armbot-local on:armbot-node2 irq.c\r\n"
			" garbage\r\n200 done\r\n",
			on, &now),
		==, 3);
	/* compiling now: one on its submitter, one elsewhere (a job given
	 * to a node but still waiting for it does not count) */
	g_assert_cmpuint(now.here, ==, 1);
	g_assert_cmpuint(now.elsewhere, ==, 1);
	g_assert_cmpuint(g_hash_table_size(on), ==, 3);
	g_assert_cmpstr(g_hash_table_lookup(on, GUINT_TO_POINTER(12)), ==,
			"armbot-node2");
	g_assert_cmpstr(g_hash_table_lookup(on, GUINT_TO_POINTER(13)), ==,
			"armbot-local");
	/* asked again: the same job counts once, its node as last seen */
	g_assert_cmpuint(
		icecc_listjobs_parse(" 12 COMP sub:a on:armbot-node2 x.c\n"
				     " 16 COMP sub:a on:armbot-node2 y.c\n",
				     on, &now),
		==, 2);
	g_assert_cmpuint(g_hash_table_size(on), ==, 4);
	g_assert_cmpuint(now.here, ==, 0);
	g_assert_cmpuint(now.elsewhere, ==, 2);

	/* a node name over 64 bytes, an id over 9 digits, no node: skipped */
	hostile = g_strdup_printf(" 17 COMP sub:a on:%s x.c\n"
				  " 18 COMP sub:%s on:b x.c\n"
				  " 1234567890 COMP sub:a on:b x.c\n"
				  " 19 COMP sub:a on: x.c\n"
				  " 20 COMP sub:a on:b\n",
				  long_name, long_name);
	g_assert_cmpuint(icecc_listjobs_parse(hostile, on, &now), ==, 0);
	g_assert_cmpuint(g_hash_table_size(on), ==, 4);
	g_assert_cmpuint(now.here + now.elsewhere, ==, 0);
	g_assert_cmpuint(icecc_listjobs_parse("", on, NULL), ==, 0);
}

static void test_last_build(void)
{
	g_autofree char *dir = scratch_dir_new("icecc-jobs-XXXXXX");
	g_autofree char *path = g_build_filename(dir, "last-build-t", NULL);
	g_autoptr(GError) error = NULL;
	struct icecc_last_build lb = { 0 };
	struct icecc_last_build back;
	struct icecc_node_jobs n2 = { "armbot-node2", 35 };
	struct icecc_node_jobs n1 = { "armbot-local", 3 };
	g_autofree char *bad = g_strdup_printf(
		"1 2.0 3 2 10\nnode %s 5\nnode ok 18446744073709551615\n"
		"node short\nnode ok2 7\n",
		"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmno"
		"pqrstuvwxyz");

	lb.when = 1796419983;
	lb.seconds = 26.849;
	lb.jobs = 3;
	lb.local_jobs = 2;
	lb.cluster_jobs = 62;
	lb.here_seconds = 20.5;
	lb.elsewhere_seconds = 31.25;
	lb.nodes = g_ptr_array_new();
	g_ptr_array_add(lb.nodes, &n2);
	g_ptr_array_add(lb.nodes, &n1);
	g_assert_true(icecc_last_build_write(path, &lb, &error));
	g_assert_no_error(error);
	g_ptr_array_unref(lb.nodes);

	g_assert_true(icecc_last_build_read(path, &back, &error));
	g_assert_no_error(error);
	g_assert_cmpint(back.when, ==, 1796419983);
	g_assert_cmpuint(back.jobs, ==, 3);
	g_assert_cmpuint(back.cluster_jobs, ==, 62);
	g_assert_cmpfloat_with_epsilon(back.here_seconds, 20.5, 1e-9);
	g_assert_cmpfloat_with_epsilon(back.elsewhere_seconds, 31.25, 1e-9);
	/* 31.25 s elsewhere would have taken 15.625 s more at -j2 here */
	g_assert_cmpfloat_with_epsilon(icecc_last_build_speedup(&back),
				       (26.849 + 15.625) / 26.849, 1e-6);
	g_assert_cmpuint(back.nodes->len, ==, 2);
	g_assert_cmpstr(((struct icecc_node_jobs *)back.nodes->pdata[0])->name,
			==, "armbot-node2");
	g_assert_cmpuint(((struct icecc_node_jobs *)back.nodes->pdata[0])->jobs,
			 ==, 35);
	g_assert_cmpuint(((struct icecc_node_jobs *)back.nodes->pdata[1])->jobs,
			 ==, 3);
	icecc_last_build_clear(&back);

	/* a record of the earlier form (no nodes) still reads */
	g_assert_true(g_file_set_contents(path, "1 5.238 2 2 14\n", -1, NULL));
	g_assert_true(icecc_last_build_read(path, &back, &error));
	g_assert_cmpuint(back.cluster_jobs, ==, 14);
	g_assert_cmpuint(back.nodes->len, ==, 0);
	/* nothing seen elsewhere: no faster than this machine */
	g_assert_cmpfloat(icecc_last_build_speedup(&back), ==, 1.0);
	icecc_last_build_clear(&back);

	/* six numbers, a negative time, no wall time */
	for (guint i = 0; i < 3; i++) {
		const char *text[] = { "1 5.2 2 2 14 3.0\n",
				       "1 5.2 2 2 14 -1 0\n",
				       "1 nan 2 2 14 0 0\n" };

		g_assert_true(g_file_set_contents(path, text[i], -1, NULL));
		g_assert_false(icecc_last_build_read(path, &back, &error));
		g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
		g_clear_error(&error);
	}
	lb.seconds = 0;
	g_assert_cmpfloat(icecc_last_build_speedup(&lb), ==, 0);

	/* an over-long name and a line without a count are skipped */
	g_assert_true(g_file_set_contents(path, bad, -1, NULL));
	g_assert_true(icecc_last_build_read(path, &back, &error));
	g_assert_cmpuint(back.nodes->len, ==, 2);
	g_assert_cmpstr(((struct icecc_node_jobs *)back.nodes->pdata[1])->name,
			==, "ok2");
	icecc_last_build_clear(&back);

	/* not a record */
	g_assert_true(g_file_set_contents(path, "node a 1\n", -1, NULL));
	g_assert_false(icecc_last_build_read(path, &back, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
	g_clear_error(&error);
	rmtree(dir, NULL);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/icecc/listjobs", test_listjobs);
	g_test_add_func("/icecc/last-build", test_last_build);
	return g_test_run();
}
