/* The boot files over HTTP (see qemu/fileserve.h). */
#include "qemu/fileserve.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#define MAX_REQUEST 8192

struct fileserve {
	GSocket *sock;
	GCancellable *stop;
	GThread *thread;
	char *host;
	guint port;
	char *token;
	GHashTable *files; /* base name -> path */
	gint served;
};

static void send_all(GSocket *s, const char *buf, gsize len, GCancellable *stop)
{
	while (len) {
		gssize n = g_socket_send(s, buf, len, stop, NULL);

		if (n <= 0)
			return;
		buf += n;
		len -= (gsize)n;
	}
}

static void respond(struct fileserve *fs, GSocket *c, const char *req)
{
	char method[8], target[1024];
	const char *path = NULL;
	g_autofree char *prefix = g_strdup_printf("/%s/", fs->token);
	g_autoptr(GMappedFile) map = NULL;
	g_autofree char *head = NULL;

	if (sscanf(req, "%7s %1023s", method, target) == 2 &&
	    (!strcmp(method, "GET") || !strcmp(method, "HEAD")) &&
	    g_str_has_prefix(target, prefix))
		path = g_hash_table_lookup(fs->files, target + strlen(prefix));
	if (path)
		map = g_mapped_file_new(path, FALSE, NULL);
	if (!map) {
		static const char nf[] = "HTTP/1.0 404 Not Found\r\n"
					 "Content-Length: 0\r\n"
					 "Connection: close\r\n\r\n";

		send_all(c, nf, strlen(nf), fs->stop);
		return;
	}
	head = g_strdup_printf("HTTP/1.0 200 OK\r\n"
			       "Content-Type: application/octet-stream\r\n"
			       "Content-Length: %zu\r\n"
			       "Connection: close\r\n\r\n",
			       g_mapped_file_get_length(map));
	send_all(c, head, strlen(head), fs->stop);
	if (!strcmp(method, "GET"))
		send_all(c, g_mapped_file_get_contents(map),
			 g_mapped_file_get_length(map), fs->stop);
	g_atomic_int_inc(&fs->served);
}

static gpointer serve(gpointer data)
{
	struct fileserve *fs = data;

	for (;;) {
		g_autoptr(GSocket)
			c = g_socket_accept(fs->sock, fs->stop, NULL);
		char req[MAX_REQUEST + 1];
		gsize len = 0;

		if (!c) {
			if (g_cancellable_is_cancelled(fs->stop))
				return NULL;
			continue;
		}
		g_socket_set_timeout(c, 30);
		/* the request line and headers, up to the blank line */
		while (len < MAX_REQUEST) {
			gssize n = g_socket_receive(c, req + len,
						    MAX_REQUEST - len, fs->stop,
						    NULL);

			if (n <= 0)
				break;
			len += (gsize)n;
			req[len] = '\0';
			if (strstr(req, "\r\n\r\n"))
				break;
		}
		req[len] = '\0';
		if (strstr(req, "\r\n\r\n"))
			respond(fs, c, req);
		g_socket_close(c, NULL);
	}
}

struct fileserve *fileserve_start(const char *host, guint port,
				  const char *const *paths, GError **error)
{
	g_autoptr(fileserve) fs = g_new0(struct fileserve, 1);
	g_autoptr(GInetAddress) addr = g_inet_address_new_from_string(host);
	g_autoptr(GSocketAddress) sa = NULL;
	g_autoptr(GSocketAddress) bound = NULL;
	guint8 raw[16];

	fs->files =
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	fs->stop = g_cancellable_new();
	if (!addr) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
			    "'%s' is not an address to serve boot files on",
			    host);
		return NULL;
	}
	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "no random bytes for the boot files' token");
		return NULL;
	}
	fs->token =
		g_compute_checksum_for_data(G_CHECKSUM_MD5, raw, sizeof(raw));
	for (guint i = 0; paths[i]; i++)
		g_hash_table_insert(fs->files, g_path_get_basename(paths[i]),
				    g_strdup(paths[i]));
	fs->sock = g_socket_new(g_inet_address_get_family(addr),
				G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
				error);
	if (!fs->sock)
		return NULL;
	sa = g_inet_socket_address_new(addr, (guint16)port);
	if (!g_socket_bind(fs->sock, sa, TRUE, error) ||
	    !g_socket_listen(fs->sock, error))
		return NULL;
	bound = g_socket_get_local_address(fs->sock, error);
	if (!bound)
		return NULL;
	fs->port = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(bound));
	fs->host = g_inet_address_get_family(addr) == G_SOCKET_FAMILY_IPV6 ?
			   g_strdup_printf("[%s]", host) :
			   g_strdup(host);
	fs->thread = g_thread_new("fileserve", serve, fs);
	return g_steal_pointer(&fs);
}

char *fileserve_url(const struct fileserve *fs, const char *path)
{
	g_autofree char *base = g_path_get_basename(path);

	return g_strdup_printf("http://%s:%u/%s/%s", fs->host, fs->port,
			       fs->token, base);
}

guint fileserve_served(const struct fileserve *fs)
{
	return (guint)g_atomic_int_get(&fs->served);
}

void fileserve_free(struct fileserve *fs)
{
	if (!fs)
		return;
	g_cancellable_cancel(fs->stop);
	if (fs->thread)
		g_thread_join(fs->thread);
	if (fs->sock)
		g_socket_close(fs->sock, NULL);
	g_clear_object(&fs->sock);
	g_clear_object(&fs->stop);
	g_hash_table_unref(fs->files);
	g_free(fs->host);
	g_free(fs->token);
	g_free(fs);
}
