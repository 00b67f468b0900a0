/* The weekly arch/arm balance of one list (bot/daemon/weekly.h): what its
 * series of one week did to arch/arm, read from the verdicts the pipeline
 * stored.  A part of the store without tables of its own; the SQL is in
 * bot/store/balance.c. */
#pragma once

#include <glib.h>

#include "bot/store/db.h"
#include "bot/store/web.h"

/* The seconds of a week, and the start of the week (Monday 00:00 UTC)
 * that holds @when: the Unix epoch was a Thursday, four days after a
 * Monday. */
#define STORE_BALANCE_WEEK 604800
gint64 store_balance_week_start(gint64 when);

/* One series posted that week. */
struct store_balance_series {
	gint64 id;
	char *subject, *author, *state;
	gint64 first_date;
	gboolean tested; /* a verdict is stored (it applied, in part at
			  * least, and its dirstat is known) */
	gboolean counted; /* tested and not superseded: in the sums */
	gint64 added, removed, net; /* arch/arm, when tested */
	char *similar; /* why it grows arch/arm, when tested: near-copies
			* and drivers in the wrong place, one per line
			* (kernel/similar/similar.h), or NULL */
};

struct store_balance {
	gint64 week; /* its start */
	guint posted, tested, counted;
	gint64 added, removed, net; /* of the counted series */
	GPtrArray *series; /* struct store_balance_series *, by date */
	GPtrArray *dirs; /* the mach-* and plat-* folders, summed over the
			  * counted series (struct store_web_dir *), by
			  * net, largest growth first */
};

void store_balance_free(struct store_balance *b);
typedef struct store_balance store_balance;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_balance, store_balance_free)

/* The week that starts at @week of the series whose messages came with
 * List-Id <@list_id> ("linux-arm-kernel.lists.infradead.org", any case).
 * At most 5000 series are read (a list posts a few hundred a week).  NULL
 * with @error on a store error. */
struct store_balance *store_balance_read(struct store *st, const char *list_id,
					 gint64 week, GError **error);
