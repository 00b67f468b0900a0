/* A filtering proxy between an untrusted build's icecc client and the
 * host's iceccd: the series' sandbox gets the proxy's socket instead of
 * the daemon's, and only the messages a compile needs reach the daemon. */
#ifndef ARMBOT_KERNEL_BUILD_ICECC_PROXY_H
#define ARMBOT_KERNEL_BUILD_ICECC_PROXY_H

#include <glib.h>

/* icecream's MsgChannel handshake: each side sends its protocol version
 * (4 bytes, little-endian), then the minimum of both (services/comm.cpp,
 * NEED_PROTO): the client's 8 bytes */
#define ICECC_PROXY_HANDSHAKE_LEN 8
/* a client->daemon message: a 4-byte big-endian length, then the message
 * (a 4-byte big-endian type and its fields); the largest a compile sends
 * is a FILE_CHUNK of preprocessed source (the client reads it 100 kB at a
 * time and compresses it) */
#define ICECC_PROXY_MAX_MSG (1u << 20)
/* environments one GET_CS may name (one per target platform) */
#define ICECC_PROXY_MAX_ENVS 8u

/* icecream's enum MsgType (services/comm.h), the types that matter here */
enum icecc_proxy_msg {
	ICECC_MSG_END = 'C',
	ICECC_MSG_GET_NATIVE_ENV = 'E',
	ICECC_MSG_GET_CS = 'G',
	ICECC_MSG_COMPILE_FILE = 'I',
	ICECC_MSG_FILE_CHUNK = 'J',
	ICECC_MSG_JOB_DONE = 'M',
	ICECC_MSG_JOB_LOCAL_BEGIN = 'N',
	ICECC_MSG_JOB_LOCAL_DONE = 'O',
	ICECC_MSG_BLACKLIST_HOST_ENV = '_',
};

enum icecc_proxy_verdict {
	ICECC_PROXY_NEED_MORE, /* not a whole frame yet */
	ICECC_PROXY_FORWARD, /* a whole allowed frame of *@frame_len bytes */
	ICECC_PROXY_REFUSE, /* close the connection; *@why says why */
};

/* Check the client's protocol handshake at the start of @buf (@len
 * bytes): NEED_MORE below ICECC_PROXY_HANDSHAKE_LEN bytes, REFUSE with a
 * newly allocated *@why for versions icecream itself would refuse. */
enum icecc_proxy_verdict icecc_proxy_check_handshake(const guint8 *buf,
						     gsize len, char **why);

/* Check the frame at the start of @buf (@len bytes, after the
 * handshake): FORWARD when it is whole, within ICECC_PROXY_MAX_MSG, of an
 * allowed type and well formed, with its length in *@frame_len; a GET_CS
 * must name only the environment @env_name (the tarball's basename
 * without its suffix, as the client sends it; NULL: none allowed).
 * REFUSE sets *@why (newly allocated). */
enum icecc_proxy_verdict icecc_proxy_check_frame(const guint8 *buf, gsize len,
						 const char *env_name,
						 gsize *frame_len, char **why);

/* The name the icecc client sends for the environment @tarball:
 * its basename without .tar.gz (client/remote.cpp, rip_out_paths());
 * newly allocated, NULL when it has no suffix icecream knows. */
char *icecc_proxy_env_name(const char *tarball);

struct icecc_proxy;

/* Listen on a fresh socket in a new private directory and relay each
 * connection to @daemon_socket in a thread of the proxy's own,
 * refusing what icecc_proxy_check_*() refuse (logged with g_message).
 * @tarball is the one environment allowed.  Owned by the caller. */
struct icecc_proxy *icecc_proxy_start(const char *daemon_socket,
				      const char *tarball, GError **error);

/* The socket to show the sandbox at ICECC_SANDBOX_SOCKET (owned by @p). */
const char *icecc_proxy_socket(const struct icecc_proxy *p);

/* Connections refused so far. */
guint icecc_proxy_refused(struct icecc_proxy *p);

/* Stop the thread, close every connection, remove the socket and its
 * directory.  Accepts NULL. */
void icecc_proxy_free(struct icecc_proxy *p);

#endif
