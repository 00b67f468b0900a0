/* The policy's values: see config/policy.h. */
#include "config/policy.h"

#include <string.h>

#include "config/keyfile.h"

G_DEFINE_QUARK(config - error - quark, config_error)

static const char *const check_names[] = { "apply", "dirstat", "sparse", "boot",
					   "rpm",   "boards",  NULL };

gboolean config_parse_checks(const char *const *words, guint *out,
			     char **bad_word)
{
	guint mask = 0;

	for (guint i = 0; words && words[i]; i++) {
		guint j;

		if (!strcmp(words[i], "all")) {
			mask |= CONFIG_CHECK_ALL;
			continue;
		}
		if (!strcmp(words[i], "none"))
			continue;
		for (j = 0; check_names[j]; j++)
			if (!strcmp(words[i], check_names[j]))
				break;
		if (!check_names[j]) {
			if (bad_word)
				*bad_word = g_strdup(words[i]);
			return FALSE;
		}
		mask |= 1u << j;
	}
	*out = mask;
	return TRUE;
}

char *config_checks_string(guint mask)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint j = 0; check_names[j]; j++)
		if (mask & (1u << j))
			g_string_append_printf(s, "%s%s", s->len ? ", " : "",
					       check_names[j]);
	if (!s->len)
		g_string_append(s, "none");
	return g_string_free(g_steal_pointer(&s), FALSE);
}

static const char *const reply_names[] = { "always", "problems", "never" };
static const char *const reply_to_names[] = { "list", "author" };

gboolean config_parse_reply(const char *word, enum config_reply *out)
{
	for (guint i = 0; i < G_N_ELEMENTS(reply_names); i++)
		if (!strcmp(word, reply_names[i])) {
			*out = i;
			return TRUE;
		}
	return FALSE;
}

gboolean config_parse_reply_to(const char *word, enum config_reply_to *out)
{
	for (guint i = 0; i < G_N_ELEMENTS(reply_to_names); i++)
		if (!strcmp(word, reply_to_names[i])) {
			*out = i;
			return TRUE;
		}
	return FALSE;
}

static const char *const unknown_base_names[] = {
	[CONFIG_UNKNOWN_BASE_SILENT] = "silent",
	[CONFIG_UNKNOWN_BASE_AUTHOR] = "author",
	[CONFIG_UNKNOWN_BASE_LIST] = "list",
};

gboolean config_parse_unknown_base(const char *word,
				   enum config_unknown_base *out)
{
	for (guint i = 0; i < G_N_ELEMENTS(unknown_base_names); i++)
		if (!strcmp(word, unknown_base_names[i])) {
			*out = i;
			return TRUE;
		}
	return FALSE;
}

const char *config_unknown_base_name(enum config_unknown_base u)
{
	return unknown_base_names[u];
}

const char *config_reply_name(enum config_reply reply)
{
	return reply_names[reply];
}

const char *config_reply_to_name(enum config_reply_to to)
{
	return reply_to_names[to];
}

static const struct {
	char unit;
	guint seconds;
} duration_units[] = { { 'd', 86400 }, { 'h', 3600 }, { 'm', 60 }, { 's', 1 } };

gboolean config_parse_duration(const char *text, guint *out_seconds)
{
	const char *p = text;
	guint64 total = 0;
	guint next_unit = 0; /* units come largest first, each once */

	if (!text || !*text)
		return FALSE;
	if (!strcmp(text, "never")) {
		*out_seconds = 0;
		return TRUE;
	}
	if (strspn(text, "0123456789") == strlen(text)) {
		guint64 n;

		/* a bare number: seconds */
		if (!g_ascii_string_to_unsigned(text, 10, 0,
						CONFIG_DURATION_MAX, &n, NULL))
			return FALSE;
		*out_seconds = n;
		return TRUE;
	}
	while (*p) {
		guint64 n = 0;
		guint u;

		if (!g_ascii_isdigit(*p))
			return FALSE;
		while (g_ascii_isdigit(*p)) {
			n = n * 10 + (*p++ - '0');
			if (n > CONFIG_DURATION_MAX)
				return FALSE;
		}
		for (u = next_unit; u < G_N_ELEMENTS(duration_units); u++)
			if (*p == duration_units[u].unit)
				break;
		if (u == G_N_ELEMENTS(duration_units))
			return FALSE;
		total += n * duration_units[u].seconds;
		if (total > CONFIG_DURATION_MAX)
			return FALSE;
		next_unit = u + 1;
		p++;
	}
	*out_seconds = total;
	return TRUE;
}

char *config_duration_string(guint seconds)
{
	GString *s;

	if (!seconds)
		return g_strdup("never");
	s = g_string_new(NULL);
	for (guint u = 0; u < G_N_ELEMENTS(duration_units); u++) {
		guint n = seconds / duration_units[u].seconds;

		if (!n)
			continue;
		g_string_append_printf(s, "%u%c", n, duration_units[u].unit);
		seconds -= n * duration_units[u].seconds;
	}
	return g_string_free(s, FALSE);
}

void config_policy_read(struct keyfile *k, const char *group,
			struct config_policy *p)
{
	g_auto(GStrv) checks = keyfile_list(k, group, "checks");
	g_autofree char *reply = keyfile_string(k, group, "reply", NULL);
	g_autofree char *reply_to = keyfile_string(k, group, "reply-to", NULL);
	g_autofree char *unknown =
		keyfile_string(k, group, "unknown-base", NULL);
	g_autofree char *interval =
		keyfile_string(k, group, "update-interval", NULL);
	g_autofree char *bad = NULL;

	if (checks &&
	    !config_parse_checks((const char *const *)checks, &p->checks, &bad))
		keyfile_error(k, group, "checks",
			      "unknown check '%s' (apply, dirstat, sparse, "
			      "boot, rpm, boards, all, none)",
			      bad);
	if (reply && !config_parse_reply(reply, &p->reply))
		keyfile_error(k, group, "reply",
			      "reply must be always, problems or never, not "
			      "'%s'",
			      reply);
	if (reply_to && !config_parse_reply_to(reply_to, &p->reply_to))
		keyfile_error(k, group, "reply-to",
			      "reply-to must be list or author, not '%s'",
			      reply_to);
	p->rfc = keyfile_bool(k, group, "rfc", p->rfc);
	if (unknown && !config_parse_unknown_base(unknown, &p->unknown_base))
		keyfile_error(k, group, "unknown-base",
			      "unknown-base must be silent, author or list, "
			      "not '%s'",
			      unknown);
	if (interval && !config_parse_duration(interval, &p->update_interval))
		keyfile_error(k, group, "update-interval",
			      "update-interval must be a duration such as "
			      "30m, 6h, 1d or 3600 (seconds), or never, not "
			      "'%s'",
			      interval);
}
