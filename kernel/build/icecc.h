/* icecream (icecc): compiles spread over a cluster.  kbuild runs in the
 * sandbox without network; icecc, as ccache's prefix (CCACHE_PREFIX),
 * hands each compile to the local iceccd over its Unix socket, which the
 * sandbox shows at ICECC_SANDBOX_SOCKET, and iceccd asks the scheduler
 * which node compiles it.  The remote nodes get the cross compiler as a
 * tarball made by icecc-create-env (ICECC_VERSION), made once per
 * compiler version and kept in the cache dir.
 *
 * What the scheduler says about its cluster comes from its text
 * interface (port + 1): `listcs`. */
#pragma once

#include <glib.h>

/* Where icecc looks for the daemon's socket (icecc 1.4, the first of its
 * defaults): the host's socket is bound here in the sandbox. */
#define ICECC_SANDBOX_SOCKET "/var/run/icecc/iceccd.socket"

/* The scheduler's port (icecc's default); its text interface is +1. */
#define ICECC_SCHEDULER_PORT 8765u

/* At most this many make jobs, whatever the cluster offers. */
#define ICECC_MAX_JOBS 64u

/* Where a check's builds compile through icecream (a tree file's
 * build-distribute = icecream): the host's iceccd socket (NULL: every
 * build is local), the scheduler ("HOST[:PORT]", NULL: 127.0.0.1) and the
 * network namespace a series' make compiles in, fenced to the nodes
 * (kernel/build/icecc-netns.h; NULL: a series builds locally). */
struct icecc_use {
	const char *socket;
	const char *scheduler;
	const char *series_netns;
};

/* One node of `listcs`: " NAME (IP:PORT) [ARCH] speed=S jobs=U/N load=L". */
struct icecc_node {
	char *name;
	char *address; /* "IP:PORT" */
	guint jobs_used;
	guint jobs_max; /* its job slots */
	guint load; /* 0..1000 */
};

struct icecc_cluster {
	guint hosts;
	guint queued;
	guint64 total_jobs; /* every job the scheduler handed out */
	GPtrArray *nodes; /* struct icecc_node */
};

/* Parse the answer to `listcs`.  FALSE when there is no status line.  At
 * most 4096 nodes are kept. */
gboolean icecc_listcs_parse(const char *text, struct icecc_cluster *out);

/* Ask the scheduler @scheduler ("HOST[:PORT]", the port of the scheduler
 * itself; NULL: 127.0.0.1) for `listcs` through its text interface on
 * PORT + 1, with a few seconds' timeout.  FALSE with @error when it
 * cannot be reached or does not answer as a scheduler. */
gboolean icecc_listcs(const char *scheduler, struct icecc_cluster *out,
		      GError **error);

/* At most this many jobs are told apart by icecc_listjobs_parse(). */
#define ICECC_MAX_JOBS_SEEN 100000u

/* The jobs of one answer to `listjobs` that were compiling (state COMP)
 * at that moment: on the node that submitted them, or on another. */
struct icecc_jobs_now {
	guint here;
	guint elsewhere;
};

/* Parse the answer to `listjobs` (" ID STATE sub:NODE on:NODE FILE" a
 * line) into @on, the job id (GUINT_TO_POINTER) -> the node compiling it
 * (a newly allocated name, at most 64 bytes; @on frees its values): the
 * jobs given to a node so far, at most ICECC_MAX_JOBS_SEEN.  @now (may
 * be NULL) is set to the jobs compiling in this answer.  Returns how many
 * lines named a node. */
guint icecc_listjobs_parse(const char *text, GHashTable *on,
			   struct icecc_jobs_now *now);

/* Ask the scheduler for `listjobs` (see icecc_listcs()) and add what it
 * says to @on and @now (icecc_listjobs_parse()). */
gboolean icecc_listjobs(const char *scheduler, GHashTable *on,
			struct icecc_jobs_now *now, GError **error);

/* The sum of the nodes' job slots. */
guint icecc_cluster_slots(const struct icecc_cluster *cl);

void icecc_cluster_clear(struct icecc_cluster *cl);

/* The compiler tarball for @compiler (a program in PATH or a path) under
 * @cache_dir/icecc/, made with icecc-create-env when there is none for
 * this compiler's version yet.  Newly allocated path; NULL with @error
 * when it cannot be made. */
char *icecc_env_tarball(const char *cache_dir, const char *compiler,
			GError **error);

/* The file where the last build through icecream of tree @tree records
 * what it took: @cache_dir/icecc/last-build-@tree.  Newly allocated. */
char *icecc_last_build_path(const char *cache_dir, const char *tree);

/* Jobs one node compiled. */
struct icecc_node_jobs {
	char *name;
	guint64 jobs;
};

void icecc_node_jobs_free(struct icecc_node_jobs *nj);

/* What the last build recorded. */
struct icecc_last_build {
	gint64 when; /* unix time */
	double seconds; /* wall time of the make */
	guint jobs; /* make's -j */
	guint local_jobs; /* what -j would have been without the cluster */
	guint64 cluster_jobs; /* jobs the scheduler handed out meanwhile */
	/* struct icecc_node_jobs: the jobs each node was seen compiling
	 * (`listjobs` asked while the make ran, icecc-watch.h), most first;
	 * NULL or empty when none was seen.  At most 256 nodes. */
	GPtrArray *nodes;
	/* compile-seconds seen (icecc-watch.h): on the node that submitted
	 * the jobs (this machine's iceccd), and on the others; both 0 in a
	 * record written before they were kept */
	double here_seconds;
	double elsewhere_seconds;
};

void icecc_last_build_clear(struct icecc_last_build *lb);

gboolean icecc_last_build_write(const char *path,
				const struct icecc_last_build *lb,
				GError **error);
gboolean icecc_last_build_read(const char *path, struct icecc_last_build *lb,
			       GError **error);

/* How much faster @lb's make was than the same make on this machine
 * alone, estimated from what was seen: the compile-seconds the other
 * nodes did would have run here on -j(local_jobs) slots, adding
 * elsewhere_seconds / local_jobs to the wall time.  1.0 when no node but
 * this one compiled; 0 when the record cannot say (no wall time). */
double icecc_last_build_speedup(const struct icecc_last_build *lb);
