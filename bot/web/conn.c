/* The web server's connections: accepting, the header limit, the cap and
 * the refusals.  See bot/web/conn.h. */
#include "bot/web/conn.h"

#include <netinet/in.h>
#include <netinet/tcp.h>

/* Connections accepted per turn of the main loop, so that a burst of new
 * ones does not hold up the requests of those already in. */
#define ACCEPT_BATCH 64
/* accept() failed for want of files and nothing could be closed: the
 * pause before the next try (the listening socket stays readable, and
 * trying at once would spin). */
#define ACCEPT_PAUSE_MS 100

enum conn_state {
	CONN_HEADER, /* reading the header section: idle, may be closed */
	CONN_REQUEST, /* header section complete: a request in flight */
	CONN_REFUSING, /* answered here, reading what the client still sends */
	CONN_CLOSED,
};

/* One connection, as the input stream libsoup reads it from. */
#define WEB_TYPE_CONN (web_conn_get_type())
G_DECLARE_FINAL_TYPE(WebConn, web_conn, WEB, CONN, GInputStream)

struct _WebConn {
	GInputStream parent;
	struct web_conns *conns; /* NULL once they are freed */
	GSocketConnection *base;
	GSocket *sock; /* base's */
	GInputStream *in; /* base's */
	enum conn_state state;
	GList link; /* in conns->idle while CONN_HEADER */
	/* the header section read so far */
	gsize header_len;
	gsize line_len; /* octets of the current line, without its LF */
	gboolean line_cr; /* the current line is "\r" so far */
	gboolean request_line; /* a line with content is complete */
	/* after a refusal */
	GSource *drain, *linger;
	gsize drained;
};

struct web_conns {
	SoupServer *soup;
	GSocket *listener;
	GMainContext *context;
	struct web_conns_limits limits;
	web_conns_answer_fn answer;
	gpointer answer_data;
	GSource *accept, *pause;
	gulong started, finished, aborted;
	/* every WebConn not CONN_CLOSED (a reference each) */
	GHashTable *open;
	/* the CONN_HEADER ones, least recently active first */
	GQueue idle;
	/* the connection soup_server_accept_iostream() is starting */
	WebConn *accepting;
};

/* The WebConn of a SoupServerMessage. */
static GQuark conn_quark(void)
{
	return g_quark_from_static_string("armbot-web-conn");
}

static void source_clear(GSource **source)
{
	if (*source) {
		g_source_destroy(*source);
		g_clear_pointer(source, g_source_unref);
	}
}

/* Close @c's socket now and forget it.  Drops the reference of
 * @c->conns: the caller holds one if it uses @c afterwards.  libsoup,
 * if it still reads, gets an error from web_conn_read_nonblocking() and
 * lets its end go. */
static void conn_close(WebConn *c)
{
	struct web_conns *conns = c->conns;
	enum conn_state was = c->state;

	if (was == CONN_CLOSED)
		return;
	c->state = CONN_CLOSED;
	source_clear(&c->drain);
	source_clear(&c->linger);
	g_io_stream_close(G_IO_STREAM(c->base), NULL, NULL);
	if (!conns)
		return;
	if (was == CONN_HEADER)
		g_queue_unlink(&conns->idle, &c->link);
	g_hash_table_remove(conns->open, c);
}

/* Close the least recently active connection that is still reading its
 * header section; FALSE when there is none.  A shutdown, so that the read
 * libsoup waits on ends now and libsoup closes the socket (the next turn
 * of the main loop); closed here, its descriptor could be reused by the
 * next connection while libsoup still polls it. */
static gboolean conns_evict(struct web_conns *conns)
{
	WebConn *c = g_queue_peek_head(&conns->idle);

	if (!c)
		return FALSE;
	g_socket_shutdown(c->sock, TRUE, TRUE, NULL);
	g_queue_unlink(&conns->idle, &c->link);
	c->state = CONN_CLOSED;
	g_hash_table_remove(conns->open, c);
	return TRUE;
}

static gboolean conn_drain(GSocket *sock, GIOCondition condition, gpointer data)
{
	WebConn *c = data;
	g_autoptr(GError) error = NULL;
	char buf[16384];
	gssize n = g_socket_receive_with_blocking(sock, buf, sizeof(buf), FALSE,
						  NULL, &error);

	if (n < 0 && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
		return G_SOURCE_CONTINUE;
	if (n <= 0 || (c->drained += n) >= c->conns->limits.linger_max) {
		conn_close(c);
		return G_SOURCE_REMOVE;
	}
	return G_SOURCE_CONTINUE;
}

static gboolean conn_linger_over(gpointer data)
{
	conn_close(data);
	return G_SOURCE_REMOVE;
}

/* Write the refusal of @status on @c, shut down its writing side and read
 * what the client still sends (a body) for a while before closing, so
 * that the close does not reset the connection before the client has read
 * the answer (RFC 9112 9.6). */
static void conn_refuse(WebConn *c, guint status, const char *text,
			gboolean head)
{
	struct web_conns *conns = c->conns;
	g_autoptr(GBytes)
		answer = conns->answer(status, text, head, conns->answer_data);
	gsize len;
	const char *data = g_bytes_get_data(answer, &len);

	if (c->state == CONN_HEADER)
		g_queue_unlink(&conns->idle, &c->link);
	c->state = CONN_REFUSING;
	/* nothing has been written on the connection: its send buffer
	 * (16 KiB at least) takes the answer at once */
	if (g_socket_send_with_blocking(c->sock, data, len, FALSE, NULL, NULL) <
		    0 ||
	    !g_socket_shutdown(c->sock, FALSE, TRUE, NULL)) {
		conn_close(c);
		return;
	}
	c->drain = g_socket_create_source(c->sock, G_IO_IN | G_IO_HUP, NULL);
	g_source_set_callback(c->drain, G_SOURCE_FUNC(conn_drain), c, NULL);
	g_source_attach(c->drain, conns->context);
	c->linger = g_timeout_source_new_seconds(conns->limits.linger_seconds);
	g_source_set_callback(c->linger, conn_linger_over, c, NULL);
	g_source_attach(c->linger, conns->context);
}

/* @c was active: the last of the idle ones to close. */
static void conn_touch(WebConn *c)
{
	g_queue_unlink(&c->conns->idle, &c->link);
	g_queue_push_tail_link(&c->conns->idle, &c->link);
}

/* Follow the header section in the @n octets of @buf libsoup is about to
 * read.  Its end is where libsoup sees it: a line "\n" or "\r\n" after at
 * least 2 (3) other octets (soup_message_io_data_read_headers()).  FALSE
 * with @error once the section is over the limit: the connection is then
 * refused with 414 or 431. */
static gboolean conn_scan(WebConn *c, const guint8 *buf, gsize n,
			  GError **error)
{
	gsize max = c->conns->limits.header_max;

	conn_touch(c);
	for (gsize i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			gsize start = c->header_len - c->line_len;
			gboolean cr = c->line_len == 1 && c->line_cr;

			if ((c->line_len == 0 && start >= 2) ||
			    (cr && start >= 3)) {
				g_queue_unlink(&c->conns->idle, &c->link);
				c->state = CONN_REQUEST;
				return TRUE;
			}
			if (c->line_len && !cr)
				c->request_line = TRUE;
			c->line_len = 0;
			c->line_cr = FALSE;
		} else {
			c->line_cr = c->line_len == 0 && buf[i] == '\r';
			c->line_len++;
		}
		if (++c->header_len > max) {
			/* RFC 9110 15.5.15 (the target), RFC 6585 5 */
			gboolean target = !c->request_line;

			conn_refuse(c, target ? 414 : 431,
				    target ? "request line too long" :
					     "request header too large",
				    FALSE);
			g_set_error(error, G_IO_ERROR,
				    G_IO_ERROR_MESSAGE_TOO_LARGE,
				    "request header over %zu octets", max);
			return FALSE;
		}
	}
	return TRUE;
}

/* Whether @c may still be read: a closed or refusing connection is
 * G_IO_ERROR_CLOSED. */
static gboolean conn_readable(WebConn *c, GError **error)
{
	if (c->state == CONN_CLOSED || c->state == CONN_REFUSING) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_CLOSED,
				    "connection closed");
		return FALSE;
	}
	return TRUE;
}

/* What a read of @c returns once it read @n bytes into @buf: the header
 * bytes are scanned as they pass (-1 when they break its limits). */
static gssize conn_read_done(WebConn *c, const void *buf, gssize n,
			     GError **error)
{
	if (n > 0 && c->state == CONN_HEADER && !conn_scan(c, buf, n, error))
		return -1;
	return n;
}

static gssize web_conn_read_nonblocking(GPollableInputStream *stream, void *buf,
					gsize count, GError **error)
{
	WebConn *c = WEB_CONN(stream);

	if (!conn_readable(c, error))
		return -1;
	return conn_read_done(c, buf,
			      g_pollable_input_stream_read_nonblocking(
				      G_POLLABLE_INPUT_STREAM(c->in), buf,
				      count, NULL, error),
			      error);
}

static gssize web_conn_read(GInputStream *stream, void *buf, gsize count,
			    GCancellable *cancellable, GError **error)
{
	WebConn *c = WEB_CONN(stream);

	if (!conn_readable(c, error))
		return -1;
	return conn_read_done(c, buf,
			      g_input_stream_read(c->in, buf, count,
						  cancellable, error),
			      error);
}

static gboolean web_conn_can_poll(GPollableInputStream *stream)
{
	return TRUE;
}

static gboolean web_conn_is_readable(GPollableInputStream *stream)
{
	WebConn *c = WEB_CONN(stream);

	/* a closed one is "readable": the reader gets its error at once */
	return c->state == CONN_CLOSED || c->state == CONN_REFUSING ||
	       g_pollable_input_stream_is_readable(
		       G_POLLABLE_INPUT_STREAM(c->in));
}

static GSource *web_conn_create_source(GPollableInputStream *stream,
				       GCancellable *cancellable)
{
	WebConn *c = WEB_CONN(stream);
	g_autoptr(GSource) child = NULL;

	if (c->state == CONN_CLOSED || c->state == CONN_REFUSING)
		child = g_timeout_source_new(0);
	else
		child = g_pollable_input_stream_create_source(
			G_POLLABLE_INPUT_STREAM(c->in), NULL);
	return g_pollable_source_new_full(stream, child, cancellable);
}

/* libsoup closing its stream: the socket too, unless it is being refused
 * here (libsoup lets go of a connection taken from it by closing). */
static gboolean web_conn_close(GInputStream *stream, GCancellable *cancellable,
			       GError **error)
{
	WebConn *c = WEB_CONN(stream);

	if (c->state == CONN_REFUSING)
		return TRUE;
	g_object_ref(c);
	conn_close(c);
	/* an evicted one is CONN_CLOSED with its socket still open */
	g_io_stream_close(G_IO_STREAM(c->base), NULL, NULL);
	g_object_unref(c);
	return TRUE;
}

static void web_conn_pollable_init(GPollableInputStreamInterface *iface)
{
	iface->can_poll = web_conn_can_poll;
	iface->is_readable = web_conn_is_readable;
	iface->create_source = web_conn_create_source;
	iface->read_nonblocking = web_conn_read_nonblocking;
}

G_DEFINE_TYPE_WITH_CODE(WebConn, web_conn, G_TYPE_INPUT_STREAM,
			G_IMPLEMENT_INTERFACE(G_TYPE_POLLABLE_INPUT_STREAM,
					      web_conn_pollable_init))

static void web_conn_finalize(GObject *object)
{
	WebConn *c = WEB_CONN(object);

	/* CONN_CLOSED: the open set held a reference until then */
	g_clear_object(&c->sock);
	g_clear_object(&c->base);
	G_OBJECT_CLASS(web_conn_parent_class)->finalize(object);
}

static void web_conn_class_init(WebConnClass *klass)
{
	GInputStreamClass *in = G_INPUT_STREAM_CLASS(klass);

	G_OBJECT_CLASS(klass)->finalize = web_conn_finalize;
	in->read_fn = web_conn_read;
	in->close_fn = web_conn_close;
}

static void web_conn_init(WebConn *c)
{
	c->link.data = c;
}

/* Serve @sock with libsoup, after closing an idle connection if that
 * many are open (or @sock itself, when none is idle). */
static void conns_add(struct web_conns *conns, GSocket *sock)
{
	g_autoptr(GSocketAddress) local = NULL;
	g_autoptr(GSocketAddress) remote = NULL;
	g_autoptr(GIOStream) stream = NULL;
	WebConn *c;

	if (g_hash_table_size(conns->open) >= conns->limits.max &&
	    !conns_evict(conns)) {
		g_socket_close(sock, NULL);
		return;
	}
	local = g_socket_get_local_address(sock, NULL);
	remote = g_socket_get_remote_address(sock, NULL);
	if (!local || !remote) {
		/* gone already */
		g_socket_close(sock, NULL);
		return;
	}
	/* a read or write without progress for that long fails with
	 * G_IO_ERROR_TIMED_OUT (GSocket sources honour it) and libsoup
	 * closes the connection: a client sending its request a byte a
	 * minute, or reading its answer so, is cut off */
	g_socket_set_timeout(sock, conns->limits.idle_seconds);
	/* as libsoup sets it on the sockets it accepts */
	g_socket_set_option(sock, IPPROTO_TCP, TCP_NODELAY, TRUE, NULL);
	c = g_object_new(WEB_TYPE_CONN, NULL);
	c->conns = conns;
	c->sock = g_object_ref(sock);
	c->base = g_socket_connection_factory_create_connection(sock);
	c->in = g_io_stream_get_input_stream(G_IO_STREAM(c->base));
	g_hash_table_add(conns->open, c);
	g_queue_push_tail_link(&conns->idle, &c->link);
	stream = g_simple_io_stream_new(
		G_INPUT_STREAM(c),
		g_io_stream_get_output_stream(G_IO_STREAM(c->base)));
	conns->accepting = c;
	if (!soup_server_accept_iostream(conns->soup, stream, local, remote,
					 NULL))
		conn_close(c);
	conns->accepting = NULL;
}

static void conns_listen(struct web_conns *conns);

static gboolean conns_resume(gpointer data)
{
	struct web_conns *conns = data;

	g_clear_pointer(&conns->pause, g_source_unref);
	conns_listen(conns);
	return G_SOURCE_REMOVE;
}

static gboolean conns_accept(GSocket *listener, GIOCondition condition,
			     gpointer data)
{
	struct web_conns *conns = data;

	for (guint i = 0; i < ACCEPT_BATCH; i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GSocket)
			sock = g_socket_accept(listener, NULL, &error);

		if (sock) {
			conns_add(conns, sock);
			continue;
		}
		if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
			break;
		/* the evicted socket is closed on the next turn of the loop:
		 * accept again then */
		if (g_error_matches(error, G_IO_ERROR,
				    G_IO_ERROR_TOO_MANY_OPEN_FILES) &&
		    conns_evict(conns))
			break;
		/* out of files with nothing idle to close, or a failure of
		 * the listening socket: wait a little rather than spin */
		g_clear_pointer(&conns->accept, g_source_unref);
		conns->pause = g_timeout_source_new(ACCEPT_PAUSE_MS);
		g_source_set_callback(conns->pause, conns_resume, conns, NULL);
		g_source_attach(conns->pause, conns->context);
		return G_SOURCE_REMOVE;
	}
	return G_SOURCE_CONTINUE;
}

static void conns_listen(struct web_conns *conns)
{
	conns->accept = g_socket_create_source(conns->listener, G_IO_IN, NULL);
	g_source_set_callback(conns->accept, G_SOURCE_FUNC(conns_accept), conns,
			      NULL);
	g_source_attach(conns->accept, conns->context);
}

/* RFC 9112 9.6: the connection closes after this response (see
 * bot/web/conn.h for libsoup 3.2's kept-alive connections). */
static void say_close(SoupServerMessage *msg, gpointer unused)
{
	soup_message_headers_replace(
		soup_server_message_get_response_headers(msg), "Connection",
		"close");
}

/* libsoup emits request-started for a new connection from within
 * soup_server_accept_iostream(). */
static void conns_request_started(SoupServer *soup, SoupServerMessage *msg,
				  gpointer data)
{
	struct web_conns *conns = data;

	if (conns->accepting)
		g_object_set_qdata_full(G_OBJECT(msg), conn_quark(),
					g_object_ref(conns->accepting),
					g_object_unref);
	say_close(msg, NULL);
	/* again once the handler has run: "100 Continue" clears the
	 * response header */
	g_signal_connect(msg, "got-body", G_CALLBACK(say_close), NULL);
}

static gboolean conn_after_request(gpointer data)
{
	WebConn *c = data;

	/* libsoup closed it after the answer, unless it kept it open
	 * anyway (the header of an answer after "100 Continue" starts
	 * anew, without "Connection: close"): one request per connection.
	 * Closed, not shut down as conns_evict() does: libsoup 3.2 ignores
	 * the end of a connection it keeps alive. */
	if (c->state == CONN_REQUEST)
		conn_close(c);
	return G_SOURCE_REMOVE;
}

static void conns_request_done(SoupServer *soup, SoupServerMessage *msg,
			       gpointer data)
{
	struct web_conns *conns = data;
	WebConn *c = g_object_get_qdata(G_OBJECT(msg), conn_quark());
	g_autoptr(GSource) later = NULL;

	if (!c || c->state != CONN_REQUEST)
		return;
	later = g_idle_source_new();
	g_source_set_callback(later, conn_after_request, g_object_ref(c),
			      g_object_unref);
	g_source_attach(later, conns->context);
}

struct web_conns *web_conns_new(SoupServer *soup, GSocket *listener,
				const struct web_conns_limits *limits,
				web_conns_answer_fn answer, gpointer data)
{
	struct web_conns *conns = g_new0(struct web_conns, 1);

	conns->soup = g_object_ref(soup);
	conns->listener = g_object_ref(listener);
	conns->context = g_main_context_ref_thread_default();
	conns->limits = *limits;
	conns->answer = answer;
	conns->answer_data = data;
	conns->open = g_hash_table_new_full(NULL, NULL, g_object_unref, NULL);
	g_socket_set_blocking(listener, FALSE);
	conns->started = g_signal_connect(soup, "request-started",
					  G_CALLBACK(conns_request_started),
					  conns);
	conns->finished = g_signal_connect(soup, "request-finished",
					   G_CALLBACK(conns_request_done),
					   conns);
	conns->aborted = g_signal_connect(
		soup, "request-aborted", G_CALLBACK(conns_request_done), conns);
	conns_listen(conns);
	return conns;
}

gboolean web_conns_refuse(struct web_conns *conns, SoupServerMessage *msg,
			  guint status, const char *text)
{
	WebConn *c = g_object_get_qdata(G_OBJECT(msg), conn_quark());
	gboolean head = soup_server_message_get_method(msg) == SOUP_METHOD_HEAD;
	GIOStream *stolen;

	if (!c || c->conns != conns || c->state != CONN_REQUEST)
		return FALSE;
	g_object_ref(c);
	/* first, so that libsoup's close of its stream leaves the socket
	 * (web_conn_close()) */
	c->state = CONN_REFUSING;
	stolen = soup_server_message_steal_connection(msg);
	g_clear_object(&stolen);
	conn_refuse(c, status, text, head);
	g_object_unref(c);
	return TRUE;
}

void web_conns_free(struct web_conns *conns)
{
	GList *all;

	if (!conns)
		return;
	source_clear(&conns->accept);
	source_clear(&conns->pause);
	g_signal_handler_disconnect(conns->soup, conns->started);
	g_signal_handler_disconnect(conns->soup, conns->finished);
	g_signal_handler_disconnect(conns->soup, conns->aborted);
	all = g_hash_table_get_keys(conns->open);
	for (GList *l = all; l; l = l->next)
		g_object_ref(l->data);
	for (GList *l = all; l; l = l->next) {
		WebConn *c = l->data;

		conn_close(c);
		c->conns = NULL;
	}
	g_list_free_full(all, g_object_unref);
	g_socket_close(conns->listener, NULL);
	g_object_unref(conns->listener);
	g_object_unref(conns->soup);
	g_main_context_unref(conns->context);
	g_hash_table_destroy(conns->open);
	g_free(conns);
}
