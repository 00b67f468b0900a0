/* The sandbox's cgroups: a fresh cgroup per run that bounds its processes
 * (pids.max) and its memory (memory.max, or v1's memory.limit_in_bytes),
 * and through which every process left after the run is killed.  Both
 * cgroup v2 and the v1 hierarchies (one per controller) are handled: a
 * controller is used where this process may create a child cgroup that
 * has the controller's limit file, which is what root on a v1 host
 * gives, or on v2 a cgroup armbot owns with the controllers enabled for
 * its children: since a v2 cgroup with processes cannot pass controllers
 * on, armbot then runs in a leaf of it and the runs' cgroups are made
 * beside that leaf. */
#pragma once

#include <glib.h>

/* Where per-run cgroups can be made: the directory of this process's own
 * cgroup in the controller's hierarchy (on v2, else its parent), when a
 * child made there has the controller's files.  NULL: that controller
 * cannot be used here. */
struct sandbox_cgroup_roots {
	char *pids;
	char *memory;
	gboolean memory_v2; /* memory.max (v2) or memory.limit_in_bytes */
};

/* Probe this process's cgroups (/proc/self/cgroup, /proc/self/mountinfo)
 * into @out; never fails, a controller it cannot use is left NULL. */
void sandbox_cgroup_roots_find(struct sandbox_cgroup_roots *out);
void sandbox_cgroup_roots_clear(struct sandbox_cgroup_roots *roots);

/* The cgroups of one run (one, or two on v1 where pids and memory are
 * separate hierarchies). */
struct sandbox_cgroup {
	char *dirs[2];
	char *procs[2]; /* their cgroup.procs, for the child to join */
	gboolean memory_v2;
	int memory_index; /* which of dirs holds the memory limit; -1 */
	int pids_index; /* which holds pids.max; -1 */
};

/* Make the cgroups of one run under @roots: at most @max_procs processes
 * (when @roots->pids) and @max_memory bytes (when @roots->memory and
 * @max_memory is not 0).  FALSE with @error when a cgroup that @roots
 * promises cannot be made or limited (nothing is left behind). */
gboolean sandbox_cgroup_make(const struct sandbox_cgroup_roots *roots,
			     guint max_procs, guint64 max_memory,
			     struct sandbox_cgroup *out, GError **error);

/* What a run's cgroups counted. */
struct sandbox_cgroup_events {
	guint64 forks_refused; /* pids.events "max" */
	guint64 oom_kills; /* processes killed at the memory limit */
};

/* Kill every process still in @cg, read its counters into @out (may be
 * NULL) and remove it. */
void sandbox_cgroup_destroy(struct sandbox_cgroup *cg,
			    struct sandbox_cgroup_events *out);
