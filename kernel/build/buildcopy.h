/* A series' copy of a build directory: the series builds in it, never in
 * the build dir of the tree, so that nothing it writes (an object, a
 * host tool of scripts/, a generated header, a planted symlink) is seen
 * by the builds of the next series.
 *
 * Copying a warm build dir whole for every series would cost seconds
 * (rpm-virt: 3,600 files, 88 MB; allmodconfig after prepare: 15,000
 * files), so the copy is kept and brought back to the original before
 * each series: buildcopy_sync() removes every entry of the copy that a
 * manifest, kept outside the copy, cannot vouch for and copies it again.
 * The manifest records each entry's inode, size, mode, mtime and ctime as
 * it left them; a build can change the content, the mode, the links or
 * the times of a file, or put another file in its place, but each of
 * these sets the ctime to the current time, which no process can set back
 * (only the clock could, and the sandbox cannot touch it).  The sync
 * waits until the clock has passed the last ctime it recorded, so that a
 * write right after it cannot keep the same ctime.  (git's index has the
 * same "racy" timestamp problem and the same answer.) */
#pragma once

#include <glib.h>

struct buildcopy_stats {
	guint entries; /* in the original */
	guint copied; /* written again */
	guint removed; /* entries of the copy thrown away */
	double seconds;
};

/* Make @copy an exact copy of the directory @orig (regular files with
 * their content, mode and mtime, symlinks, directories), trusting nothing
 * in @copy but what the manifest @manifest (a file outside @copy)
 * vouches for; then record the new manifest.  @orig may not exist (the
 * copy is then empty).  FALSE with @error when a file cannot be read or
 * written; the copy is then not to be used (the next sync starts over). */
gboolean buildcopy_sync(const char *orig, const char *copy,
			const char *manifest, struct buildcopy_stats *out,
			GError **error);
