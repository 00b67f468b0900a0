/* The server of a source URL; see bot/sources/server.h. */
#include "bot/sources/server.h"

#include <string.h>

#include "bot/sources/source.h"
#include "config/secretfile.h"

gboolean source_server_parse(struct source_server *out,
			     const struct source *src, const char *url,
			     const char *proto, guint16 port, guint16 tls_port,
			     char **path, GError **error)
{
	g_autoptr(GUri) uri = NULL;
	g_autofree char *file = NULL;
	g_autofree char *tls = NULL;
	g_autofree char *tls_scheme = g_strconcat(proto, "s", NULL);
	GError *local = NULL;
	const char *p;
	int uri_port;

	uri = g_uri_parse(url, G_URI_FLAGS_HAS_PASSWORD, &local);
	if (!uri || !g_uri_get_host(uri) || !*g_uri_get_host(uri)) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "bad %s URL '%s': %s", proto, source_url(src),
			    local ? local->message : "no host");
		g_clear_error(&local);
		return FALSE;
	}
	out->tls = !strcmp(g_uri_get_scheme(uri), tls_scheme);
	out->host = g_strdup(g_uri_get_host(uri));
	uri_port = g_uri_get_port(uri);
	out->port = uri_port > 0 ? uri_port : out->tls ? tls_port : port;
	out->user = g_strdup(g_uri_get_user(uri));
	out->password = g_strdup(g_uri_get_password(uri));
	out->ca_file = source_url_option(url, "ca-file");
	tls = source_url_option(url, "tls");
	out->starttls = !out->tls && !(tls && !strcmp(tls, "no"));
	for (p = g_uri_get_path(uri); *p == '/'; p++)
		;
	*path = g_strdup(p);
	file = source_url_option(url, "password-file");
	if (file) {
		char *text = secretfile_read(file, &local);

		if (!text) {
			g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
				    "%s password file: %s", proto,
				    local->message);
			g_clear_error(&local);
			return FALSE;
		}
		g_free(out->password);
		out->password = g_strndup(text, strcspn(text, "\r\n"));
		secretfile_free(text);
	}
	return TRUE;
}

void source_server_clear(struct source_server *s)
{
	g_clear_pointer(&s->host, g_free);
	g_clear_pointer(&s->ca_file, g_free);
	g_clear_pointer(&s->user, g_free);
	if (s->password)
		memset(s->password, 0, strlen(s->password));
	g_clear_pointer(&s->password, g_free);
}
