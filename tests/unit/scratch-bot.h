/* What a unit test of the bot's mail handling (bot/control/) works on: a
 * store of its own (scratch-store.h), the default configuration and a
 * MAINTAINERS parsed from the test's text; all of it freed again.  The
 * helpers assert instead of returning an error. */
#pragma once

#include <glib.h>

struct store;
struct armbot_config;
struct maintainers;

struct scratch_bot {
	char *dir;
	struct store *st;
	struct armbot_config *config;
	struct maintainers *m;
};

/* Fill @b: a store in a new directory made from @tmpl (a basename with
 * "XXXXXX" in it), config_new_default(), and @maintainers_text parsed
 * (it must parse). */
void scratch_bot_init(struct scratch_bot *b, const char *tmpl,
		      const char *maintainers_text);

/* Free what scratch_bot_init() made, the directory removed. */
void scratch_bot_clear(struct scratch_bot *b);
