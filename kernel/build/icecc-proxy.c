/* The iceccd proxy of a series' build: icecream's client<->local daemon
 * protocol (services/comm.cpp: MsgChannel, Msg::send_to_channel) parsed
 * on the way in, so that code from a patch reaches iceccd only with the
 * messages a compile sends (client/main.cpp, client/remote.cpp), never
 * with GET_NATIVE_ENV, which makes iceccd pack host files
 * (ICECC_EXTRAFILES) into an environment outside the sandbox. */
#define _GNU_SOURCE /* accept4() */
#include "kernel/build/icecc-proxy.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* services/comm.h: MIN_PROTOCOL_VERSION, and comm.cpp's sanity bound */
#define ICECC_PROXY_MIN_PROTOCOL 21u
#define ICECC_PROXY_MAX_PROTOCOL (1u << 20)
/* connections at once: make's -j of one build, with room to spare */
#define ICECC_PROXY_MAX_CONNS 256
/* a peer that takes no bytes for this long is dropped, so that one
 * stuck client cannot stall the proxy's thread */
#define ICECC_PROXY_SEND_TIMEOUT_S 30
#define ICECC_PROXY_READ_CHUNK 16384

static guint32 get_be32(const guint8 *p)
{
	return (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 |
	       p[3];
}

static guint32 get_le32(const guint8 *p)
{
	return (guint32)p[3] << 24 | (guint32)p[2] << 16 | (guint32)p[1] << 8 |
	       p[0];
}

enum icecc_proxy_verdict icecc_proxy_check_handshake(const guint8 *buf,
						     gsize len, char **why)
{
	guint32 offered, agreed;

	if (len < ICECC_PROXY_HANDSHAKE_LEN)
		return ICECC_PROXY_NEED_MORE;
	offered = get_le32(buf);
	agreed = get_le32(buf + 4);
	if (offered < ICECC_PROXY_MIN_PROTOCOL ||
	    offered > ICECC_PROXY_MAX_PROTOCOL) {
		*why = g_strdup_printf("protocol version %u out of range",
				       offered);
		return ICECC_PROXY_REFUSE;
	}
	if (agreed < ICECC_PROXY_MIN_PROTOCOL || agreed > offered) {
		*why = g_strdup_printf("agreed protocol version %u after %u",
				       agreed, offered);
		return ICECC_PROXY_REFUSE;
	}
	return ICECC_PROXY_FORWARD;
}

/* A cursor over one message's fields. */
struct fields {
	const guint8 *p;
	gsize left;
};

static gboolean read_u32(struct fields *f, guint32 *out)
{
	if (f->left < 4)
		return FALSE;
	*out = get_be32(f->p);
	f->p += 4;
	f->left -= 4;
	return TRUE;
}

/* comm.cpp operator<<(std::string): a length that counts the
 * terminating NUL, then the bytes with it; *@out points into the
 * message. */
static gboolean read_string(struct fields *f, const char **out, gsize *len)
{
	guint32 n;

	if (!read_u32(f, &n) || n > f->left)
		return FALSE;
	if (n == 0) {
		*out = "";
		*len = 0;
		return TRUE;
	}
	if (f->p[n - 1] != '\0' || memchr(f->p, '\0', n - 1))
		return FALSE;
	*out = (const char *)f->p;
	*len = n - 1;
	f->p += n;
	f->left -= n;
	return TRUE;
}

/* GET_CS begins with the environments (comm.cpp write_environments():
 * a count, then platform and version name per environment); there is at
 * least one, and every version name must be @env_name.  The rest (file name, language,
 * target, flags) only concerns the scheduler. */
static gboolean check_get_cs(struct fields *f, const char *env_name, char **why)
{
	guint32 n;

	if (!read_u32(f, &n)) {
		*why = g_strdup("GET_CS without environments");
		return FALSE;
	}
	/* none: the scheduler would pick a node by what it has, and the
	 * client send it whatever it likes to compile with */
	if (n == 0) {
		*why = g_strdup("GET_CS names no environment");
		return FALSE;
	}
	if (n > ICECC_PROXY_MAX_ENVS) {
		*why = g_strdup_printf("GET_CS with %u environments", n);
		return FALSE;
	}
	for (guint32 i = 0; i < n; i++) {
		const char *platform, *version;
		gsize plen, vlen;

		if (!read_string(f, &platform, &plen) ||
		    !read_string(f, &version, &vlen)) {
			*why = g_strdup("GET_CS with a malformed environment");
			return FALSE;
		}
		if (!env_name || strcmp(version, env_name) != 0) {
			*why = g_strdup_printf(
				"GET_CS names environment '%s', not armbot's",
				version);
			return FALSE;
		}
	}
	return TRUE;
}

enum icecc_proxy_verdict icecc_proxy_check_frame(const guint8 *buf, gsize len,
						 const char *env_name,
						 gsize *frame_len, char **why)
{
	struct fields f;
	guint32 msg_len, type;

	if (len < 4)
		return ICECC_PROXY_NEED_MORE;
	msg_len = get_be32(buf);
	if (msg_len < 4 || msg_len > ICECC_PROXY_MAX_MSG) {
		*why = g_strdup_printf("message of %u bytes", msg_len);
		return ICECC_PROXY_REFUSE;
	}
	if (len - 4 < msg_len)
		return ICECC_PROXY_NEED_MORE;
	f.p = buf + 4;
	f.left = msg_len;
	read_u32(&f, &type);
	switch (type) {
	case ICECC_MSG_GET_CS:
		if (!check_get_cs(&f, env_name, why))
			return ICECC_PROXY_REFUSE;
		break;
	/* when the scheduler picks this machine, icecc 1.4's client sends
	 * the job itself over the local socket (measured: type 'I'), as it
	 * would to a node over TCP; the daemon compiles it in an environment
	 * it already has installed (TRANFER_ENV, a new one, is refused),
	 * then reports the job done ('M', measured) */
	case ICECC_MSG_COMPILE_FILE:
	case ICECC_MSG_FILE_CHUNK:
	case ICECC_MSG_JOB_DONE:
	case ICECC_MSG_END:
	case ICECC_MSG_JOB_LOCAL_BEGIN:
	case ICECC_MSG_JOB_LOCAL_DONE:
	case ICECC_MSG_BLACKLIST_HOST_ENV:
		break;
	case ICECC_MSG_GET_NATIVE_ENV:
		*why = g_strdup("GET_NATIVE_ENV (a native environment "
				"made by iceccd from host files)");
		return ICECC_PROXY_REFUSE;
	default:
		*why = g_strdup_printf("message type %u not needed to compile",
				       type);
		return ICECC_PROXY_REFUSE;
	}
	*frame_len = 4 + (gsize)msg_len;
	return ICECC_PROXY_FORWARD;
}

char *icecc_proxy_env_name(const char *tarball)
{
	/* client/remote.cpp rip_out_paths(): these suffixes, in order */
	static const char *const suffixes[] = { ".tar.xz",  ".tar.zst",
						".tar.bz2", ".tar.gz",
						".tar",	    ".tgz" };
	g_autofree char *base = g_path_get_basename(tarball);

	for (gsize i = 0; i < G_N_ELEMENTS(suffixes); i++)
		if (g_str_has_suffix(base, suffixes[i]) &&
		    strlen(base) > strlen(suffixes[i]))
			return g_strndup(base,
					 strlen(base) - strlen(suffixes[i]));
	return NULL;
}

/* One client's connection and the proxy's to the daemon. */
struct conn {
	int client;
	int daemon;
	gboolean handshaken;
	GByteArray *in; /* the client's bytes not yet checked */
};

struct icecc_proxy {
	char *dir;
	char *socket;
	char *daemon_socket;
	char *env_name;
	int listen_fd;
	int stop_fd; /* an eventfd: written by icecc_proxy_free() */
	GThread *thread;
	GPtrArray *conns; /* struct conn *, the thread's alone */
	guint refused; /* atomic */
};

static void conn_free(struct conn *c)
{
	if (c->client >= 0)
		close(c->client);
	if (c->daemon >= 0)
		close(c->daemon);
	g_byte_array_unref(c->in);
	g_free(c);
}

static gboolean send_all(int fd, const guint8 *buf, gsize len)
{
	while (len > 0) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return FALSE;
		buf += n;
		len -= (gsize)n;
	}
	return TRUE;
}

static void set_send_timeout(int fd)
{
	struct timeval tv = { .tv_sec = ICECC_PROXY_SEND_TIMEOUT_S };

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int connect_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	set_send_timeout(fd);
	return fd;
}

static void refuse(struct icecc_proxy *p, const char *why)
{
	g_atomic_int_inc(&p->refused);
	g_message("icecc proxy %s: connection refused: %s", p->socket, why);
}

/* Pass on what of c->in is checked and whole.  FALSE: drop @c. */
static gboolean relay_client(struct icecc_proxy *p, struct conn *c)
{
	for (;;) {
		g_autofree char *why = NULL;
		enum icecc_proxy_verdict v;
		gsize n = 0;

		if (!c->handshaken) {
			v = icecc_proxy_check_handshake(c->in->data, c->in->len,
							&why);
			n = ICECC_PROXY_HANDSHAKE_LEN;
		} else {
			v = icecc_proxy_check_frame(c->in->data, c->in->len,
						    p->env_name, &n, &why);
		}
		if (v == ICECC_PROXY_NEED_MORE)
			return TRUE;
		if (v == ICECC_PROXY_REFUSE) {
			refuse(p, why);
			return FALSE;
		}
		if (!send_all(c->daemon, c->in->data, n))
			return FALSE;
		g_byte_array_remove_range(c->in, 0, (guint)n);
		c->handshaken = TRUE;
	}
}

/* Read from @from; client bytes are checked, the daemon's passed on
 * as they come.  FALSE: the connection ends. */
static gboolean conn_read(struct icecc_proxy *p, struct conn *c,
			  gboolean from_client)
{
	guint8 buf[ICECC_PROXY_READ_CHUNK];
	ssize_t n;

	do
		n = recv(from_client ? c->client : c->daemon, buf, sizeof(buf),
			 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return FALSE;
	if (!from_client)
		return send_all(c->client, buf, (gsize)n);
	/* a frame is whole or refused at 4 + ICECC_PROXY_MAX_MSG bytes */
	g_byte_array_append(c->in, buf, (guint)n);
	return relay_client(p, c);
}

static void accept_one(struct icecc_proxy *p)
{
	struct conn *c;
	int fd = accept4(p->listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (p->conns->len >= ICECC_PROXY_MAX_CONNS) {
		refuse(p, "too many connections");
		close(fd);
		return;
	}
	set_send_timeout(fd);
	c = g_new0(struct conn, 1);
	c->client = fd;
	c->in = g_byte_array_new();
	c->daemon = connect_unix(p->daemon_socket);
	if (c->daemon < 0) {
		g_message("icecc proxy %s: cannot connect to '%s': %s",
			  p->socket, p->daemon_socket, g_strerror(errno));
		conn_free(c);
		return;
	}
	g_ptr_array_add(p->conns, c);
}

static gpointer proxy_thread(gpointer data)
{
	struct icecc_proxy *p = data;
	g_autofree struct pollfd *fds =
		g_new(struct pollfd, 2 + 2 * ICECC_PROXY_MAX_CONNS);

	for (;;) {
		guint nfds = 2;

		fds[0] = (struct pollfd){ .fd = p->stop_fd, .events = POLLIN };
		fds[1] =
			(struct pollfd){ .fd = p->listen_fd, .events = POLLIN };
		for (guint i = 0; i < p->conns->len; i++) {
			struct conn *c = p->conns->pdata[i];

			fds[nfds++] = (struct pollfd){ .fd = c->client,
						       .events = POLLIN };
			fds[nfds++] = (struct pollfd){ .fd = c->daemon,
						       .events = POLLIN };
		}
		if (poll(fds, nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			g_warning("icecc proxy %s: poll: %s", p->socket,
				  g_strerror(errno));
			return NULL;
		}
		if (fds[0].revents)
			return NULL;
		/* connections first: accept_one() appends to p->conns */
		for (guint i = p->conns->len; i-- > 0;) {
			struct conn *c = p->conns->pdata[i];
			short rc = fds[2 + 2 * i].revents;
			short rd = fds[3 + 2 * i].revents;
			gboolean ok = TRUE;

			if (rc)
				ok = conn_read(p, c, TRUE);
			if (ok && rd)
				ok = conn_read(p, c, FALSE);
			if (!ok)
				g_ptr_array_remove_index(p->conns, i);
		}
		if (fds[1].revents & POLLIN)
			accept_one(p);
	}
}

struct icecc_proxy *icecc_proxy_start(const char *daemon_socket,
				      const char *tarball, GError **error)
{
	struct icecc_proxy *p = g_new0(struct icecc_proxy, 1);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	p->listen_fd = -1;
	p->stop_fd = -1;
	p->conns = g_ptr_array_new_with_free_func((GDestroyNotify)conn_free);
	p->daemon_socket = g_strdup(daemon_socket);
	p->env_name = tarball ? icecc_proxy_env_name(tarball) : NULL;
	/* mode 0700: nobody else on the host reaches the socket; the
	 * sandbox sees it through its bind */
	p->dir = g_dir_make_tmp("armbot-icecc-XXXXXX", error);
	if (!p->dir)
		goto fail;
	p->socket = g_build_filename(p->dir, "iceccd.socket", NULL);
	if (strlen(p->socket) >= sizeof(sa.sun_path)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FILENAME_TOO_LONG,
			    "socket path '%s' too long", p->socket);
		goto fail;
	}
	strcpy(sa.sun_path, p->socket);
	p->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p->listen_fd < 0 ||
	    bind(p->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    chmod(p->socket, 0666) != 0 || listen(p->listen_fd, 64) != 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "cannot listen on '%s': %s", p->socket,
			    g_strerror(errno));
		goto fail;
	}
	p->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (p->stop_fd < 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "eventfd: %s", g_strerror(errno));
		goto fail;
	}
	p->thread = g_thread_new("icecc-proxy", proxy_thread, p);
	return p;
fail:
	icecc_proxy_free(p);
	return NULL;
}

const char *icecc_proxy_socket(const struct icecc_proxy *p)
{
	return p->socket;
}

guint icecc_proxy_refused(struct icecc_proxy *p)
{
	return (guint)g_atomic_int_get(&p->refused);
}

void icecc_proxy_free(struct icecc_proxy *p)
{
	if (!p)
		return;
	if (p->thread) {
		guint64 one = 1;

		if (write(p->stop_fd, &one, sizeof(one)) != sizeof(one))
			g_warning("icecc proxy: cannot stop its thread: %s",
				  g_strerror(errno));
		else
			g_thread_join(p->thread);
	}
	g_ptr_array_unref(p->conns);
	if (p->listen_fd >= 0)
		close(p->listen_fd);
	if (p->stop_fd >= 0)
		close(p->stop_fd);
	if (p->socket)
		g_unlink(p->socket);
	if (p->dir)
		g_rmdir(p->dir);
	g_free(p->socket);
	g_free(p->dir);
	g_free(p->daemon_socket);
	g_free(p->env_name);
	g_free(p);
}
