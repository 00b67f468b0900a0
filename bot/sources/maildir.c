/* maildir:PATH (bot/sources/source.h).  New mail is what a delivery agent renamed
 * into new/ (maildir(5): tmp/ first, then an atomic rename, so a file in
 * new/ is always complete); once its batch is committed it is moved to
 * cur/ with the ":2,S" info, as a mail reader marks a mail it has shown.
 * Mail that a reader moved to cur/ first is taken by its unique name (the
 * part before ':'), recorded as done in the store.  A GFileMonitor on new/
 * wakes the watcher; a scan every interval is the safety net for events
 * lost (an overflowing inotify queue, a network file system). */
#include "bot/sources/source.h"

#include <errno.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "bot/store/sources.h"
#include "mailparse/mailbox.h"

struct maildir {
	char *path;
	GFileMonitor *monitor;
	gboolean changed;
};

static gboolean maildir_open(struct source *src, const char *url,
			     GError **error)
{
	struct maildir *md = g_new0(struct maildir, 1);

	md->path = g_canonicalize_filename(url + strlen("maildir:"), NULL);
	source_set_priv(src, md);
	if (!*(url + strlen("maildir:"))) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "maildir: needs a path");
		return FALSE;
	}
	return TRUE;
}

/* The unique part of a maildir file name (maildir(5): the info follows
 * ':'). */
static char *unique_name(const char *name)
{
	const char *colon = strchr(name, ':');

	return colon ? g_strndup(name, colon - name) : g_strdup(name);
}

static gint compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The file names of @dir, sorted (delivery names start with the time). */
static GPtrArray *list_dir(const char *dir, GError **error)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, error);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	if (!d)
		return NULL;
	while ((name = g_dir_read_name(d)))
		if (name[0] != '.')
			g_ptr_array_add(names, g_strdup(name));
	g_ptr_array_sort(names, compare_names);
	return g_steal_pointer(&names);
}

struct done_data {
	const char *key;
	GPtrArray *names; /* unique names */
};

static gboolean mark_done(struct store *st, gpointer data, GError **error)
{
	struct done_data *d = data;

	for (guint i = 0; i < d->names->len; i++)
		if (!store_sources_mark_done(st, d->key, d->names->pdata[i],
					     error))
			return FALSE;
	return TRUE;
}

/* Store the files @names of @sub (new or cur) not yet done, a batch at a
 * time; files of new/ then go to cur/. */
static gboolean scan(struct source *src, struct store *st, const char *sub,
		     GError **error)
{
	struct maildir *md = source_priv(src);
	g_autofree char *dir = g_build_filename(md->path, sub, NULL);
	g_autoptr(GPtrArray) names = list_dir(dir, error);
	guint batch = source_options(src)->batch ?: 200;
	gboolean is_new = !strcmp(sub, "new");
	guint i = 0;

	if (!names)
		return FALSE;
	while (i < names->len && !source_cancelled(src)) {
		g_autoptr(GPtrArray) raws = g_ptr_array_new_with_free_func(
			(GDestroyNotify)g_bytes_unref);
		g_autoptr(GPtrArray)
			positions = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GPtrArray)
			files = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GPtrArray)
			uniques = g_ptr_array_new_with_free_func(g_free);
		struct done_data done = { source_url(src), uniques };

		for (; i < names->len && raws->len < batch; i++) {
			const char *name = names->pdata[i];
			g_autofree char *file =
				g_build_filename(dir, name, NULL);
			g_autofree char *unique = unique_name(name);
			g_autoptr(GError) local = NULL;
			g_autoptr(GBytes) b = NULL;
			gboolean seen = FALSE;

			if (!is_new &&
			    !store_sources_done(st, source_url(src), unique,
						&seen, error))
				return FALSE;
			if (seen)
				continue;
			if (!mailbox_read_maildir_file(file, &b, &local)) {
				/* taken to cur/ by a reader meanwhile: the
				 * cur/ scan finds it */
				if (g_error_matches(local, G_FILE_ERROR,
						    G_FILE_ERROR_NOENT))
					continue;
				/* not mail: left where it is, the rest
				 * taken */
				if (g_error_matches(local, G_FILE_ERROR,
						    G_FILE_ERROR_INVAL)) {
					g_warning("%s", local->message);
					continue;
				}
				g_propagate_error(error,
						  g_steal_pointer(&local));
				return FALSE;
			}
			/* as `armbot ingest DIR` reads it */
			g_ptr_array_add(raws, mailbox_convert_single(b, FALSE,
								     FALSE));
			g_ptr_array_add(positions, g_strdup(file));
			g_ptr_array_add(files, g_strdup(name));
			g_ptr_array_add(uniques, g_steal_pointer(&unique));
		}
		if (!raws->len)
			break;
		if (!source_store_batch(src, st, raws, positions, mark_done,
					&done, error))
			return FALSE;
		if (!is_new)
			continue;
		/* committed: now it may leave new/ */
		for (guint j = 0; j < files->len; j++) {
			const char *name = files->pdata[j];
			g_autofree char *from =
				g_build_filename(dir, name, NULL);
			g_autofree char *to_name =
				strchr(name, ':') ?
					g_strdup(name) :
					g_strconcat(name, ":2,S", NULL);
			g_autofree char *to = g_build_filename(md->path, "cur",
							       to_name, NULL);

			if (g_rename(from, to) && errno != ENOENT)
				g_warning("cannot move '%s' to cur/: %s", from,
					  g_strerror(errno));
		}
	}
	return TRUE;
}

static gboolean maildir_fetch(struct source *src, struct store *st,
			      GError **error)
{
	struct maildir *md = source_priv(src);

	md->changed = FALSE;
	return scan(src, st, "new", error) && scan(src, st, "cur", error);
}

static void on_changed(GFileMonitor *monitor, GFile *file, GFile *other,
		       GFileMonitorEvent event, gpointer data)
{
	struct maildir *md = data;

	if (event == G_FILE_MONITOR_EVENT_CREATED ||
	    event == G_FILE_MONITOR_EVENT_MOVED_IN ||
	    event == G_FILE_MONITOR_EVENT_RENAMED)
		md->changed = TRUE;
}

static gboolean on_timeout(gpointer data)
{
	*(gboolean *)data = TRUE;
	return G_SOURCE_REMOVE;
}

/* The cancellable's fd is readable: the loop below sees it cancelled. */
static gboolean on_cancel_fd(gint fd, GIOCondition condition, gpointer data)
{
	return G_SOURCE_CONTINUE;
}

static gboolean maildir_wait(struct source *src, GCancellable *cancellable,
			     GError **error)
{
	struct maildir *md = source_priv(src);
	GMainContext *context = g_main_context_get_thread_default();
	guint interval = source_options(src)->interval ?: 60;
	gboolean timed_out = FALSE;
	GSource *timer, *cancel = NULL;
	int fd;

	if (!md->monitor) {
		g_autofree char *dir = g_build_filename(md->path, "new", NULL);
		g_autoptr(GFile) file = g_file_new_for_path(dir);

		md->monitor = g_file_monitor_directory(
			file, G_FILE_MONITOR_WATCH_MOVES, NULL, error);
		if (!md->monitor)
			return FALSE;
		g_signal_connect(md->monitor, "changed", G_CALLBACK(on_changed),
				 md);
		/* anything delivered before the monitor existed */
		md->changed = TRUE;
	}
	timer = g_timeout_source_new_seconds(interval);
	g_source_set_callback(timer, on_timeout, &timed_out, NULL);
	g_source_attach(timer, context);
	/* the cancellable's fd wakes this loop; a GCancellableSource would
	 * do it too, but GLib 2.74 leaks one now and then when another
	 * thread cancels while this one destroys it (LeakSanitizer caught
	 * it in sources-maildir.t) */
	if (cancellable && (fd = g_cancellable_get_fd(cancellable)) >= 0) {
		cancel = g_unix_fd_source_new(fd, G_IO_IN);
		g_source_set_callback(cancel, G_SOURCE_FUNC(on_cancel_fd), NULL,
				      NULL);
		g_source_attach(cancel, context);
	}
	while (!md->changed && !timed_out &&
	       !(cancellable && g_cancellable_is_cancelled(cancellable)))
		g_main_context_iteration(context, TRUE);
	g_source_destroy(timer);
	g_source_unref(timer);
	if (cancel) {
		g_source_destroy(cancel);
		g_source_unref(cancel);
		g_cancellable_release_fd(cancellable);
	}
	return TRUE;
}

static void maildir_disconnect(struct source *src)
{
	struct maildir *md = source_priv(src);

	g_clear_object(&md->monitor);
}

static void maildir_free(gpointer priv)
{
	struct maildir *md = priv;

	g_clear_object(&md->monitor);
	g_free(md->path);
	g_free(md);
}

const struct source_ops source_maildir_ops = {
	.name = "maildir",
	.open = maildir_open,
	.fetch = maildir_fetch,
	.wait = maildir_wait,
	.disconnect = maildir_disconnect,
	.free = maildir_free,
};
