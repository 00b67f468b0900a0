/* The stages of one series' reply that are timed, from its job being
 * queued to the reply handed to the SMTP server: what the daemon's log
 * line, the series page and /metrics break the reply time into. */
#pragma once

#include <glib.h>

enum timing_stage {
	TIMING_QUEUE, /* queued until a worker claims the job */
	TIMING_APPLY,
	TIMING_DIRSTAT,
	TIMING_SPARSE_BASE,
	TIMING_SPARSE_HEAD,
	TIMING_BUILD, /* the boot kernel and the suite module, base and head */
	TIMING_BOOT, /* QEMU start to init, base and head */
	TIMING_SUITE, /* init to power-off: the KUnit suite, base and head */
	TIMING_COMPOSE, /* the reply's text */
	TIMING_SMTP,
	TIMING_N_STAGES,
};

/* "queue", "apply", "sparse-base"...  Static. */
const char *timing_stage_name(enum timing_stage stage);

/* Seconds per stage; a stage that did not run is negative. */
struct timing {
	double seconds[TIMING_N_STAGES];
};

/* Every stage "not run". */
void timing_init(struct timing *t);

/* Add @seconds to @stage (a stage that did not run starts at 0). */
void timing_add(struct timing *t, enum timing_stage stage, double seconds);

/* "queue 0.0 s, apply 0.3 s, ...": the stages that ran. */
char *timing_format(const struct timing *t);
