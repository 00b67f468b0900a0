/* Keeping the trees current: one update of a tree (added when the data dir
 * does not have it yet, else its branches fetched; the distro tree
 * imported when Debian's package changed), its outcome recorded in the
 * store (bot/store/trees.h: last attempt, last success, error, head,
 * duration, objects and bytes), logged, and, when it succeeded, handed to
 * on_tree_updated() in bot/daemon/treeupdate.c: the one place where code that
 * follows a tree's history (an index of it) hears that the tree moved
 * from its old heads to its new ones.
 *
 * When, and why an update never meets a series: `armbot run` updates tree
 * T only in T's worker thread (bot/daemon/worker.c), between two of T's series,
 * once T's update-interval has passed since the last attempt (failed or
 * not; treeupdate_due_in()).  A series therefore applies to a tree that
 * does not move under it, the daemon never runs two fetches of T at once,
 * and a slow fetch of T holds up T's series only: every tree has its own
 * worker.  Across processes (`armbot tree update T` while the daemon
 * fetches T) the fetch lock of kernel/tree/tree.h allows one fetch at a time.
 * The commands `armbot tree add|update|import` go through the same
 * functions, so their fetches are recorded and reach the hook too. */
#pragma once

#include <gio/gio.h>
#include <glib.h>

#include "bot/store/store.h"
#include "config/treefile.h"
#include "kernel/tree/import.h"
#include "kernel/tree/tree.h"

/* The seconds between two progress lines of a fetch in the log. */
#define TREEUPDATE_LOG_INTERVAL 10

struct treeupdate_options {
	const char *data_dir;
	struct store *st; /* where attempts are recorded; NULL: nowhere */
	/* TRUE (the daemon): fetch progress every TREEUPDATE_LOG_INTERVAL s
	 * and the outcome as log lines (bot/common/log.h); FALSE (a command):
	 * progress on stderr when it is a terminal, the outcome is the
	 * caller's to print */
	gboolean log;
	/* stops a fetch; a cancelled fetch is not recorded (may be NULL) */
	GCancellable *cancellable;
};

/* Bring the tree of @tf (a tree file with a url) up to date now: add it
 * from @tf's url and branches when the data dir does not have it, else
 * fetch the branches it follows.  Returns the tree, or NULL with @error
 * when it could not be added or fetched (the branches it had are kept;
 * the failure is recorded, unless it was cancelled). */
struct tree *treeupdate_tree(const struct treeupdate_options *o,
			     const struct treefile *tf, GError **error);

/* `armbot tree add NAME URL --branch B...`: tree_add(), recorded when it
 * succeeds (a failed add leaves no tree behind, nothing to report on). */
struct tree *treeupdate_add(const struct treeupdate_options *o,
			    const char *name, const char *url,
			    const char *const *branches, GError **error);

/* `armbot tree update NAME`: tree_update() of an existing tree, recorded
 * (the distro tree: an import only when the installed package is newer;
 * nothing is recorded when there is none). */
struct tree *treeupdate_fetch(const struct treeupdate_options *o,
			      const char *name, GError **error);

/* The distro tree for a series: tree_open_default(), which imports it when
 * it is missing or the installed package changed; such an import is
 * recorded and reaches the hook. */
struct tree *treeupdate_distro(const struct treeupdate_options *o,
			       GError **error);

/* `armbot tree import`: tree_import_distro() of @tarball at @version
 * (NULL: the installed package's), recorded when it succeeds (a tarball
 * that cannot be read changes nothing). */
struct tree *treeupdate_import_distro(const struct treeupdate_options *o,
				      const char *tarball, const char *version,
				      struct tree_import_result *out,
				      GError **error);

/* In *@out, the seconds from @now (Unix time) until tree @tf is due for
 * its next update: 0 when due now (it was never tried, or its interval
 * passed since the last attempt began), -1 never (no url, or
 * update-interval 0). */
gboolean treeupdate_due_in(struct store *st, const struct treefile *tf,
			   gint64 now, gint64 *out, GError **error);

/* Record that a running daemon follows @tf (its url, branches and
 * interval, for the pages); a tree without a url (the distro tree) as
 * updated on demand only. */
gboolean treeupdate_follow(struct store *st, const struct treefile *tf,
			   GError **error);
