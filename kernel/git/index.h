/* The index file (.git/index) as git's read-index.c reads it, versions 2,
 * 3 and 4, so that dirstat can read a stat-clean work tree file instead
 * of inflating its blob, as git's reuse_worktree_file() does.  Extensions
 * are skipped; the trailing checksum is not verified (git does not either
 * unless asked). */
#pragma once

#include <glib.h>
#include <time.h>

#include "kernel/git/odb.h"

/* ce_flags: the "assume unchanged" bit and the extended skip-worktree bit */
#define GITINDEX_ASSUME_VALID 0x8000
#define GITINDEX_SKIP_WORKTREE 0x4000 /* in flags_extended */

#define GITINDEX_ERROR (gitindex_error_quark())
GQuark gitindex_error_quark(void);
enum gitindex_error {
	GITINDEX_ERROR_CORRUPT, /* truncated, bad magic, malformed entry */
	GITINDEX_ERROR_UNSUPPORTED, /* version, split index, unknown extension */
};

struct gitindex_entry {
	guint32 ctime_sec, ctime_nsec, mtime_sec, mtime_nsec;
	guint32 dev, ino, mode, uid, gid, size;
	struct gitoid oid;
	guint16 flags; /* stage in bits 12-13 */
	guint16 flags_extended;
	char *path;
};

struct gitindex {
	GPtrArray *entries; /* of struct gitindex_entry, in index order */
	struct timespec mtime; /* of the index file: as new is racily clean */
};

/* Read @file; a missing file is an error with G_FILE_ERROR_NOENT. */
struct gitindex *gitindex_read(const char *file, GError **error);
/* The same from @size bytes at @data (mtime left zero): for tests and
 * fuzzing without a file. */
struct gitindex *gitindex_parse(const void *data, gsize size, GError **error);
void gitindex_free(struct gitindex *index);
typedef struct gitindex gitindex;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(gitindex, gitindex_free)

/* The stage-0 entry for @path, or NULL (binary search). */
const struct gitindex_entry *gitindex_find(const struct gitindex *index,
					   const char *path);
