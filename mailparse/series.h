/* Series assembly: which patches and cover letter form one posted series,
 * whether it is complete, and which older series a reroll or a resend
 * supersedes.
 *
 * A message joins the series of its nearest ancestor in the thread
 * (In-Reply-To, then References from the nearest, at any depth) when it
 * fits there: the same version (an unversioned patch may join a versioned
 * cover sent within the hour, as patchwork allows), the same total, and
 * its slot (cover, or patch index) still free.  Otherwise it starts a new
 * series, and a higher version posted in reply supersedes the series it
 * replies to.  Patches without any threading header are grouped by
 * sender, version and total within a time window, most recent series
 * first (patchwork's _find_series_by_markers()).  A reroll posted as a new
 * thread supersedes the latest older version from the same sender with
 * the same change-id, cover subject or a patch subject in common.  A
 * partial reroll ("[PATCH v2 3/9]" in reply to v1's 3/9) is a series of
 * its own recorded as partial_of the series it patches.
 *
 * A resend ("[RESEND]", "[PATCH RESEND v2]", "[RESEND PATCH v3 0/4]": RESEND
 * in the subject of any of its members) supersedes the latest posting of
 * the same version by the same sender, of the same work as above (so a
 * resend with fewer or more patches qualifies as a reroll would), sent
 * before it, in a new thread or in reply to that posting.  Sent before means
 * an earlier first Date; at the same second a resend is taken as later
 * than a posting without RESEND, and of two resends the one assembled
 * first as the earlier.  A second resend thus supersedes the first, which
 * supersedes the original.  A resend of v2 never supersedes v3, nor is it
 * superseded by a v3 sent before it.  A resend that finds no posting of
 * its version supersedes as a reroll of that version would.  Without
 * RESEND a posting of the same version never supersedes: two series with
 * equal subjects are two series.  A partial resend ("[PATCH RESEND 3/9]"
 * in reply to 3/9 of the same version) is partial_of the posting it
 * supersedes.
 *
 * Messages are taken parents first, then by date, so arrival order does
 * not matter. */
#pragma once

#include <glib.h>

#include "mailparse/classify.h"

/* What the assembler needs to know of one stored message. */
struct series_message {
	char *message_id;
	char *in_reply_to; /* nearest parent, or NULL */
	GPtrArray *references; /* char *, oldest first, may be NULL */
	char *from_email;
	char *author; /* "Name <email>" */
	gint64 date; /* Date header */
	gint64 received; /* when the store got it */
	enum classify_kind kind;
	gboolean has_version;
	guint version, version_minor;
	gboolean has_index;
	guint index, total;
	gboolean rfc;
	char *subject; /* cleaned */
	char *base_commit; /* or NULL */
	char *change_id; /* or NULL */
	gboolean resend; /* RESEND in the subject's tags */
	guint64 seq; /* arrival order in the store */
};

struct series_message *series_message_new(void);
void series_message_free(struct series_message *m);
typedef struct series_message series_message;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(series_message, series_message_free)

/* What the assembler needs of @msg: subject tags, classification,
 * base-commit and change-id.  @received is when the store got it.
 * Returns a new struct. */
struct series_message *series_message_from(const struct message *msg,
					   gint64 received);

enum series_state {
	SERIES_INCOMPLETE,
	SERIES_READY,
	SERIES_SUPERSEDED,
};

const char *series_state_name(enum series_state state);

struct series {
	guint number; /* position in the assembly's array */
	struct series_message *cover; /* or NULL; not owned */
	GPtrArray *patches; /* struct series_message *, by index; not
				      owned */
	guint version, version_minor;
	gboolean rfc;
	gboolean resend; /* RESEND in the subject of a member */
	guint total;
	gboolean complete; /* patches 1..total all present (extra
				      ones allowed), or with partial_of */
	gboolean expired; /* incomplete for longer than the timeout */
	enum series_state state;
	struct series *supersedes; /* or NULL */
	struct series *superseded_by; /* or NULL */
	struct series *partial_of; /* a partial reroll of that series */
	gint64 first_date, last_activity;
	gboolean unthreaded; /* started by a message without threading */
	/* private to the assembler */
	struct series *reply_to;
};

struct series_options {
	gint64 now; /* Unix time the timeout counts to */
	gint64 incomplete_timeout; /* seconds; default 6 h */
	gint64 group_window; /* seconds, for unthreaded patches: 12 h */
	gint64 version_window; /* seconds, an unversioned patch joins a
				      versioned series sent within: 1 h */
};

#define SERIES_OPTIONS_INIT                  \
	{                                    \
		0, 6 * 3600, 12 * 3600, 3600 \
	}

struct series_assembly {
	GPtrArray *series; /* struct series *, owned, by first date */
	GHashTable *by_message; /* Message-ID -> struct series *, for
				      every cover and patch */
};

/* Assemble @messages (struct series_message *, not taken; they must outlive
 * the result).  Messages other than patches and covers are used for the
 * thread structure only.  Returns a new assembly, never NULL. */
struct series_assembly *series_assemble(GPtrArray *messages,
					const struct series_options *opts);

/* The subject of @s: the cover's, else the first patch's.  Not owned. */
const char *series_subject(const struct series *s);

/* The author of @s: the cover's, else the first patch's.  Not owned. */
const char *series_author(const struct series *s);

/* The patches of @s in the order to apply: for a partial reroll, the
 * series it patches with the rerolled patches in their slots.  Returns a
 * new array of struct series_message * (not owned). */
GPtrArray *series_apply_order(const struct series *s);

void series_assembly_free(struct series_assembly *a);
typedef struct series_assembly series_assembly;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(series_assembly, series_assembly_free)
