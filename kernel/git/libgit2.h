/* libgit2 behind the git layer: the one place it is set up, and the bridge
 * between its object ids and the layer's.  Only kernel/git/ includes this
 * header (tests/layout.t checks that no file outside it includes libgit2). */
#pragma once

#include <git2.h>
#include <stddef.h>

#include "kernel/git/object.h"
#include "kernel/git/odb.h"

/* git_libgit2_init(), once per process whichever thread comes first;
 * every user of libgit2 calls this before its first libgit2 call.  Never
 * shut down: libgit2's globals stay until exit (its TLS set-up costs
 * 9.5 ms, README "One git layer", so it is not redone per command or per
 * worker either). */
void libgit2_init(void);

/* libgit2 handles under g_autoptr: for the callers of libgit2 */
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_repository, git_repository_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_odb, git_odb_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_object, git_object_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_commit, git_commit_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_tree, git_tree_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_blob, git_blob_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_reference, git_reference_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_signature, git_signature_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_remote, git_remote_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_diff, git_diff_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(git_index, git_index_free)

/* One object id type: struct gitoid.  libgit2's git_oid (SHA-1 build) is
 * the same 20 bytes with nothing around them, so an id crosses into
 * libgit2 as a pointer to the same storage; libgit2 is a shared library,
 * so no compiler sees both types on one object. */
G_STATIC_ASSERT(sizeof(struct gitoid) == sizeof(git_oid));
G_STATIC_ASSERT(offsetof(struct gitoid, id) == offsetof(git_oid, id));
G_STATIC_ASSERT(sizeof(((struct gitoid *)0)->id) == sizeof(((git_oid *)0)->id));
G_STATIC_ASSERT(GITOID_RAWSZ == GIT_OID_RAWSZ);
G_STATIC_ASSERT(GITOID_HEXSZ == GIT_OID_HEXSZ);

/* The layer's tree entry modes are libgit2's. */
G_STATIC_ASSERT(GITMODE_TREE == GIT_FILEMODE_TREE);
G_STATIC_ASSERT(GITMODE_BLOB == GIT_FILEMODE_BLOB);
G_STATIC_ASSERT(GITMODE_BLOB_EXECUTABLE == GIT_FILEMODE_BLOB_EXECUTABLE);
G_STATIC_ASSERT(GITMODE_LINK == GIT_FILEMODE_LINK);
G_STATIC_ASSERT(GITMODE_COMMIT == GIT_FILEMODE_COMMIT);

/* ... and its object type numbers too. */
G_STATIC_ASSERT((int)GITOBJ_COMMIT == (int)GIT_OBJECT_COMMIT);
G_STATIC_ASSERT((int)GITOBJ_TREE == (int)GIT_OBJECT_TREE);
G_STATIC_ASSERT((int)GITOBJ_BLOB == (int)GIT_OBJECT_BLOB);
G_STATIC_ASSERT((int)GITOBJ_TAG == (int)GIT_OBJECT_TAG);

/* @p (struct gitoid *, const or not) as libgit2's git_oid. */
#define libgit2_oid(p) \
	_Generic((p), struct gitoid * : (git_oid *)(void *)(p), \
		 const struct gitoid * : (const git_oid *)(const void *)(p))

/* @p (git_oid *, const or not, as libgit2 returns them) as struct gitoid. */
#define libgit2_gitoid(p) \
	_Generic((p), git_oid * : (struct gitoid *)(void *)(p), \
		 const git_oid * : (const struct gitoid *)(const void *)(p))
