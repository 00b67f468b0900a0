/* The REST client of a LAVA server (/api/v0.2/, LAVA 2023.01) with
 * libcurl: submit a job, read its status and its log.  The token is sent
 * as "Authorization: Token ..."; https:// is verified (chain and host
 * name), with the system's CAs or @ca_file.  Each call is one blocking
 * request with a timeout: the caller is a worker thread, never the
 * daemon's loop. */
#pragma once

#include <glib.h>

#include "qemu/lava.h"

#define LAVA_CLIENT_ERROR (g_quark_from_static_string("lava-client-error"))

enum lava_client_error {
	LAVA_CLIENT_UNREACHABLE, /* no connection, a timeout, a 5xx: the
				  * lab's trouble */
	LAVA_CLIENT_REFUSED, /* 4xx: the token or the job was refused */
	LAVA_CLIENT_BAD_ANSWER, /* the answer is not what LAVA sends */
};

struct lava_client;

/* @url: the server's base ("http://127.0.0.1:8000/"); @token: the API
 * token (not a file: config/secretfile.h reads it). */
struct lava_client *lava_client_new(const char *url, const char *token,
				    const char *ca_file);
void lava_client_free(struct lava_client *c);
typedef struct lava_client lava_client;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(lava_client, lava_client_free)

/* POST /api/v0.2/jobs/: the new job's id, 0 with @error. */
guint64 lava_client_submit(struct lava_client *c, const char *definition,
			   GError **error);

/* GET /api/v0.2/jobs/ID/. */
gboolean lava_client_status(struct lava_client *c, guint64 id,
			    struct lava_job_status *out, GError **error);

/* GET /api/v0.2/jobs/ID/logs/, parsed (qemu/lava.h). */
gboolean lava_client_log(struct lava_client *c, guint64 id,
			 struct lava_log *out, GError **error);
