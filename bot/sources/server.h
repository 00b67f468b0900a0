/* The server of an imap://, imaps://, nntp:// or nntps:// URL
 * (bot/sources/source.h): host and port, TLS, the login, and the query
 * options both read: password-file=PATH (the password, first line;
 * instead of one in the URL), ca-file=PATH (PEM CAs to trust instead of
 * the system's), tls=no (the plain scheme only: no STARTTLS). */
#pragma once

#include <glib.h>

struct source;

struct source_server {
	char *host;
	guint16 port;
	gboolean tls; /* the "s" scheme: TLS from the first byte */
	gboolean starttls; /* the plain scheme without ?tls=no */
	char *ca_file; /* or NULL: the system's CAs */
	char *user; /* or NULL */
	char *password; /* or NULL */
};

/* Read @url, of scheme @proto ("imap", "nntp") or @proto "s", into @out
 * (cleared by the caller, also on failure): the port when the URL has
 * none is @port, or @tls_port for TLS.  *@path is the URL's path without
 * its leading slashes (newly allocated).  FALSE with @error
 * (SOURCE_ERROR_URL) for a URL without a host or an unreadable password
 * file, naming the URL as source_url(@src) does (its password left
 * out). */
gboolean source_server_parse(struct source_server *out,
			     const struct source *src, const char *url,
			     const char *proto, guint16 port, guint16 tls_port,
			     char **path, GError **error);

/* Free what @s holds, the password overwritten first. */
void source_server_clear(struct source_server *s);
