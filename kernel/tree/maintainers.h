/* The kernel's MAINTAINERS file: sections, their M:, R:, L:, F:, X:, N:,
 * K: lines, and "who maintains these paths" with the semantics of the
 * kernel's scripts/get_maintainer.pl (v6.1):
 *
 * - F: and X: are patterns on paths from the top of the tree.  A pattern
 *   ending in '/' matches every file below that directory, at any depth;
 *   '*' matches any characters ('/' included) and '?' one character; a
 *   pattern that does not end in '/' must also have as many '/' as the
 *   file (so a pattern for the .c files of drivers/net/ does not match
 *   drivers/net/phy/phy.c).
 *   The match is anchored at the start only, as get_maintainer.pl's
 *   m@^$pattern@.  A pattern naming a directory without the trailing
 *   '/' is taken as the directory when the tree says it is one.
 * - X: excludes: a section with a matching X: does not cover the file.
 * - N: is an extended regular expression matched anywhere in the path.
 * - The depth of a match, its specificity, is get_maintainer.pl's: the
 *   number of '/' in the F: pattern, plus one when it does not end in '/'
 *   (a file pattern), -1 for a pattern starting with '*', and 0 for N:.
 *   The deeper match is the more specific; between matches of the same
 *   depth, the one with the longer literal start (the characters before
 *   its first '*', '?' or '[') is: arch/arm/mach-omap2/ is more specific
 *   than the pattern "arch/arm/mach-*" followed by '/', though both
 *   have depth 3.  get_maintainer.pl leaves such ties unordered. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

/* libgit2's repository, opaque here (kernel/git/lg2repo.h) */
struct git_repository;

#define MAINTAINERS_ERROR (maintainers_error_quark())
GQuark maintainers_error_quark(void);

enum maintainers_pattern_kind {
	MAINTAINERS_F, /* F: a file pattern */
	MAINTAINERS_X, /* X: an excluded file pattern */
	MAINTAINERS_N, /* N: a regex on file names */
};

struct maintainers_pattern {
	enum maintainers_pattern_kind kind;
	char *text; /* as written */
	GRegex *regex; /* compiled */
	int depth; /* see above; 0 for N: */
	guint literal; /* F:/X: characters before the first wildcard; 0
			* for N: */
	gboolean dir; /* F:/X: ends in '/' (or names a directory) */
	guint line; /* in its file, or 0 */
};

struct maintainers_section {
	char *name; /* the section's title line */
	guint line; /* where it starts, or 0 */
	GPtrArray *maintainers; /* M: "Name <addr>" as written */
	GPtrArray *reviewers; /* R: */
	GPtrArray *lists; /* L: */
	GPtrArray *keywords; /* K: */
	GPtrArray *patterns; /* struct maintainers_pattern *: F:, X:, N: */
};

struct maintainers {
	GPtrArray *sections; /* struct maintainers_section *, file order */
};

struct maintainers_section *maintainers_section_new(const char *name);
void maintainers_section_free(struct maintainers_section *s);
void maintainers_free(struct maintainers *m);
typedef struct maintainers_section maintainers_section;
typedef struct maintainers maintainers;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(maintainers_section, maintainers_section_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(maintainers, maintainers_free)

/* Add pattern @text of @kind (at @line) to @section.  @is_dir (may be
 * NULL) says whether a path names a directory, for F:/X: patterns
 * written without their trailing '/'.  FALSE with @error for a pattern
 * that does not compile (a bad N: regex, an empty or absolute path). */
gboolean maintainers_section_add_pattern(struct maintainers_section *section,
					 enum maintainers_pattern_kind kind,
					 const char *text, guint line,
					 gboolean (*is_dir)(const char *path,
							    gpointer data),
					 gpointer is_dir_data, GError **error);

/* Whether @section covers @file (a path from the top of the tree): some
 * F: or N: matches and no X: does.  *@depth gets the depth of the most
 * specific match (depth, then literal start) and *@pattern (may be NULL)
 * that pattern (owned by the section). */
gboolean maintainers_section_match(const struct maintainers_section *section,
				   const char *file, int *depth,
				   const struct maintainers_pattern **pattern);

/* Parse MAINTAINERS text @data.  Sections start after the line
 * "Maintainers List" ... the first line whose next line is a tag, as
 * get_maintainer.pl reads it: a section is a title line followed by
 * "X:\tvalue" lines.  Returns NULL with @error for a bad pattern. */
struct maintainers *maintainers_parse(const char *data, gsize len,
				      gboolean (*is_dir)(const char *path,
							 gpointer data),
				      gpointer is_dir_data, GError **error);

/* Read MAINTAINERS from the root tree of commit @commit of @repo; F:/X:
 * patterns naming directories of that tree are taken as directories. */
struct maintainers *maintainers_load_git(struct git_repository *repo,
					 const struct gitoid *commit,
					 GError **error);

/* The sections covering @file, most specific first (struct
 * maintainers_section *, owned by @m; a new array). */
GPtrArray *maintainers_for_file(const struct maintainers *m, const char *file);

/* The address of a "Name <addr>" entry, lowercase.  Newly allocated. */
char *maintainers_address(const char *entry);

/* Whether @address (any case) is an M: entry of a section covering every
 * one of @files (a NULL-terminated list), as get_maintainer.pl would list
 * it; *@why (may be NULL) gets the first file it does not maintain, or
 * NULL.  Sections without any pattern do not count. */
gboolean maintainers_is_maintainer(const struct maintainers *m,
				   const char *address,
				   const char *const *files, char **why);
