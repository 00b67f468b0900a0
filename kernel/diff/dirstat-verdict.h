/* The verdict that opens every armbot reply: does a series shrink or grow
 * a directory (arch/arm by default), and which mach-* and plat-*
 * directories under it does it touch?  Computed from line figures, so the
 * same code serves applied commits and patches as mailed. */
#pragma once

#include <glib.h>

#define DIRSTAT_VERDICT_DEFAULT_PATH "arch/arm"

enum dirstat_verdict_kind {
	DIRSTAT_VERDICT_UNTOUCHED,
	DIRSTAT_VERDICT_SHRINKS,
	DIRSTAT_VERDICT_GROWS,
	DIRSTAT_VERDICT_BALANCED,
};

/* A mach-* or plat-* directory directly under the path. */
struct dirstat_verdict_dir {
	char *path; /* "arch/arm/mach-omap2/" */
	guint64 added, deleted;
	gint64 net;
};

struct dirstat_verdict {
	char *path; /* without trailing slash */
	enum dirstat_verdict_kind kind;
	guint files; /* file pairs under the path */
	guint64 added, deleted;
	gint64 net;
	GPtrArray *dirs; /* dirstat_verdict_dir, by |net| then name */
};

/* The verdict for @path over @filestats (dirstat_filestat from
 * dirstat_filestats_from_tree() or patchstat_parse()).  A file counts when
 * its path before or after is under @path; binary files count no lines, as
 * in `git diff --shortstat`.  Caller owns the result. */
struct dirstat_verdict *dirstat_verdict_compute(GPtrArray *filestats,
						const char *path);
void dirstat_verdict_free(struct dirstat_verdict *v);
typedef struct dirstat_verdict dirstat_verdict;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(dirstat_verdict, dirstat_verdict_free)

/* "This series shrinks arch/arm by 212 lines (+388 -600)." and its
 * grows / balance / does not touch forms.  Caller owns the string. */
char *dirstat_verdict_sentence(const struct dirstat_verdict *v);

/* The sentence, then one line per mach-* or plat-* directory:
 * "  -190 (+10 -200) arch/arm/mach-omap2/". */
char *dirstat_verdict_format(const struct dirstat_verdict *v);

/* Those directory lines of @v appended to @out, the net figure
 * right-aligned in @width columns (0: no padding). */
void dirstat_verdict_dirs_append(GString *out, const struct dirstat_verdict *v,
				 int width);

/* "shrinks", "grows", "balanced" or "untouched". */
const char *dirstat_verdict_kind_name(enum dirstat_verdict_kind kind);
