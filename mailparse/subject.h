/* Subject tags of patch mail: "[RFC PATCH net-next v3 2/7] foo: bar".
 *
 * Every bracketed prefix is read (patchwork splits them on blanks and
 * commas, so "[net,v2,1/2]" works too); the words PATCH, RFC, RESEND,
 * GIT PULL, a version "vN" or "vN.M", a position "N/M" or "N of M"
 * (Mercurial's patchbomb) are recognised, glued forms such as "PATCHv2"
 * and "PATCH1/8" and parenthesised ones such as "(RESEND)" included; any
 * other word is a topic ("net-next"). */
#pragma once

#include <glib.h>

struct subject_tags {
	gboolean reply; /* "Re:" (or "Aw:", "Fwd:") in front */
	gboolean patch; /* a PATCH word */
	gboolean rfc;
	gboolean resend;
	gboolean pull; /* "GIT PULL" or "PULL" */
	gboolean has_version; /* a version was written ("v2") */
	guint version; /* 1 unless written */
	guint version_minor; /* 1 for "v2.1", else 0 */
	gboolean has_index; /* "N/M" or "N of M" was written */
	guint index; /* 0 for a cover letter */
	guint total; /* 1 unless written */
	char *topic; /* other words, space separated, or NULL */
	char *prefixes; /* every bracket, as written, or NULL */
	char *clean; /* the subject without "Re:" and brackets */
};

#define SUBJECT_TAGS_INIT                                                    \
	{                                                                    \
		FALSE, FALSE, FALSE, FALSE, FALSE, FALSE, 1, 0, FALSE, 0, 1, \
			NULL, NULL, NULL                                     \
	}

/* Parse @subject (already RFC 2047 decoded; NULL is an empty subject) into
 * @out, which the caller clears with subject_tags_clear().  A subject
 * without tags is not an error, so this cannot fail. */
void subject_tags_parse(struct subject_tags *out, const char *subject);

void subject_tags_clear(struct subject_tags *tags);

/* Compare versions as (major, minor): <0, 0, >0. */
int subject_version_cmp(guint major_a, guint minor_a, guint major_b,
			guint minor_b);
