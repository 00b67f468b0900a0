/* TLS for the IMAP and NNTP sources (bot/sources/tls.h). */
#include "bot/sources/tls.h"

#include <errno.h>
#include <gio/gio.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <unistd.h>

#include "bot/sources/source.h"

gboolean source_tls_verify(mailstream *s, const char *proto, const char *host,
			   const char *ca_file, GError **error)
{
	gnutls_x509_trust_list_t tl = NULL;
	gnutls_x509_crt_t *crts = NULL;
	gnutls_typed_vdata_st data = { GNUTLS_DT_DNS_HOSTNAME,
				       (unsigned char *)host, 0 };
	gnutls_datum_t out = { NULL, 0 };
	unsigned int status = 0, n = 0;
	carray *chain;
	gboolean ok = FALSE;
	int r;

	chain = mailstream_get_certificate_chain(s);
	if (!chain || !carray_count(chain)) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s %s: no server certificate", proto, host);
		goto done;
	}
	crts = g_new0(gnutls_x509_crt_t, carray_count(chain));
	for (; n < carray_count(chain); n++) {
		MMAPString *der = carray_get(chain, n);
		gnutls_datum_t d = { (unsigned char *)der->str, der->len };

		if (gnutls_x509_crt_init(&crts[n]) < 0 ||
		    gnutls_x509_crt_import(crts[n], &d, GNUTLS_X509_FMT_DER) <
			    0) {
			n++;
			g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
				    "%s %s: bad server certificate", proto,
				    host);
			goto done;
		}
	}
	if (gnutls_x509_trust_list_init(&tl, 0) < 0) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s %s: cannot make a trust list", proto, host);
		goto done;
	}
	r = ca_file ? gnutls_x509_trust_list_add_trust_file(
			      tl, ca_file, NULL, GNUTLS_X509_FMT_PEM, 0, 0) :
		      gnutls_x509_trust_list_add_system_trust(tl, 0, 0);
	if (r <= 0) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_URL,
			    "%s %s: no trusted CA in '%s'", proto, host,
			    ca_file ? ca_file : "the system trust store");
		goto done;
	}
	r = gnutls_x509_trust_list_verify_crt2(tl, crts, n, &data, 1, 0,
					       &status, NULL);
	if (r < 0 || status) {
		if (r >= 0)
			gnutls_certificate_verification_status_print(
				status, GNUTLS_CRT_X509, &out, 0);
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s %s: server certificate not trusted, closing "
			    "the connection: %s",
			    proto, host,
			    r < 0 ? gnutls_strerror(r) : (char *)out.data);
		gnutls_free(out.data);
		goto done;
	}
	ok = TRUE;
done:
	if (tl)
		gnutls_x509_trust_list_deinit(tl, 1); /* and its CAs */
	for (unsigned int i = 0; i < n; i++)
		if (crts[i])
			gnutls_x509_crt_deinit(crts[i]);
	g_free(crts);
	if (chain)
		mailstream_certificate_chain_free(chain);
	return ok;
}

/* SNI (RFC 6066 3): the host name, for servers with several names. */
static void tls_context(struct mailstream_ssl_context *ctx, void *host)
{
	mailstream_ssl_set_server_name(ctx, host);
}

mailstream *source_tls_connect(const char *proto, const char *host,
			       guint16 port, const char *ca_file,
			       time_t timeout, GError **error)
{
	g_autoptr(GSocketClient) client = g_socket_client_new();
	g_autoptr(GSocketConnection) conn = NULL;
	g_autoptr(GError) local = NULL;
	mailstream *s;
	int fd;

	g_socket_client_set_timeout(client, timeout);
	conn = g_socket_client_connect_to_host(client, host, port, NULL,
					       &local);
	if (!conn) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s:%u: %s connect: %s", host, port, proto,
			    local->message);
		return NULL;
	}
	/* libetpan owns its own descriptor; the GSocket closes the other */
	fd = dup(g_socket_get_fd(g_socket_connection_get_socket(conn)));
	if (fd < 0) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s:%u: %s connect: %s", host, port, proto,
			    g_strerror(errno));
		return NULL;
	}
	s = mailstream_ssl_open_with_callback_timeout(fd, timeout, tls_context,
						      (void *)host);
	if (!s) {
		close(fd);
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s:%u: %s connect: TLS handshake failed", host,
			    port, proto);
		return NULL;
	}
	if (!source_tls_verify(s, proto, host, ca_file, error)) {
		mailstream_close(s);
		return NULL;
	}
	return s;
}

gboolean source_tls_starttls(mailstream *s, const char *proto, const char *host,
			     const char *ca_file, time_t timeout,
			     GError **error)
{
	mailstream_low *low = mailstream_get_low(s);
	mailstream_low *tls;
	int fd;

	/* RFC 4642 2.2.2 and RFC 3501 11.1 (the STARTTLS injection of
	 * CVE-2011-0411): what came before the handshake is not protected */
	if (s->read_buffer_len > 0) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_PROTOCOL,
			    "%s %s: data after the STARTTLS answer, before "
			    "TLS: refused",
			    proto, host);
		return FALSE;
	}
	fd = mailstream_low_get_fd(low);
	if (fd < 0) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s %s: STARTTLS: no connection", proto, host);
		return FALSE;
	}
	tls = mailstream_low_tls_open_with_callback_timeout(
		fd, timeout, tls_context, (void *)host);
	if (!tls) {
		g_set_error(error, SOURCE_ERROR, SOURCE_ERROR_NETWORK,
			    "%s %s: STARTTLS: TLS handshake failed", proto,
			    host);
		return FALSE;
	}
	/* frees the plain driver's state, not its descriptor: TLS has it */
	mailstream_low_free(low);
	mailstream_set_low(s, tls);
	return source_tls_verify(s, proto, host, ca_file, error);
}
