/* What a mail is, for the series assembler: a patch, a cover letter, a
 * pull request, a reply (comment or review, also when it quotes a diff), a
 * report from a bot, or something else. */
#pragma once

#include <glib.h>

#include "mailparse/message.h"
#include "mailparse/subject.h"

enum classify_kind {
	CLASSIFY_OTHER,
	CLASSIFY_PATCH,
	CLASSIFY_COVER,
	CLASSIFY_PULL,
	CLASSIFY_REPLY,
	CLASSIFY_BOT,
};

/* The name stored and printed: "patch", "cover", "pull", "reply", "bot",
 * "other".  Static. */
const char *classify_kind_name(enum classify_kind kind);

/* The kind named @name; CLASSIFY_OTHER for an unknown name. */
enum classify_kind classify_kind_from_name(const char *name);

/* Classify @msg, whose subject tags are @tags, @body its text and @patch
 * the diff found in it (git mailinfo's split; NULL or "" when none). */
enum classify_kind classify_message(const struct message *msg,
				    const struct subject_tags *tags,
				    const char *body, const char *patch);

/* Does @text carry a diff that git apply would take: a "diff --git" or a
 * "---"/"+++"/"@@" unified header, or a CVS "Index:" one?  Quoted lines
 * (">") do not count. */
gboolean classify_has_diff(const char *text);

/* The repository and ref a pull request asks to fetch ("URL REF"), found
 * after git request-pull's "are available in the Git repository at:", or
 * NULL.  Newly allocated. */
char *classify_pull_url(const char *body);
