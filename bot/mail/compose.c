/* The bot's own mail, headers and all (see bot/mail/compose.h). */
#include "bot/mail/compose.h"

#include <string.h>

#define HEADER_WIDTH 78 /* RFC 5322 2.1.1: SHOULD be no more than 78 */
#define LINE_LIMIT 998 /* RFC 5322 2.1.1: MUST be no more than 998 */

G_DEFINE_QUARK(mail - compose - error - quark, mail_compose_error)

gboolean mail_compose_token_ok(const char *s)
{
	if (!s || !*s)
		return FALSE;
	for (; *s; s++)
		if ((guchar)*s <= ' ' || *s == 0x7f || *s == '<' || *s == '>')
			return FALSE;
	return TRUE;
}

char *mail_compose_domain(const char *address)
{
	const char *at = address ? strrchr(address, '@') : NULL;
	g_autofree char *domain = NULL;

	if (!at || !at[1])
		return g_strdup("armbot.invalid");
	domain = g_strdup(at + 1);
	g_strstrip(domain);
	if (domain[0] && domain[strlen(domain) - 1] == '>')
		domain[strlen(domain) - 1] = '\0';
	return g_ascii_strdown(domain, -1);
}

char *mail_compose_message_id(const char *kind, const char *key,
			      const char *bot_address)
{
	g_autofree char *domain = mail_compose_domain(bot_address);
	g_autofree char *hex = g_compute_checksum_for_string(
		G_CHECKSUM_SHA256, key ? key : "", -1);

	return g_strdup_printf("armbot-%s-%.32s@%s", kind, hex, domain);
}

char *mail_compose_reply_subject(const char *subject)
{
	g_autofree char *flat = g_strdup(subject ? subject : "");

	g_strdelimit(flat, "\r\n\t", ' ');
	g_strstrip(flat);
	if (!g_ascii_strncasecmp(flat, "re:", 3))
		return g_steal_pointer(&flat);
	return g_strconcat("Re: ", flat, NULL);
}

char *mail_compose_date(gint64 when)
{
	static const char *const days[] = { "Mon", "Tue", "Wed", "Thu",
					    "Fri", "Sat", "Sun" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr",
					      "May", "Jun", "Jul", "Aug",
					      "Sep", "Oct", "Nov", "Dec" };
	g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc(when);

	if (!dt)
		dt = g_date_time_new_from_unix_utc(0);
	return g_strdup_printf("%s, %02d %s %04d %02d:%02d:%02d +0000",
			       days[g_date_time_get_day_of_week(dt) - 1],
			       g_date_time_get_day_of_month(dt),
			       months[g_date_time_get_month(dt) - 1],
			       g_date_time_get_year(dt),
			       g_date_time_get_hour(dt),
			       g_date_time_get_minute(dt),
			       g_date_time_get_second(dt));
}

void mail_compose_limit_lines(GString *body)
{
	gsize start = 0;

	for (gsize i = 0; i < body->len; i++) {
		if (body->str[i] == '\n') {
			start = i + 1;
			continue;
		}
		if (i - start < LINE_LIMIT)
			continue;
		while (i > start && (body->str[i] & 0xc0) == 0x80)
			i--;
		g_string_insert_c(body, i, '\n');
		start = i + 1;
	}
}

static gboolean is_ascii_text(const char *s)
{
	for (; *s; s++)
		if ((guchar)*s >= 0x7f || ((guchar)*s < 0x20 && *s != '\t'))
			return FALSE;
	return TRUE;
}

/* A header being written: its folded text and the current column. */
struct header_line {
	GString *out;
	gsize col;
};

static void header_begin(struct header_line *h, GString *out, const char *name)
{
	h->out = out;
	g_string_append_printf(out, "%s:", name);
	h->col = strlen(name) + 1;
}

/* Append @token, preceded by one space, folding before it (RFC 5322
 * 2.2.3: a CRLF before white space) when the line would pass 78. */
static void header_token(struct header_line *h, const char *token)
{
	gsize len = strlen(token);

	if (h->col > 1 && h->col + 1 + len > HEADER_WIDTH) {
		g_string_append(h->out, "\n ");
		h->col = 1;
	} else {
		g_string_append_c(h->out, ' ');
		h->col++;
	}
	g_string_append(h->out, token);
	h->col += len;
}

static void header_end(struct header_line *h)
{
	g_string_append_c(h->out, '\n');
}

/* RFC 2047 4.2 (unstructured text) and 5(3) (a phrase): which octets
 * may stand for themselves in a "Q" encoded word. */
static gboolean q_literal(guchar c, gboolean phrase)
{
	if (g_ascii_isalnum(c))
		return TRUE;
	if (phrase)
		return c == '!' || c == '*' || c == '+' || c == '-' || c == '/';
	return c > 0x20 && c < 0x7f && c != '=' && c != '?' && c != '_' &&
	       c != '(' && c != ')' && c != '"';
}

/* Append @text as "Q" encoded words (RFC 2047), each at most 75
 * characters (2.) and holding whole UTF-8 characters (5.), folded
 * between words. */
static void header_encoded(struct header_line *h, const char *text,
			   gboolean phrase)
{
	static const char prefix[] = "=?UTF-8?q?";
	g_autoptr(GString) word = g_string_new(prefix);
	const char *p = text;
	/* the first word fills what is left of the line when that is
	 * worth it; the others start a line of their own */
	gsize room = HEADER_WIDTH - h->col - 1;
	gsize limit = room >= 24 && room < 75 ? room : 75;

	while (*p) {
		const char *next = g_utf8_next_char(p);
		g_autoptr(GString) enc = g_string_new(NULL);

		for (const char *q = p; q < next; q++) {
			guchar c = (guchar)*q;

			if (c == ' ')
				g_string_append_c(enc, '_');
			else if (q_literal(c, phrase))
				g_string_append_c(enc, c);
			else
				g_string_append_printf(enc, "=%02X", c);
		}
		if (word->len + enc->len + 2 > limit &&
		    word->len > strlen(prefix)) {
			g_string_append(word, "?=");
			header_token(h, word->str);
			g_string_assign(word, prefix);
			limit = 75;
		}
		g_string_append(word, enc->str);
		p = next;
	}
	g_string_append(word, "?=");
	header_token(h, word->str);
}

/* Append unstructured text: plain words folded at their spaces when it
 * is ASCII without anything that reads as an encoded word, else encoded. */
static void header_text(struct header_line *h, const char *text)
{
	g_auto(GStrv) words = NULL;

	if (!is_ascii_text(text) || strstr(text, "=?")) {
		header_encoded(h, text, FALSE);
		return;
	}
	/* ASCII text: its only white space is spaces and tabs */
	words = g_strsplit_set(text, " \t", -1);
	for (guint i = 0; words[i]; i++)
		if (*words[i])
			header_token(h, words[i]);
}

/* RFC 5322 3.2.3 atext, and the spaces between words of a phrase. */
static gboolean phrase_is_atoms(const char *s)
{
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr(" !#$%&'*+-/=?^_`{|}~", *s))
			return FALSE;
	return TRUE;
}

/* Append "Display Name <address>": the name as atoms, a quoted string
 * (RFC 5322 3.2.4), or encoded words when it is not ASCII. */
static void header_mailbox(struct header_line *h, const char *name,
			   const char *address)
{
	g_autofree char *angle = g_strdup_printf("<%s>", address);

	if (name && *name) {
		g_autofree char *flat = g_strdup(name);

		g_strdelimit(flat, "\r\n\t", ' ');
		g_strstrip(flat);
		if (!is_ascii_text(flat) || strstr(flat, "=?")) {
			header_encoded(h, flat, TRUE);
		} else if (phrase_is_atoms(flat)) {
			header_text(h, flat);
		} else {
			g_autoptr(GString) q = g_string_new("\"");

			for (const char *p = flat; *p; p++) {
				if (*p == '"' || *p == '\\')
					g_string_append_c(q, '\\');
				g_string_append_c(q, *p);
			}
			g_string_append_c(q, '"');
			header_token(h, q->str);
		}
		header_token(h, angle);
	} else {
		header_token(h, address);
	}
}

static gboolean check_fields(const struct mail_compose *m, GError **error)
{
	const char *missing = !m->from_address ? "From address" :
			      !m->to_address   ? "To address" :
			      !m->subject      ? "subject" :
			      !m->message_id   ? "Message-ID" :
						 NULL;
	const char *bad = NULL;

	if (missing) {
		g_set_error(error, MAIL_COMPOSE_ERROR,
			    MAIL_COMPOSE_ERROR_INVALID,
			    "cannot write the mail: no %s", missing);
		return FALSE;
	}
	if (!mail_compose_token_ok(m->from_address))
		bad = m->from_address;
	else if (!mail_compose_token_ok(m->to_address))
		bad = m->to_address;
	else if (!mail_compose_token_ok(m->message_id))
		bad = m->message_id;
	else if (m->in_reply_to && !mail_compose_token_ok(m->in_reply_to))
		bad = m->in_reply_to;
	for (guint i = 0; !bad && m->cc && m->cc[i]; i++)
		if (!mail_compose_token_ok(m->cc[i]))
			bad = m->cc[i];
	if (bad) {
		g_autofree char *shown = g_strescape(bad, NULL);

		g_set_error(error, MAIL_COMPOSE_ERROR,
			    MAIL_COMPOSE_ERROR_INVALID,
			    "cannot write the mail: bad address or Message-ID "
			    "'%s'",
			    shown);
		return FALSE;
	}
	return TRUE;
}

gboolean mail_compose_headers(GString *out, const struct mail_compose *m,
			      gboolean eight_bit, GError **error)
{
	struct header_line h;
	g_autofree char *subject = NULL;
	g_autofree char *date = NULL;
	g_autofree char *id = NULL;

	if (!check_fields(m, error))
		return FALSE;
	subject = g_strdup(m->subject);
	g_strdelimit(subject, "\r\n", ' ');
	date = mail_compose_date(m->date);
	id = g_strdup_printf("<%s>", m->message_id);

	header_begin(&h, out, "From");
	header_mailbox(&h, m->from_name, m->from_address);
	header_end(&h);
	header_begin(&h, out, "To");
	header_mailbox(&h, m->to_name, m->to_address);
	header_end(&h);
	if (m->cc && m->cc[0]) {
		header_begin(&h, out, "Cc");
		for (guint i = 0; m->cc[i]; i++) {
			g_autofree char *item =
				m->cc[i + 1] ?
					g_strconcat(m->cc[i], ",", NULL) :
					g_strdup(m->cc[i]);

			header_token(&h, item);
		}
		header_end(&h);
	}
	header_begin(&h, out, "Subject");
	if (g_str_has_prefix(subject, "Re: ") && !is_ascii_text(subject)) {
		/* as git format-patch keeps "[PATCH]" plain: only the
		 * subject proper is encoded */
		header_token(&h, "Re:");
		header_text(&h, subject + 4);
	} else {
		header_text(&h, subject);
	}
	header_end(&h);
	header_begin(&h, out, "Date");
	header_token(&h, date);
	header_end(&h);
	header_begin(&h, out, "Message-ID");
	header_token(&h, id);
	header_end(&h);
	if (m->in_reply_to) {
		g_autofree char *parent =
			g_strdup_printf("<%s>", m->in_reply_to);

		/* RFC 5322 3.6.4: In-Reply-To the parent, References its
		 * References (or In-Reply-To) followed by the parent */
		header_begin(&h, out, "In-Reply-To");
		header_token(&h, parent);
		header_end(&h);
		header_begin(&h, out, "References");
		for (guint i = 0; m->references && i < m->references->len;
		     i++) {
			const char *ref = m->references->pdata[i];
			g_autofree char *angle = NULL;

			/* a reference that cannot be written is left out */
			if (!mail_compose_token_ok(ref) ||
			    !strcmp(ref, m->in_reply_to))
				continue;
			angle = g_strdup_printf("<%s>", ref);
			header_token(&h, angle);
		}
		header_token(&h, parent);
		header_end(&h);
	}
	g_string_append(out, "MIME-Version: 1.0\n"
			     "Content-Type: text/plain; charset=utf-8\n");
	g_string_append_printf(out, "Content-Transfer-Encoding: %s\n",
			       eight_bit ? "8bit" : "7bit");
	/* RFC 3834 5: automatic mail; Microsoft's header keeps Exchange
	 * from sending out-of-office replies to it */
	g_string_append_printf(out,
			       "Auto-Submitted: %s\n"
			       "X-Auto-Response-Suppress: All\n",
			       m->auto_submitted == MAIL_COMPOSE_AUTO_REPLIED ?
				       "auto-replied" :
				       "auto-generated");
	return TRUE;
}

GBytes *mail_compose(const struct mail_compose *m, const char *body,
		     GError **error)
{
	g_autoptr(GString) text = g_string_new(body ? body : "");
	GString *out = g_string_new(NULL);

	mail_compose_limit_lines(text);
	if (!mail_compose_headers(out, m, !g_str_is_ascii(text->str), error)) {
		g_string_free(out, TRUE);
		return NULL;
	}
	g_string_append_c(out, '\n');
	g_string_append_len(out, text->str, text->len);
	return g_string_free_to_bytes(out);
}
