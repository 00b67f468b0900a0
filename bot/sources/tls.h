/* TLS for the sources that speak over libetpan streams (IMAP, NNTP):
 * the server's certificate chain is verified with GnuTLS against the
 * system's trust store or a source's ca-file (PEM), and its host name
 * checked (RFC 6125), before the source sends anything that matters.
 * The host name also goes out as SNI (RFC 6066 3).
 *
 * @proto ("imap", "nntp") starts every error message. */
#pragma once

#include <glib.h>
#include <libetpan/libetpan.h>

/* Connect to @host:@port and start TLS at once (imaps://, nntps://);
 * the certificate verified with source_tls_verify().  Returns the stream
 * (the caller's, with mailstream_close()) with nothing read from it yet,
 * or NULL with @error set (SOURCE_ERROR). */
mailstream *source_tls_connect(const char *proto, const char *host,
			       guint16 port, const char *ca_file,
			       time_t timeout, GError **error);

/* STARTTLS (RFC 3501 6.2.1, RFC 4642 2.2): once the server has accepted
 * the command on @s, TLS on its connection, then verified.  Anything the
 * server sent after its answer and before the handshake is refused (it
 * would be taken as sent under TLS).  FALSE with @error on failure: the
 * caller drops the connection. */
gboolean source_tls_starttls(mailstream *s, const char *proto, const char *host,
			     const char *ca_file, time_t timeout,
			     GError **error);

/* Verify the certificate chain the TLS peer of @s presented against
 * @ca_file, or the system's trust store when NULL, and that it names
 * @host. */
gboolean source_tls_verify(mailstream *s, const char *proto, const char *host,
			   const char *ca_file, GError **error);
