/* The read-only web interface (libsoup 3): status pages, the JSON API, an
 * Atom feed of reports, the arch/arm charts and Prometheus metrics, over a
 * connection of its own to the store that never writes (PRAGMA
 * query_only), so that a reader never holds up the pipeline (SQLite WAL:
 * readers and the writer do not block each other).
 *
 * `armbot serve` runs it alone; `armbot run` starts the same server inside
 * the daemon with web_server_start().
 *
 *   /                  recent series (filters: list, tree, author, state;
 *                      page)
 *   /series/<id>       one series: parts, versions, jobs, checks, reply,
 *                      signed dirstat chart
 *   /arch-arm          net growth of arch/arm per week and per mach-* /
 *                      plat-* directory
 *   /api/series        JSON (tests/data/web/series-list.schema.json)
 *   /api/series/<id>   JSON (tests/data/web/series.schema.json)
 *   /trees             the trees with a url and their updates, and the
 *                      trees opted in by mail
 *   /api/trees         JSON (tests/data/web/trees.schema.json)
 *   /feed.atom         Atom (RFC 4287) feed of the replies
 *   /metrics           Prometheus text format 0.0.4
 *
 * Only GET and HEAD are served (anything else: 405).  Connections, one
 * request each, and their limits (body, header size, number, idle time):
 * bot/web/conn.h. */
#pragma once

#include <gio/gio.h>
#include <glib.h>

#define WEB_DEFAULT_LISTEN "127.0.0.1:8080"

typedef struct web_server web_server;

GQuark web_error_quark(void);

/* Serve the store of @data_dir (creating and migrating the store first if
 * needed) on @listen ("ADDR:PORT", "[v6addr]:PORT"; NULL for
 * WEB_DEFAULT_LISTEN; port 0 picks a free one, see web_server_port()).
 * @public_url (NULL: "http://" + the address listened on) is the base of
 * the absolute links in the Atom feed.  @archive_urls ([web] archive-url,
 * config/config.h; NULL for none) link Message-IDs to the lists'
 * archives.
 *
 * With @context non-NULL the server's sources are attached to @context and
 * requests are answered by whoever iterates it (the daemon's GMainLoop).
 * With @context NULL the server runs in a thread of its own with its own
 * main context, so that slow work in the caller's loop never stalls a
 * page.  Returns NULL with @error set (bad address, port in use, store
 * that cannot be opened).  Free with web_server_free(), which stops
 * listening; call it from the thread iterating @context (or any thread
 * when @context was NULL). */
struct web_server *web_server_start(const char *data_dir, const char *listen,
				    const char *public_url,
				    const char *const *archive_urls,
				    GMainContext *context, GError **error);

/* The port listened on (useful with port 0). */
guint web_server_port(const struct web_server *server);

/* The base URL used for links ("http://127.0.0.1:8080"), owned by
 * @server. */
const char *web_server_url(const struct web_server *server);

/* Stop and free; NULL is accepted. */
void web_server_free(struct web_server *server);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(web_server, web_server_free)
