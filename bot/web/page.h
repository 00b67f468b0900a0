/* The HTML pages of the web interface.  Each writes a whole document to
 * @out and returns the HTTP status (200, 404), or 0 with @error set when
 * the store could not be read. */
#pragma once

#include <glib.h>

#include "bot/store/web.h"
#include "bot/store/store.h"

/* `/`: a page of series matching @filter, with the filter form. */
guint web_page_index(struct store *st, const struct store_web_filter *filter,
		     GString *out, GError **error);

/* `/series/<id>`.  Check logs are read from files under @data_dir only. */
guint web_page_series(struct store *st, gint64 id, const char *data_dir,
		      const char *self_url, const char *const *archive_urls,
		      GString *out, GError **error);

/* `/arch-arm`: the weekly and per-directory charts, of the series posted
 * to @list (`/arch-arm?list=`: a substring of the List-Id; NULL or "":
 * every list). */
guint web_page_arch_arm(struct store *st, const char *list, GString *out,
			GError **error);

/* A small page for @status with @message (plain text, escaped). */
void web_page_error(GString *out, guint status, const char *text);

/* Append "2020-06-14 10:02 UTC" for @t, nothing for 0. */
void web_page_time_append(GString *out, gint64 t);

/* The start of every page (doctype, title, style, navigation) and its
 * end. */
void web_page_head(GString *out, const char *title);
void web_page_foot(GString *out);
