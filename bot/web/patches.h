/* The series page's patches: each patch's diff (bot/web/diff.h) from its
 * mail as stored, split as git am splits it (mailparse/mailinfo.h), with
 * the patch's own signed dirstat as bars beside it, and each Message-ID
 * linked to the list's archive (bot/web/archive.h). */
#pragma once

#include <glib.h>

#include "bot/store/web.h"

/* A mail larger than this is not split for the page (the mbox has it). */
#define WEB_PATCHES_MAIL_MAX (4 * 1024 * 1024)

/* At most this many bytes of mail are split for one page, over all its
 * patches (a series has up to 1000 parts); the later patches say "not
 * shown". */
#define WEB_PATCHES_PAGE_MAX (8 * 1024 * 1024)

/* The CSS of the section. */
extern const char web_patches_style[];

/* Append the Message-ID of @p as a link to its archive when @archive_urls
 * ([web] archive-url) has a template for its list, else as text. */
void web_patches_message_id(GString *out, const struct store_web_part *p,
			    const char *const *archive_urls);

/* Append <section id="patches">: one <article class="patch"> per patch
 * of @x (the cover letter left out). */
void web_patches_section(GString *out, const struct store_web_series *x,
			 const char *const *archive_urls);
