/* A store, a configuration and a MAINTAINERS for a unit test; see
 * scratch-bot.h. */
#include "tests/unit/scratch-bot.h"

#include <string.h>

#include "config/config.h"
#include "kernel/tree/maintainers.h"
#include "tests/unit/scratch-store.h"

void scratch_bot_init(struct scratch_bot *b, const char *tmpl,
		      const char *maintainers_text)
{
	g_autoptr(GError) error = NULL;

	b->st = scratch_store_new(tmpl, &b->dir, NULL);
	b->config = config_new_default();
	b->m = maintainers_parse(maintainers_text, strlen(maintainers_text),
				 NULL, NULL, &error);
	g_assert_no_error(error);
}

void scratch_bot_clear(struct scratch_bot *b)
{
	scratch_store_free(b->st, b->dir, NULL);
	config_free(b->config);
	maintainers_free(b->m);
}
