#include "mailparse/series.h"

#include <string.h>

#include "mailparse/subject.h"
#include "mailparse/trailers.h"

struct series_message *series_message_new(void)
{
	struct series_message *m = g_new0(struct series_message, 1);

	m->version = 1;
	m->total = 1;
	m->index = 1;
	return m;
}

void series_message_free(struct series_message *m)
{
	if (!m)
		return;
	g_free(m->message_id);
	g_free(m->in_reply_to);
	g_clear_pointer(&m->references, g_ptr_array_unref);
	g_free(m->from_email);
	g_free(m->author);
	g_free(m->subject);
	g_free(m->base_commit);
	g_free(m->change_id);
	g_free(m);
}

static gpointer copy_string(gconstpointer s, gpointer unused)
{
	return g_strdup(s);
}

struct series_message *series_message_from(const struct message *msg,
					   gint64 received)
{
	struct series_message *m = series_message_new();
	struct subject_tags tags = SUBJECT_TAGS_INIT;
	struct trailers_info info = { 0 };
	g_autofree char *patch_text = NULL;
	g_autofree char *body = message_body_text(msg, &patch_text);
	const char *patch = NULL;

	subject_tags_parse(&tags, msg->subject);
	/* a patch is what git mailinfo splits off, when git apply would
	 * find a diff in it (not only notes after a "---") */
	if (classify_has_diff(patch_text))
		patch = patch_text;
	m->message_id = g_strdup(msg->message_id);
	m->in_reply_to = g_strdup(msg->in_reply_to);
	if (msg->references->len)
		m->references =
			g_ptr_array_copy(msg->references, copy_string, NULL);
	m->from_email = g_strdup(msg->from_email);
	m->author = message_author(msg);
	m->date = msg->date;
	m->received = received;
	m->kind = classify_message(msg, &tags, body, patch);
	if (m->references)
		g_ptr_array_set_free_func(m->references, g_free);
	m->has_version = tags.has_version;
	m->version = tags.version;
	m->version_minor = tags.version_minor;
	m->has_index = tags.has_index;
	m->index = tags.has_index ? tags.index : 1;
	m->total = tags.total;
	m->rfc = tags.rfc;
	m->resend = tags.resend;
	m->subject = g_strdup(tags.clean);
	if (m->kind == CLASSIFY_PATCH || m->kind == CLASSIFY_COVER) {
		trailers_info_parse(&info, body);
		m->base_commit = g_steal_pointer(&info.base_commit);
		m->change_id = g_steal_pointer(&info.change_id);
		trailers_info_clear(&info);
	}
	subject_tags_clear(&tags);
	return m;
}

const char *series_state_name(enum series_state state)
{
	static const char *const names[] = {
		[SERIES_INCOMPLETE] = "incomplete",
		[SERIES_READY] = "ready",
		[SERIES_SUPERSEDED] = "superseded",
	};

	return names[state];
}

struct assembler {
	const struct series_options *opts;
	GHashTable *known; /* Message-ID -> struct series_message * */
	GHashTable *phantom; /* parent Message-ID -> struct series * */
	GHashTable *by_author; /* email -> GPtrArray of struct series * */
	struct series_assembly *out;
	GHashTable *anchor; /* struct series * -> the message it replied
				   to in another series */
};

/* Longest thread walked; real threads are far shallower, this only
 * bounds loops made by forged References. */
#define MAX_DEPTH 1000

static gboolean has_threading(const struct series_message *m)
{
	return m->in_reply_to || (m->references && m->references->len);
}

/* The nearest known message this one replies to, or NULL. */
static struct series_message *known_parent(struct assembler *a,
					   const struct series_message *m)
{
	struct series_message *p;

	if (m->in_reply_to &&
	    (p = g_hash_table_lookup(a->known, m->in_reply_to)) && p != m)
		return p;
	if (m->references)
		for (guint i = m->references->len; i-- > 0;)
			if ((p = g_hash_table_lookup(
				     a->known, m->references->pdata[i])) &&
			    p != m)
				return p;
	return NULL;
}

/* The ids @m is a reply to, nearest first: In-Reply-To, then References
 * from the last, then on up through the parents we have. */
static GPtrArray *ancestors(struct assembler *a, const struct series_message *m)
{
	GPtrArray *ids = g_ptr_array_new();
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable)
		walked = g_hash_table_new(g_direct_hash, g_direct_equal);
	const struct series_message *cur = m;

	g_hash_table_add(seen, m->message_id);
	for (guint depth = 0; cur && depth < MAX_DEPTH; depth++) {
		if (cur->in_reply_to &&
		    g_hash_table_add(seen, cur->in_reply_to))
			g_ptr_array_add(ids, cur->in_reply_to);
		if (cur->references)
			for (guint i = cur->references->len; i-- > 0;)
				if (g_hash_table_add(seen,
						     cur->references->pdata[i]))
					g_ptr_array_add(
						ids, cur->references->pdata[i]);
		g_hash_table_add(walked, (gpointer)cur);
		cur = known_parent(a, cur);
		if (cur && g_hash_table_contains(walked, cur))
			break;
	}
	return ids;
}

static gboolean same_version(const struct series *s,
			     const struct series_message *m)
{
	return s->version == m->version && s->version_minor == m->version_minor;
}

static struct series_message *patch_at(const struct series *s, guint index)
{
	for (guint i = 0; i < s->patches->len; i++) {
		struct series_message *p = s->patches->pdata[i];

		if (p->index == index)
			return p;
	}
	return NULL;
}

static const struct series_message *first_member(const struct series *s)
{
	return s->cover	       ? s->cover :
	       s->patches->len ? s->patches->pdata[0] :
				 NULL;
}

static gboolean series_has_version(const struct series *s)
{
	if (s->cover && s->cover->has_version)
		return TRUE;
	for (guint i = 0; i < s->patches->len; i++)
		if (((struct series_message *)s->patches->pdata[i])->has_version)
			return TRUE;
	return FALSE;
}

/* Can @m take a slot in @s?  See the header for the rules. */
static gboolean fits(struct assembler *a, const struct series *s,
		     const struct series_message *m, gboolean same_sender)
{
	const struct series_message *first = first_member(s);

	if (same_sender && first && strcmp(first->from_email, m->from_email))
		return FALSE;
	if (m->kind == CLASSIFY_COVER) {
		if (s->cover)
			return FALSE;
	} else if (!m->has_index || patch_at(s, m->index)) {
		return FALSE;
	}
	if (m->total != s->total)
		return FALSE;
	if (!same_version(s, m)) {
		gint64 delta = m->date - s->first_date;

		/* patchwork: versions that differ only because one side
		 * did not write it, sent at about the same time */
		if (m->has_version && series_has_version(s))
			return FALSE;
		if (delta < 0)
			delta = -delta;
		if (delta > a->opts->version_window)
			return FALSE;
	}
	return TRUE;
}

static gint64 activity(const struct series_message *m)
{
	/* a Date in the future does not keep a series waiting */
	if (m->date && (!m->received || m->date < m->received))
		return m->date;
	return m->received;
}

static void series_add(struct assembler *a, struct series *s,
		       struct series_message *m)
{
	if (m->kind == CLASSIFY_COVER)
		s->cover = m;
	else
		g_ptr_array_add(s->patches, m);
	if (m->date && (!s->first_date || m->date < s->first_date))
		s->first_date = m->date;
	s->last_activity = MAX(s->last_activity, activity(m));
	s->rfc = s->rfc || m->rfc;
	s->resend = s->resend || m->resend;
	g_hash_table_insert(a->out->by_message, m->message_id, s);
}

static struct series *series_new(struct assembler *a, struct series_message *m)
{
	struct series *s = g_new0(struct series, 1);
	GPtrArray *list;

	s->patches = g_ptr_array_new();
	s->version = m->version;
	s->version_minor = m->version_minor;
	s->total = m->total;
	s->unthreaded = !has_threading(m);
	s->number = a->out->series->len;
	g_ptr_array_add(a->out->series, s);
	list = g_hash_table_lookup(a->by_author, m->from_email);
	if (!list) {
		list = g_ptr_array_new();
		g_hash_table_insert(a->by_author, m->from_email, list);
	}
	g_ptr_array_add(list, s);
	return s;
}

/* patchwork _find_series_by_markers(): the most recent series of the same
 * sender, version and total, within the window, with the slot free */
static struct series *find_by_markers(struct assembler *a,
				      const struct series_message *m)
{
	GPtrArray *list = g_hash_table_lookup(a->by_author, m->from_email);

	if (!list)
		return NULL;
	for (guint i = list->len; i-- > 0;) {
		struct series *s = list->pdata[i];
		gint64 delta = m->date - s->last_activity;

		if (delta < 0)
			delta = -delta;
		if (!s->unthreaded || !same_version(s, m) ||
		    delta > a->opts->group_window)
			continue;
		if (fits(a, s, m, TRUE))
			return s;
	}
	return NULL;
}

static void place(struct assembler *a, struct series_message *m)
{
	g_autoptr(GPtrArray) ids = NULL;
	struct series *found = NULL, *s;
	const char *anchor = NULL;
	gboolean phantom = FALSE;

	if (has_threading(m)) {
		ids = ancestors(a, m);
		for (guint i = 0; i < ids->len && !found; i++) {
			if ((found = g_hash_table_lookup(a->out->by_message,
							 ids->pdata[i]))) {
				anchor = ids->pdata[i];
			} else if ((found = g_hash_table_lookup(
					    a->phantom, ids->pdata[i]))) {
				phantom = TRUE;
			}
		}
		if (found && fits(a, found, m, phantom)) {
			series_add(a, found, m);
			return;
		}
	} else if ((found = find_by_markers(a, m))) {
		series_add(a, found, m);
		return;
	}
	s = series_new(a, m);
	series_add(a, s, m);
	if (found && !phantom && has_threading(m)) {
		s->reply_to = found;
		g_hash_table_insert(a->anchor, s,
				    g_hash_table_lookup(a->known, anchor));
	}
	/* siblings replying to the same message we do not have (a cover
	 * letter from an earlier archive, a bug report) join this series */
	if (m->in_reply_to &&
	    !g_hash_table_lookup(a->out->by_message, m->in_reply_to))
		g_hash_table_insert(a->phantom, m->in_reply_to, s);
}

struct order {
	struct series_message *m;
	gint64 key;
	guint depth;
};

static int order_cmp(gconstpointer pa, gconstpointer pb)
{
	const struct order *x = pa, *y = pb;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->m->seq < y->m->seq ? -1 : x->m->seq > y->m->seq;
}

/* Parents before children, else by date: the sort key of a message is the
 * latest date on its way from the thread root, its depth breaks ties. */
static GArray *processing_order(struct assembler *a, GPtrArray *messages)
{
	GArray *order = g_array_sized_new(FALSE, FALSE, sizeof(struct order),
					  messages->len);
	g_autoptr(GHashTable) done = g_hash_table_new_full(
		g_direct_hash, g_direct_equal, NULL, g_free);

	for (guint i = 0; i < messages->len; i++) {
		struct series_message *m = messages->pdata[i];
		g_autoptr(GPtrArray) chain = g_ptr_array_new();
		struct order base = { NULL, 0, 0 };
		struct order *memo;

		/* walk up to a message already keyed or to the root */
		for (struct series_message *c = m; c && chain->len < MAX_DEPTH;
		     c = known_parent(a, c)) {
			if ((memo = g_hash_table_lookup(done, c))) {
				base = *memo;
				break;
			}
			if (g_ptr_array_find(chain, c, NULL))
				break;
			g_ptr_array_add(chain, c);
		}
		for (guint j = chain->len; j-- > 0;) {
			struct order *o = g_new(struct order, 1);

			o->m = chain->pdata[j];
			o->key = MAX(base.key, o->m->date);
			o->depth = base.m ? base.depth + 1 : 0;
			g_hash_table_insert(done, o->m, o);
			base = *o;
		}
	}
	for (guint i = 0; i < messages->len; i++)
		g_array_append_vals(
			order, g_hash_table_lookup(done, messages->pdata[i]),
			1);
	g_array_sort(order, order_cmp);
	return order;
}

static int patch_cmp(gconstpointer pa, gconstpointer pb)
{
	const struct series_message *x = *(struct series_message **)pa;
	const struct series_message *y = *(struct series_message **)pb;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static gboolean covers_all(const struct series *s, const struct series *base)
{
	for (guint i = 1; i <= s->total; i++)
		if (!patch_at(s, i) && (!base || !patch_at(base, i)))
			return FALSE;
	return TRUE;
}

static int version_cmp(const struct series *x, const struct series *y)
{
	return subject_version_cmp(x->version, x->version_minor, y->version,
				   y->version_minor);
}

/* Do @old and @s share a change-id, cover subject or patch subject? */
static gboolean same_work(const struct series *old, const struct series *s)
{
	const struct series_message *a = first_member(old);
	const struct series_message *b = first_member(s);

	if (a->change_id && b->change_id && !strcmp(a->change_id, b->change_id))
		return TRUE;
	if (old->cover && s->cover &&
	    !g_ascii_strcasecmp(old->cover->subject, s->cover->subject))
		return TRUE;
	for (guint i = 0; i < old->patches->len; i++) {
		const struct series_message *p = old->patches->pdata[i];

		for (guint j = 0; j < s->patches->len; j++) {
			const struct series_message *q = s->patches->pdata[j];

			if (!g_ascii_strcasecmp(p->subject, q->subject))
				return TRUE;
		}
	}
	return FALSE;
}

/* Was @x sent before @y (what "latest" means for rerolls and resends)?  By
 * first Date; at the same second a resend comes after a posting without
 * RESEND, then the order of assembly decides, so that of any two one is
 * the earlier and resends cannot supersede in a circle. */
static gboolean sent_before(const struct series *x, const struct series *y)
{
	if (x->first_date != y->first_date)
		return x->first_date < y->first_date;
	if (x->resend != y->resend)
		return y->resend;
	return x->number < y->number;
}

/* A reroll in a new thread: the latest older version of the same work by
 * the same sender. */
static struct series *find_superseded(struct assembler *a, struct series *s)
{
	const struct series_message *first = first_member(s);
	GPtrArray *list = g_hash_table_lookup(a->by_author, first->from_email);
	struct series *best = NULL;

	for (guint i = 0; list && i < list->len; i++) {
		struct series *old = list->pdata[i];

		if (old == s || version_cmp(old, s) >= 0 ||
		    old->first_date > s->first_date || !same_work(old, s))
			continue;
		if (!best || version_cmp(old, best) > 0 ||
		    (!version_cmp(old, best) && sent_before(best, old)))
			best = old;
	}
	return best;
}

/* Is @s a resend of @old: RESEND in @s, the same version, sender and work,
 * @old sent before. */
static gboolean resend_of(const struct series *s, const struct series *old)
{
	const struct series_message *a = first_member(old);
	const struct series_message *b = first_member(s);

	return s->resend && old != s && a && b && !version_cmp(old, s) &&
	       !strcmp(a->from_email, b->from_email) && sent_before(old, s) &&
	       same_work(old, s);
}

/* The posting the resend @s supersedes: the latest it is a resend of (so
 * that a second resend in reply to the original supersedes the first),
 * or NULL. */
static struct series *find_resent(struct assembler *a, struct series *s)
{
	const struct series_message *first = first_member(s);
	GPtrArray *list;
	struct series *best = NULL;

	if (!first)
		return NULL;
	list = g_hash_table_lookup(a->by_author, first->from_email);
	for (guint i = 0; list && i < list->len; i++) {
		struct series *old = list->pdata[i];

		if (resend_of(s, old) && (!best || sent_before(best, old)))
			best = old;
	}
	return best;
}

static void finish(struct assembler *a)
{
	GPtrArray *all = a->out->series;

	for (guint i = 0; i < all->len; i++) {
		struct series *s = all->pdata[i];

		g_ptr_array_sort(s->patches, patch_cmp);
		if (s->total < 1)
			s->total = 1;
		s->complete = s->patches->len && covers_all(s, NULL);
	}
	for (guint i = 0; i < all->len; i++) {
		struct series *s = all->pdata[i];
		struct series *old = s->reply_to;
		struct series_message *anchor =
			g_hash_table_lookup(a->anchor, s);
		struct series *resent = s->resend ? find_resent(a, s) : NULL;

		if (resent)
			s->supersedes = resent;
		else if (old && version_cmp(s, old) > 0)
			s->supersedes = old;
		else if (!old && first_member(s))
			s->supersedes = find_superseded(a, s);
		if (!s->supersedes)
			continue;
		/* one patch rerolled (or resent) in reply to its old self:
		 * an anchor is only set for a series that replies to another,
		 * so this is the reply path or a resend */
		if (!s->cover && !s->complete && anchor &&
		    anchor->kind == CLASSIFY_PATCH && s->patches->len &&
		    s->total == s->supersedes->total &&
		    anchor->index ==
			    ((struct series_message *)s->patches->pdata[0])
				    ->index) {
			s->partial_of = s->supersedes;
			s->complete = covers_all(s, s->partial_of);
		}
		s->supersedes->superseded_by = s;
	}
	for (guint i = 0; i < all->len; i++) {
		struct series *s = all->pdata[i];

		if (s->superseded_by)
			s->state = SERIES_SUPERSEDED;
		else if (s->complete)
			s->state = SERIES_READY;
		else
			s->state = SERIES_INCOMPLETE;
		s->expired = !s->complete &&
			     a->opts->now - s->last_activity >
				     a->opts->incomplete_timeout;
	}
}

struct series_assembly *series_assemble(GPtrArray *messages,
					const struct series_options *opts)
{
	struct assembler a = { 0 };
	g_autoptr(GArray) order = NULL;

	a.opts = opts;
	a.out = g_new0(struct series_assembly, 1);
	a.out->series = g_ptr_array_new();
	a.out->by_message = g_hash_table_new(g_str_hash, g_str_equal);
	a.known = g_hash_table_new(g_str_hash, g_str_equal);
	a.phantom = g_hash_table_new(g_str_hash, g_str_equal);
	a.anchor = g_hash_table_new(g_direct_hash, g_direct_equal);
	a.by_author = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					    (GDestroyNotify)g_ptr_array_unref);
	for (guint i = 0; i < messages->len; i++) {
		struct series_message *m = messages->pdata[i];

		g_hash_table_insert(a.known, m->message_id, m);
	}
	order = processing_order(&a, messages);
	for (guint i = 0; i < order->len; i++) {
		struct series_message *m =
			g_array_index(order, struct order, i).m;

		if (m->kind == CLASSIFY_PATCH || m->kind == CLASSIFY_COVER)
			place(&a, m);
	}
	finish(&a);
	g_hash_table_unref(a.known);
	g_hash_table_unref(a.phantom);
	g_hash_table_unref(a.anchor);
	g_hash_table_unref(a.by_author);
	return a.out;
}

const char *series_subject(const struct series *s)
{
	const struct series_message *m = first_member(s);

	return m ? m->subject : "";
}

const char *series_author(const struct series *s)
{
	const struct series_message *m = first_member(s);

	return m ? m->author : "";
}

GPtrArray *series_apply_order(const struct series *s)
{
	GPtrArray *out;

	if (!s->partial_of)
		return g_ptr_array_copy(s->patches, NULL, NULL);
	out = series_apply_order(s->partial_of);
	for (guint i = 0; i < out->len; i++) {
		struct series_message *old = out->pdata[i];
		struct series_message *p = patch_at(s, old->index);

		if (p)
			out->pdata[i] = p;
	}
	return out;
}

void series_assembly_free(struct series_assembly *a)
{
	if (!a)
		return;
	for (guint i = 0; i < a->series->len; i++) {
		struct series *s = a->series->pdata[i];

		g_ptr_array_unref(s->patches);
		g_free(s);
	}
	g_ptr_array_unref(a->series);
	g_hash_table_unref(a->by_message);
	g_free(a);
}
