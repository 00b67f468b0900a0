/* Unit tests for the iceccd proxy of a series' build
 * (kernel/build/icecc-proxy.c): icecream's handshake and message framing
 * checked on hostile bytes (truncated, oversize, unknown types, malformed
 * GET_CS), and a live relay to a stand-in daemon that must receive the
 * allowed messages byte for byte and never a GET_NATIVE_ENV. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "kernel/build/icecc-proxy.h"

static void put_be32(GByteArray *b, guint32 v)
{
	guint8 x[4] = { v >> 24, v >> 16, v >> 8, v };

	g_byte_array_append(b, x, 4);
}

static void put_string(GByteArray *b, const char *s)
{
	put_be32(b, (guint32)strlen(s) + 1);
	g_byte_array_append(b, (const guint8 *)s, (guint)strlen(s) + 1);
}

/* A whole message: length, type, @body. */
static GByteArray *frame(guint32 type, const GByteArray *body)
{
	GByteArray *b = g_byte_array_new();

	put_be32(b, 4 + (body ? body->len : 0));
	put_be32(b, type);
	if (body)
		g_byte_array_append(b, body->data, body->len);
	return b;
}

/* GET_CS as client/remote.cpp sends it, naming environment @version */
static GByteArray *get_cs(const char *version)
{
	g_autoptr(GByteArray) body = g_byte_array_new();

	put_be32(body, 1);
	put_string(body, "x86_64");
	put_string(body, version);
	put_string(body, "arch/arm/kernel/setup.c");
	put_be32(body, 0); /* lang */
	put_be32(body, 1); /* count */
	put_string(body, "x86_64");
	put_be32(body, 0); /* arg_flags */
	put_be32(body, 0); /* client_id */
	put_string(body, "");
	return frame(ICECC_MSG_GET_CS, body);
}

static GByteArray *get_native_env(void)
{
	g_autoptr(GByteArray) body = g_byte_array_new();

	put_string(body, "gcc");
	put_be32(body, 1);
	put_string(body, "/etc/passwd");
	return frame(ICECC_MSG_GET_NATIVE_ENV, body);
}

static enum icecc_proxy_verdict check(const GByteArray *b, gsize *n, char **why)
{
	return icecc_proxy_check_frame(b->data, b->len, "armbot-env", n, why);
}

static void test_handshake(void)
{
	const guint8 ok[] = { 42, 0, 0, 0, 42, 0, 0, 0 };
	const guint8 old[] = { 20, 0, 0, 0, 20, 0, 0, 0 };
	const guint8 huge[] = { 0, 0, 0, 0x7f, 42, 0, 0, 0 };
	const guint8 above[] = { 30, 0, 0, 0, 42, 0, 0, 0 };
	g_autofree char *why1 = NULL, *why2 = NULL, *why3 = NULL;

	g_assert_cmpint(icecc_proxy_check_handshake(ok, 7, &why1), ==,
			ICECC_PROXY_NEED_MORE);
	g_assert_cmpint(icecc_proxy_check_handshake(ok, 8, &why1), ==,
			ICECC_PROXY_FORWARD);
	g_assert_cmpint(icecc_proxy_check_handshake(old, 8, &why1), ==,
			ICECC_PROXY_REFUSE);
	g_assert_cmpstr(why1, ==, "protocol version 20 out of range");
	g_assert_cmpint(icecc_proxy_check_handshake(huge, 8, &why2), ==,
			ICECC_PROXY_REFUSE);
	g_assert_cmpint(icecc_proxy_check_handshake(above, 8, &why3), ==,
			ICECC_PROXY_REFUSE);
	g_assert_cmpstr(why3, ==, "agreed protocol version 42 after 30");
}

static void test_frames(void)
{
	g_autoptr(GByteArray) cs = get_cs("armbot-env");
	g_autoptr(GByteArray) other = get_cs("evil");
	g_autoptr(GByteArray) native = get_native_env();
	g_autoptr(GByteArray) end = frame(ICECC_MSG_END, NULL);
	g_autoptr(GByteArray) unknown = frame('Y', NULL);
	g_autoptr(GByteArray) transfer = frame('X', NULL);
	g_autoptr(GByteArray) binary = frame(0xffffffffu, NULL);
	g_autoptr(GByteArray) big = g_byte_array_new();
	g_autoptr(GByteArray) tiny = g_byte_array_new();
	g_autoptr(GByteArray) lying = get_cs("armbot-env");
	g_autoptr(GByteArray) envs = g_byte_array_new();
	g_autoptr(GByteArray) many = NULL;
	g_autoptr(GByteArray) nonul = g_byte_array_new();
	g_autoptr(GByteArray) bad_str = NULL;
	char *why = NULL;
	gsize n = 0;

	g_assert_cmpint(check(cs, &n, &why), ==, ICECC_PROXY_FORWARD);
	g_assert_cmpuint(n, ==, cs->len);
	g_assert_cmpint(check(end, &n, &why), ==, ICECC_PROXY_FORWARD);
	g_assert_cmpuint(n, ==, 8);
	/* every truncation of a good frame waits for more */
	for (guint i = 0; i < cs->len; i++)
		g_assert_cmpint(icecc_proxy_check_frame(cs->data, i,
							"armbot-env", &n, &why),
				==, ICECC_PROXY_NEED_MORE);
	/* two frames in one read: the first alone */
	g_byte_array_append(cs, end->data, end->len);
	g_assert_cmpint(check(cs, &n, &why), ==, ICECC_PROXY_FORWARD);
	g_assert_cmpuint(n, ==, cs->len - end->len);

	g_assert_cmpint(check(native, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_assert_nonnull(strstr(why, "GET_NATIVE_ENV"));
	g_clear_pointer(&why, g_free);
	g_assert_cmpint(check(other, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_assert_cmpstr(why, ==,
			"GET_CS names environment 'evil', not armbot's");
	g_clear_pointer(&why, g_free);
	g_assert_cmpint(icecc_proxy_check_frame(cs->data, cs->len, NULL, &n,
						&why),
			==, ICECC_PROXY_REFUSE);
	g_clear_pointer(&why, g_free);
	g_assert_cmpint(check(unknown, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_assert_cmpstr(why, ==, "message type 89 not needed to compile");
	g_clear_pointer(&why, g_free);
	g_assert_cmpint(check(binary, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_clear_pointer(&why, g_free);
	/* a new environment for the local daemon to install */
	g_assert_cmpint(check(transfer, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_assert_cmpstr(why, ==, "message type 88 not needed to compile");
	g_clear_pointer(&why, g_free);

	/* oversize is refused from its length alone, before the body */
	put_be32(big, ICECC_PROXY_MAX_MSG + 1);
	g_assert_cmpint(check(big, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_assert_cmpstr(why, ==, "message of 1048577 bytes");
	g_clear_pointer(&why, g_free);
	put_be32(tiny, 3);
	put_be32(tiny, 0);
	g_assert_cmpint(check(tiny, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_clear_pointer(&why, g_free);

	/* a string length that runs past the message */
	lying->data[4 + 4 + 4 + 3] = 0xff;
	g_assert_cmpint(check(lying, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_assert_cmpstr(why, ==, "GET_CS with a malformed environment");
	g_clear_pointer(&why, g_free);
	/* too many environments */
	put_be32(envs, ICECC_PROXY_MAX_ENVS + 1);
	many = frame(ICECC_MSG_GET_CS, envs);
	g_assert_cmpint(check(many, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_clear_pointer(&why, g_free);
	/* a string without its NUL, or with one inside */
	put_be32(nonul, 1);
	put_be32(nonul, 3);
	g_byte_array_append(nonul, (const guint8 *)"x86", 3);
	put_string(nonul, "armbot-env");
	bad_str = frame(ICECC_MSG_GET_CS, nonul);
	g_assert_cmpint(check(bad_str, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_clear_pointer(&why, g_free);
	/* empty GET_CS */
	g_byte_array_set_size(envs, 0);
	g_byte_array_unref(many);
	many = frame(ICECC_MSG_GET_CS, envs);
	g_assert_cmpint(check(many, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_assert_cmpstr(why, ==, "GET_CS without environments");
	g_clear_pointer(&why, g_free);
	/* a count of none */
	put_be32(envs, 0);
	g_byte_array_unref(many);
	many = frame(ICECC_MSG_GET_CS, envs);
	g_assert_cmpint(check(many, &n, &why), ==, ICECC_PROXY_REFUSE);
	g_assert_cmpstr(why, ==, "GET_CS names no environment");
	g_clear_pointer(&why, g_free);
}

static void test_env_name(void)
{
	g_autofree char *a = icecc_proxy_env_name("/c/icecc/abc123.tar.gz");
	g_autofree char *b = icecc_proxy_env_name("/c/x.tar.xz");
	g_autofree char *c = icecc_proxy_env_name("/c/x.zip");
	g_autofree char *d = icecc_proxy_env_name("/c/.tar.gz");

	g_assert_cmpstr(a, ==, "abc123");
	g_assert_cmpstr(b, ==, "x");
	g_assert_null(c);
	g_assert_null(d);
}

static int unix_fd(const char *path, gboolean listening)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	g_assert_cmpint(fd, >=, 0);
	g_strlcpy(sa.sun_path, path, sizeof(sa.sun_path));
	if (listening) {
		g_assert_cmpint(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
				==, 0);
		g_assert_cmpint(listen(fd, 4), ==, 0);
	} else {
		g_assert_cmpint(connect(fd, (struct sockaddr *)&sa, sizeof(sa)),
				==, 0);
	}
	return fd;
}

/* Read from @fd until @want bytes came or it stays quiet for 2 s. */
static GByteArray *read_for(int fd, gsize want)
{
	GByteArray *b = g_byte_array_new();
	struct pollfd p = { .fd = fd, .events = POLLIN };
	guint8 buf[4096];

	while (b->len < want && poll(&p, 1, 2000) == 1) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		g_byte_array_append(b, buf, (guint)n);
	}
	return b;
}

static void test_relay(void)
{
	g_autofree char *dir = g_dir_make_tmp("test-icecc-proxy-XXXXXX", NULL);
	g_autofree char *daemon_path =
		g_build_filename(dir, "daemon.socket", NULL);
	g_autoptr(GError) error = NULL;
	struct icecc_proxy *p;
	const guint8 hello[] = { 42, 0, 0, 0, 42, 0, 0, 0 };
	const guint8 answer[] = { 42, 0, 0, 0, 42, 0, 0, 0 };
	g_autoptr(GByteArray) cs = get_cs("abc123");
	g_autoptr(GByteArray) native = get_native_env();
	g_autoptr(GByteArray) got = NULL;
	g_autoptr(GByteArray) back = NULL;
	g_autoptr(GByteArray) after = NULL;
	g_autofree char *socket_path = NULL;
	int lfd, client, daemon;

	lfd = unix_fd(daemon_path, TRUE);
	p = icecc_proxy_start(daemon_path, "/cache/icecc/abc123.tar.gz",
			      &error);
	g_assert_no_error(error);
	socket_path = g_strdup(icecc_proxy_socket(p));
	g_assert_true(g_file_test(socket_path, G_FILE_TEST_EXISTS));

	client = unix_fd(socket_path, FALSE);
	daemon = accept(lfd, NULL, NULL);
	g_assert_cmpint(daemon, >=, 0);
	/* the handshake, then GET_CS sent a byte at a time */
	g_assert_cmpint(write(client, hello, sizeof(hello)), ==, 8);
	for (guint i = 0; i < cs->len; i++)
		g_assert_cmpint(write(client, cs->data + i, 1), ==, 1);
	got = read_for(daemon, sizeof(hello) + cs->len);
	g_assert_cmpuint(got->len, ==, sizeof(hello) + cs->len);
	g_assert_cmpmem(got->data + 8, cs->len, cs->data, cs->len);
	/* the daemon's bytes go back as they are */
	g_assert_cmpint(write(daemon, answer, sizeof(answer)), ==, 8);
	back = read_for(client, sizeof(answer));
	g_assert_cmpmem(back->data, back->len, answer, sizeof(answer));

	/* GET_NATIVE_ENV: never reaches the daemon, both ends closed */
	g_assert_cmpint(write(client, native->data, native->len), ==,
			(gssize)native->len);
	after = read_for(daemon, 1);
	g_assert_cmpuint(after->len, ==, 0);
	g_assert_cmpuint(icecc_proxy_refused(p), ==, 1);

	close(client);
	close(daemon);
	icecc_proxy_free(p);
	/* the socket and its private directory are gone */
	g_assert_false(g_file_test(socket_path, G_FILE_TEST_EXISTS));
	close(lfd);
	g_unlink(daemon_path);
	g_rmdir(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/icecc-proxy/handshake", test_handshake);
	g_test_add_func("/icecc-proxy/frames", test_frames);
	g_test_add_func("/icecc-proxy/env-name", test_env_name);
	g_test_add_func("/icecc-proxy/relay", test_relay);
	return g_test_run();
}
