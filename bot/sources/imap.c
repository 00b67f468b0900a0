/* imap://[USER[:PASSWORD]@]HOST[:PORT]/FOLDER and imaps:// (bot/sources/source.h),
 * with libetpan.  Query options: password-file=PATH (the password, first
 * line; instead of one in the URL), seen=1 (set \Seen once stored),
 * idle=0 (poll even when the server has IDLE), interval=SECONDS,
 * ca-file=PATH (PEM CAs to trust instead of the system's), tls=no (imap://
 * only: log in without STARTTLS, the password in clear).
 *
 * TLS: imaps:// and, by default, imap:// with STARTTLS (RFC 3501 6.2.1,
 * required: no fallback to clear).  The server's certificate chain and
 * host name are verified (RFC 6125) before anything else is sent; a
 * server that fails gets no LOGIN.
 *
 * The cursor is UIDVALIDITY and the last UID stored (RFC 3501 2.3.1.1:
 * UIDs only grow within one UIDVALIDITY; when it changes every UID may
 * have changed, so the folder is read again from the start and the
 * Message-ID keeps what was stored from being stored twice).  New mail is
 * found with UID SEARCH UID last+1:* and read with UID FETCH BODY.PEEK[]
 * (PEEK: reading does not set \Seen; with seen=1 that is a UID STORE after
 * the commit).  Waiting is IDLE (RFC 2177), renewed every 25 minutes as it
 * recommends, or polling when the server lacks IDLE. */
#include "bot/sources/source.h"

#include <gio/gio.h>
#include <libetpan/libetpan.h>
#include <poll.h>
#include <string.h>

#include "bot/sources/server.h"
#include "bot/sources/stream.h"
#include "bot/sources/tls.h"
#include "bot/store/sources.h"

struct imap {
	struct source_server server;
	char *folder;
	gboolean seen;
	gboolean idle;
	mailimap *session;
	guint32 uidvalidity;
};

/* libetpan's status codes, in words. */
static gboolean imap_fail(int r, const char *what, GError **error)
{
	int code = SOURCE_ERROR_PROTOCOL;
	const char *why;

	switch (r) {
	case MAILIMAP_ERROR_STREAM:
		why = "connection lost";
		code = SOURCE_ERROR_NETWORK;
		break;
	case MAILIMAP_ERROR_CONNECTION_REFUSED:
		why = "connection refused";
		code = SOURCE_ERROR_NETWORK;
		break;
	case MAILIMAP_ERROR_PARSE:
		why = "malformed server response";
		break;
	case MAILIMAP_ERROR_LOGIN:
		why = "login refused";
		code = SOURCE_ERROR_AUTH;
		break;
	case MAILIMAP_ERROR_SELECT:
		why = "no such folder";
		break;
	case MAILIMAP_ERROR_SSL:
		why = "TLS failed";
		code = SOURCE_ERROR_NETWORK;
		break;
	case MAILIMAP_ERROR_MEMORY:
		why = "out of memory";
		break;
	default:
		why = "command failed";
		break;
	}
	g_set_error(error, SOURCE_ERROR, code, "imap %s: %s (libetpan %d)",
		    what, why, r);
	return FALSE;
}

static gboolean imap_open(struct source *src, const char *url, GError **error)
{
	struct imap *im = g_new0(struct imap, 1);
	g_autofree char *path = NULL;
	g_autofree char *seen = NULL;
	g_autofree char *idle = NULL;

	source_set_priv(src, im);
	if (!source_server_parse(&im->server, src, url, "imap", 143, 993, &path,
				 error))
		return FALSE;
	im->folder = g_strdup(*path ? path : "INBOX");
	seen = source_url_option(url, "seen");
	idle = source_url_option(url, "idle");
	im->seen = source_options(src)->set_seen ||
		   (seen && !strcmp(seen, "1"));
	im->idle = !idle || strcmp(idle, "0");
	if (!im->server.user || !im->server.password) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "imap URL '%s' needs a user and a password (in "
			    "the URL or ?password-file=PATH)",
			    source_url(src));
		return FALSE;
	}
	return TRUE;
}

static void imap_disconnect(struct source *src)
{
	struct imap *im = source_priv(src);

	if (im->session) {
		mailimap_free(im->session);
		im->session = NULL;
	}
}

/* imaps://: TLS, then the certificate verified, and only then the
 * greeting read (mailimap_ssl_connect would read it before any check). */
static int imap_ssl_connect(struct imap *im, GError **error)
{
	mailstream *s = source_tls_connect("imap", im->server.host,
					   im->server.port, im->server.ca_file,
					   60, error);

	return s ? mailimap_connect(im->session, s) : -1;
}

static gboolean imap_connect(struct source *src, GError **error)
{
	struct imap *im = source_priv(src);
	struct mailimap_capability_data *cap = NULL;
	int r;

	im->session = mailimap_new(0, NULL);
	if (!im->session)
		return imap_fail(MAILIMAP_ERROR_MEMORY, "connect", error);
	mailimap_set_timeout(im->session, 60);
	r = im->server.tls ?
		    imap_ssl_connect(im, error) :
		    mailimap_socket_connect(im->session, im->server.host,
					    im->server.port);
	if (r == -1) {
		imap_disconnect(src);
		return FALSE;
	}
	if (r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED &&
	    r != MAILIMAP_NO_ERROR_AUTHENTICATED)
		goto fail_connect;
	if (im->server.starttls &&
	    (r = mailimap_starttls(im->session)) != MAILIMAP_NO_ERROR) {
		imap_disconnect(src);
		imap_fail(r, "STARTTLS", error);
		g_prefix_error(error,
			       "%s:%u: not logging in without TLS "
			       "(?tls=no allows it): ",
			       im->server.host, im->server.port);
		return FALSE;
	}
	if (im->server.starttls &&
	    !source_tls_starttls(im->session->imap_stream, "imap",
				 im->server.host, im->server.ca_file, 60,
				 error)) {
		imap_disconnect(src);
		return FALSE;
	}
	source_stream_guard(im->session->imap_stream);
	if ((r = mailimap_login(im->session, im->server.user,
				im->server.password)) != MAILIMAP_NO_ERROR) {
		imap_disconnect(src);
		return imap_fail(r, "login", error);
	}
	/* the capabilities after login, for IDLE (RFC 3501 6.1.1) */
	if ((r = mailimap_capability(im->session, &cap)) != MAILIMAP_NO_ERROR) {
		imap_disconnect(src);
		return imap_fail(r, "capability", error);
	}
	mailimap_capability_data_free(cap);
	if ((r = mailimap_select(im->session, im->folder)) !=
	    MAILIMAP_NO_ERROR) {
		imap_disconnect(src);
		imap_fail(r, "select", error);
		g_prefix_error(error, "folder '%s': ", im->folder);
		return FALSE;
	}
	if (!im->session->imap_selection_info) {
		imap_disconnect(src);
		return imap_fail(MAILIMAP_ERROR_PARSE, "select", error);
	}
	im->uidvalidity = im->session->imap_selection_info->sel_uidvalidity;
	return TRUE;
fail_connect:
	imap_disconnect(src);
	imap_fail(r, "connect", error);
	g_prefix_error(error, "%s:%u: ", im->server.host, im->server.port);
	return FALSE;
}

static gint compare_uid(gconstpointer a, gconstpointer b)
{
	guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

	return x < y ? -1 : x > y;
}

/* The UIDs above @last, ascending. */
static gboolean search_new(struct imap *im, guint32 last, GArray *out,
			   GError **error)
{
	struct mailimap_set *set = mailimap_set_new_interval(last + 1, 0);
	struct mailimap_search_key *key = mailimap_search_key_new_uid(set);
	clist *result = NULL;
	int r = mailimap_uid_search(im->session, NULL, key, &result);

	mailimap_search_key_free(key);
	if (r != MAILIMAP_NO_ERROR)
		return imap_fail(r, "uid search", error);
	for (clistiter *it = clist_begin(result); it; it = clist_next(it)) {
		guint32 uid = *(guint32 *)clist_content(it);

		/* "last+1:*" includes the last message even when its UID is
		 * below last + 1 (RFC 3501 6.4.8) */
		if (uid > last)
			g_array_append_val(out, uid);
	}
	mailimap_search_result_free(result);
	g_array_sort(out, compare_uid);
	return TRUE;
}

static struct mailimap_set *uid_set(const guint32 *uids, guint n)
{
	struct mailimap_set *set = mailimap_set_new_empty();

	for (guint i = 0; i < n; i++)
		mailimap_set_add_single(set, uids[i]);
	return set;
}

struct imap_cursor {
	const char *key;
	guint32 uidvalidity, last;
	gboolean reset;
};

static gboolean write_cursor(struct store *st, gpointer data, GError **error)
{
	struct imap_cursor *c = data;

	return store_sources_set_int(st, c->key, "uidvalidity", c->uidvalidity,
				     error) &&
	       store_sources_set_int(st, c->key, "last-uid", c->last, error);
}

/* UID FETCH @n UIDs: the messages (GBytes) and where each came from. */
static gboolean fetch_uids(struct source *src, const guint32 *uids, guint n,
			   GPtrArray *raws, GPtrArray *positions,
			   GError **error)
{
	struct imap *im = source_priv(src);
	struct mailimap_set *set = uid_set(uids, n);
	struct mailimap_fetch_type *type =
		mailimap_fetch_type_new_fetch_att_list_empty();
	clist *result = NULL;
	int r;

	mailimap_fetch_type_new_fetch_att_list_add(
		type, mailimap_fetch_att_new_uid());
	mailimap_fetch_type_new_fetch_att_list_add(
		type, mailimap_fetch_att_new_body_peek_section(
			      mailimap_section_new(NULL)));
	r = mailimap_uid_fetch(im->session, set, type, &result);
	mailimap_fetch_type_free(type);
	mailimap_set_free(set);
	if (r != MAILIMAP_NO_ERROR)
		return imap_fail(r, "uid fetch", error);
	for (clistiter *it = clist_begin(result); it; it = clist_next(it)) {
		struct mailimap_msg_att *att = clist_content(it);
		guint32 uid = 0;
		const char *body = NULL;
		gsize len = 0;

		for (clistiter *a = clist_begin(att->att_list); a;
		     a = clist_next(a)) {
			struct mailimap_msg_att_item *item = clist_content(a);
			struct mailimap_msg_att_static *s;

			if (item->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC)
				continue;
			s = item->att_data.att_static;
			if (s->att_type == MAILIMAP_MSG_ATT_UID)
				uid = s->att_data.att_uid;
			else if (s->att_type == MAILIMAP_MSG_ATT_BODY_SECTION &&
				 s->att_data.att_body_section->sec_body_part) {
				body = s->att_data.att_body_section
					       ->sec_body_part;
				len = s->att_data.att_body_section->sec_length;
			}
		}
		/* an unsolicited FETCH (a flag change) has no body */
		if (!uid || !body)
			continue;
		{
			g_autoptr(GBytes) b = g_bytes_new(body, len);

			g_ptr_array_add(raws, mailbox_convert_single(b, FALSE,
								     FALSE));
		}
		g_ptr_array_add(positions,
				g_strdup_printf("%s;UIDVALIDITY=%u/;UID=%u",
						source_url(src),
						im->uidvalidity, uid));
	}
	mailimap_fetch_list_free(result);
	return TRUE;
}

static gboolean set_seen(struct imap *im, const guint32 *uids, guint n,
			 GError **error)
{
	struct mailimap_flag_list *flags = mailimap_flag_list_new_empty();
	struct mailimap_store_att_flags *att;
	struct mailimap_set *set = uid_set(uids, n);
	int r;

	mailimap_flag_list_add(flags, mailimap_flag_new_seen());
	att = mailimap_store_att_flags_new_add_flags_silent(flags);
	r = mailimap_uid_store(im->session, set, att);
	mailimap_store_att_flags_free(att);
	mailimap_set_free(set);
	return r == MAILIMAP_NO_ERROR || imap_fail(r, "uid store", error);
}

static gboolean imap_fetch(struct source *src, struct store *st, GError **error)
{
	struct imap *im = source_priv(src);
	struct imap_cursor c = { source_url(src), 0, 0, FALSE };
	g_autoptr(GArray) uids = g_array_new(FALSE, FALSE, sizeof(guint32));
	guint batch = source_options(src)->batch ?: 200;
	gint64 validity, last;
	int r;

	if (!im->session) {
		if (!imap_connect(src, error))
			return FALSE;
	} else if ((r = mailimap_noop(im->session)) != MAILIMAP_NO_ERROR) {
		/* RFC 3501 6.1.2: NOOP lets the server report new mail
		 * (dovecot looks at the folder again for it) */
		return imap_fail(r, "noop", error);
	}
	if (!store_sources_get_int(st, c.key, "uidvalidity", 0, &validity,
				   error) ||
	    !store_sources_get_int(st, c.key, "last-uid", 0, &last, error))
		return FALSE;
	c.uidvalidity = im->uidvalidity;
	c.last = validity == im->uidvalidity ? (guint32)last : 0;
	if (!search_new(im, c.last, uids, error))
		return FALSE;
	if (!uids->len && validity != im->uidvalidity) {
		/* a new (or first seen) folder: remember its UIDVALIDITY */
		g_autoptr(GPtrArray) none = g_ptr_array_new();

		return source_store_batch(src, st, none, none, write_cursor, &c,
					  error);
	}
	for (guint i = 0; i < uids->len && !source_cancelled(src);) {
		g_autoptr(GPtrArray) raws = g_ptr_array_new_with_free_func(
			(GDestroyNotify)g_bytes_unref);
		g_autoptr(GPtrArray)
			positions = g_ptr_array_new_with_free_func(g_free);
		guint n = MIN(batch, uids->len - i);
		const guint32 *chunk = &g_array_index(uids, guint32, i);

		if (!fetch_uids(src, chunk, n, raws, positions, error))
			return FALSE;
		/* UIDs that vanished (expunged) since the search are done
		 * too */
		c.last = chunk[n - 1];
		if (!source_store_batch(src, st, raws, positions, write_cursor,
					&c, error))
			return FALSE;
		/* only now that they are stored */
		if (im->seen && !set_seen(im, chunk, n, error))
			return FALSE;
		i += n;
	}
	return TRUE;
}

static gboolean imap_wait(struct source *src, GCancellable *cancellable,
			  GError **error)
{
	struct imap *im = source_priv(src);
	guint interval = source_options(src)->interval ?: 60;
	struct pollfd p[2];
	gint64 end;
	int r;

	if (!im->session)
		return TRUE;
	if (!im->idle || !mailimap_has_idle(im->session))
		return source_sleep(cancellable, interval) || TRUE;
	if ((r = mailimap_idle(im->session)) != MAILIMAP_NO_ERROR)
		return imap_fail(r, "idle", error);
	p[0] = (struct pollfd){ .fd = mailimap_idle_get_fd(im->session),
				.events = POLLIN };
	p[1] = (struct pollfd){
		.fd = cancellable ? g_cancellable_get_fd(cancellable) : -1,
		.events = POLLIN
	};
	/* RFC 2177: re-issue IDLE at least every 29 minutes */
	end = g_get_monotonic_time() + 25 * 60 * G_USEC_PER_SEC;
	for (;;) {
		gint64 left = end - g_get_monotonic_time();

		/* a response already read into libetpan's buffer */
		if (im->session->imap_stream->read_buffer_len > 0)
			break;
		if (left <= 0 ||
		    (cancellable && g_cancellable_is_cancelled(cancellable)))
			break;
		if (poll(p, 2, (int)(left / 1000) + 1) > 0 &&
		    (p[0].revents || p[1].revents))
			break;
	}
	if (cancellable)
		g_cancellable_release_fd(cancellable);
	if ((r = mailimap_idle_done(im->session)) != MAILIMAP_NO_ERROR)
		return imap_fail(r, "idle", error);
	return TRUE;
}

static void imap_free(gpointer priv)
{
	struct imap *im = priv;

	source_server_clear(&im->server);
	g_free(im->folder);
	g_free(im);
}

const struct source_ops source_imap_ops = {
	.name = "imap",
	.open = imap_open,
	.fetch = imap_fetch,
	.wait = imap_wait,
	.disconnect = imap_disconnect,
	.free = imap_free,
};
