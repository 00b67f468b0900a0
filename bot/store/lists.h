/* The mailing lists the bot subscribes to by mail (`armbot subscribe`,
 * bot/control/subscription.h): each list's request and its state, the tokens of
 * the confirmations answered (so that a replayed one is recognised), and
 * the messages bot/control/control.c has handled.  The tables are the store part
 * "lists" (bot/store/lists.c). */
#pragma once

#include <glib.h>

#include "bot/store/db.h"

/* The part's tables, listed in bot/store/store.c. */
extern const struct store_part store_part_lists;

/* States of a list: "subscribe-pending" (the request is queued or sent,
 * no confirmation yet), "subscribed" (the list's confirmation was
 * answered), "unsubscribe-pending", "unsubscribed". */
struct store_list {
	char *address; /* LIST@HOST, lowercase */
	char *via; /* "mailman2", "mailman3" */
	char *state;
	char *request_id; /* Message-ID of the last request mail */
	gint64 requested; /* when it was queued */
	gint64 confirmed; /* when its confirmation was answered, or 0 */
	char *confirm_source; /* the source the confirmation came through */
	gint64 updated;
};

void store_list_free(struct store_list *l);
typedef struct store_list store_list;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_list, store_list_free)

/* List @address: TRUE with *@out NULL when there is none. */
gboolean store_list_get(struct store *st, const char *address,
			struct store_list **out, GError **error);

/* Every list, by address (struct store_list *, owned). */
GPtrArray *store_lists_all(struct store *st, GError **error);

/* Create or replace list @l. */
gboolean store_list_put(struct store *st, const struct store_list *l,
			GError **error);

/* Record that confirmation token @token of list @address was answered at
 * @at; *@fresh is FALSE when it had been already (a replay). */
gboolean store_list_token_use(struct store *st, const char *address,
			      const char *token, gint64 at, gboolean *fresh,
			      GError **error);

/* The source a stored message came through, or NULL (*@out). */
gboolean store_list_message_source(struct store *st, const char *message_id,
				   char **out, GError **error);

/* The source of the newest stored message whose List-Id names
 * @list_id ("arm.lists.test"), or NULL (*@out): where the list's
 * traffic arrives. */
gboolean store_list_traffic_source(struct store *st, const char *list_id,
				   char **out, GError **error);

/* Has bot/control/control.c handled message @message_id? */
gboolean store_control_done(struct store *st, const char *message_id,
			    gboolean *out, GError **error);

/* Mark @message_id handled (@what: its outcome, for the record). */
gboolean store_control_mark(struct store *st, const char *message_id,
			    const char *what, gint64 at, GError **error);
