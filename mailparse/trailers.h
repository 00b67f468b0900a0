/* Trailers: the tags at the end of a commit message (Signed-off-by,
 * Reviewed-by, Fixes, ...), the ones reviewers give in replies and that
 * `b4 am` folds into the patches, and the b4/git-format-patch information
 * lines (base-commit, prerequisite-patch-id, change-id, ...). */
#pragma once

#include <glib.h>

struct trailer {
	char *name; /* canonical spelling: "Reviewed-by" */
	char *value; /* as written, trimmed */
};

void trailer_free(struct trailer *t);

/* The tags in @text, in order: lines "Name: value" at the start of a line
 * (not quoted with '>'), for the names b4 collects, whose value has the
 * right form: an address for person tags ("Name <a@b>" or "a@b"), a
 * commit id for Fixes, a URL for Link and Closes.  Prose mentioning a
 * tag is not a tag.  Returns struct trailer * (owned by the array). */
GPtrArray *trailers_parse(const char *text);

/* The information lines git format-patch --base and b4 add to a cover
 * letter or patch. */
struct trailers_info {
	char *base_commit;
	char *change_id;
	char *supersedes;
	char *based_on;
	GPtrArray *prerequisite_patch_ids; /* char * */
	GPtrArray *prerequisite_message_ids; /* char *, without brackets */
};

void trailers_info_parse(struct trailers_info *out, const char *text);
void trailers_info_clear(struct trailers_info *info);

/* @body (a commit message, possibly followed by "---" and the diff) with
 * the @extra trailers not yet in it appended to its last trailer block,
 * before the "---" line, as `b4 am` does.  Newly allocated. */
char *trailers_fold(const char *body, GPtrArray *extra);
