/* Which series get checked, on which tree (see bot/daemon/dispatch.h). */
#include "bot/daemon/dispatch.h"

#include <string.h>

#include "bot/store/pipeline.h"
#include "bot/daemon/treeset.h"
#include "bot/daemon/tree-pick.h"
#include "config/treefile.h"
#include "mailparse/message.h"

/* Why series @s must not be checked on a tree with @policy, or NULL. */
static const char *ignore_reason(const struct armbot_config *config,
				 const struct config_policy *policy,
				 const struct store_series *s)
{
	g_autofree char *from = message_angle_text(s->author);

	if (config->address && !g_ascii_strcasecmp(from, config->address))
		return "sent by the bot itself";
	if (s->rfc && !policy->rfc)
		return "RFC series are not tested on this tree";
	if (!(policy->checks & CONFIG_CHECK_APPLY))
		return "this tree runs no checks";
	return NULL;
}

gboolean dispatch_ready_series(struct store *st,
			       const struct armbot_config *config,
			       const char *data_dir, guint *queued,
			       GError **error)
{
	g_autoptr(GArray) ids = store_series_ids_in_state(st, "ready", error);
	g_autoptr(treeset) ts = NULL;

	*queued = 0;
	if (!ids)
		return FALSE;
	if (!ids->len)
		return TRUE;
	/* the tree files and the trees opted in by mail, as they are now */
	ts = treeset_load(config, st, NULL, error);
	if (!ts)
		return FALSE;
	for (guint i = 0; i < ids->len; i++) {
		gint64 id = g_array_index(ids, gint64, i);
		g_autoptr(store_series) s = store_get_series(st, id, error);
		struct tree_pick_result pick = { 0 };
		const char *ignore;
		gboolean added, ok;

		if (!s ||
		    !treeset_pick_series(ts, st, s, data_dir, &pick, error))
			return FALSE;
		ignore = ignore_reason(config, &pick.tree->policy, s);
		ok = store_job_add(st, id, pick.tree->name, pick.reason, ignore,
				   &added, error);
		tree_pick_result_clear(&pick);
		if (!ok)
			return FALSE;
		if (added && !ignore)
			(*queued)++;
		else if (added &&
			 !store_series_set_state(st, id, "ignored", error))
			return FALSE;
	}
	return TRUE;
}
