#include "bot/cli/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernel/tree/tree.h"

struct cli_progress {
	gint64 start; /* monotonic, µs */
	gboolean log; /* not a terminal: still-in lines */
	gint64 interval; /* µs */
	GMutex lock;
	GCond cond;
	GThread *thread;
	gboolean stop;
	char *stage; /* the current stage, or NULL */
	gint64 stage_start, last_line; /* monotonic, µs */
};

double cli_progress_elapsed(const struct cli_progress *p)
{
	return (g_get_monotonic_time() - p->start) / 1e6;
}

/* One line, under @p->lock. */
static void line(struct cli_progress *p, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

static void line(struct cli_progress *p, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "[%6.1f s] ", cli_progress_elapsed(p));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	p->last_line = g_get_monotonic_time();
}

static gpointer heartbeat(gpointer data)
{
	struct cli_progress *p = data;

	g_mutex_lock(&p->lock);
	while (!p->stop) {
		gint64 due = p->last_line + p->interval;

		if (g_get_monotonic_time() >= due) {
			if (p->stage)
				line(p, "still in %s (%.1f s in this stage)",
				     p->stage,
				     (g_get_monotonic_time() - p->stage_start) /
					     1e6);
			else
				line(p, "still running");
			continue;
		}
		g_cond_wait_until(&p->cond, &p->lock, due);
	}
	g_mutex_unlock(&p->lock);
	return NULL;
}

struct cli_progress *cli_progress_new(void)
{
	struct cli_progress *p = g_new0(struct cli_progress, 1);
	p->start = p->last_line = g_get_monotonic_time();
	p->interval = tree_progress_log_interval();
	p->log = !isatty(STDOUT_FILENO) || !isatty(STDERR_FILENO);
	g_mutex_init(&p->lock);
	g_cond_init(&p->cond);
	if (p->log)
		p->thread = g_thread_new("armbot-progress", heartbeat, p);
	return p;
}

void cli_progress_stage(struct cli_progress *p, const char *stage,
			const char *detail)
{
	gint64 now = g_get_monotonic_time();

	g_mutex_lock(&p->lock);
	if (p->log && p->stage && g_strcmp0(p->stage, stage))
		line(p, "%s%s%s (%s took %.1f s)", stage, detail ? ": " : "",
		     detail ? detail : "", p->stage,
		     (now - p->stage_start) / 1e6);
	else
		line(p, "%s%s%s", stage, detail ? ": " : "",
		     detail ? detail : "");
	if (g_strcmp0(p->stage, stage)) {
		g_free(p->stage);
		p->stage = g_strdup(stage);
		p->stage_start = now;
	}
	g_cond_signal(&p->cond);
	g_mutex_unlock(&p->lock);
}

void cli_progress_done(struct cli_progress *p, const char *text)
{
	g_mutex_lock(&p->lock);
	line(p, "done; %s", text);
	g_mutex_unlock(&p->lock);
}

void cli_progress_free(struct cli_progress *p)
{
	if (!p)
		return;
	if (p->thread) {
		g_mutex_lock(&p->lock);
		p->stop = TRUE;
		g_cond_signal(&p->cond);
		g_mutex_unlock(&p->lock);
		g_thread_join(p->thread);
	}
	g_mutex_clear(&p->lock);
	g_cond_clear(&p->cond);
	g_free(p->stage);
	g_free(p);
}
