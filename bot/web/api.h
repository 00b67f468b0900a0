/* The JSON API: /api/series, /api/series/<id> and /api/trees, described
 * by the JSON Schemas tests/data/web/series-list.schema.json,
 * series.schema.json and trees.schema.json.  Times are RFC 3339 strings
 * in UTC, or null. */
#pragma once

#include <glib.h>

#include "bot/store/web.h"
#include "bot/store/store.h"

/* A page of series; returns the HTTP status, 0 with @error set. */
guint web_api_series_list(struct store *st,
			  const struct store_web_filter *filter, GString *out,
			  GError **error);

/* One series with everything about it; 404 with an error object when
 * there is none. */
guint web_api_series(struct store *st, gint64 id, GString *out, GError **error);

/* The trees with a url and their updates (bot/store/trees.h). */
guint web_api_trees(struct store *st, GString *out, GError **error);

/* {"error": @message, "status": @status} */
void web_api_error(GString *out, guint status, const char *text);

/* `/api/series/ID/kcidb`: the KCIDB documents armbot wrote for series @id
 * (DATA/logs/series-ID/TREE/kcidb.json, bot/daemon/kcidb.h): the one
 * document as written, or, for a series checked on several trees, one
 * document with their checkouts, builds and tests.  404 when there is
 * none. */
guint web_api_series_kcidb(const char *data_dir, gint64 id, GString *out,
			   GError **error);
