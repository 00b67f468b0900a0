/* The timed stages of a reply (see bot/daemon/timing.h). */
#include "bot/daemon/timing.h"

static const char *const names[TIMING_N_STAGES] = {
	[TIMING_QUEUE] = "queue",
	[TIMING_APPLY] = "apply",
	[TIMING_DIRSTAT] = "dirstat",
	[TIMING_SPARSE_BASE] = "sparse-base",
	[TIMING_SPARSE_HEAD] = "sparse-head",
	[TIMING_BUILD] = "build",
	[TIMING_BOOT] = "boot",
	[TIMING_SUITE] = "suite",
	[TIMING_COMPOSE] = "compose",
	[TIMING_SMTP] = "smtp",
};

const char *timing_stage_name(enum timing_stage stage)
{
	return stage < TIMING_N_STAGES ? names[stage] : "?";
}

void timing_init(struct timing *t)
{
	for (int i = 0; i < TIMING_N_STAGES; i++)
		t->seconds[i] = -1;
}

void timing_add(struct timing *t, enum timing_stage stage, double seconds)
{
	if (stage >= TIMING_N_STAGES)
		return;
	if (t->seconds[stage] < 0)
		t->seconds[stage] = 0;
	if (seconds > 0)
		t->seconds[stage] += seconds;
}

char *timing_format(const struct timing *t)
{
	GString *out = g_string_new(NULL);

	for (int i = 0; i < TIMING_N_STAGES; i++) {
		if (t->seconds[i] < 0)
			continue;
		g_string_append_printf(out, "%s%s %.1f s", out->len ? ", " : "",
				       names[i], t->seconds[i]);
	}
	return g_string_free(out, FALSE);
}
