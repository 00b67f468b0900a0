/* Fetching with libgit2 behind the git layer: an anonymous remote for a
 * URL, one fetch with progress and cancellation, the remote's default
 * branch.  The handles are libgit2's, opaque here (kernel/git/lg2repo.h);
 * failures leave their reason in lg2repo_last_error(). */
#pragma once

#include <glib.h>

struct git_repository;
struct git_remote;

/* How far a fetch is (libgit2's git_indexer_progress). */
struct lg2fetch_stats {
	guint total_objects; /* objects the remote sends (0: none needed) */
	guint received_objects;
	guint indexed_objects;
	guint total_deltas; /* of those, deltas to resolve */
	guint indexed_deltas;
	guint64 received_bytes;
	gboolean done; /* every object received and indexed */
};

/* Called every few objects; FALSE aborts the fetch. */
typedef gboolean (*lg2fetch_transfer_fn)(const struct lg2fetch_stats *stats,
					 gpointer data);
/* Called on each of the remote's progress messages; FALSE aborts. */
typedef gboolean (*lg2fetch_sideband_fn)(gpointer data);

/* An anonymous remote of @repo for @url, used as written (url.*.insteadOf
 * skipped); NULL on failure.  Free with lg2fetch_remote_free(). */
struct git_remote *lg2fetch_remote_new(struct git_repository *repo,
				       const char *url);
void lg2fetch_remote_free(struct git_remote *remote);
typedef struct git_remote lg2remote;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(lg2remote, lg2fetch_remote_free)

/* Fetch the @n @refspecs (tags followed as git's default does), with
 * @message in the reflogs; @transfer and @sideband may be NULL.  FALSE
 * when the fetch failed or a callback aborted it. */
gboolean lg2fetch_run(struct git_remote *remote, char **refspecs, guint n,
		      lg2fetch_transfer_fn transfer,
		      lg2fetch_sideband_fn sideband, gpointer data,
		      const char *message);

/* The totals of the last lg2fetch_run(). */
void lg2fetch_stats(struct git_remote *remote, struct lg2fetch_stats *out);

/* The full name of the remote's default branch after a fetch, newly
 * allocated; NULL when it has none. */
char *lg2fetch_default_branch(struct git_remote *remote);
