/* command_config(), see bot/cli/command.h.  Apart from command.c because
 * the lean front program (bot/cli/front.c) links command.c and must not
 * link config/, which brings libgit2 in (config/treefile.c). */
#include "bot/cli/command.h"

#include "config/config.h"

/* The one way a command reads the configuration; see bot/cli/command.h. */
struct armbot_config *command_config(const char *file, GPtrArray *errors,
				     GError **error)
{
	g_autoptr(GError) local = NULL;
	struct armbot_config *config;
	guint before = errors ? errors->len : 0;

	/* config_load() stops at the first problem, config_check() lists
	 * them all */
	if (errors && !config_check(file, errors)) {
		g_set_error_literal(error, CONFIG_ERROR, CONFIG_ERROR_INVALID,
				    errors->len > before ?
					    errors->pdata[before] :
					    "invalid configuration");
		return NULL;
	}
	config = config_load(file, &local);
	if (!config) {
		if (errors)
			g_ptr_array_add(errors, g_strdup(local->message));
		g_propagate_error(error, g_steal_pointer(&local));
	}
	return config;
}
