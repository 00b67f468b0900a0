/* Mailman subscription requests and confirmations (see
 * bot/control/subscription.h). */
#include "bot/control/subscription.h"

#include <string.h>

#include "bot/mail/compose.h"

/* Mailman's tokens are SHA-1 hex digests (2.1 Pending.new, 3.x
 * IPendings.add): 40 characters.  Anything of letters and digits within
 * reason is taken, nothing that could carry a header or an address. */
#define TOKEN_MIN 16
#define TOKEN_MAX 64

G_DEFINE_QUARK(subscription - error - quark, subscription_error)

const char *subscription_via_name(enum subscription_via via)
{
	return via == SUBSCRIPTION_MAILMAN3 ? "mailman3" : "mailman2";
}

gboolean subscription_via_parse(const char *name, enum subscription_via *out)
{
	if (!g_strcmp0(name, "mailman2"))
		*out = SUBSCRIPTION_MAILMAN2;
	else if (!g_strcmp0(name, "mailman3"))
		*out = SUBSCRIPTION_MAILMAN3;
	else
		return FALSE;
	return TRUE;
}

static gboolean all_of(const char *s, const char *extra)
{
	if (!*s)
		return FALSE;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr(extra, *s))
			return FALSE;
	return TRUE;
}

gboolean subscription_list_parse(const char *address, char **local, char **host,
				 GError **error)
{
	g_autofree char *low = g_ascii_strdown(address ? address : "", -1);
	char *at = strchr(low, '@');

	/* Mailman list names are letters, digits, '-', '_' and '.' */
	if (!at || strchr(at + 1, '@') || at == low) {
		g_set_error(error, SUBSCRIPTION_ERROR, 0,
			    "'%s' is not a list address (LIST@HOST)",
			    address ? address : "");
		return FALSE;
	}
	*at = '\0';
	if (!all_of(low, "-_.") || !all_of(at + 1, "-.") || at[1] == '.' ||
	    at[1] == '-') {
		g_set_error(error, SUBSCRIPTION_ERROR, 0,
			    "'%s' is not a list address (LIST@HOST)", address);
		return FALSE;
	}
	*local = g_strdup(low);
	*host = g_strdup(at + 1);
	return TRUE;
}

void subscription_request_clear(struct subscription_request *r)
{
	g_clear_pointer(&r->to, g_free);
	g_clear_pointer(&r->subject, g_free);
}

void subscription_request_make(const char *local, const char *host,
			       enum subscription_via via, gboolean join,
			       struct subscription_request *out)
{
	if (via == SUBSCRIPTION_MAILMAN3) {
		/* runners/command.py: mail to -join or -leave is the
		 * command itself; subject and body are not read */
		out->to = g_strdup_printf("%s-%s@%s", local,
					  join ? "join" : "leave", host);
		out->subject = g_strdup(join ? "join" : "leave");
	} else {
		/* Mailman 2.1 Commands/cmd_subscribe.py and
		 * cmd_unsubscribe.py: the command in the subject */
		out->to = g_strdup_printf("%s-request@%s", local, host);
		out->subject = g_strdup(join ? "subscribe" : "unsubscribe");
	}
}

void subscription_confirmation_clear(struct subscription_confirmation *c)
{
	g_clear_pointer(&c->list, g_free);
	g_clear_pointer(&c->token, g_free);
	g_clear_pointer(&c->reply_to, g_free);
	g_clear_pointer(&c->reply_subject, g_free);
	g_clear_pointer(&c->problem, g_free);
	c->asks = SUBSCRIPTION_ASKS_UNKNOWN;
}

static gboolean token_ok(const char *t)
{
	gsize len = strlen(t);

	return len >= TOKEN_MIN && len <= TOKEN_MAX && all_of(t, "");
}

/* The list a robot address @from speaks for: LIST-request, LIST-bounces
 * (and its VERP form LIST-bounces+...), LIST-confirm and
 * LIST-confirm+TOKEN (*@token).  NULL for any other address. */
static char *robot_list(const char *from, char **token)
{
	const char *at = strrchr(from, '@');
	g_autofree char *local = NULL;
	static const char *const suffixes[] = { "-request", "-bounces",
						"-confirm" };
	char *plus;

	*token = NULL;
	if (!at || at == from)
		return NULL;
	local = g_strndup(from, at - from);
	plus = strchr(local, '+');
	if (plus) {
		if (plus - local > 8 && !strncmp(plus - 8, "-confirm", 8))
			*token = g_strdup(plus + 1);
		else if (!(plus - local > 8 &&
			   !strncmp(plus - 8, "-bounces", 8)))
			return NULL;
		*plus = '\0';
	}
	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++) {
		gsize n = strlen(local), m = strlen(suffixes[i]);

		if (n > m && !strcmp(local + n - m, suffixes[i])) {
			local[n - m] = '\0';
			return g_strdup_printf("%s%s", local, at);
		}
	}
	g_clear_pointer(token, g_free);
	return NULL;
}

/* "confirm TOKEN" as a whole subject (after "Re:" prefixes) or line. */
static char *confirm_command(const char *text, gboolean subject)
{
	g_autoptr(GRegex) re = g_regex_new(
		subject ?
			"^\\s*(?:(?:re|aw|sv|fwd?)\\s*:\\s*)*confirm\\s+(\\S+)\\s*$" :
			"^[\\s>]*confirm\\s+(\\S+)\\s*$",
		G_REGEX_CASELESS | G_REGEX_MULTILINE, 0, NULL);
	g_autoptr(GMatchInfo) mi = NULL;

	if (!g_regex_match(re, text, 0, &mi))
		return NULL;
	return g_match_info_fetch(mi, 1);
}

/* Mailman 2.1 GetConfirmJoinSubject/GetConfirmLeaveSubject ("... is
 * required to join the LIST mailing list") and Mailman 3 ("... is needed
 * to join the LIST@HOST mailing list."). */
static enum subscription_asks subject_asks(const char *subject,
					   gboolean *matched)
{
	g_autoptr(GRegex) re = g_regex_new(
		"your confirmation is (?:required|needed) to (join|leave) "
		"the \\S+ mailing list",
		G_REGEX_CASELESS, 0, NULL);
	g_autoptr(GMatchInfo) mi = NULL;
	g_autofree char *what = NULL;

	*matched = g_regex_match(re, subject, 0, &mi);
	if (!*matched)
		return SUBSCRIPTION_ASKS_UNKNOWN;
	what = g_match_info_fetch(mi, 1);
	return !g_ascii_strcasecmp(what, "join") ? SUBSCRIPTION_ASKS_JOIN :
						   SUBSCRIPTION_ASKS_LEAVE;
}

/* Mailman 2.1 verify.txt and unsub.txt begin "Mailing list subscription
 * (removal) confirmation notice"; Mailman 3's templates say
 * "registration request" / "unsubscription request". */
static enum subscription_asks body_asks(const char *body)
{
	g_autofree char *low = g_ascii_strdown(body, -1);

	if (strstr(low, "removal confirmation notice") ||
	    strstr(low, "unsubscription request"))
		return SUBSCRIPTION_ASKS_LEAVE;
	if (strstr(low, "subscription confirmation notice") ||
	    strstr(low, "registration request"))
		return SUBSCRIPTION_ASKS_JOIN;
	return SUBSCRIPTION_ASKS_UNKNOWN;
}

gboolean subscription_confirmation_parse(const struct message *msg,
					 struct subscription_confirmation *out)
{
	g_autofree char *from_token = NULL;
	g_autofree char *subject_token = NULL;
	g_autofree char *body_token = NULL;
	g_autofree char *body = message_body_text(msg, NULL);
	const char *tokens[3];
	const char *token = NULL;
	gboolean phrased;
	enum subscription_asks asks;

	memset(out, 0, sizeof(*out));
	out->list =
		robot_list(msg->from_email ? msg->from_email : "", &from_token);
	subject_token = confirm_command(msg->subject, TRUE);
	body_token = confirm_command(body, FALSE);
	asks = subject_asks(msg->subject, &phrased);
	if (!from_token && !subject_token && !body_token && !phrased) {
		subscription_confirmation_clear(out);
		return FALSE;
	}
	if (asks == SUBSCRIPTION_ASKS_UNKNOWN)
		asks = body_asks(body);
	out->asks = asks;
	tokens[0] = from_token;
	tokens[1] = subject_token;
	tokens[2] = body_token;
	for (guint i = 0; i < G_N_ELEMENTS(tokens); i++) {
		if (!tokens[i])
			continue;
		if (!token_ok(tokens[i])) {
			g_autofree char *shown = g_strescape(tokens[i], NULL);

			out->problem = g_strdup_printf(
				"'%.80s' is not a confirmation token", shown);
			return TRUE;
		}
		if (token && strcmp(token, tokens[i])) {
			out->problem = g_strdup_printf(
				"the tokens of the mail differ (%s, %s)", token,
				tokens[i]);
			return TRUE;
		}
		token = tokens[i];
	}
	if (!token) {
		out->problem = g_strdup("it carries no confirmation token");
		return TRUE;
	}
	out->token = g_strdup(token);
	if (!out->list)
		return TRUE;
	if (from_token) {
		/* Mailman 3 (and 2.1 with VERP_CONFIRMATIONS): the token is
		 * in the address, the answer goes back to it */
		out->reply_to = g_strdup(msg->from_email);
		out->reply_subject = mail_compose_reply_subject(msg->subject);
	} else {
		const char *at = strrchr(out->list, '@');

		out->reply_to = g_strdup_printf(
			"%.*s-request%s", (int)(at - out->list), out->list, at);
		/* verify.txt: "reply to this message, keeping the Subject:
		 * header intact" */
		out->reply_subject =
			subject_token ?
				mail_compose_reply_subject(msg->subject) :
				g_strdup_printf("confirm %s", token);
	}
	return TRUE;
}
