/* command_store(), see bot/cli/command.h.  Apart from command.c because
 * the lean front program (bot/cli/front.c) links command.c and must not
 * link the store, which brings SQLite in. */
#include "bot/cli/command.h"

#include "bot/store/store.h"
#include "config/datadir.h"

/* The one way a command opens the data dir's store; see
 * bot/cli/command.h. */
char *command_store_path(struct armbot_context *ctx, GError **error)
{
	g_autofree char *dir =
		datadir_ensure(command_data_dir(ctx), NULL, error);

	return dir ? g_build_filename(dir, "store.sqlite", NULL) : NULL;
}

struct store *command_store(struct armbot_context *ctx, GError **error)
{
	g_autofree char *path = command_store_path(ctx, error);

	return path ? store_open(path, error) : NULL;
}
