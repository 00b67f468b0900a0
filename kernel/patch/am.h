/* `git am` in the object database: each mail of an mbox becomes a commit
 * with the author, date and message git am would give it, on top of the
 * previous one, without a working tree and without moving any ref.
 *
 * Base: --base, else the series' "base-commit:" when the repository has
 * that commit, else the tree's head.  A patch that does not apply is
 * reported and skipped (as `git am --skip`): the next one goes on top of
 * the last that applied. */
#pragma once

#include <glib.h>

#include "kernel/git/odb.h"
#include "kernel/patch/apply.h"

/* libgit2's repository, opaque here (kernel/git/lg2repo.h) */
struct git_repository;

struct am_options {
	const char *base; /* --base REV, or NULL */
	gboolean threeway; /* --3way */
	gboolean keep_cr; /* --keep-cr, as git mailsplit --keep-cr */
	const char *committer_name; /* armbot's identity */
	const char *committer_email;
	gsize max_patch_size;
};

#define AM_OPTIONS_INIT                                           \
	{                                                         \
		NULL, FALSE, FALSE, "armbot", "armbot@localhost", \
			APPLY_MAX_PATCH_SIZE_DEFAULT              \
	}

struct am_patch {
	guint number; /* 1-based, among the mails that carry a patch */
	char *subject; /* as git mailinfo cleans it */
	gboolean applied;
	gboolean merged; /* applied through the three-way fallback */
	struct gitoid commit;
	char *path; /* the file that failed, or NULL */
	char *reason; /* why it failed, one line */
};

struct am_series {
	struct gitoid base; /* the commit the first patch went onto */
	char *base_note; /* how the base was chosen when not obvious:
			      an unknown base-commit and the fallback */
	GPtrArray *patches; /* struct am_patch, in mbox order */
	struct gitoid head; /* the last commit made (== base if none) */
	guint failed;
};

/* Apply every patch of @mbox_path to @repo.  @head_rev is the tree's head
 * (the fallback base).  Returns FALSE with @error only when the mailbox or
 * the repository cannot be used; patches that do not apply are results. */
gboolean am_apply_mbox(struct am_series **out, struct git_repository *repo,
		       const char *head_rev, const char *mbox_path,
		       const struct am_options *opts, GError **error);

void am_series_free(struct am_series *s);
typedef struct am_series am_series;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(am_series, am_series_free)

/* git's strbuf_stripspace without comment stripping: trailing whitespace
 * removed, runs of empty lines squeezed, leading and trailing empty lines
 * dropped, a final newline added.  Returns a new string. */
char *am_stripspace(const char *text);

/* git ident.c's strbuf_addstr_without_crud: the name or email as it goes
 * into a commit header.  Returns a new string. */
char *am_ident_clean(const char *s);
