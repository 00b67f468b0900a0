/* Which node compiles which job while a make runs through icecream: a
 * thread asks the scheduler for `listjobs` every ICECC_WATCH_INTERVAL_MS
 * and keeps, per job id, the node the job was given to.  A job given and
 * done between two looks is not seen, so the counts are a lower bound (a
 * kernel object compiles for a second or more); the jobs an icecc client
 * compiles itself without a node (the scheduler had none free) are not
 * listed at all. */
#pragma once

#include <glib.h>

#define ICECC_WATCH_INTERVAL_MS 250u

struct icecc_watch;

/* Start watching the scheduler @scheduler ("HOST[:PORT]"; NULL:
 * 127.0.0.1).  A scheduler that does not answer is asked again at the
 * next look. */
struct icecc_watch *icecc_watch_start(const char *scheduler);

/* Stop and free @w.  Returns the jobs each node was seen compiling
 * (struct icecc_node_jobs of kernel/build/icecc.h, most first), and sets
 * @here_s and @elsewhere_s to the compile-seconds seen on the node that
 * submitted the jobs and on the others: at each look, the jobs then
 * compiling times the time since the look before (so within one
 * interval of the truth per job; a job shorter than an interval may be
 * missed or counted whole). */
GPtrArray *icecc_watch_stop(struct icecc_watch *w, double *here_s,
			    double *elsewhere_s);
