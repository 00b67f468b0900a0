#include "bot/web/patches.h"

#include "bot/web/archive.h"
#include "bot/web/diff.h"
#include "bot/web/escape.h"
#include "bot/web/svg.h"
#include "kernel/diff/dirstat.h"
#include "kernel/diff/patchstat.h"
#include "mailparse/mailinfo.h"
#include "mailparse/listid.h"

const char web_patches_style[] =
	"article.patch{display:grid;grid-template-columns:minmax(0,3fr) "
	"minmax(0,2fr);gap:1em;margin-bottom:2em}"
	"article.patch>h3{grid-column:1/3;margin:0}"
	"aside.patch-dirstat{position:sticky;top:0;align-self:start}"
	"aside.patch-dirstat svg{max-width:100%;height:auto}";

void web_patches_message_id(GString *out, const struct store_web_part *p,
			    const char *const *archive_urls)
{
	g_autofree char *address = listid_to_address(p->list_id);
	g_autofree char *url =
		web_archive_url(archive_urls, address, p->message_id);

	if (!url) {
		web_escape_append(out, p->message_id);
		return;
	}
	g_string_append(out, "<a class=\"archive\" href=\"");
	web_escape_append(out, url);
	g_string_append(out, "\">");
	web_escape_append(out, p->message_id);
	g_string_append(out, "</a>");
}

/* The patch's own signed dirstat (lines, 3% cut-off) as bars. */
static void patch_bars(GString *out, const char *patch, gsize len,
		       guint position)
{
	g_autoptr(GPtrArray) stats = g_ptr_array_new_with_free_func(
		(GDestroyNotify)dirstat_filestat_free);
	struct dirstat_options opts = DIRSTAT_OPTIONS_INIT;
	g_autoptr(dirstat_report) r = NULL;
	g_autoptr(GArray)
		bars = g_array_new(FALSE, FALSE, sizeof(struct web_svg_bar));
	g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *id = g_strdup_printf("patch-dirstat-%u", position);
	guint64 added = 0, deleted = 0;

	patchstat_parse(patch, len, stats);
	opts.mode = DIRSTAT_LINES;
	opts.is_signed = TRUE;
	r = dirstat_report_from_filestats(stats, &opts, NULL);
	for (guint i = 0; i < stats->len; i++) {
		const struct dirstat_filestat *fs = stats->pdata[i];

		added += fs->added;
		deleted += fs->deleted;
	}
	g_string_append_printf(out,
			       "<aside class=\"patch-dirstat\"><p>%u files, "
			       "+%" G_GUINT64_FORMAT " -%" G_GUINT64_FORMAT
			       "</p>",
			       stats->len, added, deleted);
	for (guint i = 0; r && i < r->rows->len; i++) {
		const struct dirstat_row *row = r->rows->pdata[i];
		struct web_svg_bar b = { row->dir, 0, NULL };

		b.value = (row->value < 0 ? -1 : 1) * row->permille / 10.0;
		b.note = g_strdup_printf("%+" G_GINT64_FORMAT, row->value);
		g_ptr_array_add(notes, (char *)b.note);
		g_array_append_val(bars, b);
	}
	web_svg_hbars(out, "signed dirstat of this patch (% of lines, net)", id,
		      (struct web_svg_bar *)bars->data, bars->len);
	g_string_append(out, "</aside>");
}

/* @budget: bytes of diff the page may still show; what is shown is
 * taken from it. */
static void patch_article(GString *out, const struct store_web_part *p,
			  const char *const *archive_urls, gsize *budget)
{
	struct mailinfo_options opts = MAILINFO_OPTIONS_INIT;
	g_autoptr(mailinfo_result) mi = NULL;
	g_autofree char *id = g_strdup_printf("diff-%u", p->position);
	gsize allowed;

	g_string_append_printf(out,
			       "<article class=\"patch\" id=\"patch-%u\">"
			       "<h3>[%u] ",
			       p->position, p->position);
	web_escape_append(out, p->subject);
	g_string_append(out, " <small>");
	web_patches_message_id(out, p, archive_urls);
	g_string_append(out, "</small></h3>");
	if (!p->raw && !p->raw_size) {
		g_string_append(out, "<p class=\"no-diff\">the mail is not "
				     "in the store</p></article>\n");
		return;
	}
	if (!p->raw || !*budget) {
		g_string_append(out, "<p class=\"no-diff\">not shown: the "
				     "page shows the first diffs only, see the "
				     "mbox</p></article>\n");
		return;
	}
	if (g_bytes_get_size(p->raw) > WEB_PATCHES_MAIL_MAX) {
		g_string_append_printf(
			out,
			"<p class=\"no-diff\">the mail is %" G_GSIZE_FORMAT
			" bytes, more than the page shows: see "
			"the mbox</p></article>\n",
			g_bytes_get_size(p->raw));
		return;
	}
	/* the page's budget pays for the mail parsed, whatever of it is
	 * the diff */
	allowed = *budget;
	*budget -= MIN(*budget, g_bytes_get_size(p->raw));
	mi = mailinfo_run(p->raw, &opts);
	if (!mi->patch->len) {
		g_string_append(out, "<p class=\"no-diff\">no diff in this "
				     "mail</p></article>\n");
		return;
	}
	g_string_append(out, "<div class=\"patch-diff\">");
	web_diff_append(out, id, mi->patch->str, MIN(mi->patch->len, allowed));
	if (mi->patch->len > allowed && allowed < WEB_DIFF_MAX)
		g_string_append(out, "<p class=\"no-diff\">the rest is not "
				     "shown: the page shows the first diffs "
				     "only, see the mbox</p>");
	g_string_append(out, "</div>");
	patch_bars(out, mi->patch->str,
		   MIN(mi->patch->len, MIN(WEB_DIFF_MAX, allowed)),
		   p->position);
	g_string_append(out, "</article>\n");
}

void web_patches_section(GString *out, const struct store_web_series *x,
			 const char *const *archive_urls)
{
	gsize budget = WEB_PATCHES_PAGE_MAX;

	g_string_append(out, "<section id=\"patches\"><h2>patches</h2>\n");
	for (guint i = 0; i < x->parts->len; i++) {
		const struct store_web_part *p = x->parts->pdata[i];

		if (p->position)
			patch_article(out, p, archive_urls, &budget);
	}
	g_string_append(out, "</section>\n");
}
