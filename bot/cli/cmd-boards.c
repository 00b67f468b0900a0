/* armbot boards: the board map (qemu/boards.conf) as a table, or, given
 * the paths a series touches (arguments, or one a line on standard input
 * with "-"), the boards they select, one "BOARD<TAB>REASON" line each. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/command.h"
#include "qemu/boards.h"

#define BOARDS_PATHS_MAX 100000

static void read_paths(GPtrArray *paths)
{
	char line[4096];

	while (paths->len < BOARDS_PATHS_MAX &&
	       fgets(line, sizeof(line), stdin)) {
		g_strstrip(line);
		if (*line)
			g_ptr_array_add(paths, g_strdup(line));
	}
}

int cmd_boards(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *map_file = NULL;
	GOptionEntry options[] = {
		{ "map", 0, 0, G_OPTION_ARG_FILENAME, &map_file,
		  "the board map (default: qemu/boards.conf)", "FILE" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = NULL;
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) chosen = NULL;

	if (!command_parse_options("boards", "[PATH...|-]",
				   "List the board map, or the boards the "
				   "paths a series touches select.",
				   options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	map = board_map_load(map_file, &error);
	if (!map) {
		fprintf(stderr, "armbot boards: %s\n", error->message);
		return 1;
	}
	if (argc < 2) {
		for (guint i = 0; i < map->boards->len; i++) {
			const struct board *b = map->boards->pdata[i];

			printf("%s\t%s\t%s\t%s\t%s\t%s%s%s\n", b->name, b->arch,
			       b->machine, b->dtb ? b->dtb : "-", b->console,
			       b->boots	      ? "boots" :
			       b->not_booting ? "no boot: " :
						"untried",
			       b->not_booting ? b->not_booting : "",
			       b->fallback ? "\tfallback" : "");
		}
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-"))
			read_paths(paths);
		else
			g_ptr_array_add(paths, g_strdup(argv[i]));
	}
	chosen = board_select(map, (const char *const *)paths->pdata,
			      paths->len);
	for (guint i = 0; i < chosen->len; i++) {
		const struct board_choice *c = chosen->pdata[i];

		printf("%s\t%s\n", c->board->name, c->reason);
	}
	return 0;
}
