/* Which series get checked, on which tree (see bot/dispatch.h). */
#include "bot/dispatch.h"

#include <string.h>

#include "bot/store-pipeline.h"
#include "config/treefile.h"
#include "kernel/tree.h"

void dispatch_pick_tree(const struct armbot_config *config,
			const struct store_series *s, char **tree,
			char **reason)
{
	(void)config;
	(void)s;
	*tree = g_strdup(TREE_DISTRO_NAME);
	*reason = g_strdup("the distro tree (default)");
}

/* The address in "Name <address>", or the whole text. */
static char *author_address(const char *author)
{
	const char *lt = strrchr(author, '<');
	const char *gt = lt ? strchr(lt, '>') : NULL;

	if (lt && gt)
		return g_ascii_strdown(lt + 1, gt - lt - 1);
	return g_ascii_strdown(author, -1);
}

/* Why series @s must not be checked on a tree with @policy, or NULL. */
static const char *ignore_reason(const struct armbot_config *config,
				 const struct config_policy *policy,
				 const struct store_series *s)
{
	g_autofree char *from = author_address(s->author);

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
			       guint *queued, GError **error)
{
	g_autoptr(GArray) ids = store_series_ids_in_state(st, "ready", error);

	*queued = 0;
	if (!ids)
		return FALSE;
	for (guint i = 0; i < ids->len; i++) {
		gint64 id = g_array_index(ids, gint64, i);
		g_autoptr(store_series) s = store_get_series(st, id, error);
		g_autofree char *tree = NULL;
		g_autofree char *why = NULL;
		const struct treefile *tf;
		const struct config_policy *policy;
		const char *ignore;
		gboolean added;

		if (!s)
			return FALSE;
		dispatch_pick_tree(config, s, &tree, &why);
		tf = config_tree(config, tree);
		policy = tf ? &tf->policy : &config->defaults;
		ignore = ignore_reason(config, policy, s);
		if (!store_job_add(st, id, tree, why, ignore, &added, error))
			return FALSE;
		if (added && !ignore)
			(*queued)++;
		else if (added &&
			 !store_series_set_state(st, id, "ignored", error))
			return FALSE;
	}
	return TRUE;
}
