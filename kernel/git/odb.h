/* A git object database read straight from disk, as git's object-file.c
 * and packfile.c do: loose objects, packs (index v2, OFS_DELTA and
 * REF_DELTA chains) and alternates.  SHA-1 repositories only.  armbot's
 * dirstat reads its objects here instead of through libgit2, whose
 * initialisation alone (Debian's build loads the CA bundle into mbedTLS)
 * costs more than git's whole `diff --dirstat`.  Not thread-safe: one
 * gitodb per thread. */
#pragma once

#include <glib.h>

#define GITOID_RAWSZ 20
#define GITOID_HEXSZ 40

struct gitoid {
	guint8 id[GITOID_RAWSZ];
};

/* The object types as packs number them (cache.h enum object_type). */
enum gitobj_type {
	GITOBJ_NONE = 0,
	GITOBJ_COMMIT = 1,
	GITOBJ_TREE = 2,
	GITOBJ_BLOB = 3,
	GITOBJ_TAG = 4,
};

gboolean gitoid_equal(const struct gitoid *a, const struct gitoid *b);
/* GHashTable's hash and equality of keys that are struct gitoid *: the id
 * is already a hash, its first bytes serve. */
guint gitoid_key_hash(gconstpointer oid);
gboolean gitoid_key_equal(gconstpointer a, gconstpointer b);
/* Exactly GITOID_HEXSZ hex digits (either case), then NUL. */
gboolean gitoid_from_hex(struct gitoid *out, const char *hex);
void gitoid_to_hex(const struct gitoid *oid, char hex[GITOID_HEXSZ + 1]);
/* The first @len (at most GITOID_HEXSZ) hex digits of @hex, the rest of
 * @out zero, as libgit2's git_oid_fromstrn(): the form a short id takes
 * before a prefix lookup.  FALSE on a non-hex digit or a longer @len. */
gboolean gitoid_from_hexn(struct gitoid *out, const char *hex, gsize len);
/* @oid in hex, in one of four thread-local buffers used in turn, as git's
 * oid_to_hex(): for a format argument, not to keep. */
const char *gitoid_hex(const struct gitoid *oid);
/* All zero: git's null oid (a new or deleted file in a diff header). */
gboolean gitoid_is_zero(const struct gitoid *oid);
/* memcmp() order, for sorting (git's oidcmp()). */
int gitoid_cmp(const struct gitoid *a, const struct gitoid *b);
/* "commit", "tree", "blob", "tag" */
const char *gitobj_type_name(enum gitobj_type type);

struct gitodb;

/* Added by the implementation: the domain of gitodb's errors, so that a
 * caller can tell a missing object (git's "not a valid object name") from
 * a corrupt one. */
#define GITODB_ERROR (gitodb_error_quark())
GQuark gitodb_error_quark(void);
enum gitodb_error {
	GITODB_ERROR_NOT_FOUND, /* no such object (or no such prefix) */
	GITODB_ERROR_AMBIGUOUS, /* a prefix that several objects share */
	GITODB_ERROR_CORRUPT, /* a malformed object, pack or index */
	GITODB_ERROR_IO, /* the objects directory cannot be read */
};

/* The database in @objects_dir (a repository's .git/objects), with the
 * alternates listed in its info/alternates, recursively, as git reads
 * them (relative paths from @objects_dir, '#' comments, quoted paths).
 * Packs are found when needed and found again when an object is missing
 * (a repack may have replaced them). */
struct gitodb *gitodb_open(const char *objects_dir, GError **error);
void gitodb_free(struct gitodb *odb);
typedef struct gitodb gitodb;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(gitodb, gitodb_free)

/* The content of @oid (without the "<type> <size>\0" header) and its
 * type.  Caller owns the result.  A missing or corrupt object is an
 * error that names it; no input makes this crash or read out of bounds. */
GBytes *gitodb_read(struct gitodb *odb, const struct gitoid *oid,
		    enum gitobj_type *type, GError **error);

/* Type and size of @oid without inflating all of it where the format
 * allows (git's oid_object_info()): the loose header, the pack entry
 * header, or a delta's result size.  Either output may be NULL. */
gboolean gitodb_read_header(struct gitodb *odb, const struct gitoid *oid,
			    enum gitobj_type *type, gsize *size,
			    GError **error);

/* The one object whose hex id starts with @hex (4 to 40 hex digits):
 * an error when there is none or more than one, as git's get_oid() says
 * "short object ID %s is ambiguous". */
gboolean gitodb_resolve_prefix(struct gitodb *odb, const char *hex,
			       struct gitoid *out, GError **error);
