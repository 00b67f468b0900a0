/* What of a build's log a reply may quote on a public list.  A build runs
 * the series' Makefiles, and anything they print ($(info), $(error),
 * echo in a recipe) lands in the log: quoting its last lines would post
 * whatever a hostile series made its build print.  So a reply quotes only
 * lines whose shape the compiler or make gives them, and only about the
 * series' own files:
 *
 * - compiler (gcc, sparse) diagnostics "FILE:LINE[:COL]: error|warning|
 *   note|fatal error: ..." and sparse's "FILE:LINE:COL:    ..." lines
 *   under them, for FILE among the series' files (or armbot's external
 *   module, in the build dir's armbot-ext/), with gcc's context for
 *   them: "FILE: In function 'f':", "In file included from FILE:LINE",
 *   and the quoted source lines ("  12 | ...", "     | ^~~");
 * - make's own "make[N]: *** [MAKEFILE:LINE: TARGET] Error N" when TARGET
 *   is one of the series' files, their objects, a directory on the way to
 *   them or one of kbuild's own goals;
 * - "FILE:LINE: *** ...  Stop." of a $(error) in one of the series'
 *   Makefiles, with its message left out;
 * - the compiler killed ("gcc: fatal error: Killed signal terminated
 *   program cc1") and the sandbox's "[sandbox: ... limit ...]" lines.
 *
 * Paths of armbot's machine (the worktree, the build dir) are written
 * relative to the kernel tree. */
#pragma once

#include <glib.h>

/* The lines of @log a reply may quote, each ending in a newline, at most
 * @max_lines of them (the first diagnostics, then make's last error
 * lines); "" when there is none.  @files: the paths, relative to the
 * kernel tree, of the series' files (changed, added, removed, renamed;
 * for sparse also the files built because they include a changed
 * header).  @src_dir and @build_dir (may be NULL): absolute prefixes to
 * remove.  Newly allocated. */
char *buildlog_excerpt(const char *log, const GPtrArray *files,
		       const char *src_dir, const char *build_dir,
		       guint max_lines);
