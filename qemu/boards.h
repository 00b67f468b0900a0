/* The board map (qemu/boards.conf): which QEMU machine, config, DTB and
 * console boot a kernel for the boards a series touches, and the paths
 * that select each board (issue 21).  Read with config/keyfile.c; every
 * complaint is "FILE:LINE: message". */
#pragma once

#include <glib.h>

#define BOARDS_CONF "qemu/boards.conf"

struct board {
	char *name; /* the group */
	char *arch; /* "arm" or "arm64" */
	char *machine; /* qemu -M */
	char *base; /* tinyconfig, allnoconfig or a defconfig */
	char **fragment; /* config lines or a fragment file; may be NULL */
	char *dtb; /* NULL: none (virt) */
	char *console;
	guint mem_mb; /* qemu -m; 0: the boot's default (256) */
	char *append; /* more kernel command line words; may be NULL */
	char **paths; /* globs: '*' stops at '/', "dir/" takes all under it */
	gboolean fallback;
	/* "boots = yes": a kernel of the distro tree built with this config
	 * boots to the initramfs here (armbot boot --board); otherwise
	 * "boots = no: WHY" and @not_booting is WHY; neither: not tried */
	gboolean boots;
	char *not_booting;
};

struct board_map {
	GPtrArray *boards; /* struct board *, in file order */
};

/* Parse @data (from @origin).  NULL with @errors ("FILE:LINE: message",
 * a new array) when an entry is wrong; never crashes on bad input. */
struct board_map *board_map_parse(const char *origin, const char *data,
				  gsize len, GPtrArray **errors);

/* Read @path (NULL: BOARDS_CONF in datadir_source_dir()); NULL with
 * @error. */
struct board_map *board_map_load(const char *path, GError **error);

void board_map_free(struct board_map *map);
typedef struct board_map board_map;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(board_map, board_map_free)

const struct board *board_map_find(const struct board_map *map,
				   const char *name);

/* Whether @path matches the board glob @glob. */
gboolean board_glob_match(const char *glob, const char *path);

/* A board chosen for a series and why. */
struct board_choice {
	const struct board *board; /* borrowed from the map */
	char *reason; /* "touches arch/arm/boot/dts/sun8i-h3-*.dts → orangepi-pc" */
};

/* The boards of a series touching @paths (@n of them): every non-fallback
 * board one of whose globs matches a path; for each arch with no such
 * board, its fallback board when a path matches the fallback's globs; and
 * when nothing is chosen at all, the arm fallback ("virt").  A new array
 * of struct board_choice * in map order. */
GPtrArray *board_select(const struct board_map *map, const char *const *paths,
			guint n);

/* Whether @path selects @b in another way than its globs: NULL, or why
 * (newly allocated, the reason's part between parentheses). */
typedef char *(*board_match_func)(const struct board *b, const char *path,
				  gpointer data);

/* board_select(), where a board none of whose globs matches is also
 * chosen when @match (may be NULL) says a path selects it
 * (qemu/boardderive.h: the paths derived from the tree). */
GPtrArray *board_select_with(const struct board_map *map,
			     const char *const *paths, guint n,
			     board_match_func match, gpointer data);
