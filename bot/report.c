/* The reply mail: struct report rendered as an RFC 5322 message with a
 * plain text UTF-8 body, in the order the issue fixes (see report.h). */
#include "bot/report.h"

#include <string.h>

#define REPORT_WIDTH 72 /* body lines, where the content allows */
#define HEADER_WIDTH 78 /* RFC 5322 2.1.1: SHOULD be no more than 78 */
#define LINE_LIMIT 998 /* RFC 5322 2.1.1: MUST be no more than 998 */

G_DEFINE_QUARK(report - error - quark, report_error)

const char *report_check_name(enum report_check_kind kind)
{
	static const char *const names[REPORT_N_CHECKS] = {
		"apply", "sparse", "build", "boot", "runtime-PM",
	};

	return kind < REPORT_N_CHECKS ? names[kind] : "?";
}

const char *report_status_name(enum report_status status)
{
	switch (status) {
	case REPORT_STATUS_OK:
		return "ok";
	case REPORT_STATUS_WARN:
		return "WARN";
	case REPORT_STATUS_FAIL:
		return "FAIL";
	case REPORT_STATUS_SKIPPED:
		break;
	}
	return "skipped";
}

/* The domain of @address, lowercase, or the reserved "armbot.invalid"
 * (RFC 2606) when it has none. */
static char *address_domain(const char *address)
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

char *report_message_id(const char *series_message_id, guint version,
			const char *tree, const char *bot_address)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	g_autofree char *domain = address_domain(bot_address);
	g_autofree char *what = g_strdup_printf(
		"%s\n%u\n%s", series_message_id ? series_message_id : "",
		version ? version : 1, tree ? tree : "");
	const char *hex;

	g_checksum_update(sum, (const guchar *)what, strlen(what));
	hex = g_checksum_get_string(sum);
	return g_strdup_printf("armbot-%.32s@%s", hex, domain);
}

/* --- the first name ---------------------------------------------------- */

static gboolean all_alpha(const char *s)
{
	if (!*s)
		return FALSE;
	for (; *s; s = g_utf8_next_char(s))
		if (!g_unichar_isalpha(g_utf8_get_char(s)))
			return FALSE;
	return TRUE;
}

static gboolean all_upper(const char *s)
{
	gboolean upper = FALSE;

	for (; *s; s = g_utf8_next_char(s)) {
		gunichar c = g_utf8_get_char(s);

		if (g_unichar_islower(c))
			return FALSE;
		if (g_unichar_isupper(c))
			upper = TRUE;
	}
	return upper;
}

/* "Dr.", "J.", "Mr": words a greeting skips when a name follows. */
static gboolean is_title_or_initial(const char *word)
{
	static const char *const titles[] = { "dr", "dr.", "prof", "prof.",
					      "mr", "mr.", "mrs",  "mrs.",
					      "ms", "ms.", NULL };
	g_autofree char *low = g_utf8_strdown(word, -1);
	glong len = g_utf8_strlen(word, -1);

	if (g_strv_contains(titles, low))
		return TRUE;
	return len == 2 && g_str_has_suffix(word, ".");
}

/* "Jr.", "PhD" after a comma are not a first name. */
static gboolean is_suffix(const char *part)
{
	static const char *const suffixes[] = { "jr",  "jr.",	"sr", "sr.",
						"phd", "ph.d.", "ii", "iii",
						"md",  "m.d.",	NULL };
	g_autofree char *low = g_utf8_strdown(part, -1);

	return g_strv_contains(suffixes, low);
}

/* The words of @s, split at white space (Unicode's too). */
static GPtrArray *words(const char *s)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	const char *start = NULL;

	for (const char *p = s;; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (!c || g_unichar_isspace(c)) {
			if (start)
				g_ptr_array_add(out,
						g_strndup(start, p - start));
			start = NULL;
			if (!c)
				break;
		} else if (!start) {
			start = p;
		}
	}
	return out;
}

/* A greeting from an address' local part: "john.doe" gives "john", a
 * local part that is not letters ("x1234", "linux-kernel") gives NULL. */
static char *name_from_address(const char *address)
{
	g_autofree char *local = NULL;
	const char *at;
	char **parts;
	char *first = NULL;

	if (!address || !*address)
		return NULL;
	at = strchr(address, '@');
	local = at ? g_strndup(address, at - address) : g_strdup(address);
	parts = g_strsplit_set(local, "._+", 2);
	if (parts[0] && g_utf8_strlen(parts[0], -1) >= 2 && all_alpha(parts[0]))
		first = g_strdup(parts[0]);
	g_strfreev(parts);
	return first;
}

char *report_first_name(const char *author)
{
	g_autofree char *name = NULL;
	g_autofree char *address = NULL;
	g_autoptr(GString) clean = g_string_new(NULL);
	g_autoptr(GPtrArray) w = NULL;
	const char *lt, *gt, *comma;
	int depth = 0;
	guint i;

	if (!author || !g_utf8_validate(author, -1, NULL))
		return NULL;
	lt = strrchr(author, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (lt && gt) {
		name = g_strndup(author, lt - author);
		address = g_strndup(lt + 1, gt - lt - 1);
	} else if (strchr(author, '@') && !strchr(author, ' ')) {
		address = g_strdup(author);
		name = g_strdup("");
	} else {
		name = g_strdup(author);
	}

	/* drop quotes, backslashes of quoted pairs, and (comments) */
	for (const char *p = name; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth)
			depth--;
		else if (!depth && *p != '"' && *p != '\\')
			g_string_append_c(clean, *p);
	}
	g_strstrip(clean->str);
	/* a name that is an address is no name ("john@example.org
	 * <john@example.org>") */
	if (!*clean->str ||
	    (strchr(clean->str, '@') && !strchr(clean->str, ' ')))
		return name_from_address(address ? address : clean->str);

	/* "Last, First": the first name follows the comma, unless what
	 * follows is a suffix ("John Doe, Jr.") */
	comma = strchr(clean->str, ',');
	if (comma) {
		g_autofree char *after = g_strstrip(g_strdup(comma + 1));

		if (*after && !is_suffix(after)) {
			w = words(after);
		} else {
			g_autofree char *before =
				g_strndup(clean->str, comma - clean->str);

			w = words(before);
		}
	} else {
		w = words(clean->str);
	}
	if (!comma) {
		/* "YAMADA Taro": a family name written in capitals first */
		if (w->len >= 2 && all_upper(w->pdata[0]) &&
		    g_utf8_strlen(w->pdata[0], -1) > 1 &&
		    !all_upper(w->pdata[1]))
			return g_strdup(w->pdata[1]);
	}
	for (i = 0; i + 1 < w->len && is_title_or_initial(w->pdata[i]); i++)
		;
	if (i >= w->len)
		return name_from_address(address);
	return g_strdup(w->pdata[i]);
}

/* Can @s stand in a header or an SMTP command as an address or a
 * Message-ID?  Anything with white space, control characters or angle
 * brackets could inject a header or a command: such input (from a mail
 * someone sent) is refused, never passed on. */
static gboolean token_ok(const char *s)
{
	if (!s || !*s)
		return FALSE;
	for (; *s; s++)
		if ((guchar)*s <= ' ' || *s == 0x7f || *s == '<' || *s == '>')
			return FALSE;
	return TRUE;
}

GPtrArray *report_recipients(const struct report *r)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

	if (token_ok(r->author_email))
		g_ptr_array_add(out, g_strdup(r->author_email));
	if (token_ok(r->list_address) &&
	    g_ascii_strcasecmp(r->list_address,
			       r->author_email ? r->author_email : ""))
		g_ptr_array_add(out, g_strdup(r->list_address));
	return out;
}

/* --- the body ---------------------------------------------------------- */

/* Append @text wrapped at REPORT_WIDTH columns (characters, not bytes),
 * breaking at spaces only; a word longer than the width stays whole. */
static void append_wrapped(GString *out, const char *text)
{
	g_autoptr(GPtrArray) w = words(text);
	glong col = 0;

	for (guint i = 0; i < w->len; i++) {
		glong len = g_utf8_strlen(w->pdata[i], -1);

		if (col && col + 1 + len > REPORT_WIDTH) {
			g_string_append_c(out, '\n');
			col = 0;
		} else if (col) {
			g_string_append_c(out, ' ');
			col++;
		}
		g_string_append(out, w->pdata[i]);
		col += len;
	}
	g_string_append_c(out, '\n');
}

/* Append @text as it is, without its trailing newlines, ending in one. */
static void append_verbatim(GString *out, const char *text)
{
	gsize len = strlen(text);

	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	g_string_append_len(out, text, len);
	g_string_append_c(out, '\n');
}

static void append_tested_on(GString *out, const struct report *r)
{
	g_autoptr(GString) s = g_string_new("Tested on ");
	const char *how = "";

	g_string_append(s, r->tree_name);
	if (r->tree_description && *r->tree_description)
		g_string_append_printf(s, " (%s)", r->tree_description);
	switch (r->base_how) {
	case REPORT_BASE_COMMIT:
		how = ", the series' base-commit.";
		break;
	case REPORT_BASE_TREE_HEAD:
		how = ", the head of the tree (the series names no "
		      "base-commit).";
		break;
	case REPORT_BASE_COMMIT_MISSING:
		how = ", the head of the tree (the series' base-commit is "
		      "not in it).";
		break;
	}
	if (r->base_commit && *r->base_commit)
		g_string_append_printf(s, " at %.12s%s", r->base_commit, how);
	else
		g_string_append_c(s, '.');
	append_wrapped(out, s->str);
}

static void append_checks(GString *out, const struct report *r)
{
	for (int k = 0; k < REPORT_N_CHECKS; k++) {
		const struct report_check *c = &r->checks[k];
		g_autoptr(GString) line = g_string_new(NULL);

		g_string_append_printf(line, "  %-10s  ", report_check_name(k));
		if (c->status == REPORT_STATUS_SKIPPED) {
			g_string_append(line, "skipped");
			if (c->reason && *c->reason)
				g_string_append_printf(line, " (%s)",
						       c->reason);
		} else {
			g_string_append_printf(line, "%-4s",
					       report_status_name(c->status));
			if (c->summary && *c->summary)
				g_string_append_printf(line, "  %s",
						       c->summary);
		}
		while (line->len && line->str[line->len - 1] == ' ')
			g_string_truncate(line, line->len - 1);
		g_string_append(out, line->str);
		g_string_append_c(out, '\n');
	}
}

static void append_dirstat(GString *out, const struct report *r)
{
	const struct dirstat_verdict *v = r->verdict;
	const char *path = v && *v->path ? v->path : "arch/arm";

	if (r->dirstat) {
		g_string_append(out, "\nSigned dirstat (lines, cumulative, "
				     "limit 3%):\n");
		if (*r->dirstat)
			append_verbatim(out, r->dirstat);
		else
			g_string_append(out, "   (no directory above the "
					     "limit)\n");
	}
	if (!v || v->kind == DIRSTAT_VERDICT_UNTOUCHED)
		return;
	g_string_append_c(out, '\n');
	if (!v->dirs->len) {
		g_string_append_printf(out,
				       "No %s/mach-* or %s/plat-* directory "
				       "is touched.\n",
				       path, path);
		return;
	}
	g_string_append_printf(out, "%s/mach-* and %s/plat-*:\n", path, path);
	for (guint i = 0; i < v->dirs->len; i++) {
		const struct dirstat_verdict_dir *d = v->dirs->pdata[i];

		g_string_append_printf(out,
				       "  %+6" G_GINT64_FORMAT
				       " (+%" G_GUINT64_FORMAT
				       " -%" G_GUINT64_FORMAT ") %s\n",
				       d->net, d->added, d->deleted, d->path);
	}
}

/* RFC 5322 2.1.1: no line over 998 octets.  Long lines (a console line
 * without end) are cut at a character boundary; nothing else changes. */
static void limit_lines(GString *body)
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

static gboolean check_required(const struct report *r, GError **error)
{
	const char *missing = !r->bot_address	    ? "bot_address" :
			      !r->author_email	    ? "author_email" :
			      !r->subject	    ? "subject" :
			      !r->parent_message_id ? "parent_message_id" :
			      !r->tree_name	    ? "tree_name" :
						      NULL;

	if (missing) {
		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INVALID,
			    "cannot write the reply: no %s", missing);
		return FALSE;
	}
	missing = !token_ok(r->bot_address)	  ? r->bot_address :
		  !token_ok(r->author_email)	  ? r->author_email :
		  !token_ok(r->parent_message_id) ? r->parent_message_id :
		  r->list_address && *r->list_address &&
				  !token_ok(r->list_address) ?
						    r->list_address :
		  r->message_id && !token_ok(r->message_id) ? r->message_id :
							      NULL;
	if (missing) {
		g_autofree char *shown = g_strescape(missing, NULL);

		g_set_error(error, REPORT_ERROR, REPORT_ERROR_INVALID,
			    "cannot write the reply: bad address or "
			    "Message-ID '%s'",
			    shown);
		return FALSE;
	}
	return TRUE;
}

char *report_render_body(const struct report *r, GError **error)
{
	GString *out;
	g_autofree char *first = NULL;
	g_autofree char *author = NULL;

	if (!check_required(r, error))
		return NULL;
	out = g_string_new(NULL);

	/* 1. the greeting */
	author = r->author_name && *r->author_name ?
			 g_strdup_printf("%s <%s>", r->author_name,
					 r->author_email) :
			 g_strdup(r->author_email);
	first = report_first_name(author);
	if (first)
		g_string_append_printf(out, "Hi %s,\n\n", first);
	else
		g_string_append(out, "Hi,\n\n");

	/* 2. the verdict */
	if (r->verdict) {
		g_autofree char *sentence =
			dirstat_verdict_sentence(r->verdict);

		append_wrapped(out, sentence);
		g_string_append_c(out, '\n');
	}

	/* 3. what it was tested on, 4. the checks */
	append_tested_on(out, r);
	g_string_append_c(out, '\n');
	append_checks(out, r);

	/* 5. the signed dirstat and the mach-* / plat-* table */
	append_dirstat(out, r);

	/* 6. the details of what is not ok */
	for (int k = 0; k < REPORT_N_CHECKS; k++) {
		const struct report_check *c = &r->checks[k];

		if (c->status == REPORT_STATUS_OK ||
		    c->status == REPORT_STATUS_SKIPPED || !c->detail ||
		    !*c->detail)
			continue;
		g_string_append_c(out, '\n');
		append_verbatim(out, c->detail);
	}

	/* 7. how to reproduce */
	if (r->reproduce && r->reproduce[0]) {
		g_string_append(out, "\nTo reproduce:\n\n");
		for (guint i = 0; r->reproduce[i]; i++)
			g_string_append_printf(out, "        %s\n",
					       r->reproduce[i]);
	}

	/* 8. the signature (RFC 3676 4.3: "-- " alone on its line) */
	g_string_append_printf(out, "\n-- \n%s\n",
			       r->bot_name && *r->bot_name ? r->bot_name :
							     "armbot");
	if (r->series_url && *r->series_url)
		g_string_append_printf(out, "%s\n", r->series_url);
	limit_lines(out);
	return g_string_free(out, FALSE);
}

/* --- the headers ------------------------------------------------------- */

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
	g_autoptr(GPtrArray) w = NULL;

	if (!is_ascii_text(text) || strstr(text, "=?")) {
		header_encoded(h, text, FALSE);
		return;
	}
	w = words(text);
	for (guint i = 0; i < w->len; i++)
		header_token(h, w->pdata[i]);
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

/* RFC 5322 3.3 date-time, always in UTC and with English names whatever
 * the locale. */
static char *rfc5322_date(gint64 when)
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

/* "Re: " before @subject unless it is a reply already (RFC 5322 3.6.5). */
static char *reply_subject(const char *subject)
{
	g_autofree char *flat = g_strdup(subject);

	g_strdelimit(flat, "\r\n\t", ' ');
	g_strstrip(flat);
	if (!g_ascii_strncasecmp(flat, "re:", 3))
		return g_steal_pointer(&flat);
	return g_strconcat("Re: ", flat, NULL);
}

static void append_headers(GString *out, const struct report *r,
			   gboolean eight_bit)
{
	struct header_line h;
	g_autofree char *subject = reply_subject(r->subject);
	g_autofree char *date = rfc5322_date(r->date);
	g_autofree char *own_id =
		r->message_id ?
			g_strdup(r->message_id) :
			report_message_id(r->parent_message_id, r->version,
					  r->tree_name, r->bot_address);
	g_autofree char *id = g_strdup_printf("<%s>", own_id);
	g_autofree char *parent = g_strdup_printf("<%s>", r->parent_message_id);

	header_begin(&h, out, "From");
	header_mailbox(&h, r->bot_name, r->bot_address);
	header_end(&h);
	header_begin(&h, out, "To");
	header_mailbox(&h, r->author_name, r->author_email);
	header_end(&h);
	if (r->list_address && *r->list_address) {
		header_begin(&h, out, "Cc");
		header_token(&h, r->list_address);
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
	/* RFC 5322 3.6.4: In-Reply-To the parent, References its
	 * References (or In-Reply-To) followed by the parent */
	header_begin(&h, out, "In-Reply-To");
	header_token(&h, parent);
	header_end(&h);
	header_begin(&h, out, "References");
	for (guint i = 0; r->parent_references && i < r->parent_references->len;
	     i++) {
		const char *ref = r->parent_references->pdata[i];
		g_autofree char *angle = NULL;

		/* a reference that cannot be written is left out */
		if (!token_ok(ref) || !strcmp(ref, r->parent_message_id))
			continue;
		angle = g_strdup_printf("<%s>", ref);
		header_token(&h, angle);
	}
	header_token(&h, parent);
	header_end(&h);
	g_string_append(out, "MIME-Version: 1.0\n"
			     "Content-Type: text/plain; charset=utf-8\n");
	g_string_append_printf(out, "Content-Transfer-Encoding: %s\n",
			       eight_bit ? "8bit" : "7bit");
	/* RFC 3834 5: automatic responses; Microsoft's header keeps
	 * Exchange from sending out-of-office replies to it */
	g_string_append(out, "Auto-Submitted: auto-generated\n"
			     "X-Auto-Response-Suppress: All\n");
}

GBytes *report_render(const struct report *r, GError **error)
{
	g_autofree char *body = report_render_body(r, error);
	GString *out;

	if (!body)
		return NULL;
	out = g_string_new(NULL);
	append_headers(out, r, !g_str_is_ascii(body));
	g_string_append_c(out, '\n');
	g_string_append(out, body);
	return g_string_free_to_bytes(out);
}
