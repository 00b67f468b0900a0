/* Updates of trees: fetches and imports, recorded, logged, and handed to
 * the hook on_tree_updated() (see bot/daemon/treeupdate.h). */
#include "bot/daemon/treeupdate.h"

#include <string.h>

#include "bot/common/log.h"
#include "bot/store/trees.h"
#include "kernel/base/baseguess.h"
#include "kernel/base/baseindex.h"
#include "kernel/tree/fetch.h"
#include "kernel/tree/import.h"

/* One attempt, from its start to its record. */
struct attempt {
	const struct treeupdate_options *o;
	const char *name;
	char *who; /* "tree NAME": the log's */
	char *url; /* as asked, or the tree's: for a failed attempt */
	const char *const *branches; /* likewise */
	guint interval; /* the tree's update-interval, 0: unknown */
	gint64 started; /* Unix time */
	gint64 started_mono;
	GPtrArray *before; /* struct tree_head *: the heads before */
	struct lg2fetch_stats stats;
	struct tree_fetch_options fetch;
};

static void attempt_clear(struct attempt *a)
{
	g_free(a->who);
	g_free(a->url);
	g_clear_pointer(&a->before, g_ptr_array_unref);
}

/* In the log, every TREEUPDATE_LOG_INTERVAL s of a long fetch. */
static void log_progress(const struct lg2fetch_stats *s, gpointer data)
{
	const struct attempt *a = data;
	g_autofree char *size = g_format_size(s->received_bytes);

	if (s->done)
		return; /* the outcome's line says it */
	bot_log(a->who,
		"fetching: %u/%u objects received (%s), %u indexed, %u/%u "
		"deltas resolved",
		s->received_objects, s->total_objects, size, s->indexed_objects,
		s->indexed_deltas, s->total_deltas);
}

/* Start an attempt on tree @name, whose current state is @existing (NULL
 * when it has none yet). */
static void attempt_start(struct attempt *a, const struct treeupdate_options *o,
			  const char *name, struct tree *existing)
{
	memset(a, 0, sizeof(*a));
	a->o = o;
	a->name = name;
	a->who = g_strdup_printf("tree %s", name);
	a->started = g_get_real_time() / G_USEC_PER_SEC;
	a->started_mono = g_get_monotonic_time();
	if (existing)
		a->before = tree_heads(existing, NULL);
	if (!a->before)
		a->before = g_ptr_array_new_with_free_func(
			(GDestroyNotify)tree_head_free);
	a->fetch.cancellable = o->cancellable;
	if (o->log) {
		a->fetch.progress = log_progress;
		a->fetch.user_data = a;
		a->fetch.progress_interval =
			TREEUPDATE_LOG_INTERVAL * G_TIME_SPAN_SECOND;
	}
}

static const struct tree_head *find_head(const GPtrArray *heads,
					 const char *branch)
{
	for (guint i = 0; i < heads->len; i++) {
		const struct tree_head *h = heads->pdata[i];

		if (!strcmp(h->branch, branch))
			return h;
	}
	return NULL;
}

/* "master 1234567890ab..abcdef012345, next new at 0123456789ab": the
 * branches that moved from @before to @after, or NULL when none did. */
static char *describe_moves(const GPtrArray *before, const GPtrArray *after)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < after->len; i++) {
		const struct tree_head *h = after->pdata[i];
		const struct tree_head *old = find_head(before, h->branch);
		char from[13], to[13];

		if (old && gitoid_equal(&old->commit, &h->commit))
			continue;
		g_strlcpy(to, gitoid_hex(&h->commit), sizeof(to));
		if (s->len)
			g_string_append(s, ", ");
		if (old) {
			g_strlcpy(from, gitoid_hex(&old->commit), sizeof(from));
			g_string_append_printf(s, "%s %s..%s", h->branch, from,
					       to);
		} else {
			g_string_append_printf(s, "%s new at %s", h->branch,
					       to);
		}
	}
	return s->len ? g_string_free(g_steal_pointer(&s), FALSE) : NULL;
}

/* THE HOOK.  Called once after every successful fetch or import of a tree
 * (`armbot run`'s scheduled updates and first adds, the distro imports of
 * its workers, `armbot tree add|update|import`), in the thread that did it
 * (in the daemon, the tree's worker: no series of the tree runs and no
 * other update of it starts until this returns), after the store has
 * recorded it.  @old_heads and @new_heads (struct tree_head *, sorted by
 * branch) are the tree's branches before and after: @old_heads is empty
 * for a tree just added, and the two are equal when nothing moved.  The
 * repository is DATA/trees/@tree/repo.git under @o->data_dir.
 *
 * The blob index of base discovery (kernel/base/baseguess.h) follows the
 * branches here, so that a series arriving later finds it current. */
struct index_log {
	const struct treeupdate_options *o;
	const char *tree;
};

static void on_branch_indexed(const char *branch,
			      const struct baseindex_stats *stats,
			      gpointer user_data)
{
	const struct index_log *l = user_data;
	g_autofree char *who = g_strdup_printf("tree %s", l->tree);

	if (l->o->log && stats->added)
		bot_log(who,
			"blob index of %s: %u commits indexed, %u new, %u "
			"dropped, in %.2f s",
			branch, stats->commits, stats->added, stats->dropped,
			stats->seconds);
}

static void on_tree_updated(const struct treeupdate_options *o,
			    struct tree *tree, const GPtrArray *old_heads,
			    const GPtrArray *new_heads)
{
	g_autofree char *moves = describe_moves(old_heads, new_heads);
	g_autoptr(GError) error = NULL;
	struct index_log l = { o, tree->name };

	/* G_MESSAGES_DEBUG=armbot shows that the hook ran
	 * (tests/conformance/tree-follow.t) */
	g_debug("on_tree_updated: %s: %s", tree->name,
		moves ? moves : "nothing moved");
	if (!baseguess_index_tree(tree, on_branch_indexed, &l, &error)) {
		/* the next guess tries again; the tree itself is fine */
		g_autofree char *who = g_strdup_printf("tree %s", tree->name);

		if (o->log)
			bot_log(who, "cannot index its branches: %s",
				error->message);
		else
			g_printerr("warning: cannot index tree %s: %s\n",
				   tree->name, error->message);
	}
}

static void record(const struct attempt *a, const struct store_tree_update *u)
{
	g_autoptr(GError) error = NULL;

	if (!a->o->st || store_tree_update_record(a->o->st, u, &error))
		return;
	if (a->o->log)
		bot_log(a->who, "cannot record the update: %s", error->message);
	else
		g_printerr("warning: cannot record the update of tree %s: %s\n",
			   a->name, error->message);
}

/* The end of attempt @a: @tree (owned, returned) when it succeeded, else
 * NULL and @failure (taken).  Records it (a cancelled one excepted), logs
 * it, and calls the hook on success. */
static struct tree *conclude(struct attempt *a, struct tree *tree,
			     GError *failure, GError **error)
{
	g_autoptr(GError) f = failure;
	g_autoptr(GPtrArray) after = NULL;
	g_autofree char *branches = NULL;
	g_autofree char *moves = NULL;
	g_autofree char *size = NULL;
	struct store_tree_update u = { 0 };
	char hex[GITOID_HEXSZ + 1] = "";
	struct gitoid head;

	u.tree = (char *)a->name;
	u.attempted = a->started;
	u.seconds = (g_get_monotonic_time() - a->started_mono) / 1e6;
	u.objects = a->stats.received_objects;
	u.bytes = a->stats.received_bytes;
	if (!tree) {
		if (g_error_matches(f, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
			if (a->o->log)
				bot_log(a->who, "update interrupted: %s",
					f->message);
		} else {
			if (a->branches)
				branches =
					g_strjoinv(";", (char **)a->branches);
			u.url = a->url;
			u.branches = branches;
			u.error = f->message;
			record(a, &u);
			if (a->o->log && a->interval) {
				g_autofree char *next =
					config_duration_string(a->interval);

				bot_log(a->who,
					"update failed: %s (its branches are "
					"kept; next try in %s)",
					f->message, next);
			} else if (a->o->log) {
				bot_log(a->who,
					"update failed: %s (its branches are "
					"kept)",
					f->message);
			}
		}
		attempt_clear(a);
		g_propagate_error(error, g_steal_pointer(&f));
		return NULL;
	}
	after = tree_heads(tree, NULL);
	if (!after)
		after = g_ptr_array_new();
	branches = g_strjoinv(";", tree->branches);
	u.url = tree->url;
	u.branches = branches;
	u.succeeded = g_get_real_time() / G_USEC_PER_SEC;
	if (tree_head(tree, &head, NULL)) {
		gitoid_to_hex(&head, hex);
		u.head = hex;
		u.head_branch = tree->head_branch;
	}
	record(a, &u);
	moves = describe_moves(a->before, after);
	size = g_format_size(a->stats.received_bytes);
	if (a->o->log && moves)
		bot_log(a->who, "updated in %.1f s (%u objects, %s): %s",
			u.seconds, a->stats.received_objects, size, moves);
	else if (a->o->log)
		bot_log(a->who, "up to date (%s at %.12s), checked in %.1f s",
			tree->head_branch, hex, u.seconds);
	on_tree_updated(a->o, tree, a->before, after);
	attempt_clear(a);
	return tree;
}

struct tree *treeupdate_tree(const struct treeupdate_options *o,
			     const struct treefile *tf, GError **error)
{
	struct attempt a;
	struct tree *tree;
	GError *failure = NULL;

	tree = tree_open(o->data_dir, tf->name, &failure);
	if (!tree && g_error_matches(failure, TREE_ERROR, TREE_ERROR_NOT_FOUND))
		g_clear_error(&failure);
	attempt_start(&a, o, tf->name, tree);
	a.url = g_strdup(tf->url);
	a.branches = (const char *const *)tf->branches;
	a.interval = tf->policy.update_interval;
	if (failure)
		return conclude(&a, NULL, failure, error);
	if (!tree) {
		if (o->log)
			bot_log(a.who, "adding the tree from %s", tf->url);
		tree = tree_add(o->data_dir, tf->name, tf->url, a.branches,
				&a.fetch, &a.stats, &failure);
	} else if (!tree_update(tree, &a.fetch, &a.stats, &failure)) {
		g_clear_pointer(&tree, tree_free);
	}
	return conclude(&a, tree, failure, error);
}

struct tree *treeupdate_add(const struct treeupdate_options *o,
			    const char *name, const char *url,
			    const char *const *branches, GError **error)
{
	struct attempt a;
	struct tree *tree;
	GError *failure = NULL;

	attempt_start(&a, o, name, NULL);
	a.url = g_strdup(url);
	a.branches = branches;
	tree = tree_add(o->data_dir, name, url, branches, &a.fetch, &a.stats,
			&failure);
	/* a failed add leaves no tree to try again, nor to report on: the
	 * command's error says it all */
	if (!tree) {
		attempt_clear(&a);
		g_propagate_error(error, failure);
		return NULL;
	}
	return conclude(&a, tree, NULL, error);
}

struct tree *treeupdate_fetch(const struct treeupdate_options *o,
			      const char *name, GError **error)
{
	struct tree *tree = tree_open(o->data_dir, name, error);
	g_autofree char *version = NULL;
	struct attempt a;
	GError *failure = NULL;

	if (!tree)
		return NULL;
	version = g_strdup(tree->version);
	attempt_start(&a, o, name, tree);
	a.url = g_strdup(tree->url);
	if (!tree_update(tree, &a.fetch, &a.stats, &failure)) {
		g_clear_pointer(&tree, tree_free);
	} else if (tree->kind == TREE_KIND_DISTRO &&
		   !g_strcmp0(version, tree->version)) {
		attempt_clear(&a); /* no newer package: nothing was done */
		return tree;
	}
	return conclude(&a, tree, failure, error);
}

struct tree *treeupdate_distro(const struct treeupdate_options *o,
			       GError **error)
{
	g_autoptr(kernel_tree)
		old = tree_open(o->data_dir, TREE_DISTRO_NAME, NULL);
	struct attempt a;
	struct tree *tree;
	GError *failure = NULL;

	attempt_start(&a, o, TREE_DISTRO_NAME, old);
	tree = tree_open_default(o->data_dir, &failure);
	if (tree && old && !g_strcmp0(old->version, tree->version)) {
		attempt_clear(&a); /* not imported: it was current */
		return tree;
	}
	return conclude(&a, tree, failure, error);
}

struct tree *treeupdate_import_distro(const struct treeupdate_options *o,
				      const char *tarball, const char *version,
				      struct tree_import_result *out,
				      GError **error)
{
	g_autoptr(kernel_tree)
		old = tree_open(o->data_dir, TREE_DISTRO_NAME, NULL);
	struct tree_import_result local;
	struct tree_import_result *r = out ? out : &local;
	struct attempt a;
	struct tree *tree;
	GError *failure = NULL;

	attempt_start(&a, o, TREE_DISTRO_NAME, old);
	tree = tree_import_distro(o->data_dir, tarball, version, r, &failure);
	/* a tarball that cannot be read changes nothing: the command's
	 * error says it all */
	if (!tree) {
		attempt_clear(&a);
		g_propagate_error(error, failure);
		return NULL;
	}
	a.stats.received_objects = r->objects_written;
	return conclude(&a, tree, NULL, error);
}

gboolean treeupdate_due_in(struct store *st, const struct treefile *tf,
			   gint64 now, gint64 *out, GError **error)
{
	g_autoptr(store_tree_update) u = NULL;

	*out = -1;
	if (!tf->url || !tf->policy.update_interval)
		return TRUE;
	if (!store_tree_update_get(st, tf->name, &u, error))
		return FALSE;
	if (!u || !u->attempted)
		*out = 0;
	else
		*out = MAX(0, u->attempted + tf->policy.update_interval - now);
	return TRUE;
}

gboolean treeupdate_follow(struct store *st, const struct treefile *tf,
			   GError **error)
{
	g_autofree char *branches = tf->url ? g_strjoinv(";", tf->branches) :
					      NULL;

	/* without a url (the distro tree) nothing is fetched on a schedule,
	 * and the source and branches are what its imports recorded */
	return store_tree_update_follow(
		st, tf->name, tf->url, branches,
		tf->url ? tf->policy.update_interval : 0, error);
}
