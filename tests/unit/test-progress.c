/* Unit tests of bot/cli/progress.c: with standard error a pipe (not a
 * terminal), a stage that lasts 3.5 s with an interval of 1 s gets a
 * "still in" line every second, real time, and the next stage says how
 * long the one before took. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bot/cli/progress.h"

static void test_heartbeat(void)
{
	int fds[2], saved;
	char buf[8192];
	ssize_t n;
	gsize len = 0;
	g_auto(GStrv) lines = NULL;
	guint still = 0;
	double last = 0;
	struct cli_progress *p;

	g_assert_cmpint(pipe(fds), ==, 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	g_assert_cmpint(dup2(fds[1], STDERR_FILENO), ==, STDERR_FILENO);
	g_setenv("ARMBOT_PROGRESS_INTERVAL", "1", TRUE);
	p = cli_progress_new();
	cli_progress_stage(p, "slow", NULL);
	g_usleep(3500 * 1000);
	cli_progress_stage(p, "next", "detail");
	cli_progress_done(p, "ok");
	cli_progress_free(p);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fds[1]);
	while ((n = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fds[0]);
	buf[len] = '\0';
	lines = g_strsplit(buf, "\n", -1);
	for (guint i = 0; lines[i] && *lines[i]; i++) {
		double t;

		g_test_message("%s", lines[i]);
		g_assert_cmpint(sscanf(lines[i], "[ %lf s]", &t), ==, 1);
		/* no gap of more than the interval (and some slack) */
		g_assert_cmpfloat(t - last, <, 2.0);
		last = t;
		if (strstr(lines[i], "] still in slow ("))
			still++;
	}
	g_assert_cmpuint(still, >=, 3);
	g_assert_cmpuint(still, <=, 4);
	g_assert_nonnull(strstr(buf, "] slow\n"));
	g_assert_nonnull(strstr(buf, "] next: detail (slow took 3."));
	g_assert_nonnull(strstr(buf, "] done; ok\n"));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/progress/heartbeat", test_heartbeat);
	return g_test_run();
}
