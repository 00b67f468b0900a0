/* The paths of a kernel tree that select a board of the map, derived from
 * the tree itself (issue 21), in addition to the map's hand-written
 * globs (qemu/boards.h):
 *
 * - the board's device tree: its DTB's .dts and every .dtsi, .dts and .h
 *   it includes, directly or not (cpp's #include "X" and <X>, dtc's
 *   /include/ "X"), searched as the kernel's dtc_cpp_flags and dtc -i do:
 *   "X" in the including file's folder, then scripts/dtc/include-prefixes
 *   (whose symlinks lead to arch/ARCH/boot/dts and include/dt-bindings);
 *   <X> only there.  A series touching imx6ul.dtsi selects mcimx6ul-evk;
 *   one touching a sibling board's .dts does not.  An included file that
 *   boards of unrelated vendors include as well (dt-bindings/gpio/gpio.h,
 *   skeleton.dtsi) selects no board: the same vendor rule as below, on
 *   the .dts of the tree whose device tree holds the file.
 * - the drivers of the board's own hardware: a touched .c file whose
 *   of_device_id table (.compatible = "X") or *_DECLARE(name, "X", ...)
 *   names a compatible X of the board's device tree, when X is the SoC
 *   family's own.  The rule: X has a vendor prefix ("fsl,", not
 *   "simple-bus" or "fixed-clock"), and every .dts of the tree (arm and
 *   arm64) whose device tree uses X names that vendor in its root
 *   compatibles ("fsl,imx6q-sabrelite", "fsl,imx6q").
 *   "fsl,imx6q-uart" is used by i.MX boards only, all "fsl,imx..." at
 *   the root, so drivers/tty/serial/imx.c selects sabrelite and
 *   mcimx6ul-evk; "arm,pl011", "snps,dw-apb-uart" or "arm,cortex-a9-gic"
 *   are used by boards of vendors with nothing in common (ARM's own,
 *   Raspberry Pi, HiSilicon...) and select no board.  A board's panel or
 *   PMIC from another vendor ("hannstar,hsd100pxn1") selects nothing
 *   either: drivers/gpu/drm/panel/panel-simple.c is no i.MX driver.
 * - the platform code: arch/ARCH/mach-X/ or plat-X/ when its Kconfig
 *   defines a symbol the board's fragment enables (CONFIG_ARCH_MXC=y:
 *   arch/arm/mach-imx/).
 *
 * The device-tree part is computed once per (commit, boards and DTBs of
 * the map) and cached in CACHE_DIR as a small text file; the drivers are
 * read only for the paths a series touches.  The tree is untrusted: file
 * sizes, include counts and closures are bounded, include cycles and
 * missing files are skipped, symlinks are followed a few hops only. */
#pragma once

#include <glib.h>

#include "kernel/git/repo.h"
#include "qemu/boards.h"

/* What the tree says of one board of the map. */
struct boardderive_board {
	const struct board *board; /* borrowed from the map */
	char *dts; /* its DTB's .dts in the tree; NULL: no DTB or none */
	GHashTable *files; /* closure path -> the file including it ("" for
			    * the .dts itself) */
	GHashTable *compatibles; /* SoC-own compatible -> the closure file
				  * that names it */
	GHashTable *machs; /* "arch/arm/mach-imx/" -> the symbol its Kconfig
			    * defines that the board's config enables
			    * (ARCH_MXC) */
};

struct boardderive_stats {
	gboolean from_cache;
	guint dts_read; /* .dts of the whole tree read for the vendor rule */
	guint files_parsed;
	double seconds;
};

struct boardderive {
	struct gitrepo *repo; /* borrowed: outlives the derivation */
	struct gitoid tree; /* the commit's root tree */
	GPtrArray *boards; /* struct boardderive_board *, map order */
	GHashTable *dirs; /* folder ("" or "a/b/") -> its entries */
	GHashTable *drivers; /* path -> GPtrArray of its compatibles, read
			      * on demand */
	guint entries; /* folder entries read, bounded */
};

/* The derivation for @map at @commit of @repo, read from or written to
 * @cache_dir (NULL: no cache).  @stats may be NULL. */
struct boardderive *
boardderive_new(struct gitrepo *repo, const struct gitoid *commit,
		const struct board_map *map, const char *cache_dir,
		struct boardderive_stats *stats, GError **error);
void boardderive_free(struct boardderive *d);
typedef struct boardderive boardderive;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(boardderive, boardderive_free)

/* The boards the paths @paths select: board_select()'s globs, and the
 * derived paths, their reason "touches PATH (in X.dtb, included by
 * Y.dtsi) → B", "touches PATH (driver of COMPAT in X.dtb) → B" or
 * "touches PATH (the board's config enables SYM of DIR/Kconfig) → B".
 * A .c path is read at the derivation's commit (a file the series adds
 * selects nothing by its drivers). */
GPtrArray *boardderive_select(struct boardderive *d,
			      const struct board_map *map,
			      const char *const *paths, guint n);

/* The reason @path selects @board by the derivation (the part between
 * parentheses), or NULL.  Newly allocated. */
char *boardderive_match(struct boardderive *d, const struct board *board,
			const char *path);

/* The driver files of each board (an array per board, parallel to
 * @d->boards, of sorted paths): every .c file under drivers/, sound/,
 * arch/arm/ and arch/arm64/ (not boot/dts) whose compatibles select it.
 * It reads all of them (seconds): for `armbot boards --derived`. */
GPtrArray *boardderive_drivers(struct boardderive *d);
