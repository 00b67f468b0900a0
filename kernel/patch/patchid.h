/* git patch-id (git 2.39.5, builtin/patch-id.c): the id of a patch that
 * survives rebasing, whitespace changes and reordered files, for finding
 * a posted series that is already applied to a tree and for b4's
 * "prerequisite-patch-id:" trailers.
 *
 * The ids (patch-ids and the commit ids read from a patch stream) are the
 * git layer's struct gitoid: print them with gitoid_to_hex() or
 * gitoid_hex(), parse them with gitoid_from_hex() (kernel/git/odb.h).
 * The text functions only fill struct gitoids; they need no
 * libgit2_init(). */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"

/* libgit2's repository, opaque here (kernel/git/lg2repo.h) */
struct git_repository;

/* The three ways git patch-id hashes a patch. */
enum patchid_mode {
	/* --unstable (git's default without patchid.stable): one hash over
	 * the files in the order given */
	PATCHID_UNSTABLE,
	/* --stable: each file hashed on its own and the hashes summed, so
	 * that the order of the files does not matter */
	PATCHID_STABLE,
	/* --verbatim: as --stable, whitespace kept */
	PATCHID_VERBATIM,
};

/* One line of git patch-id's output. */
struct patchid_result {
	struct gitoid patch_id;
	/* the id of the "commit <hex>" or "From <hex>" line before the patch
	 * (or any line starting with 40 hex digits, as git reads them); all
	 * zeros when there was none */
	struct gitoid commit;
};

/* The longest line patchid_parser_feed() takes: git keeps any line whole,
 * armbot refuses a line longer than this rather than grow without bound. */
#define PATCHID_LINE_MAX (64u << 20)

/* A stream of patches read as `git patch-id` reads its standard input: a
 * new patch starts at a "commit <hex>" or "From <hex>" line, text before
 * the first "diff " line of a patch is ignored, and a line that cannot
 * belong to a diff ends the patch.  Any input is accepted. */
struct patchid_parser;

struct patchid_parser *patchid_parser_new(enum patchid_mode mode);
void patchid_parser_free(struct patchid_parser *p);
typedef struct patchid_parser patchid_parser;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(patchid_parser, patchid_parser_free)

/* Read the next @len bytes of the stream, in pieces of any size; each
 * patch completed appends a struct patchid_result to @out, as git prints
 * a line (a patch that hashed nothing appends nothing).  FALSE with
 * @error when a line exceeds PATCHID_LINE_MAX (the parser then takes no
 * more input) or after patchid_parser_finish(). */
gboolean patchid_parser_feed(struct patchid_parser *p, const char *data,
			     gsize len, GArray *out, GError **error);

/* The end of the stream: the last patch (if it hashed anything) is
 * appended to @out. */
void patchid_parser_finish(struct patchid_parser *p, GArray *out);

/* Every patch-id of the stream in @text, as `git patch-id` prints them:
 * a GArray of struct patchid_result owned by the caller, empty when the
 * text holds no patch.  No line limit: @text is already in memory. */
GArray *patchid_stream(const char *text, gsize len, enum patchid_mode mode);

/* The patch-id of one patch (a mail's patch part, from its first "diff "
 * line): the first line git patch-id would print for @text.  FALSE when
 * it would print none (there is no diff). */
gboolean patchid_text(const char *text, gsize len, enum patchid_mode mode,
		      struct gitoid *out);

/* The patch-id of commit @commit of @repo: its diff against its first
 * parent (the empty tree for a root commit) as `git format-patch` writes
 * it (git's rename detection, the indent heuristic, binary files with
 * their full ids), hashed by patchid_text(), so that a mailed patch and
 * the commit it became have the same id.  TRUE with *@found FALSE when
 * the commit has no patch-id: a merge (git's patch_id_defined(), and
 * format-patch skips merges) or a commit that changes nothing.  The
 * objects are read from the repository's directory on disk. */
gboolean patchid_commit(struct git_repository *repo,
			const struct gitoid *commit, enum patchid_mode mode,
			struct gitoid *out, gboolean *found, GError **error);

/* The patch-ids of the @n commits @commits, in that order, reading the
 * repository once: a GArray of struct patchid_result owned by the caller,
 * commits without a patch-id left out (as `git log -p | git patch-id`
 * prints nothing for them).  NULL with @error when a commit cannot be
 * read. */
GArray *patchid_commits(struct git_repository *repo,
			const struct gitoid *commits, gsize n,
			enum patchid_mode mode, GError **error);

/* As patchid_commits() for the commits of @range "A..B" (reachable from
 * B, not from A), newest first as libgit2's revision walk lists them,
 * which for a linear history is `git log A..B`'s order. */
GArray *patchid_range(struct git_repository *repo, const char *range,
		      enum patchid_mode mode, GError **error);
