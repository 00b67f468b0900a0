/* /trees: the trees kept current (those with a url, and the distro
 * tree) and their updates (url, branches, head, last updated, next update
 * due, and the error of a failing one, in red); then the trees maintainers opted in by mail, whether they are
 * active, their tree file, and every change recorded (who, when, what). */
#pragma once

#include <glib.h>

#include "bot/store/store.h"

/* The page into @out; its HTTP status, or 0 with @error set. */
guint web_page_trees(struct store *st, GString *out, GError **error);
