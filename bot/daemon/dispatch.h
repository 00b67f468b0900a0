/* Which series get checked, on which tree: every series the assembler
 * marked ready gets one job per tree (ever), queued or, when policy says
 * no, recorded as ignored with the reason, so the decision is made once
 * and shown (`armbot status`, the web pages).
 *
 * Never checked: a series sent by the bot's own address, an RFC series
 * when the tree's policy says so.  Replies, pull requests, automatic mail
 * (Auto-Submitted, known bots) never form series in the first place
 * (mailparse/classify.c); superseded series are not ready. */
#pragma once

#include <glib.h>

#include "bot/store/store.h"
#include "config/config.h"

/* Queue the ready series of @st that have no job yet, each on the tree
 * bot/daemon/tree-pick.h chooses among the tree files and the trees opted in
 * by mail (bot/daemon/treeset.h), with the reason.  *@queued counts the jobs
 * queued (not the ignored ones). */
gboolean dispatch_ready_series(struct store *st,
			       const struct armbot_config *config,
			       const char *data_dir, guint *queued,
			       GError **error);
