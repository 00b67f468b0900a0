/* The three-way merge of one file's contents, with libgit2's copy of
 * git's xdiff merge (git_merge_file(), default options: git merge-file's
 * conflict style, no favouring of either side). */
#pragma once

#include <glib.h>

/* Merge the change from @ancestor to @theirs into @ours, @path naming the
 * file on all three.  FALSE (lg2repo_last_error()) when libgit2 fails;
 * otherwise TRUE with the merged content in *@out, or *@out NULL when the
 * merge leaves conflicts. */
gboolean lg2merge_file(GBytes *ancestor, GBytes *ours, GBytes *theirs,
		       const char *path, GBytes **out);
