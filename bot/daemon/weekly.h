/* The weekly arch/arm balance of a list: each Monday, for the lists whose
 * [list ADDRESS] group says weekly = true, a mail to the list about the
 * week before, in the spirit of the dirstat of linux-next that the ARM
 * maintainer posted by hand in 2011 (../shared/background): the series
 * posted, the net arch/arm lines of those tested, the mach-* and plat-*
 * folders that grew and shrank most, and a line with a link per series.
 * The figures are the verdicts the pipeline stored, summed as /arch-arm
 * sums them (bot/store/balance.h). */
#pragma once

#include <glib.h>

#include "bot/store/balance.h"

struct armbot_config;
struct store;

/* The text of the balance @b of list @address; series pages are linked
 * under @base_url when it is not NULL.  Newly allocated. */
char *weekly_body(const struct store_balance *b, const char *address,
		  const char *base_url);

/* The whole mail of the balance of @address for the week that starts at
 * @week, From the bot, To the list, dated @now; its Message-ID
 * (armbot-weekly-<hash of list and week>@...) is the same however often
 * it is made, so the outbox takes it once.  *@posted (when not NULL) is
 * the number of series of that week.  NULL with @error. */
GBytes *weekly_mail(struct store *st, const struct armbot_config *c,
		    const char *address, gint64 week, gint64 now,
		    char **message_id, guint *posted, GError **error);

/* Queue the mail of weekly_mail() unless that week had no series; a dry
 * run ([bot] dry-run) holds it, as it holds replies.  *@added is FALSE
 * when it was queued before (or not at all). */
gboolean weekly_queue(struct store *st, const struct armbot_config *c,
		      const char *address, gint64 week, gint64 now,
		      gboolean *added, GError **error);

/* weekly_queue() the balance of the last whole week for every list that asked
 * for it and has not got it, from Monday 06:00 UTC on (the series of
 * Sunday night are tested by then); a week without a series is not
 * mailed.  *@queued counts the mails added. */
gboolean weekly_queue_due(struct store *st, const struct armbot_config *c,
			  gint64 now, guint *queued, GError **error);
