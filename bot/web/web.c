/* The web server: listening, limits, routing.  Pages, API, feed and
 * metrics are written by bot/web/page.c, web-api.c, web-feed.c and
 * web-metrics.c from the queries of bot/store/web.c. */
#include "bot/web/web.h"

#include <libsoup/soup.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/resource.h>

#include "config/datadir.h"
#include "bot/mail/series-mbox.h"
#include "bot/store/store.h"
#include "bot/store/web.h"
#include "bot/web/api.h"
#include "bot/web/conn.h"
#include "bot/web/feed.h"
#include "bot/web/metrics.h"
#include "bot/web/page.h"
#include "bot/web/trees.h"

/* Longest request target accepted (RFC 9112 3: servers should accept at
 * least 8000 octets; nothing of ours needs more than this). */
#define URI_MAX 4096
/* Longest filter value (an author or a list name). */
#define VALUE_MAX 256
/* Seconds a connection may stay without progress: a client that sends
 * its request a byte a minute is cut off, and others are not held up
 * meanwhile (libsoup serves every connection asynchronously). */
#define IDLE_SECONDS 30
/* Most octets of request line and header fields: past this, 431 (RFC
 * 6585 5), or 414 for a request line that long (bot/web/conn.c: libsoup
 * itself gives up at 64 KiB, without an answer). */
#define HEADERS_MAX (16 * 1024)
/* Open connections at most (and at most half the soft limit of open
 * files): past this the least recently active idle one is closed.  Kept
 * well under FD_SETSIZE (1024): the daemon's IMAP source (libetpan) waits
 * with select(), which aborts on a file descriptor past it. */
#define CONNECTIONS_MAX 512
/* Connections the kernel queues before accept(): a burst of new ones is
 * queued, not dropped (Linux caps it at net.core.somaxconn). */
#define LISTEN_BACKLOG 4096
/* After refusing a request whose body is not read: how long and how much
 * of it is read and dropped before closing, so that the close does not
 * reset the connection before the client has read the answer (RFC 9112
 * 9.6: close the writing side first, then keep reading a while). */
#define LINGER_SECONDS 2
#define LINGER_BYTES (4 * 1024 * 1024)

#define PER_PAGE_DEFAULT 50

struct web_server {
	char *data_dir;
	char *store_path;
	char *listen;
	char *url;
	char **archive_urls;
	guint port;
	GMainContext *context;
	/* owned by the thread iterating @context */
	struct store *st;
	SoupServer *soup;
	struct web_metrics_counts counts;
	struct web_conns *conns;
	/* thread mode */
	GThread *thread;
	GMainLoop *loop;
	GMutex lock;
	GCond cond;
	gboolean started;
	GError *start_error;
};

#define WEB_ERROR web_error_quark()

G_DEFINE_QUARK(web - error - quark, web_error)

/* The header fields of every answer.  Defence in depth: even text that
 * escaped escaping could neither run a script nor load anything from
 * elsewhere. */
static const char *const answer_fields[][2] = {
	{ "Content-Security-Policy",
	  "default-src 'none'; style-src 'unsafe-inline'; "
	  "img-src 'self'; form-action 'self'; frame-ancestors 'none'" },
	{ "X-Content-Type-Options", "nosniff" },
	{ "Referrer-Policy", "no-referrer" },
	{ "Cache-Control", "no-cache" },
};

static void set_headers(SoupServerMessage *msg)
{
	SoupMessageHeaders *h = soup_server_message_get_response_headers(msg);

	for (gsize i = 0; i < G_N_ELEMENTS(answer_fields); i++)
		soup_message_headers_replace(h, answer_fields[i][0],
					     answer_fields[i][1]);
}

/* RFC 6585 5; libsoup 3.2 has no phrase for it. */
#define STATUS_HEADERS_TOO_LARGE 431
#define HTML "text/html; charset=utf-8"
#define JSON "application/json"

static const char *status_phrase(guint status)
{
	if (status == STATUS_HEADERS_TOO_LARGE)
		return "Request Header Fields Too Large";
	return soup_status_get_phrase(status);
}

static void respond(SoupServerMessage *msg, guint status, const char *type,
		    GString *body)
{
	gsize len = body->len;

	set_headers(msg);
	soup_server_message_set_status(msg, status, status_phrase(status));
	soup_server_message_set_response(msg, type, SOUP_MEMORY_TAKE,
					 g_string_free(body, FALSE), len);
}

static void respond_error(SoupServerMessage *msg, gboolean api, guint status,
			  const char *text)
{
	GString *body = g_string_new(NULL);

	if (api)
		web_api_error(body, status, text);
	else
		web_page_error(body, status, text);
	respond(msg, status, api ? JSON : HTML, body);
}

/* RFC 9112 6.3: Content-Length with differing values is an error the
 * server must answer with 400 (identical repeats may stand). */
static gboolean lengths_conflict(SoupMessageHeaders *h)
{
	const char *list = soup_message_headers_get_list(h, "Content-Length");
	g_auto(GStrv) v = NULL;

	if (!list || !strchr(list, ','))
		return FALSE;
	v = g_strsplit(list, ",", -1);
	for (gsize i = 1; v[i]; i++)
		if (strcmp(g_strstrip(v[i]), g_strstrip(v[0])))
			return TRUE;
	return FALSE;
}

/* The refusal of a request answered on its connection, not through
 * libsoup (bot/web/conn.h): a page as respond_error() makes, and the
 * connection closes. */
static GBytes *refusal(guint status, const char *text, gboolean head,
		       gpointer data)
{
	struct web_server *ws = data;
	g_autoptr(GString) body = g_string_new(NULL);
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();
	g_autofree char *date = soup_date_time_to_string(now, SOUP_DATE_HTTP);
	GString *answer = g_string_new(NULL);

	web_page_error(body, status, text);
	g_string_printf(answer,
			"HTTP/1.1 %u %s\r\n"
			"Date: %s\r\n"
			"Connection: close\r\n",
			status, status_phrase(status), date);
	/* RFC 9110 15.5.6: 405 carries Allow */
	if (status == SOUP_STATUS_METHOD_NOT_ALLOWED)
		g_string_append(answer, "Allow: GET, HEAD\r\n");
	for (gsize i = 0; i < G_N_ELEMENTS(answer_fields); i++)
		g_string_append_printf(answer, "%s: %s\r\n",
				       answer_fields[i][0],
				       answer_fields[i][1]);
	g_string_append_printf(answer,
			       "Content-Type: " HTML "\r\n"
			       "Content-Length: %zu\r\n\r\n",
			       body->len);
	if (!head)
		g_string_append_len(answer, body->str, body->len);
	ws->counts.by_class[status / 100]++;
	return g_string_free_to_bytes(answer);
}

/* Refuse @msg with @status: on its connection when it comes with a body
 * (libsoup reads a whole body before any answer, even one the early
 * handler has set), else as any answer. */
static void refuse(struct web_server *ws, SoupServerMessage *msg, gboolean body,
		   guint status, const char *text)
{
	if (body && web_conns_refuse(ws->conns, msg, status, text))
		return;
	if (status == SOUP_STATUS_METHOD_NOT_ALLOWED)
		soup_message_headers_replace(
			soup_server_message_get_response_headers(msg), "Allow",
			"GET, HEAD");
	respond_error(msg, FALSE, status, text);
}

/* Called once the request's headers are read, before any body: refuse
 * what a read-only server never needs, so that nothing large is read.
 * The size of the header section is bounded before libsoup parses it
 * (bot/web/conn.c). */
static void early(SoupServer *soup, SoupServerMessage *msg, const char *path,
		  GHashTable *query, gpointer data)
{
	struct web_server *ws = data;
	const char *method = soup_server_message_get_method(msg);
	SoupMessageHeaders *h = soup_server_message_get_request_headers(msg);
	SoupEncoding enc = soup_message_headers_get_encoding(h);
	g_autofree char *uri =
		g_uri_to_string(soup_server_message_get_uri(msg));
	gboolean body = enc == SOUP_ENCODING_CHUNKED ||
			(enc == SOUP_ENCODING_CONTENT_LENGTH &&
			 soup_message_headers_get_content_length(h) > 0);

	if (lengths_conflict(h))
		refuse(ws, msg, TRUE, SOUP_STATUS_BAD_REQUEST,
		       "conflicting Content-Length");
	else if (method != SOUP_METHOD_GET && method != SOUP_METHOD_HEAD)
		refuse(ws, msg, body, SOUP_STATUS_METHOD_NOT_ALLOWED,
		       "this server is read-only: GET and HEAD only");
	else if (body)
		refuse(ws, msg, TRUE, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
		       "requests carry no body here");
	else if (strlen(uri) > URI_MAX)
		respond_error(msg, FALSE, SOUP_STATUS_REQUEST_URI_TOO_LONG,
			      "request target too long");
}

static gboolean valid_word(const char *v, gsize max, const char *extra)
{
	gsize n = strlen(v);

	if (n > max)
		return FALSE;
	for (gsize i = 0; i < n; i++)
		if (!g_ascii_isalnum(v[i]) && !strchr(extra, v[i]))
			return FALSE;
	return TRUE;
}

static gboolean number(const char *v, guint64 min, guint64 max, guint *out)
{
	guint64 n;

	if (!g_ascii_string_to_unsigned(v, 10, min, max, &n, NULL))
		return FALSE;
	*out = n;
	return TRUE;
}

/* The filter of `/` and `/api/series` from @query; FALSE with @error for
 * a value that cannot be right. */
static gboolean parse_filter(GHashTable *query, struct store_web_filter *f,
			     GError **error)
{
	const char *v;

	memset(f, 0, sizeof(*f));
	f->page = 1;
	f->per_page = PER_PAGE_DEFAULT;
	if (!query)
		return TRUE;
	if ((v = g_hash_table_lookup(query, "page")) && *v &&
	    !number(v, 1, 1000000, &f->page)) {
		g_set_error(error, WEB_ERROR, 0, "bad page '%.20s'", v);
		return FALSE;
	}
	if ((v = g_hash_table_lookup(query, "per_page")) && *v &&
	    !number(v, 1, STORE_WEB_PER_PAGE_MAX, &f->per_page)) {
		g_set_error(error, WEB_ERROR, 0, "per_page must be 1 to %d",
			    STORE_WEB_PER_PAGE_MAX);
		return FALSE;
	}
	f->state = g_hash_table_lookup(query, "state");
	f->tree = g_hash_table_lookup(query, "tree");
	f->author = g_hash_table_lookup(query, "author");
	f->list = g_hash_table_lookup(query, "list");
	if (f->state && !valid_word(f->state, 32, "-_")) {
		g_set_error(error, WEB_ERROR, 0, "bad state");
		return FALSE;
	}
	if (f->tree && !valid_word(f->tree, 64, "-_.")) {
		g_set_error(error, WEB_ERROR, 0, "bad tree name");
		return FALSE;
	}
	if ((f->author && (strlen(f->author) > VALUE_MAX ||
			   !g_utf8_validate(f->author, -1, NULL))) ||
	    (f->list && (strlen(f->list) > VALUE_MAX ||
			 !g_utf8_validate(f->list, -1, NULL)))) {
		g_set_error(error, WEB_ERROR, 0, "bad author or list");
		return FALSE;
	}
	return TRUE;
}

/* "/series/123" -> 123, for @prefix "/series/"; 0 when not one. */
static gint64 path_id(const char *path, const char *prefix)
{
	guint64 id;

	if (!g_str_has_prefix(path, prefix) ||
	    !g_ascii_string_to_unsigned(path + strlen(prefix), 10, 1,
					G_MAXINT64, &id, NULL))
		return 0;
	return id;
}

/* "/series/123/mbox" -> 123, for @prefix "/series/" and @suffix "/mbox";
 * 0 when not one. */
static gint64 path_suffix_id(const char *path, const char *prefix,
			     const char *suffix)
{
	g_autofree char *number = NULL;
	gsize len = strlen(path);
	guint64 id;

	if (!g_str_has_prefix(path, prefix) ||
	    !g_str_has_suffix(path, suffix) ||
	    len <= strlen(prefix) + strlen(suffix))
		return 0;
	number = g_strndup(path + strlen(prefix),
			   len - strlen(prefix) - strlen(suffix));
	if (!g_ascii_string_to_unsigned(number, 10, 1, G_MAXINT64, &id, NULL))
		return 0;
	return id;
}

/* `/series/<id>/mbox`: the series as armbot applies it, for git am
 * (series_mbox(): the reply's "To reproduce" pipes it into git am).  404
 * (an HTML page) for a series that does not exist. */
static guint series_mbox_body(struct store *st, gint64 id, GString *out,
			      GError **error)
{
	gboolean found;
	g_autoptr(store_web_series)
		x = store_web_series_get(st, id, &found, error);

	if (!x) {
		if (found || (error && *error))
			return 0;
		web_page_error(out, 404, "no such series");
		return 404;
	}
	return series_mbox(st, id, out, error) ? 200 : 0;
}

static void handle(SoupServer *soup, SoupServerMessage *msg, const char *path,
		   GHashTable *query, gpointer data)
{
	struct web_server *ws = data;
	GString *body = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	gboolean api = g_str_has_prefix(path, "/api/");
	const char *type = api ? JSON : HTML;
	struct store_web_filter filter;
	guint status = 404;
	gint64 id;

	if (soup_server_message_get_status(msg)) {
		/* answered by the early handler */
		g_string_free(body, TRUE);
		return;
	}
	if (!strcmp(path, "/") || !strcmp(path, "/api/series")) {
		if (!parse_filter(query, &filter, &error)) {
			g_string_free(body, TRUE);
			respond_error(msg, api, SOUP_STATUS_BAD_REQUEST,
				      error->message);
			return;
		}
		status = api ? web_api_series_list(ws->st, &filter, body,
						   &error) :
			       web_page_index(ws->st, &filter, body, &error);
	} else if ((id = path_id(path, "/series/"))) {
		status = web_page_series(ws->st, id, ws->data_dir, ws->url,
					 (const char *const *)ws->archive_urls,
					 body, &error);
	} else if ((id = path_suffix_id(path, "/series/", "/mbox"))) {
		status = series_mbox_body(ws->st, id, body, &error);
		/* RFC 4155: mail as it is, in whatever charset each
		 * message has; served as data, never as a page */
		if (status == 200)
			type = "application/mbox";
	} else if ((id = path_suffix_id(path, "/api/series/", "/kcidb"))) {
		status = web_api_series_kcidb(ws->data_dir, id, body, &error);
	} else if ((id = path_id(path, "/api/series/"))) {
		status = web_api_series(ws->st, id, body, &error);
	} else if (!strcmp(path, "/arch-arm")) {
		status = web_page_arch_arm(
			ws->st,
			query ? g_hash_table_lookup(query, "list") : NULL, body,
			&error);
	} else if (!strcmp(path, "/trees")) {
		status = web_page_trees(ws->st, body, &error);
	} else if (!strcmp(path, "/api/trees")) {
		status = web_api_trees(ws->st, body, &error);
	} else if (!strcmp(path, "/feed.atom")) {
		status = web_feed_atom(ws->st, ws->url, body, &error);
		type = "application/atom+xml; charset=utf-8";
	} else if (!strcmp(path, "/metrics")) {
		status = web_metrics(ws->st, &ws->counts, body, &error);
		/* Prometheus text exposition format 0.0.4 */
		type = "text/plain; version=0.0.4; charset=utf-8";
	} else {
		g_string_free(body, TRUE);
		respond_error(msg, api, SOUP_STATUS_NOT_FOUND, "no such page");
		return;
	}
	if (!status) {
		g_printerr("armbot: web: %s: %s\n", path, error->message);
		g_string_free(body, TRUE);
		respond_error(msg, api, SOUP_STATUS_INTERNAL_SERVER_ERROR,
			      "the store could not be read");
		return;
	}
	respond(msg, status, type, body);
}

static void request_finished(SoupServer *soup, SoupServerMessage *msg,
			     gpointer data)
{
	struct web_server *ws = data;
	guint status = soup_server_message_get_status(msg);

	if (status >= 200 && status < 600)
		ws->counts.by_class[status / 100]++;
}

/* @listen ("ADDR:PORT", "[ADDR]:PORT", "localhost:PORT") as a socket
 * address; host names other than localhost are refused, as binding to
 * one of several resolved addresses would surprise. */
static GSocketAddress *parse_listen(const char *listen, GError **error)
{
	g_autoptr(GSocketConnectable) where = NULL;
	g_autoptr(GInetAddress) addr = NULL;
	const char *host;
	guint16 port;

	where = g_network_address_parse(listen, 0, error);
	if (!where) {
		g_prefix_error(error, "bad listen address '%s': ", listen);
		return NULL;
	}
	host = g_network_address_get_hostname(G_NETWORK_ADDRESS(where));
	port = g_network_address_get_port(G_NETWORK_ADDRESS(where));
	if (!strchr(listen, ':') || g_str_has_suffix(listen, "]")) {
		g_set_error(error, WEB_ERROR, 0,
			    "listen address '%s' has no port", listen);
		return NULL;
	}
	if (!g_ascii_strcasecmp(host, "localhost"))
		host = "127.0.0.1";
	addr = g_inet_address_new_from_string(host);
	if (!addr) {
		g_set_error(error, WEB_ERROR, 0,
			    "listen address '%s' is not an IP address", listen);
		return NULL;
	}
	return g_inet_socket_address_new(addr, port);
}

/* A socket listening on @addr with a backlog of LISTEN_BACKLOG (libsoup's
 * own listen() asks for 10). */
static GSocket *listen_socket(GSocketAddress *addr, GError **error)
{
	g_autoptr(GSocket)
		sock = g_socket_new(g_socket_address_get_family(addr),
				    G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
				    error);

	if (!sock)
		return NULL;
	/* as soup_server_listen() has it: an IPv6 address, IPv6 only */
	if (g_socket_address_get_family(addr) == G_SOCKET_FAMILY_IPV6)
		g_socket_set_option(sock, IPPROTO_IPV6, IPV6_V6ONLY, TRUE,
				    NULL);
	g_socket_set_listen_backlog(sock, LISTEN_BACKLOG);
	if (!g_socket_bind(sock, addr, TRUE, error) ||
	    !g_socket_listen(sock, error))
		return NULL;
	return g_steal_pointer(&sock);
}

/* CONNECTIONS_MAX, or half the soft limit of open files if less. */
static guint conn_max(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur / 2 >= CONNECTIONS_MAX)
		return CONNECTIONS_MAX;
	return MAX(rl.rlim_cur / 2, 16);
}

/* In the thread that iterates @ws->context, with it thread-default. */
static gboolean setup(struct web_server *ws, GError **error)
{
	g_autoptr(GSocketAddress) addr = parse_listen(ws->listen, error);
	g_autoptr(GSocket) sock = NULL;
	g_autoptr(GSocketAddress) bound = NULL;
	g_autofree char *host = NULL;
	struct web_conns_limits limits = {
		.max = conn_max(),
		.header_max = HEADERS_MAX,
		.idle_seconds = IDLE_SECONDS,
		.linger_seconds = LINGER_SECONDS,
		.linger_max = LINGER_BYTES,
	};

	if (!addr)
		return FALSE;
	if (!(ws->st = store_open_query_only(ws->store_path, error)))
		return FALSE;
	if (!(sock = listen_socket(addr, error)) ||
	    !(bound = g_socket_get_local_address(sock, error))) {
		g_prefix_error(error, "cannot listen on %s: ", ws->listen);
		return FALSE;
	}
	ws->soup = soup_server_new("server-header", "armbot ", NULL);
	soup_server_add_early_handler(ws->soup, NULL, early, ws, NULL);
	soup_server_add_handler(ws->soup, NULL, handle, ws, NULL);
	g_signal_connect(ws->soup, "request-finished",
			 G_CALLBACK(request_finished), ws);
	/* accepted by bot/web/conn.c, not by soup_server_listen_socket() */
	ws->conns = web_conns_new(ws->soup, sock, &limits, refusal, ws);
	ws->port = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(bound));
	host = g_inet_address_to_string(g_inet_socket_address_get_address(
		G_INET_SOCKET_ADDRESS(bound)));
	if (!ws->url) {
		gboolean v6 = strchr(host, ':') != NULL;

		ws->url = g_strdup_printf("http://%s%s%s:%u", v6 ? "[" : "",
					  host, v6 ? "]" : "", ws->port);
	}
	return TRUE;
}

static void teardown(struct web_server *ws)
{
	g_clear_pointer(&ws->conns, web_conns_free);
	if (ws->soup) {
		soup_server_disconnect(ws->soup);
		g_clear_object(&ws->soup);
	}
	g_clear_pointer(&ws->st, store_free);
}

static gpointer serve_thread(gpointer data)
{
	struct web_server *ws = data;
	g_autoptr(GError) error = NULL;
	gboolean ok;

	g_main_context_push_thread_default(ws->context);
	ok = setup(ws, &error);
	g_mutex_lock(&ws->lock);
	ws->start_error = g_steal_pointer(&error);
	ws->started = TRUE;
	g_cond_signal(&ws->cond);
	g_mutex_unlock(&ws->lock);
	if (ok)
		g_main_loop_run(ws->loop);
	teardown(ws);
	/* let libsoup's last idle callbacks and sources go */
	while (g_main_context_iteration(ws->context, FALSE))
		;
	g_main_context_pop_thread_default(ws->context);
	return NULL;
}

static void server_free_fields(struct web_server *ws)
{
	g_free(ws->data_dir);
	g_free(ws->store_path);
	g_free(ws->listen);
	g_free(ws->url);
	g_strfreev(ws->archive_urls);
	g_clear_pointer(&ws->loop, g_main_loop_unref);
	g_clear_pointer(&ws->context, g_main_context_unref);
	g_clear_error(&ws->start_error);
	g_mutex_clear(&ws->lock);
	g_cond_clear(&ws->cond);
	g_free(ws);
}

struct web_server *web_server_start(const char *data_dir, const char *listen,
				    const char *public_url,
				    const char *const *archive_urls,
				    GMainContext *context, GError **error)
{
	struct web_server *ws = g_new0(struct web_server, 1);
	g_autofree char *dir = datadir_ensure(data_dir, NULL, error);

	g_mutex_init(&ws->lock);
	g_cond_init(&ws->cond);
	if (!dir) {
		server_free_fields(ws);
		return NULL;
	}
	ws->data_dir = g_strdup(dir);
	ws->store_path = g_build_filename(dir, "store.sqlite", NULL);
	ws->listen = g_strdup(listen ? listen : WEB_DEFAULT_LISTEN);
	ws->archive_urls = g_strdupv((char **)archive_urls);
	if (public_url && *public_url) {
		ws->url = g_strdup(public_url);
		/* links are written as url + "/path" */
		while (g_str_has_suffix(ws->url, "/"))
			ws->url[strlen(ws->url) - 1] = '\0';
	}
	if (context) {
		gboolean ok;

		ws->context = g_main_context_ref(context);
		g_main_context_push_thread_default(context);
		ok = setup(ws, error);
		g_main_context_pop_thread_default(context);
		if (!ok) {
			teardown(ws);
			server_free_fields(ws);
			return NULL;
		}
		return ws;
	}
	ws->context = g_main_context_new();
	ws->loop = g_main_loop_new(ws->context, FALSE);
	ws->thread = g_thread_new("armbot-web", serve_thread, ws);
	g_mutex_lock(&ws->lock);
	while (!ws->started)
		g_cond_wait(&ws->cond, &ws->lock);
	g_mutex_unlock(&ws->lock);
	if (ws->start_error) {
		g_thread_join(ws->thread);
		g_propagate_error(error, g_steal_pointer(&ws->start_error));
		server_free_fields(ws);
		return NULL;
	}
	return ws;
}

guint web_server_port(const struct web_server *server)
{
	return server->port;
}

const char *web_server_url(const struct web_server *server)
{
	return server->url;
}

static gboolean quit_loop(gpointer data)
{
	g_main_loop_quit(data);
	return G_SOURCE_REMOVE;
}

void web_server_free(struct web_server *ws)
{
	if (!ws)
		return;
	if (ws->thread) {
		g_main_context_invoke(ws->context, quit_loop, ws->loop);
		g_thread_join(ws->thread);
	} else {
		teardown(ws);
	}
	server_free_fields(ws);
}
