/* The trees maintainers registered by mail (bot/control/optin.h): their tree files,
 * whether they are active, every change made to them (who, when, what),
 * and the opt-in requests waiting for their confirmation token; and for
 * every tree with a url, how its updates went (bot/daemon/treeupdate.h).  The
 * tables are the store part "trees" (bot/store/trees.c). */
#pragma once

#include <glib.h>

#include "bot/store/db.h"

/* The part's tables, listed in bot/store/store.c. */
extern const struct store_part store_part_trees;

/* A tree registered in the store. */
struct store_tree {
	char *name;
	char *data; /* its tree file text (config/treefile.h) */
	gboolean active; /* FALSE once opted out */
	char *owner; /* the address that opted it in */
	gint64 created, updated; /* Unix times */
};

void store_tree_free(struct store_tree *t);
typedef struct store_tree store_tree;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_tree, store_tree_free)

/* Every registered tree, by name (struct store_tree *, owned). */
GPtrArray *store_trees_list(struct store *st, GError **error);

/* Tree @name: TRUE with *@out NULL when there is none. */
gboolean store_tree_get(struct store *st, const char *name,
			struct store_tree **out, GError **error);

/* Create or replace tree @t (created is kept when it exists). */
gboolean store_tree_put(struct store *st, const struct store_tree *t,
			GError **error);

/* One recorded change of a tree. */
struct store_tree_change {
	char *tree;
	char *who; /* the address that confirmed it */
	gint64 at; /* Unix time */
	char *what; /* "opt-in: url ..., paths ..." */
};

void store_tree_change_free(struct store_tree_change *c);

gboolean store_tree_change_add(struct store *st,
			       const struct store_tree_change *c,
			       GError **error);

/* The changes of @tree (NULL: of every tree), oldest first (struct
 * store_tree_change *, owned). */
GPtrArray *store_tree_changes(struct store *st, const char *tree,
			      GError **error);

/* A request waiting for its confirmation. */
struct store_optin_request {
	gint64 id;
	char *token_hash; /* hex SHA-256 of the token: the token itself is
			   * never stored */
	char *action; /* "opt-in", "opt-out", "set" */
	char *tree;
	char *sender; /* the address the token was mailed to */
	char *data; /* the tree file text to apply, or NULL (opt-out) */
	char *what; /* the change, as recorded once confirmed */
	char *message_id; /* of the request mail, or NULL */
	gint64 created, expires; /* Unix times */
	gint64 used; /* when confirmed, 0 while pending */
};

void store_optin_request_free(struct store_optin_request *r);
typedef struct store_optin_request store_optin_request;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_optin_request, store_optin_request_free)

/* Keep request @r (its id is set). */
gboolean store_optin_request_add(struct store *st,
				 struct store_optin_request *r, GError **error);

/* The request whose token hashes to @token_hash: TRUE with *@out NULL
 * when there is none. */
gboolean store_optin_request_find(struct store *st, const char *token_hash,
				  struct store_optin_request **out,
				  GError **error);

/* The number of requests (token mails sent) created after @since, from
 * @sender (any case), or from anyone when @sender is NULL. */
gboolean store_optin_request_count(struct store *st, const char *sender,
				   gint64 since, guint *out, GError **error);

/* Mark request @id used at @now, once: *@marked is FALSE when it was used
 * already (a replay racing the first confirmation). */
gboolean store_optin_request_use(struct store *st, gint64 id, gint64 now,
				 gboolean *marked, GError **error);

/* The updates of one tree with a url: what the daemon follows (url,
 * branches, interval) and how its last fetch went. */
struct store_tree_update {
	char *tree;
	char *url; /* as fetched, or NULL when not known yet */
	char *branches; /* the branches followed, ';'-separated; "" or
			 * NULL: every branch */
	gint64 interval; /* seconds between the daemon's updates; 0: on
			  * demand only; -1: no running daemon follows it */
	gint64 attempted; /* Unix time the last attempt started, 0: never */
	gint64 succeeded; /* Unix time the last success ended, 0: never */
	char *error; /* why the last attempt failed; NULL when it succeeded
		      * (or there was none) */
	guint failures; /* attempts failed in a row */
	char *head_branch; /* after the last success */
	char *head; /* hex commit id of @head_branch after the last success */
	double seconds; /* how long the last attempt took */
	gint64 objects, bytes; /* what the last attempt received */
};

void store_tree_update_free(struct store_tree_update *u);
typedef struct store_tree_update store_tree_update;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(store_tree_update, store_tree_update_free)

/* Every tree with an update record, by name (struct store_tree_update *,
 * owned). */
GPtrArray *store_tree_updates_list(struct store *st, GError **error);

/* The record of @tree: TRUE with *@out NULL when it has none. */
gboolean store_tree_update_get(struct store *st, const char *tree,
			       struct store_tree_update **out, GError **error);

/* A running daemon follows @tree from @url (@branches ';'-separated) every
 * @interval seconds (0: on demand only).  The attempts are kept, and so
 * are the url and branches recorded when @url or @branches is NULL. */
gboolean store_tree_update_follow(struct store *st, const char *tree,
				  const char *url, const char *branches,
				  guint interval, GError **error);

/* No daemon follows @tree (NULL: any tree) any more: its interval goes
 * back to -1 (the daemon stopped, or the tree was opted out). */
gboolean store_tree_updates_unfollow(struct store *st, const char *tree,
				     GError **error);

/* Record one attempt of @u->tree: its start (@u->attempted), duration and
 * what it received, and either its @u->error, or (@u->error NULL) its
 * success at @u->succeeded with @u->head_branch at @u->head.  A failure
 * counts one more in a row and keeps what the last success recorded; a
 * success clears the error.  @u->url and @u->branches, when not NULL,
 * replace the recorded ones; the interval is left alone. */
gboolean store_tree_update_record(struct store *st,
				  const struct store_tree_update *u,
				  GError **error);

/* When the next update of @u is due: a Unix time, 0 for at once (it was
 * never tried), -1 for never (on demand only, or no daemon follows it).
 * Due one interval after the last attempt began, failed or not. */
gint64 store_tree_update_next(const struct store_tree_update *u);
