/* The fingerprint index of a kernel tree, for finding where added code was
 * copied from: the winnowed fingerprints (winnow.h) of every C file under
 * the indexed folders of one tree commit, read through kernel/git, kept in
 * a cache file named by the commit.  Building for a commit whose file is
 * missing reuses, blob by blob, the fingerprints of the newest index file
 * of the same folders: when a tree moves only the blobs that changed are
 * read again; the SIMINDEX_KEEP newest files are kept.  A query looks each fingerprint up in the hash-sorted table
 * (binary search): it costs milliseconds. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

#define SIMINDEX_KEEP 3

struct gitrepo;
struct simindex;

#define SIMINDEX_ERROR (simindex_error_quark())
GQuark simindex_error_quark(void);
enum simindex_error {
	SIMINDEX_ERROR_CORRUPT, /* an index file that does not read back */
	SIMINDEX_ERROR_IO,
};

/* The folders indexed by default (NULL-terminated): where drivers and the
 * ARM code they are copied from or into live. */
extern const char *const simindex_default_prefixes[];

struct simindex_stats {
	guint files, reused; /* indexed, of which reused from an older index */
	gboolean from_cache; /* the commit's own file was read */
};

/* The index of @commit's tree in @repo (C files whose path starts with one
 * of @prefixes, NULL for the default), read from @cache_dir when it is
 * there, else built and written there (@cache_dir NULL: not cached). */
struct simindex *simindex_open(struct gitrepo *repo,
			       const struct gitoid *commit,
			       const char *const *prefixes,
			       const char *cache_dir,
			       struct simindex_stats *stats, GError **error);

/* Read an index file back: every count and offset bounded by its size. */
struct simindex *simindex_load(const char *path, GError **error);
gboolean simindex_save(const struct simindex *index, const char *path,
		       GError **error);

void simindex_free(struct simindex *index);
typedef struct simindex simindex;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(simindex, simindex_free)

guint simindex_files(const struct simindex *index);
guint simindex_prints(const struct simindex *index);

struct simindex_match {
	char *path; /* the existing file */
	guint percent; /* of the query's fingerprints found in it */
	guint32 first_line, last_line; /* in the existing file */
	guint shared, total; /* fingerprints: shared, of the query's */
};

/* The file of @index that shares most of the fingerprints of C text
 * @text (ignoring files named @skip_path), or FALSE when the text has no
 * fingerprint or none is shared.  Fingerprints present in more than
 * SIMINDEX_COMMON_FILES files are idioms, not copying: they count neither
 * in the query's total nor as shared; a text with fewer than
 * SIMINDEX_MIN_PRINTS other fingerprints is too short to call a copy. */
#define SIMINDEX_MIN_PRINTS 8
#define SIMINDEX_COMMON_FILES 40
gboolean simindex_query(const struct simindex *index, const char *text,
			gsize len, const char *skip_path,
			struct simindex_match *out);
void simindex_match_clear(struct simindex_match *m);
