/* Remote boots in the store (bot/store/boot.c): the LAVA job a boot was
 * submitted as (qemu/runner.h), under the boot's key ("TREE:COMMIT"), so
 * that an armbot restarted while the job runs follows it instead of
 * submitting it again. */
#pragma once

#include <glib.h>

#include "bot/store/db.h"

/* The part's tables, listed in bot/store/store.c. */
extern const struct store_part store_part_boot;

/* The job of @key: its id (0: none) and server in *@server. */
gboolean store_boot_job_get(struct store *st, const char *key, char **server,
			    guint64 *id, GError **error);

/* Remember (or with @id 0 forget) the job of @key. */
gboolean store_boot_job_set(struct store *st, const char *key,
			    const char *server, guint64 id, GError **error);
