/* The weekly arch/arm balance mail (see bot/daemon/weekly.h). */
#include "bot/daemon/weekly.h"

#include <string.h>

#include "bot/mail/compose.h"
#include "bot/store/pipeline.h"
#include "config/config.h"
#include "mailparse/listid.h"

#define WEEKLY_DIRS 5 /* folders named that grew, and that shrank */
#define WEEKLY_SUBJECT_WIDTH 62
#define WEEKLY_GRACE (6 * 3600) /* s into Monday: Sunday's series tested */

static char *day(gint64 when)
{
	g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc(when);

	return dt ? g_date_time_format(dt, "%Y-%m-%d") : g_strdup("?");
}

/* "+12 -70, net -58 lines" */
static void append_lines(GString *out, gint64 added, gint64 removed, gint64 net)
{
	g_string_append_printf(out,
			       "+%" G_GINT64_FORMAT " -%" G_GINT64_FORMAT
			       ", net %+" G_GINT64_FORMAT " line%s",
			       added, removed, net,
			       net == 1 || net == -1 ? "" : "s");
}

static void append_dirs(GString *out, const struct store_balance *b,
			gboolean grew)
{
	guint n = 0;

	for (guint k = 0; k < b->dirs->len && n < WEEKLY_DIRS; k++) {
		/* largest growth first: the shrinking ones from the end */
		guint i = grew ? k : b->dirs->len - 1 - k;
		const struct store_web_dir *d = b->dirs->pdata[i];

		if (grew ? d->net <= 0 : d->net >= 0)
			break;
		if (!n++)
			g_string_append(out, grew ? "\nGrew most:\n" :
						    "\nShrank most:\n");
		g_string_append_printf(out,
				       "  %+7" G_GINT64_FORMAT "  %-30s"
				       " (+%" G_GINT64_FORMAT
				       " -%" G_GINT64_FORMAT ", %u series)\n",
				       d->net, d->path, d->added, d->removed,
				       d->series);
	}
}

/* The subject on one line, cut at a character boundary. */
static char *short_subject(const char *subject)
{
	g_autofree char *one = g_strdup(subject);

	g_strdelimit(one, "\t\r\n", ' ');
	if (g_utf8_validate(one, -1, NULL) &&
	    g_utf8_strlen(one, -1) > WEEKLY_SUBJECT_WIDTH) {
		g_autofree char *cut =
			g_utf8_substring(one, 0, WEEKLY_SUBJECT_WIDTH - 3);

		return g_strconcat(cut, "...", NULL);
	}
	return g_steal_pointer(&one);
}

/* What the similarity step found (kernel/similar/): per series that
 * has something, its subject and page, then each finding. */
static void append_why(GString *out, const struct store_balance *b,
		       const char *base_url)
{
	gboolean any = FALSE;

	for (guint i = 0; i < b->series->len; i++) {
		const struct store_balance_series *s = b->series->pdata[i];
		g_autofree char *subject = NULL;
		g_auto(GStrv) lines = NULL;

		if (!s->counted || !s->similar || !*s->similar)
			continue;
		if (!any)
			g_string_append(out,
					"\nWhy it grows arch/arm: near-copies"
					" of existing code and drivers\n"
					"outside drivers/:\n");
		any = TRUE;
		subject = short_subject(s->subject);
		g_string_append_printf(out, "  %s", subject);
		if (base_url)
			g_string_append_printf(
				out, "\n    %s/series/%" G_GINT64_FORMAT,
				base_url, s->id);
		g_string_append_c(out, '\n');
		lines = g_strsplit(s->similar, "\n", 50);
		for (guint k = 0; lines[k]; k++)
			if (*g_strstrip(lines[k]))
				g_string_append_printf(out, "    - %s\n",
						       lines[k]);
	}
}

static gint by_net(gconstpointer a, gconstpointer b)
{
	const struct store_balance_series *x =
		*(const struct store_balance_series *const *)a;
	const struct store_balance_series *y =
		*(const struct store_balance_series *const *)b;

	if (x->net != y->net)
		return x->net > y->net ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The counted series that change arch/arm, largest growth first, each
 * with its figure and page; then how many leave it alone and why the
 * others are not counted. */
static void append_series(GString *out, const struct store_balance *b,
			  const char *base_url)
{
	g_autoptr(GPtrArray) changing = g_ptr_array_new();
	g_autoptr(GHashTable)
		not_counted = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GList) reasons = NULL;
	guint alone = 0;

	for (guint i = 0; i < b->series->len; i++) {
		const struct store_balance_series *s = b->series->pdata[i];
		const char *why;
		guint n;

		if (s->counted && (s->added || s->removed)) {
			g_ptr_array_add(changing, (gpointer)s);
			continue;
		}
		if (s->counted) {
			alone++;
			continue;
		}
		why = !strcmp(s->state, "superseded") ?
			      "superseded by a later version" :
		      !strcmp(s->state, "incomplete") ? "incomplete" :
							"not tested (yet)";
		n = GPOINTER_TO_UINT(g_hash_table_lookup(not_counted, why));
		g_hash_table_insert(not_counted, (gpointer)why,
				    GUINT_TO_POINTER(n + 1));
	}
	g_ptr_array_sort(changing, by_net);
	if (changing->len)
		g_string_append(out, "\nThe series that change arch/arm, "
				     "largest growth first:\n");
	for (guint i = 0; i < changing->len; i++) {
		const struct store_balance_series *s = changing->pdata[i];
		g_autofree char *subject = short_subject(s->subject);

		g_string_append_printf(out, "  %+7" G_GINT64_FORMAT "  %s\n",
				       s->net, subject);
		g_string_append_printf(out,
				       "           +%" G_GINT64_FORMAT
				       " -%" G_GINT64_FORMAT,
				       s->added, s->removed);
		if (base_url)
			g_string_append_printf(out,
					       ", %s/series/%" G_GINT64_FORMAT,
					       base_url, s->id);
		g_string_append_c(out, '\n');
	}
	if (alone)
		g_string_append_printf(out,
				       "\n%u tested series leave%s arch/arm "
				       "alone.\n",
				       alone, alone == 1 ? "s" : "");
	reasons = g_hash_table_get_keys(not_counted);
	reasons = g_list_sort(reasons, (GCompareFunc)strcmp);
	for (GList *l = reasons; l; l = l->next)
		g_string_append_printf(out, "%s%u series %s.\n",
				       l == reasons && !alone ? "\n" : "",
				       GPOINTER_TO_UINT(g_hash_table_lookup(
					       not_counted, l->data)),
				       (const char *)l->data);
}

char *weekly_body(const struct store_balance *b, const char *address,
		  const char *base_url)
{
	GString *out = g_string_new(NULL);
	g_autofree char *from = day(b->week);
	g_autofree char *to = day(b->week + STORE_BALANCE_WEEK - 1);

	g_string_append_printf(out,
			       "The arch/arm balance of %s, week of Monday %s"
			       " to Sunday %s (UTC).\n\n",
			       address, from, to);
	g_string_append_printf(out,
			       "%u series posted, %u tested; %u counted (the"
			       " latest version of each)\n",
			       b->posted, b->tested, b->counted);
	if (b->counted) {
		g_string_append(out, "arch/arm: ");
		append_lines(out, b->added, b->removed, b->net);
		g_string_append_printf(out, ": %s\n",
				       b->net < 0 ?
					       "the week shrinks arch/arm" :
				       b->net > 0 ? "the week grows arch/arm" :
						    "the week leaves arch/arm"
						    " as large as it was");
	}
	append_dirs(out, b, TRUE);
	append_dirs(out, b, FALSE);
	append_series(out, b, base_url);
	append_why(out, b, base_url);
	if (base_url) {
		g_autofree char *list_id = listid_from_address(address);

		g_string_append_printf(out,
				       "\nEvery week as a chart: %s/arch-arm"
				       "?list=%s\n",
				       base_url, list_id);
	}
	g_string_append(
		out,
		"\nEach series counts with the signed dirstat of its first"
		" test (added\nminus removed lines under arch/arm); a series"
		" superseded by a later\nversion does not count.  Lists ask"
		" for this mail with weekly = true\nin armbot.conf's [list]"
		" group.\n-- \narmbot\n");
	return g_string_free(out, FALSE);
}

/* The Message-ID of @address's balance of @week: the same each time, so
 * that the mail is queued once. */
static char *weekly_message_id(const struct armbot_config *c,
			       const char *address, gint64 week)
{
	g_autofree char *list_id = listid_from_address(address);
	g_autofree char *key =
		g_strdup_printf("%s %" G_GINT64_FORMAT, list_id, week);

	return mail_compose_message_id("weekly", key, c->address);
}

GBytes *weekly_mail(struct store *st, const struct armbot_config *c,
		    const char *address, gint64 week, gint64 now,
		    char **message_id, guint *posted, GError **error)
{
	g_autofree char *list_id = listid_from_address(address);
	g_autoptr(store_balance)
		b = store_balance_read(st, list_id, week, error);
	g_autofree char *body = NULL, *subject = NULL;
	g_autofree char *from = day(week);
	g_autofree char *mid = NULL;
	GBytes *raw;

	if (!b)
		return NULL;
	body = weekly_body(b, address, c->web_base_url);
	mid = weekly_message_id(c, address, week);
	if (b->counted)
		subject = g_strdup_printf(
			"[armbot] arch/arm balance, week of"
			" %s: %u series, net %+" G_GINT64_FORMAT " lines",
			from, b->posted, b->net);
	else
		subject = g_strdup_printf("[armbot] arch/arm balance, week of"
					  " %s: %u series, none tested",
					  from, b->posted);
	{
		struct mail_compose m = {
			.from_name = c->name,
			.from_address = c->address,
			.to_address = address,
			.subject = subject,
			.date = now,
			.message_id = mid,
			.auto_submitted = MAIL_COMPOSE_AUTO_GENERATED,
		};

		raw = mail_compose(&m, body, error);
	}
	if (raw && message_id)
		*message_id = g_steal_pointer(&mid);
	if (raw && posted)
		*posted = b->posted;
	return raw;
}

gboolean weekly_queue(struct store *st, const struct armbot_config *c,
		      const char *address, gint64 week, gint64 now,
		      gboolean *added, GError **error)
{
	g_autofree char *mid = NULL;
	g_autoptr(GBytes) raw = NULL;
	struct store_reply mail = { 0 };
	guint posted = 0;
	gboolean has;

	*added = FALSE;
	/* queued already (the daemon asks every minute): nothing to read */
	mid = weekly_message_id(c, address, week);
	if (!store_outbox_has(st, mid, &has, error))
		return FALSE;
	if (has)
		return TRUE;
	g_clear_pointer(&mid, g_free);
	raw = weekly_mail(st, c, address, week, now, &mid, &posted, error);
	if (!raw)
		return FALSE;
	/* a week without a series (the bot was not running) has nothing
	 * to say */
	if (!posted)
		return TRUE;
	mail.message_id = mid;
	mail.list = address;
	mail.sender = c->smtp_from ? c->smtp_from : c->address;
	mail.recipients = address;
	mail.raw = raw;
	mail.state = c->dry_run ? "held" : NULL;
	return store_outbox_add(st, "weekly", &mail, added, error);
}

gboolean weekly_queue_due(struct store *st, const struct armbot_config *c,
			  gint64 now, guint *queued, GError **error)
{
	gint64 week = store_balance_week_start(now - WEEKLY_GRACE) -
		      STORE_BALANCE_WEEK;

	*queued = 0;
	for (guint i = 0; i < c->lists->len; i++) {
		const struct config_list *l = c->lists->pdata[i];
		gboolean added;

		if (!l->weekly)
			continue;
		if (!weekly_queue(st, c, l->address, week, now, &added, error))
			return FALSE;
		*queued += added;
	}
	return TRUE;
}
