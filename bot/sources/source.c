/* Sources (bot/sources/source.h): the URL dispatch, the batch commit shared by
 * every source, and the watcher thread with its reconnect backoff. */
#include "bot/sources/source.h"

#include <poll.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK(source - error - quark, source_error)

/* Shared between a source and the callbacks it queued on the caller's
 * context, so that source_stop() can drop the ones not yet run. */
struct source_link {
	gint refs;
	gint stopped;
};

struct source {
	const struct source_ops *ops;
	char *url; /* as given */
	char *key; /* without password and query: the cursor's name */
	struct source_options opts;
	gpointer priv;
	struct ingest_counts *counts; /* of the current source_fetch() */
	/* watching */
	GThread *thread;
	GCancellable *cancellable;
	char *store_path;
	GMainContext *context;
	source_batch_fn on_batch;
	source_error_fn on_error;
	gpointer user_data;
	struct source_link *link;
};

static const struct {
	const char *prefix;
	const struct source_ops *ops;
} schemes[] = {
	{ "maildir:", &source_maildir_ops }, { "imap://", &source_imap_ops },
	{ "imaps://", &source_imap_ops },    { "nntp://", &source_nntp_ops },
	{ "nntps://", &source_nntp_ops },    { "news://", &source_nntp_ops },
	{ "http://", &source_http_ops },     { "https://", &source_http_ops },
};

/* The cursor's name: the URL without password, query or fragment (so that
 * ?interval=... can change without losing the position); a maildir by its
 * absolute path. */
static char *source_key(const char *url, GError **error)
{
	g_autoptr(GUri) uri = NULL;
	g_autoptr(GUri) bare = NULL;

	if (g_str_has_prefix(url, "maildir:")) {
		g_autofree char *path =
			g_canonicalize_filename(url + strlen("maildir:"), NULL);

		return g_strconcat("maildir:", path, NULL);
	}
	uri = g_uri_parse(url, G_URI_FLAGS_HAS_PASSWORD | G_URI_FLAGS_ENCODED,
			  error);
	if (!uri) {
		g_prefix_error(error, "bad source URL: ");
		return NULL;
	}
	bare = g_uri_build_with_user(
		G_URI_FLAGS_HAS_PASSWORD | G_URI_FLAGS_ENCODED,
		g_uri_get_scheme(uri), g_uri_get_user(uri), NULL, NULL,
		g_uri_get_host(uri), g_uri_get_port(uri), g_uri_get_path(uri),
		NULL, NULL);
	return g_uri_to_string(bare);
}

struct source *source_new(const char *url, const struct source_options *opts,
			  GError **error)
{
	g_autoptr(source) src = g_new0(struct source, 1);
	GError *local = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(schemes); i++)
		if (g_str_has_prefix(url, schemes[i].prefix))
			src->ops = schemes[i].ops;
	if (!src->ops) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "'%s' is not a source URL (maildir:, imap://, "
			    "imaps://, nntp://, nntps://, http://, https://)",
			    url);
		return NULL;
	}
	src->url = g_strdup(url);
	src->opts = *opts;
	if (!(src->key = source_key(url, &local))) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL, "%s",
			    local->message);
		g_error_free(local);
		return NULL;
	}
	if (!src->ops->open(src, url, error))
		return NULL;
	return g_steal_pointer(&src);
}

const char *source_url(const struct source *src)
{
	return src->key;
}

gpointer source_priv(struct source *src)
{
	return src->priv;
}

void source_set_priv(struct source *src, gpointer priv)
{
	src->priv = priv;
}

const struct source_options *source_options(const struct source *src)
{
	return &src->opts;
}

gboolean source_cancelled(const struct source *src)
{
	return src->cancellable && g_cancellable_is_cancelled(src->cancellable);
}

gboolean source_sleep(GCancellable *cancellable, guint seconds)
{
	struct pollfd p = { .fd = -1, .events = POLLIN };
	gint64 end = g_get_monotonic_time() + (gint64)seconds * G_USEC_PER_SEC;

	if (!cancellable) {
		g_usleep((gulong)seconds * G_USEC_PER_SEC);
		return TRUE;
	}
	p.fd = g_cancellable_get_fd(cancellable);
	for (;;) {
		gint64 left = end - g_get_monotonic_time();

		if (g_cancellable_is_cancelled(cancellable))
			break;
		if (left <= 0) {
			g_cancellable_release_fd(cancellable);
			return TRUE;
		}
		poll(&p, 1, (int)(left / 1000) + 1);
	}
	g_cancellable_release_fd(cancellable);
	return FALSE;
}

char *source_url_option(const char *url, const char *name)
{
	const char *q = strchr(url, '?');
	g_autoptr(GHashTable) params = NULL;
	const char *v;

	if (!q)
		return NULL;
	params = g_uri_parse_params(q + 1, -1, "&", G_URI_PARAMS_NONE, NULL);
	if (!params || !(v = g_hash_table_lookup(params, name)))
		return NULL;
	return g_strdup(v);
}

static void link_unref(struct source_link *link)
{
	if (g_atomic_int_dec_and_test(&link->refs))
		g_free(link);
}

/* A batch or an error, on its way to the caller's context. */
struct source_note {
	struct source_link *link;
	source_batch_fn on_batch;
	source_error_fn on_error;
	gpointer user_data;
	char *url;
	struct ingest_counts counts;
	GPtrArray *new_ids;
	GError *error;
};

static void note_free(gpointer data)
{
	struct source_note *n = data;

	link_unref(n->link);
	g_free(n->url);
	g_clear_pointer(&n->new_ids, g_ptr_array_unref);
	g_clear_error(&n->error);
	g_free(n);
}

static gboolean note_dispatch(gpointer data)
{
	struct source_note *n = data;

	if (g_atomic_int_get(&n->link->stopped))
		return G_SOURCE_REMOVE;
	if (n->error) {
		if (n->on_error)
			n->on_error(n->url, n->error, n->user_data);
	} else if (n->on_batch) {
		struct source_batch b = { n->url, n->counts, n->new_ids };

		n->on_batch(&b, n->user_data);
	}
	return G_SOURCE_REMOVE;
}

static void note_send(struct source *src, const struct ingest_counts *counts,
		      GPtrArray *new_ids, const GError *error)
{
	struct source_note *n = g_new0(struct source_note, 1);

	g_atomic_int_inc(&src->link->refs);
	n->link = src->link;
	n->on_batch = src->on_batch;
	n->on_error = src->on_error;
	n->user_data = src->user_data;
	n->url = g_strdup(src->key);
	if (counts)
		n->counts = *counts;
	if (new_ids)
		n->new_ids = g_ptr_array_ref(new_ids);
	if (error)
		n->error = g_error_copy(error);
	g_main_context_invoke_full(src->context, G_PRIORITY_DEFAULT,
				   note_dispatch, n, note_free);
}

gboolean source_store_batch(struct source *src, struct store *st,
			    GPtrArray *raws, GPtrArray *positions,
			    source_cursor_fn cursor_fn, gpointer cursor_data,
			    GError **error)
{
	g_autoptr(GPtrArray) new_ids = g_ptr_array_new_with_free_func(g_free);
	struct ingest_counts counts = { 0 };
	gint64 timeout = src->opts.incomplete_timeout ?
				 src->opts.incomplete_timeout :
				 6 * 3600;

	if (!store_begin(st, error))
		return FALSE;
	for (guint i = 0; i < raws->len; i++)
		if (!ingest_message(st, raws->pdata[i], positions->pdata[i],
				    &counts, new_ids, NULL, error))
			goto fail;
	if (cursor_fn && !cursor_fn(st, cursor_data, error))
		goto fail;
	if ((counts.added || counts.unparseable) &&
	    !ingest_assemble(st, timeout, error))
		goto fail;
	if (!store_commit(st, error))
		goto fail;
	if (src->counts)
		ingest_counts_add(src->counts, &counts);
	if (src->context && src->on_batch &&
	    (counts.added || counts.unparseable))
		note_send(src, &counts, new_ids, NULL);
	return TRUE;
fail:
	store_rollback(st);
	return FALSE;
}

gboolean source_fetch(struct source *src, struct store *st,
		      struct ingest_counts *counts, GError **error)
{
	struct ingest_counts local = { 0 };
	gboolean ok;

	src->counts = counts ? counts : &local;
	ok = src->ops->fetch(src, st, error);
	src->counts = NULL;
	if (!ok)
		g_prefix_error(error, "%s: ", src->key);
	return ok;
}

static void note_error(struct source *src, GError *error)
{
	g_prefix_error(&error, "%s: ", src->key);
	if (src->on_error)
		note_send(src, NULL, NULL, error);
	else
		g_warning("%s", error->message);
	g_error_free(error);
}

static gpointer watch_thread(gpointer data)
{
	struct source *src = data;
	g_autoptr(GMainContext) context = g_main_context_new();
	g_autoptr(store) st = NULL;
	guint backoff = 1;

	/* the maildir source's file monitor runs on this thread's context */
	g_main_context_push_thread_default(context);
	while (!source_cancelled(src)) {
		GError *error = NULL;

		if (!st && !(st = store_open(src->store_path, &error))) {
			note_error(src, error);
		} else if (src->ops->fetch(src, st, &error) &&
			   src->ops->wait(src, src->cancellable, &error)) {
			backoff = 1;
			continue;
		} else if (error) {
			note_error(src, error);
		}
		if (source_cancelled(src))
			break;
		src->ops->disconnect(src);
		source_sleep(src->cancellable, backoff);
		backoff = MIN(backoff * 2, 300);
	}
	src->ops->disconnect(src);
	g_main_context_pop_thread_default(context);
	return NULL;
}

gboolean source_start(struct source *src, const char *store_path,
		      GMainContext *context, source_batch_fn on_batch,
		      source_error_fn on_error, gpointer user_data,
		      GError **error)
{
	g_return_val_if_fail(!src->thread, FALSE);
	src->store_path = g_strdup(store_path);
	src->context = context ? g_main_context_ref(context) :
				 g_main_context_ref_thread_default();
	src->on_batch = on_batch;
	src->on_error = on_error;
	src->user_data = user_data;
	src->cancellable = g_cancellable_new();
	src->link = g_new0(struct source_link, 1);
	src->link->refs = 1;
	src->thread = g_thread_try_new("source", watch_thread, src, error);
	return src->thread != NULL;
}

void source_stop(struct source *src)
{
	if (!src || !src->thread)
		return;
	g_atomic_int_set(&src->link->stopped, 1);
	g_cancellable_cancel(src->cancellable);
	g_thread_join(src->thread);
	src->thread = NULL;
	g_clear_pointer(&src->link, link_unref);
	g_clear_object(&src->cancellable);
	g_clear_pointer(&src->context, g_main_context_unref);
	g_clear_pointer(&src->store_path, g_free);
}

void source_free(struct source *src)
{
	if (!src)
		return;
	source_stop(src);
	if (src->priv && src->ops) {
		src->ops->disconnect(src);
		src->ops->free(src->priv);
	}
	g_free(src->url);
	g_free(src->key);
	g_free(src);
}
