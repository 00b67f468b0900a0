/* Progress of a long command on standard error, for people and for logs.
 *
 * On a terminal (standard output and standard error both one), a line
 * per stage as it starts: "[  12.3 s] build: ...".  Otherwise (CI,
 * `armbot check ... | tee`, `2> log`) the same lines and, while a stage
 * lasts, a line at least every interval so that a log is never silent:
 * "[  42.0 s] still in build (30.0 s in this stage)", and each new stage
 * says how long the one before took.  The interval is 30 s, or
 * $ARMBOT_PROGRESS_INTERVAL seconds (1 to 3600; tests set it short). */
#pragma once

#include <glib.h>

struct cli_progress;

/* Start the clock (and, for a log, the thread that writes the
 * still-in lines). */
struct cli_progress *cli_progress_new(void);

/* A stage starts: @stage its name, @detail NULL or more. */
void cli_progress_stage(struct cli_progress *p, const char *stage,
			const char *detail);

/* The last line: "[  99.0 s] done; TEXT". */
void cli_progress_done(struct cli_progress *p, const char *text);

/* Seconds since cli_progress_new(). */
double cli_progress_elapsed(const struct cli_progress *p);

/* Stops the thread; NULL is accepted. */
void cli_progress_free(struct cli_progress *p);
typedef struct cli_progress cli_progress;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(cli_progress, cli_progress_free)
