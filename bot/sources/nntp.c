/* nntp://[USER@]HOST[:PORT]/GROUP and nntps:// (bot/sources/source.h), with
 * libetpan's newsnntp.  Query options: interval=SECONDS,
 * password-file=PATH (the password, first line; instead of one in the
 * URL), ca-file=PATH (PEM CAs to trust instead of the system's), tls=no
 * (nntp:// only: no STARTTLS, a password in clear).
 *
 * TLS: nntps:// is TLS from the first byte (port 563); nntp:// asks the
 * server's CAPABILITIES and uses STARTTLS (RFC 4642) when it is offered,
 * with no fallback to clear once tried.  With a user, TLS is required:
 * AUTHINFO (RFC 4643) never goes in clear unless the URL says ?tls=no.
 * Either way the certificate chain and host name are verified
 * (bot/sources/tls.h) before anything else is sent.  Without a user, a
 * server that offers no STARTTLS is read in clear: a public group has no
 * secret to keep.
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

#include "bot/sources/server.h"
#include "bot/sources/stream.h"
#include "bot/sources/tls.h"
#include "bot/store/sources.h"

#define NNTP_TIMEOUT 60

struct nntp {
	struct source_server server; /* no user: no AUTHINFO */
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

/* What goes into a command line: libetpan formats commands into 513
 * bytes, so a long argument would be cut, and a CR or LF in one would
 * end the command early and start another (RFC 3977 3.1: arguments are
 * printable, a line at most 512 octets). */
static gboolean nntp_arg_ok(const char *arg, gboolean spaces)
{
	if (strlen(arg) > 400)
		return FALSE;
	for (const char *p = arg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f ||
		    (*p == ' ' && !spaces))
			return FALSE;
	return TRUE;
}

static gboolean nntp_open(struct source *src, const char *url, GError **error)
{
	struct nntp *nn = g_new0(struct nntp, 1);
	g_autofree char *path = NULL;

	source_set_priv(src, nn);
	if (!source_server_parse(&nn->server, src, url, "nntp", 119, 563, &path,
				 error))
		return FALSE;
	if (!*path || strchr(path, '/')) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "nntp URL '%s' needs one group: nntp://HOST/GROUP",
			    source_url(src));
		return FALSE;
	}
	if (!nntp_arg_ok(path, FALSE)) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "nntp URL '%s': not a group name", source_url(src));
		return FALSE;
	}
	nn->group = g_steal_pointer(&path);
	if (nn->server.user && !*nn->server.user)
		g_clear_pointer(&nn->server.user, g_free);
	if (!nn->server.user != !nn->server.password) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "nntp URL '%s' needs %s (AUTHINFO USER and PASS: "
			    "nntp://USER@HOST/GROUP and the password in the "
			    "URL or ?password-file=PATH)",
			    source_url(src),
			    nn->server.user ? "a password" : "a user");
		return FALSE;
	}
	if (nn->server.user && (!nntp_arg_ok(nn->server.user, FALSE) ||
				!nntp_arg_ok(nn->server.password, TRUE))) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "nntp URL '%s': the user or password has a control "
			    "character or is over 400 bytes",
			    source_url(src));
		return FALSE;
	}
	return TRUE;
}

/* Drop the connection without a word more (no QUIT): after a failure,
 * perhaps to a server that is not trusted. */
static void nntp_drop(struct nntp *nn)
{
	if (!nn->session)
		return;
	if (nn->session->nntp_stream) {
		mailstream_close(nn->session->nntp_stream);
		nn->session->nntp_stream = NULL;
	}
	newsnntp_free(nn->session);
	nn->session = NULL;
}

static void nntp_disconnect(struct source *src)
{
	struct nntp *nn = source_priv(src);

	if (nn->session) {
		newsnntp_free(nn->session); /* QUIT */
		nn->session = NULL;
	}
}

/* Send @command (without its CRLF) and read the status line (RFC 3977
 * 3.2): its code in @code; its text stays in the session's buffer until
 * the next read. */
static gboolean nntp_command(struct nntp *nn, const char *command, int *code,
			     const char **text, GError **error)
{
	mailstream *s = nn->session->nntp_stream;
	g_autofree char *line = g_strconcat(command, "\r\n", NULL);
	char *reply;

	if (mailstream_write(s, line, strlen(line)) < 0 ||
	    mailstream_flush(s) < 0 ||
	    !(reply = mailstream_read_line_remove_eol(
		      s, nn->session->nntp_stream_buffer)))
		return nntp_fail(NEWSNNTP_ERROR_STREAM, command, error);
	if (!g_ascii_isdigit(reply[0]) || !g_ascii_isdigit(reply[1]) ||
	    !g_ascii_isdigit(reply[2]) || (reply[3] && reply[3] != ' '))
		return nntp_fail(NEWSNNTP_ERROR_INVALID_RESPONSE, command,
				 error);
	*code = (reply[0] - '0') * 100 + (reply[1] - '0') * 10 +
		(reply[2] - '0');
	if (text)
		*text = reply[3] ? reply + 4 : "";
	return TRUE;
}

/* CAPABILITIES (RFC 3977 5.2): whether the server offers STARTTLS
 * (RFC 4642 2.1) and is mode-switching (MODE-READER, RFC 3977 5.3).  A
 * server without the command offers nothing. */
static gboolean nntp_capabilities(struct nntp *nn, gboolean *starttls,
				  gboolean *mode_reader, GError **error)
{
	mailstream *s = nn->session->nntp_stream;
	int code;

	*starttls = *mode_reader = FALSE;
	if (!nntp_command(nn, "CAPABILITIES", &code, NULL, error))
		return FALSE;
	if (code != 101)
		return TRUE;
	for (guint n = 0;; n++) {
		char *line = mailstream_read_line_remove_eol(
			s, nn->session->nntp_stream_buffer);

		if (!line)
			return nntp_fail(NEWSNNTP_ERROR_STREAM, "CAPABILITIES",
					 error);
		if (!strcmp(line, "."))
			return TRUE;
		if (n > 1000)
			return nntp_fail(NEWSNNTP_ERROR_INVALID_RESPONSE,
					 "CAPABILITIES", error);
		/* a label, then its arguments; labels are case-insensitive */
		line[strcspn(line, " \t")] = '\0';
		if (!g_ascii_strcasecmp(line, "STARTTLS"))
			*starttls = TRUE;
		else if (!g_ascii_strcasecmp(line, "MODE-READER"))
			*mode_reader = TRUE;
	}
}

/* nntp:// : STARTTLS when the server offers it (a mode-switching server
 * may offer it only once in reader mode), required with a user. */
static gboolean nntp_starttls(struct nntp *nn, GError **error)
{
	gboolean offered, mode_reader;
	const char *text;
	int code;

	if (!nntp_capabilities(nn, &offered, &mode_reader, error))
		return FALSE;
	if (!offered && mode_reader) {
		newsnntp_mode_reader(nn->session);
		if (!nntp_capabilities(nn, &offered, &mode_reader, error))
			return FALSE;
	}
	if (!offered && !nn->server.user)
		return TRUE;
	if (!offered) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s:%u: the server does not offer STARTTLS: not "
			    "logging in without TLS (?tls=no allows it)",
			    nn->server.host, nn->server.port);
		return FALSE;
	}
	if (!nntp_command(nn, "STARTTLS", &code, &text, error))
		return FALSE;
	if (code != 382) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s:%u: nntp STARTTLS refused (%d %s)%s",
			    nn->server.host, nn->server.port, code, text,
			    nn->server.user ? ": not logging in without TLS" :
					      "");
		return FALSE;
	}
	return source_tls_starttls(nn->session->nntp_stream, "nntp",
				   nn->server.host, nn->server.ca_file,
				   NNTP_TIMEOUT, error);
}

/* AUTHINFO USER and PASS (RFC 4643 2.3), on a connection that is TLS
 * unless ?tls=no. */
static gboolean nntp_login(struct nntp *nn, GError **error)
{
	int r = newsnntp_authinfo_username(nn->session, nn->server.user);

	if (r == NEWSNNTP_WARNING_REQUEST_AUTHORIZATION_PASSWORD)
		r = newsnntp_authinfo_password(nn->session,
					       nn->server.password);
	if (r == NEWSNNTP_NO_ERROR)
		return TRUE;
	if (r == NEWSNNTP_ERROR_STREAM)
		return nntp_fail(r, "AUTHINFO", error);
	g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_AUTH,
		    "nntp AUTHINFO: login refused (%s)",
		    nn->session->nntp_response ? nn->session->nntp_response :
						 "no answer");
	return FALSE;
}

static gboolean nntp_connect(struct source *src, GError **error)
{
	struct nntp *nn = source_priv(src);
	mailstream *s;
	int r;

	if (!(nn->session = newsnntp_new(0, NULL)))
		return nntp_fail(NEWSNNTP_ERROR_MEMORY, "connect", error);
	newsnntp_set_timeout(nn->session, NNTP_TIMEOUT);
	if (nn->server.tls) {
		/* verified before the greeting is read (newsnntp_ssl_connect
		 * would read it first) */
		s = source_tls_connect("nntp", nn->server.host, nn->server.port,
				       nn->server.ca_file, NNTP_TIMEOUT, error);
		if (!s) {
			nntp_drop(nn);
			return FALSE;
		}
		r = newsnntp_connect(nn->session, s);
		/* a greeting that is not one leaves the stream to us */
		if (r != NEWSNNTP_NO_ERROR && !nn->session->nntp_stream)
			mailstream_close(s);
	} else {
		r = newsnntp_socket_connect(nn->session, nn->server.host,
					    nn->server.port);
	}
	if (r != NEWSNNTP_NO_ERROR) {
		nntp_drop(nn);
		nntp_fail(r, "connect", error);
		g_prefix_error(error, "%s:%u: ", nn->server.host,
			       nn->server.port);
		return FALSE;
	}
	source_stream_guard(nn->session->nntp_stream);
	if (nn->server.starttls && !nntp_starttls(nn, error)) {
		nntp_drop(nn);
		return FALSE;
	}
	/* a new driver under TLS */
	source_stream_guard(nn->session->nntp_stream);
	/* RFC 3977 5.3: a reader asks for reader mode; servers that are
	 * readers only may refuse it, which is fine.  After STARTTLS the
	 * session starts over (RFC 4642 2.2.2), so it is asked again. */
	newsnntp_mode_reader(nn->session);
	if (nn->server.user && !nntp_login(nn, error)) {
		nntp_drop(nn);
		g_prefix_error(error, "%s:%u: ", nn->server.host,
			       nn->server.port);
		return FALSE;
	}
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

	source_server_clear(&nn->server);
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
