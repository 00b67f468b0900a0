/* The warning model of `armbot sparse`: warnings of sparse and of the
 * compiler, parsed from their output, compared between the base and the
 * series head by content (file, message, source-line text), and printed
 * in the kernel test robot's shape. */
#pragma once

#include <glib.h>

struct sparse_warning {
	char *tool; /* "sparse", "gcc": who said it, for the report */
	char *file; /* as printed, relative to the tree */
	guint line;
	guint column;
	char *severity; /* "warning", "error" */
	/* the message with its continuation lines ("expected ...",
	 * "got ..."), joined by " @@ " as the kernel test robot does */
	char *message;
	char *source; /* the source line's text, stripped; NULL: unknown */
};

/* The warnings in @log, the output of @tool (sparse's or gcc's
 * "FILE:LINE:COL: SEVERITY: MESSAGE" lines; sparse's continuation lines
 * "FILE:LINE:COL:    TEXT" join the warning before them; gcc's source
 * excerpts, "In function" lines and notes are dropped).  A new array of
 * struct sparse_warning, owned by the caller. */
GPtrArray *sparse_parse(const char *log, const char *tool);

/* Fill in each warning's source-line text from @src_dir (the tree the
 * warnings were produced from).  Only regular files below @src_dir are
 * read (no "..", no symlink, no device or FIFO; at most the first 4 MiB):
 * FILE comes from an untrusted log.  A file that cannot or may not be read
 * leaves the text unknown: such warnings match on file and message alone. */
void sparse_attach_source(GPtrArray *warnings, const char *src_dir);

/* Compare @head with @base.  A head warning is new when no base warning
 * with the same file, message and source-line text is left to match it
 * (a multiset: two identical warnings at head against one at base give
 * one new); base warnings left unmatched are fixed.  @is_new_out gets
 * one gboolean per head warning; @fixed_out the fixed base warnings
 * (borrowed from @base). */
void sparse_compare(GPtrArray *base, GPtrArray *head, GArray **is_new_out,
		    GPtrArray **fixed_out);

/* The report: @title (the robot's "sparse warnings: (new ones prefixed
 * by >>)" or "All warnings (new ones prefixed by >>):"), then each
 * head warning, ">> " before the new ones and three spaces before the
 * others, as the kernel test robot prints them; then the fixed ones
 * under "fixed warnings:".  Nothing when there is nothing to say. */
#define SPARSE_TITLE "sparse warnings: (new ones prefixed by >>)"
#define SPARSE_TITLE_CC "All warnings (new ones prefixed by >>):"
void sparse_report(GString *out, const char *title, GPtrArray *head,
		   GArray *is_new, GPtrArray *fixed);

void sparse_warning_free(struct sparse_warning *w);
typedef struct sparse_warning sparse_warning;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(sparse_warning, sparse_warning_free)
