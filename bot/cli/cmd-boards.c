/* armbot boards: the board map (qemu/boards.conf) as a table, or, given
 * the paths a series touches (arguments, or one a line on standard input
 * with "-"), the boards they select, one "BOARD<TAB>REASON" line each.
 * With -C REPO, the paths the tree at --rev derives for each board
 * (qemu/boardderive.h) select too; --derived lists them. */
#include <stdio.h>
#include <string.h>

#include "bot/cli/cmdline.h"
#include "bot/cli/command.h"
#include "qemu/boardderive.h"
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

static gint path_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Each board's derived paths, "BOARD<TAB>PATH<TAB>WHY" a line: its
 * device tree's files, the SoC-own compatibles, the drivers of those. */
static void print_derived(struct boardderive *d)
{
	g_autoptr(GPtrArray) drivers = boardderive_drivers(d);

	for (guint i = 0; i < d->boards->len; i++) {
		const struct boardderive_board *db = d->boards->pdata[i];
		g_autoptr(GPtrArray) keys = g_ptr_array_new();
		GPtrArray *drv = drivers->pdata[i];
		GHashTableIter it;
		gpointer key;

		g_hash_table_iter_init(&it, db->files);
		while (g_hash_table_iter_next(&it, &key, NULL))
			g_ptr_array_add(keys, key);
		g_ptr_array_sort(keys, path_cmp);
		for (guint j = 0; j < keys->len; j++) {
			g_autofree char *why =
				boardderive_match(d, db->board, keys->pdata[j]);

			printf("%s\t%s\t%s\n", db->board->name,
			       (char *)keys->pdata[j], why);
		}
		g_hash_table_iter_init(&it, db->machs);
		while (g_hash_table_iter_next(&it, &key, NULL)) {
			g_autofree char *why =
				boardderive_match(d, db->board, key);

			printf("%s\t%s\t%s\n", db->board->name, (char *)key,
			       why);
		}
		for (guint j = 0; j < drv->len; j++) {
			g_autofree char *why =
				boardderive_match(d, db->board, drv->pdata[j]);

			printf("%s\t%s\t%s\n", db->board->name,
			       (char *)drv->pdata[j], why);
		}
		fprintf(stderr,
			"%s: %u device-tree files, %u SoC-own compatibles, "
			"%u drivers, %u platform folders\n",
			db->board->name, g_hash_table_size(db->files),
			g_hash_table_size(db->compatibles), drv->len,
			g_hash_table_size(db->machs));
	}
}

int cmd_boards(struct armbot_context *ctx, int argc, char **argv)
{
	g_autofree char *map_file = NULL;
	g_autofree char *rev = NULL;
	gboolean derived = FALSE, no_cache = FALSE, stats_wanted = FALSE;
	GOptionEntry options[] = {
		{ "map", 0, 0, G_OPTION_ARG_FILENAME, &map_file,
		  "the board map (default: qemu/boards.conf)", "FILE" },
		{ "rev", 0, 0, G_OPTION_ARG_STRING, &rev,
		  "with -C REPO: the tree whose device trees and drivers "
		  "select boards too (default HEAD)",
		  "REV" },
		{ "derived", 0, 0, G_OPTION_ARG_NONE, &derived,
		  "with -C REPO: list the paths the tree derives for each "
		  "board (BOARD, PATH, why)",
		  NULL },
		COMMAND_OPTION_NO_CACHE(no_cache, "derive"),
		COMMAND_OPTION_STATS(stats_wanted, "the derivation's time"),
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(board_map) map = NULL;
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) chosen = NULL;
	g_autoptr(gitrepo) repo = NULL;
	g_autoptr(boardderive) d = NULL;
	const char *repo_path = cmdline_repo();

	if (!command_parse_options(
		    "boards", "[PATH...|-]",
		    "List the board map, or the boards the paths a series "
		    "touches select.  With -C REPO, the .dts of each board's "
		    "DTB at --rev with the files it includes, the drivers "
		    "of its SoC's own compatibles and the mach-*/plat-* "
		    "folder of its config select it too (cached under "
		    "$ARMBOT_CACHE_DIR/boards).",
		    options, &argc, &argv))
		return COMMAND_USAGE_ERROR;
	map = board_map_load(map_file, &error);
	if (!map) {
		fprintf(stderr, "armbot boards: %s\n", error->message);
		return 1;
	}
	if ((rev || derived) && !repo_path) {
		fprintf(stderr, "armbot boards: --rev and --derived need "
				"-C REPO\n");
		return COMMAND_USAGE_ERROR;
	}
	if (repo_path) {
		g_autofree char *dir = no_cache ? NULL :
						  command_cache_dir("boards");
		struct boardderive_stats st;
		struct gitoid commit;

		repo = command_repo_rev(repo_path, rev, &commit, &error);
		if (!repo) {
			fprintf(stderr, "armbot boards: %s\n", error->message);
			return 1;
		}
		d = boardderive_new(repo, &commit, map, dir, &st, &error);
		if (!d) {
			fprintf(stderr, "armbot boards: %s\n", error->message);
			return 1;
		}
		if (stats_wanted)
			fprintf(stderr,
				"derivation: %s, %u .dts read, %u files "
				"parsed, %.3f s\n",
				st.from_cache ? "read from the cache" :
						"computed",
				st.dts_read, st.files_parsed, st.seconds);
		if (derived) {
			gint64 t0 = g_get_monotonic_time();

			print_derived(d);
			if (stats_wanted)
				fprintf(stderr, "drivers: %.3f s\n",
					(g_get_monotonic_time() - t0) / 1e6);
			return 0;
		}
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
	chosen = d ? boardderive_select(d, map,
					(const char *const *)paths->pdata,
					paths->len) :
		     board_select(map, (const char *const *)paths->pdata,
				  paths->len);
	for (guint i = 0; i < chosen->len; i++) {
		const struct board_choice *c = chosen->pdata[i];

		printf("%s\t%s\n", c->board->name, c->reason);
	}
	return 0;
}
