/* /feed.atom: the latest replies as an Atom feed (RFC 4287). */
#pragma once

#include <glib.h>

#include "bot/store/store.h"

/* The feed of the 50 latest replies, links absolute under @base_url
 * ("http://host:port", no trailing slash).  Returns the HTTP status, 0
 * with @error set. */
guint web_feed_atom(struct store *st, const char *base_url, GString *out,
		    GError **error);
