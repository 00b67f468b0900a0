#include "mailparse/subject.h"

#include <stdlib.h>
#include <string.h>

/* "N" with nothing after it; stores the number in @out */
static gboolean parse_number(const char *s, guint *out)
{
	guint64 v;
	char *end;

	if (!g_ascii_isdigit(*s))
		return FALSE;
	v = g_ascii_strtoull(s, &end, 10);
	if (*end || v > 100000)
		return FALSE;
	*out = (guint)v;
	return TRUE;
}

/* "v2", "V2", "v2.1" */
static gboolean parse_version(const char *s, struct subject_tags *out)
{
	guint64 major, minor = 0;
	char *end;

	if ((*s != 'v' && *s != 'V') || !g_ascii_isdigit(s[1]))
		return FALSE;
	major = g_ascii_strtoull(s + 1, &end, 10);
	if (*end == '.' && g_ascii_isdigit(end[1]))
		minor = g_ascii_strtoull(end + 1, &end, 10);
	if (*end || major > 100000 || minor > 100000)
		return FALSE;
	out->has_version = TRUE;
	out->version = (guint)major;
	out->version_minor = (guint)minor;
	return TRUE;
}

/* "3/9" */
static gboolean parse_position(const char *s, struct subject_tags *out)
{
	const char *slash = strchr(s, '/');
	g_autofree char *left = NULL;
	guint index, total;

	if (!slash)
		return FALSE;
	left = g_strndup(s, slash - s);
	if (!parse_number(left, &index) || !parse_number(slash + 1, &total))
		return FALSE;
	out->has_index = TRUE;
	out->index = index;
	out->total = total;
	return TRUE;
}

/* One word of a bracket: TRUE if it is a known tag (PATCH, version, ...) */
static gboolean parse_word(const char *word, struct subject_tags *out)
{
	if (!g_ascii_strcasecmp(word, "rfc")) {
		out->rfc = TRUE;
		return TRUE;
	}
	if (!g_ascii_strcasecmp(word, "resend")) {
		out->resend = TRUE;
		return TRUE;
	}
	if (!g_ascii_strcasecmp(word, "pull")) {
		out->pull = TRUE;
		return TRUE;
	}
	if (!g_ascii_strncasecmp(word, "patch", 5)) {
		const char *rest = word + 5;

		/* "PATCHv2", "PATCH1/8", "PATCH-v2" */
		if (*rest == '-')
			rest++;
		if (*rest && !parse_version(rest, out) &&
		    !parse_position(rest, out))
			return FALSE;
		out->patch = TRUE;
		return TRUE;
	}
	return parse_version(word, out) || parse_position(word, out);
}

/* A tag in parentheses: "[PATCH V3 (RESEND) 0/3]", as sent to
 * linux-arm-kernel.  Sets nothing in @out unless it is one. */
static gboolean parse_parenthesised(const char *word, struct subject_tags *out)
{
	gsize len = strlen(word);
	g_autofree char *inner = NULL;

	if (len < 3 || word[0] != '(' || word[len - 1] != ')')
		return FALSE;
	inner = g_strndup(word + 1, len - 2);
	return parse_word(inner, out);
}

static void parse_bracket(const char *inner, struct subject_tags *out,
			  GString *topic)
{
	g_auto(GStrv) words = g_strsplit_set(inner, " \t,", -1);
	guint n = 0;
	g_autofree char **w = NULL;

	/* drop the empty strings that runs of separators leave */
	w = g_new0(char *, g_strv_length(words) + 1);
	for (guint i = 0; words[i]; i++)
		if (*words[i])
			w[n++] = words[i];
	for (guint i = 0; i < n; i++) {
		guint index, total;

		/* Mercurial patchbomb: "[PATCH 1 of 2]" */
		if (i + 2 < n && !g_ascii_strcasecmp(w[i + 1], "of") &&
		    parse_number(w[i], &index) &&
		    parse_number(w[i + 2], &total)) {
			out->has_index = TRUE;
			out->index = index;
			out->total = total;
			i += 2;
			continue;
		}
		if (!g_ascii_strcasecmp(w[i], "git") && i + 1 < n &&
		    !g_ascii_strcasecmp(w[i + 1], "pull"))
			continue;
		if (parse_word(w[i], out) || parse_parenthesised(w[i], out))
			continue;
		if (topic->len)
			g_string_append_c(topic, ' ');
		g_string_append(topic, w[i]);
	}
}

/* Reply markers that mail clients put in front, in several languages
 * (the ones git's and b4's subject cleaning strip). */
static gsize reply_prefix(const char *s, gboolean *reply)
{
	static const struct {
		const char *word;
		gboolean reply;
	} prefixes[] = {
		{ "re:", TRUE },   { "aw:", TRUE },   { "sv:", TRUE },
		{ "antw:", TRUE }, { "fwd:", FALSE }, { "fw:", FALSE },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(prefixes); i++) {
		gsize len = strlen(prefixes[i].word);

		if (!g_ascii_strncasecmp(s, prefixes[i].word, len)) {
			*reply = *reply || prefixes[i].reply;
			return len;
		}
	}
	return 0;
}

void subject_tags_parse(struct subject_tags *out, const char *subject)
{
	const char *s = subject ? subject : "";
	g_autoptr(GString) topic = g_string_new(NULL);
	g_autoptr(GString) prefixes = g_string_new(NULL);
	g_autoptr(GString) clean = g_string_new(NULL);
	gboolean space = FALSE;

	for (;;) {
		gsize n;

		while (g_ascii_isspace(*s))
			s++;
		if ((n = reply_prefix(s, &out->reply))) {
			s += n;
			continue;
		}
		if (*s == '[') {
			const char *close = strchr(s, ']');
			g_autofree char *inner = NULL;

			if (!close)
				break;
			inner = g_strndup(s + 1, close - s - 1);
			parse_bracket(inner, out, topic);
			if (prefixes->len)
				g_string_append_c(prefixes, ' ');
			g_string_append_len(prefixes, s, close - s + 1);
			s = close + 1;
			/* "[Patch 2/2]: subject" */
			if (*s == ':')
				s++;
			continue;
		}
		break;
	}
	/* collapse folding whitespace that survived header unfolding */
	for (; *s; s++) {
		if (g_ascii_isspace(*s)) {
			space = clean->len > 0;
			continue;
		}
		if (space)
			g_string_append_c(clean, ' ');
		space = FALSE;
		g_string_append_c(clean, *s);
	}
	out->topic = topic->len ? g_strdup(topic->str) : NULL;
	out->prefixes = prefixes->len ? g_strdup(prefixes->str) : NULL;
	out->clean = g_strdup(clean->str);
}

void subject_tags_clear(struct subject_tags *tags)
{
	g_clear_pointer(&tags->topic, g_free);
	g_clear_pointer(&tags->prefixes, g_free);
	g_clear_pointer(&tags->clean, g_free);
}

int subject_version_cmp(guint major_a, guint minor_a, guint major_b,
			guint minor_b)
{
	if (major_a != major_b)
		return major_a < major_b ? -1 : 1;
	if (minor_a != minor_b)
		return minor_a < minor_b ? -1 : 1;
	return 0;
}
