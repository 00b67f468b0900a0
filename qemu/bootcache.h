/* The boot of a tree's commit, kept by what it depends on (issue 24).
 *
 * The pipeline builds and boots a series' base before the series, to tell
 * a failure the series brings from one it inherits.  Every series on the
 * same base would build and boot that base again: the worktree was last
 * at the previous series' head, so kbuild recompiles the files that series
 * touched and links the kernel again, then the module, the initramfs and
 * the boot follow, about half of a warm reply's time.  The base's result
 * depends only on the commit, the config fragment, the suite module's and
 * init's sources, the board, where it boots and the compiler and emulator;
 * so a base that built and booted to a finished init is kept under the key
 * of those inputs and read back instead of booted again.  A failed or hung
 * base is never kept: it is tried again by the next series.
 *
 * The entries are files DIR/KEY.console (the console as booted) and
 * DIR/KEY.where (where it booted, for a LAVA run), written whole and
 * renamed into place; at most BOOTCACHE_MAX entries, the oldest go. */
#pragma once

#include <glib.h>

#include "kernel/build/arch.h"

#define BOOTCACHE_MAX 256

/* What a boot depends on.  Files are read; the tools are found in PATH
 * and known by their size and mtime (an upgrade of the package changes
 * them). */
struct bootcache_inputs {
	const char *commit_hex;
	const char *fragment; /* the config fragment file */
	const char *module_dir; /* the suite module's source dir */
	const char *init_src; /* init's source file */
	const struct kbuild_arch *arch; /* the compiler and emulator */
	/* the board's machine line ("name machine dtb console mem append"),
	 * NULL: virt */
	const char *board;
	/* where it boots: "local", or "lava URL" */
	const char *runner;
};

/* The key (64 hex digits) of @in, newly allocated; NULL with @error
 * when an input file cannot be read. */
char *bootcache_key(const struct bootcache_inputs *in, GError **error);

/* The console kept under @key in @dir (*@console_out, and in *@where_out
 * where it booted, or NULL).  FALSE without @error when there is none;
 * with @error when the entry cannot be read (too large, unreadable). */
gboolean bootcache_lookup(const char *dir, const char *key,
			  GString **console_out, char **where_out,
			  GError **error);

/* Keep @console (and @where, may be NULL) under @key in @dir (created),
 * dropping the oldest entries beyond BOOTCACHE_MAX. */
gboolean bootcache_store(const char *dir, const char *key, const char *console,
			 const char *where, GError **error);
