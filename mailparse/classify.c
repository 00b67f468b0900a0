#include "mailparse/classify.h"

#include <string.h>

static const char *const kind_names[] = {
	[CLASSIFY_OTHER] = "other", [CLASSIFY_PATCH] = "patch",
	[CLASSIFY_COVER] = "cover", [CLASSIFY_PULL] = "pull",
	[CLASSIFY_REPLY] = "reply", [CLASSIFY_BOT] = "bot",
};

const char *classify_kind_name(enum classify_kind kind)
{
	return kind_names[kind];
}

enum classify_kind classify_kind_from_name(const char *name)
{
	for (guint i = 0; i < G_N_ELEMENTS(kind_names); i++)
		if (name && !strcmp(kind_names[i], name))
			return i;
	return CLASSIFY_OTHER;
}

static gboolean starts(const char *line, const char *end, const char *prefix)
{
	gsize n = strlen(prefix);

	return (gsize)(end - line) >= n && !memcmp(line, prefix, n);
}

gboolean classify_has_diff(const char *text)
{
	const char *line = text;
	gboolean minus = FALSE, plus = FALSE;

	if (!text)
		return FALSE;
	while (*line) {
		const char *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		/* git apply's find_header(): a "diff --git" line, or "---"
		 * then "+++" then a hunk; patchwork adds CVS "Index:" */
		if (starts(line, end, "diff --git ") ||
		    starts(line, end, "GIT binary patch"))
			return TRUE;
		if (starts(line, end, "Index: ") || starts(line, end, "--- ")) {
			minus = TRUE;
			plus = FALSE;
		} else if (minus && starts(line, end, "+++ ")) {
			plus = TRUE;
		} else if (plus && starts(line, end, "@@ ")) {
			return TRUE;
		} else if (!starts(line, end, "====") &&
			   !starts(line, end, "RCS file:") &&
			   !starts(line, end, "retrieving ") &&
			   !starts(line, end, "diff ")) {
			minus = plus = FALSE;
		}
		line = *end ? end + 1 : end;
	}
	return FALSE;
}

/* git request-pull writes "are available in the Git repository at:", an
 * empty line, then "  URL REF"; patchwork's parse_pull_request() also
 * accepts the URL and ref on two lines or split by a backslash. */
char *classify_pull_url(const char *body)
{
	static GRegex *re;
	g_autoptr(GMatchInfo) match = NULL;
	g_autofree char *url = NULL;
	g_autofree char *ref = NULL;

	if (!body)
		return NULL;
	if (g_once_init_enter(&re)) {
		GRegex *r = g_regex_new(
			"^are available in the git repository at:\\s*\\n"
			"\\s*([\\w+-]+(?:://|@)[\\w/.@:~+-]+)[\\s\\\\]*"
			"([\\w/._-]*)[ \\t]*$",
			G_REGEX_CASELESS | G_REGEX_MULTILINE | G_REGEX_OPTIMIZE,
			0, NULL);

		g_once_init_leave(&re, r);
	}
	if (!g_regex_match(re, body, 0, &match))
		return NULL;
	url = g_match_info_fetch(match, 1);
	ref = g_match_info_fetch(match, 2);
	if (ref && *ref)
		return g_strdup_printf("%s %s", url, ref);
	return g_steal_pointer(&url);
}

/* Senders known to be bots on the kernel lists, for mail that does not
 * say Auto-Submitted (RFC 3834) itself. */
static gboolean is_bot_sender(const char *email)
{
	static const char *const bots[] = {
		"lkp@intel.com",
		"bot@kernelci.org",
		"patchwork@emeril.freedesktop.org",
		"noreply@github.com",
	};

	for (gsize i = 0; i < G_N_ELEMENTS(bots); i++)
		if (!g_ascii_strcasecmp(email, bots[i]))
			return TRUE;
	return g_str_has_prefix(email, "syzbot") ||
	       g_str_has_prefix(email, "patchwork-bot") ||
	       g_str_has_suffix(email, "@syzkaller.appspotmail.com");
}

static gboolean classify_has_pull(const char *body)
{
	g_autofree char *url = classify_pull_url(body);

	return url != NULL;
}

enum classify_kind classify_message(const struct message *msg,
				    const struct subject_tags *tags,
				    const char *body, const char *patch)
{
	const char *auto_submitted = message_header(msg, "Auto-Submitted");
	gboolean diff = patch && *patch;

	/* RFC 3834 5: anything but "no" is automatic */
	if ((auto_submitted && g_ascii_strncasecmp(auto_submitted, "no", 2)) ||
	    is_bot_sender(msg->from_email))
		return CLASSIFY_BOT;
	if (tags->reply)
		return CLASSIFY_REPLY;
	if (tags->pull || classify_has_pull(body))
		return CLASSIFY_PULL;
	if (diff)
		return CLASSIFY_PATCH;
	if (tags->has_index && tags->index == 0)
		return CLASSIFY_COVER;
	if (msg->in_reply_to)
		return CLASSIFY_REPLY;
	return CLASSIFY_OTHER;
}
