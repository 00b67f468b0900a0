/* The queue of checks armbot posts to patchwork instances
 * (bot/daemon/patchwork.h): one row per patch, tree and check, pending
 * until posted; a failed post is tried again later with a backoff, and
 * given up after a number of attempts.  The store part "pwchecks". */
#pragma once

#include <glib.h>

#include "bot/store/db.h"

extern const struct store_part store_part_pwchecks;

struct store_pwcheck {
	gint64 id;
	gint64 series_id;
	char *tree;
	char *list; /* the list whose [patchwork LIST] group posts it */
	char *message_id; /* the patch's, no angle brackets */
	char *context; /* "armbot-apply" */
	char *state; /* success, warning, fail, pending */
	char *target_url; /* may be NULL */
	char *description;
	char *status; /* pending, posted, failed */
	guint attempts;
	gint64 next_try;
	char *last_error;
};

void store_pwcheck_free(struct store_pwcheck *c);
typedef struct store_pwcheck store_pwcheck;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_pwcheck, store_pwcheck_free)

/* Queue @c (pending, due at @now), replacing the row of the same series,
 * tree, patch and context. */
gboolean store_pwcheck_queue(struct store *st, const struct store_pwcheck *c,
			     gint64 now, GError **error);

/* The pending rows due at @now, oldest first, at most @limit. */
GPtrArray *store_pwcheck_due(struct store *st, gint64 now, guint limit,
			     GError **error);

/* Every row of series @series_id (all lists and trees), by id. */
GPtrArray *store_pwcheck_of_series(struct store *st, gint64 series_id,
				   GError **error);

/* Row @id was posted at @now. */
gboolean store_pwcheck_posted(struct store *st, gint64 id, gint64 now,
			      GError **error);

/* Row @id failed with @why: try again at @next_try, or, when @give_up,
 * mark it failed. */
gboolean store_pwcheck_retry(struct store *st, gint64 id, const char *why,
			     gint64 next_try, gboolean give_up, GError **error);
