/* A stored series as an mbox that git am (and kernel/patch/am.h) applies: the
 * patches in order, each with the trailers (Reviewed-by:, Acked-by:...)
 * that replies to it or to the cover letter gave, folded in as `b4 am`
 * does.  Mails whose body is base64 or quoted-printable are kept as they
 * are.  What `armbot series --mbox` prints and what the pipeline applies. */
#pragma once

#include <glib.h>

#include "bot/store/store.h"

/* Append series @id of @st to @out; FALSE with @error set. */
gboolean series_mbox(struct store *st, gint64 id, GString *out, GError **error);
