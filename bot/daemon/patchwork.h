/* Checks on a list's patchwork instance: after a series is checked, each
 * of its patches gets one patchwork check per armbot check that ran
 * (apply, sparse, build, boot, runtime-PM), through patchwork's REST API
 * 1.2 with the token of armbot's patchwork user:
 *
 *   GET  URL/api/1.2/patches/?msgid=MESSAGE-ID   the patch's id
 *   POST URL/api/1.2/patches/ID/checks/           {"state", "target_url",
 *                                                  "context",
 *                                                  "description"}
 *
 * with "Authorization: Token TOKEN", over libcurl with TLS verified
 * (the [patchwork LIST] ca-file, else the system's CAs).  States: ok is
 * success, WARN is warning, FAIL is fail; a skipped check is not posted.
 * Contexts are "armbot-CHECK": patchwork's context is a slug
 * ([-a-zA-Z0-9_]+), so "armbot/CHECK" would be refused with a 400.
 *
 * The worker queues the rows in the store (bot/store/pwchecks.h) when it
 * records the series; the outbox sender posts them after the replies, so
 * a patchwork that is down never holds a reply up.  A post that fails
 * (unreachable, 5xx, a patch patchwork has not seen yet) is tried again
 * with a backoff (60 s doubling, up to 6 h), given up after
 * PATCHWORK_MAX_ATTEMPTS; a refusal (401, 403, 400) is given up at once. */
#pragma once

#include <glib.h>

#include "bot/daemon/pipeline.h"
#include "bot/store/store.h"
#include "config/config.h"

#define PATCHWORK_MAX_ATTEMPTS 12

/* Queue the checks of @out (series @series_id on @out->tree_name) for
 * @out->list's patchwork instance, if @config has one (and is not
 * dry-run: then nothing is queued).  @target_url: the
 * series' page, or NULL.  *@queued counts the rows. */
gboolean patchwork_queue(const struct armbot_config *config, struct store *st,
			 const struct store_series *series,
			 const struct pipeline_outcome *out,
			 const char *target_url, guint *queued, GError **error);

/* Post the queued checks that are due now.  *@posted counts those posted.
 * FALSE with @error only for store errors. */
gboolean patchwork_post_due(const struct armbot_config *config,
			    struct store *st, guint *posted, GError **error);
