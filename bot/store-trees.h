/* The trees maintainers registered by mail (bot/optin.h): their tree files,
 * whether they are active, every change made to them (who, when, what),
 * and the opt-in requests waiting for their confirmation token.  The
 * tables are the store part "trees" (bot/store-trees.c). */
#pragma once

#include <glib.h>

#include "bot/store.h"

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

/* Mark request @id used at @now, once: *@marked is FALSE when it was used
 * already (a replay racing the first confirmation). */
gboolean store_optin_request_use(struct store *st, gint64 id, gint64 now,
				 gboolean *marked, GError **error);
