/* What a build directory's build read from the source: whether a change
 * to some paths of the tree can change what a warm build dir builds.
 *
 * kbuild records, for every target it built, the files it read: fixdep
 * writes each object's source and every header the compiler opened into
 * its `.NAME.cmd` (source_X := FILE, deps_X := FILE ...), as kbuild's own
 * incremental builds rely on.  Other reads are declared in Makefiles
 * only (a table a rule generates from, a file a rule copies), in the
 * directories kbuild descended into, which it creates in the build dir,
 * or under scripts/; Kconfig is read whole.  So a path is taken to be
 * read when any of these holds:
 *   - a `.cmd` file of the build dir names it (as @src_dir/PATH: in
 *     fixdep's lists or on a command line, as a rule's `cat` of a file
 *     of another directory);
 *   - its directory exists in the build dir (kbuild went there), unless
 *     it is a C, assembly or DTS source or header (.c .h .S .dts .dtsi:
 *     read only through commands fixdep records) and that directory's
 *     Makefile takes no $(wildcard ...) of files;
 *   - it is a Kconfig*, Makefile*, Kbuild* or *.mk file anywhere;
 *   - it is at the top of the tree, or under scripts/, include/, usr/,
 *     tools/, arch/ANY/include/ or arch/ANY/tools/.
 * What it errs on is building when nothing changes for the build, never
 * the reverse.
 *
 * The build dir must be one only trusted builds write (kernel/build/
 * kbuild.h: a series builds in its copy); symlinks in it are not
 * followed. */
#pragma once

#include <glib.h>

/* Whether the build in @build_dir of the tree at @src_dir (the path the
 * build saw it at) reads one of the @n tree-relative @paths.  TRUE for
 * the first that is read, with *@why (may be NULL) saying which and why,
 * newly allocated; FALSE when none is.  A build dir that cannot be read
 * whole counts as reading everything (TRUE, with the reason). */
gboolean builddeps_reads_any(const char *build_dir, const char *src_dir,
			     const char *const *paths, guint n, char **why);
