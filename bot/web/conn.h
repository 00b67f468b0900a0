/* The web server's connections: accepted here, not by libsoup, so that
 * their number, the size of their request header and their end are ours
 * to bound.  Each accepted socket is handed to libsoup
 * (soup_server_accept_iostream()) behind an input stream of ours that
 * counts the header section as libsoup reads it.
 *
 *  - One request per connection: every response says "Connection: close".
 *    libsoup 3.2 never notices that a client closed a kept-alive
 *    connection between two requests: it reads the end of the stream,
 *    drops its source and keeps the socket (CLOSE_WAIT) for ever, one file
 *    per client that goes away (fixed upstream in 3.3, "server: add
 *    SoupServerConnection"; Debian 12 has 3.2.3).
 *  - A header section (request line and fields) over
 *    web_conns_limits.header_max octets is answered here, 414 when the
 *    request line alone is that long, 431 otherwise (RFC 6585 5), before
 *    libsoup reaches its own limit of 64 KiB, past which it drops the
 *    connection without an answer.
 *  - At most web_conns_limits.max connections are open: a new one closes
 *    the least recently active connection that has not yet sent a whole
 *    header section.  A connection with a request in flight (its header
 *    section complete) is never closed to make room; when every one has,
 *    the new connection is closed at once.
 *  - A connection without progress for idle_seconds (reading or writing)
 *    is closed by libsoup (GSocket timeout).
 *  - web_conns_refuse() answers a request without reading its body. */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

struct web_conns;

/* The whole answer (status line, header, body) refusing a request with
 * @status for the reason @text; @head: without a body.  Called once per
 * refusal (web_conns_refuse() and the header limits); returns a new
 * GBytes. */
typedef GBytes *(*web_conns_answer_fn)(guint status, const char *text,
				       gboolean head, gpointer data);

struct web_conns_limits {
	guint max; /* connections open at once */
	gsize header_max; /* octets of request line and header fields */
	guint idle_seconds; /* without progress */
	guint linger_seconds; /* reading after a refusal, at most */
	gsize linger_max; /* octets read after a refusal, at most */
};

/* Accept the connections of @listener (a listening socket: the result
 * takes a reference and closes it when freed) in the thread-default main
 * context and serve them with @soup; @answer (with @data) writes the
 * refusals made here.  Free with web_conns_free() in the same thread. */
struct web_conns *web_conns_new(SoupServer *soup, GSocket *listener,
				const struct web_conns_limits *limits,
				web_conns_answer_fn answer, gpointer data);

/* Answer @msg, whose header section has just been read (an early
 * handler), with @answer's refusal and close its connection without
 * reading its body: libsoup would read (and keep) a whole body before
 * any answer.  The connection is taken from libsoup; its writing side is
 * shut down and what the client still sends is read and dropped for a
 * while, so that it reads the answer rather than a reset (RFC 9112 9.6).
 * FALSE when @msg is not on a connection of @conns (nothing done). */
gboolean web_conns_refuse(struct web_conns *conns, SoupServerMessage *msg,
			  guint status, const char *text);

/* Stop accepting and close every connection; NULL is accepted. */
void web_conns_free(struct web_conns *conns);
