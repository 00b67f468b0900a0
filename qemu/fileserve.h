/* A small HTTP file server for a remote boot (qemu/runner.h): LAVA's
 * worker downloads the kernel, DTB and initramfs from it.  It serves only
 * the files given, at /TOKEN/NAME with a random 128-bit token, GET and
 * HEAD, one connection at a time, from its own thread, until freed. */
#pragma once

#include <glib.h>

struct fileserve;

/* Listen on @host (an address; port 0: any free port) and serve
 * @paths (NULL-terminated, regular files) under their base names.  NULL
 * with @error when it cannot listen. */
struct fileserve *fileserve_start(const char *host, guint port,
				  const char *const *paths, GError **error);

/* The URL of @path (one of those given), newly allocated. */
char *fileserve_url(const struct fileserve *fs, const char *path);

/* Requests served (for tests and logs). */
guint fileserve_served(const struct fileserve *fs);

void fileserve_free(struct fileserve *fs);
typedef struct fileserve fileserve;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(fileserve, fileserve_free)
