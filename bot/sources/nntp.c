/* nntp://HOST[:PORT]/GROUP (bot/sources/source.h), with libetpan's newsnntp.
 * Query option: interval=SECONDS.
 *
 * The cursor is the number of the last article stored: article numbers
 * only grow within a group (RFC 3977 6.1.1.2), so what is new is every
 * number above it up to the group's high water mark, read with ARTICLE by
 * number.  A number with no article (423: cancelled, expired, never used)
 * is skipped; articles below the low water mark are gone from the server.
 * NNTP has no push: the group is polled every interval. */
#include "bot/sources/source.h"

#include <libetpan/libetpan.h>
#include <string.h>

#include "bot/sources/stream.h"
#include "bot/store/sources.h"

struct nntp {
	char *host;
	guint16 port;
	char *group;
	newsnntp *session;
};

static gboolean nntp_fail(int r, const char *what, GError **error)
{
	int code = SOURCE_ERROR_PROTOCOL;
	const char *why;

	switch (r) {
	case NEWSNNTP_ERROR_STREAM:
		why = "connection lost";
		code = SOURCE_ERROR_NETWORK;
		break;
	case NEWSNNTP_ERROR_CONNECTION_REFUSED:
		why = "connection refused";
		code = SOURCE_ERROR_NETWORK;
		break;
	case NEWSNNTP_ERROR_NO_SUCH_NEWS_GROUP:
		why = "no such group";
		break;
	case NEWSNNTP_ERROR_UNEXPECTED_RESPONSE:
	case NEWSNNTP_ERROR_INVALID_RESPONSE:
		why = "malformed server response";
		break;
	case NEWSNNTP_ERROR_REQUEST_AUTHORIZATION_USERNAME:
	case NEWSNNTP_ERROR_AUTHENTICATION_REJECTED:
	case NEWSNNTP_ERROR_NO_PERMISSION:
		why = "the server wants a login";
		code = SOURCE_ERROR_AUTH;
		break;
	case NEWSNNTP_ERROR_MEMORY:
		why = "out of memory";
		break;
	default:
		why = "command failed";
		break;
	}
	g_set_error(error, SOURCE_ERROR, code, "nntp %s: %s (libetpan %d)",
		    what, why, r);
	return FALSE;
}

static gboolean nntp_open(struct source *src, const char *url, GError **error)
{
	struct nntp *nn = g_new0(struct nntp, 1);
	g_autoptr(GUri) uri = NULL;
	GError *local = NULL;
	const char *path;
	int port;

	source_set_priv(src, nn);
	uri = g_uri_parse(url, G_URI_FLAGS_NONE, &local);
	if (!uri || !g_uri_get_host(uri) || !*g_uri_get_host(uri)) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "bad nntp URL '%s': %s", url,
			    local ? local->message : "no host");
		g_clear_error(&local);
		return FALSE;
	}
	nn->host = g_strdup(g_uri_get_host(uri));
	port = g_uri_get_port(uri);
	nn->port = port > 0 ? port : 119;
	path = g_uri_get_path(uri);
	while (*path == '/')
		path++;
	if (!*path || strchr(path, '/')) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "nntp URL '%s' needs one group: nntp://HOST/GROUP",
			    url);
		return FALSE;
	}
	nn->group = g_strdup(path);
	return TRUE;
}

static void nntp_disconnect(struct source *src)
{
	struct nntp *nn = source_priv(src);

	if (nn->session) {
		newsnntp_free(nn->session);
		nn->session = NULL;
	}
}

static gboolean nntp_connect(struct source *src, GError **error)
{
	struct nntp *nn = source_priv(src);
	int r;

	if (!(nn->session = newsnntp_new(0, NULL)))
		return nntp_fail(NEWSNNTP_ERROR_MEMORY, "connect", error);
	newsnntp_set_timeout(nn->session, 60);
	if ((r = newsnntp_socket_connect(nn->session, nn->host, nn->port)) !=
	    NEWSNNTP_NO_ERROR) {
		nntp_disconnect(src);
		nntp_fail(r, "connect", error);
		g_prefix_error(error, "%s:%u: ", nn->host, nn->port);
		return FALSE;
	}
	source_stream_guard(nn->session->nntp_stream);
	/* RFC 3977 5.3: a reader asks for reader mode; servers that are
	 * readers only may refuse it, which is fine */
	newsnntp_mode_reader(nn->session);
	return TRUE;
}

struct nntp_cursor {
	const char *key;
	guint32 article;
};

static gboolean write_cursor(struct store *st, gpointer data, GError **error)
{
	struct nntp_cursor *c = data;

	return store_sources_set_int(st, c->key, "article", c->article, error);
}

static gboolean nntp_fetch(struct source *src, struct store *st, GError **error)
{
	struct nntp *nn = source_priv(src);
	struct newsnntp_group_info *info = NULL;
	struct nntp_cursor c = { source_url(src), 0 };
	guint batch = source_options(src)->batch ?: 200;
	guint32 first, high, n;
	gint64 last;
	int r;

	if (!nn->session && !nntp_connect(src, error))
		return FALSE;
	if ((r = newsnntp_group(nn->session, nn->group, &info)) !=
	    NEWSNNTP_NO_ERROR) {
		nntp_fail(r, "group", error);
		g_prefix_error(error, "'%s': ", nn->group);
		return FALSE;
	}
	first = info->grp_first;
	high = info->grp_last;
	newsnntp_group_free(info);
	if (!store_sources_get_int(st, c.key, "article", 0, &last, error))
		return FALSE;
	/* an empty group reports high = low - 1 (RFC 3977 6.1.1.2) */
	n = MAX((guint32)last + 1, first);
	while (n <= high && high && !source_cancelled(src)) {
		g_autoptr(GPtrArray) raws = g_ptr_array_new_with_free_func(
			(GDestroyNotify)g_bytes_unref);
		g_autoptr(GPtrArray)
			positions = g_ptr_array_new_with_free_func(g_free);

		for (; n <= high && raws->len < batch; n++) {
			char *text = NULL;
			size_t len = 0;

			r = newsnntp_article(nn->session, n, &text, &len);
			if (r == NEWSNNTP_ERROR_ARTICLE_NOT_FOUND ||
			    r == NEWSNNTP_ERROR_INVALID_ARTICLE_NUMBER)
				continue;
			if (r != NEWSNNTP_NO_ERROR) {
				/* what this batch read is not committed:
				 * read again after the reconnect */
				nntp_fail(r, "article", error);
				g_prefix_error(error, "%u: ", n);
				return FALSE;
			}
			{
				g_autoptr(GBytes) b = g_bytes_new(text, len);

				g_ptr_array_add(raws, mailbox_convert_single(
							      b, FALSE, FALSE));
			}
			newsnntp_article_free(text);
			g_ptr_array_add(positions,
					g_strdup_printf("%s/%u",
							source_url(src), n));
		}
		c.article = n - 1;
		if (!source_store_batch(src, st, raws, positions, write_cursor,
					&c, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean nntp_wait(struct source *src, GCancellable *cancellable,
			  GError **error)
{
	/* no connection held open between polls: servers time idle
	 * readers out */
	nntp_disconnect(src);
	source_sleep(cancellable, source_options(src)->interval ?: 60);
	return TRUE;
}

static void nntp_free(gpointer priv)
{
	struct nntp *nn = priv;

	g_free(nn->host);
	g_free(nn->group);
	g_free(nn);
}

const struct source_ops source_nntp_ops = {
	.name = "nntp",
	.open = nntp_open,
	.fetch = nntp_fetch,
	.wait = nntp_wait,
	.disconnect = nntp_disconnect,
	.free = nntp_free,
};
