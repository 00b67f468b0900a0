/* Opt-in, opt-out and set requests by mail, confirmed by a token; see
 * bot/control/optin.h. */
#include "bot/control/optin.h"

#include <string.h>
#include <sys/random.h>

#include "bot/store/trees.h"
#include "config/treefile.h"
#include "kernel/tree/tree.h"
#include "mailparse/subject.h"

#define TOKEN_BYTES 16
#define DEFAULT_LIFETIME (48 * 3600)

static const char *const request_keys[] = { "url",    "branch", "paths",
					    "checks", "reply",	NULL };

void optin_reply_clear(struct optin_reply *r)
{
	g_clear_pointer(&r->to, g_free);
	g_clear_pointer(&r->subject, g_free);
	g_clear_pointer(&r->in_reply_to, g_free);
	g_clear_pointer(&r->body, g_free);
	g_clear_pointer(&r->reason, g_free);
}

const char *optin_outcome_name(enum optin_outcome outcome)
{
	static const char *const names[] = {
		[OPTIN_NOT_FOR_US] = "not-for-us", [OPTIN_REFUSED] = "refused",
		[OPTIN_TOKEN_SENT] = "token-sent", [OPTIN_APPLIED] = "applied",
		[OPTIN_LIMITED] = "limited",
	};

	return names[outcome];
}

static gint64 now_of(const struct optin_context *ctx)
{
	return ctx->now ? ctx->now : g_get_real_time() / G_USEC_PER_SEC;
}

static char *format_time(gint64 t)
{
	g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc(t);

	return g_date_time_format(dt, "%Y-%m-%d %H:%M UTC");
}

/* Fill @out as a reply to @msg. */
static void reply_to(struct optin_reply *out, const struct message *msg,
		     enum optin_outcome outcome, char *reason, char *body)
{
	out->outcome = outcome;
	out->to = g_strdup(msg->from_email);
	out->subject = g_str_has_prefix(msg->subject, "Re: ") ?
			       g_strdup(msg->subject) :
			       g_strconcat("Re: ", msg->subject, NULL);
	out->in_reply_to = g_strdup(msg->message_id);
	out->reason = reason;
	out->body = body;
}

static gboolean refuse(struct optin_reply *out, const struct message *msg,
		       const char *format, ...) G_GNUC_PRINTF(3, 4);

static gboolean refuse(struct optin_reply *out, const struct message *msg,
		       const char *format, ...)
{
	va_list args;
	char *reason;

	va_start(args, format);
	reason = g_strdup_vprintf(format, args);
	va_end(args);
	reply_to(out, msg, OPTIN_REFUSED, reason,
		 g_strdup_printf("armbot did not act on your mail:\n\n"
				 "  %s\n\nNothing was changed.\n",
				 reason));
	return TRUE;
}

/* A parsed request. */
struct request {
	char *action; /* opt-in, opt-out, set */
	char *tree;
	GPtrArray *keys; /* char *, in order */
	GPtrArray *values; /* char *, parallel to @keys */
};

static void request_clear(struct request *r)
{
	g_free(r->action);
	g_free(r->tree);
	g_clear_pointer(&r->keys, g_ptr_array_unref);
	g_clear_pointer(&r->values, g_ptr_array_unref);
}

/* Parse the subject of @msg: FALSE when it is not a request. */
static gboolean parse_subject(const struct message *msg, struct request *r,
			      char **bad)
{
	struct subject_tags tags = SUBJECT_TAGS_INIT;
	g_auto(GStrv) words = NULL;
	guint n;

	subject_tags_parse(&tags, msg->subject);
	words = g_strsplit_set(tags.clean ? tags.clean : "", " \t", -1);
	subject_tags_clear(&tags);
	{
		/* drop empty words of repeated blanks */
		guint j = 0;

		for (guint i = 0; words[i]; i++)
			if (*words[i])
				words[j++] = words[i];
			else
				g_free(words[i]);
		words[j] = NULL;
	}
	n = g_strv_length(words);
	if (n < 2 || g_ascii_strcasecmp(words[0], "armbot"))
		return FALSE;
	if (strcmp(words[1], "opt-in") && strcmp(words[1], "opt-out") &&
	    strcmp(words[1], "set"))
		return FALSE;
	r->action = g_strdup(words[1]);
	r->keys = g_ptr_array_new_with_free_func(g_free);
	r->values = g_ptr_array_new_with_free_func(g_free);
	if (n < 3) {
		*bad = g_strdup_printf("the subject names no tree: 'armbot "
				       "%s TREE'",
				       r->action);
		return TRUE;
	}
	r->tree = g_strdup(words[2]);
	if (!strcmp(r->action, "set") && n >= 4) {
		g_autofree char *value = n >= 5 ? g_strjoinv(" ", words + 4) :
						  g_strdup("");

		g_ptr_array_add(r->keys, g_ascii_strdown(words[3], -1));
		g_ptr_array_add(r->values, g_steal_pointer(&value));
	} else if (n > 3) {
		*bad = g_strdup_printf("unexpected '%s' after the tree name "
				       "in the subject",
				       words[3]);
	}
	return TRUE;
}

/* The "key: value" lines of the body, up to a "-- " signature. */
static gboolean parse_body(const struct message *msg, struct request *r,
			   char **bad)
{
	g_autofree char *body = message_body_text(msg, NULL);
	g_auto(GStrv) lines = g_strsplit(body, "\n", -1);

	for (guint i = 0; lines[i]; i++) {
		char *line = lines[i];
		char *colon;
		g_autofree char *key = NULL;

		g_strchomp(line);
		if (!strcmp(line, "--"))
			break;
		if (!strcmp(lines[i], "-- ") || !strncmp(line, "-- ", 3))
			break;
		g_strstrip(line);
		if (!*line)
			continue;
		colon = strchr(line, ':');
		if (!colon || colon == line) {
			*bad = g_strdup_printf("body line %u, '%s', is not "
					       "'key: value'",
					       i + 1, line);
			return FALSE;
		}
		key = g_ascii_strdown(line, colon - line);
		g_strstrip(key);
		if (!g_strv_contains(request_keys, key)) {
			*bad = g_strdup_printf("unknown key '%s' (url, branch, "
					       "paths, checks, reply)",
					       key);
			return FALSE;
		}
		g_ptr_array_add(r->keys, g_steal_pointer(&key));
		g_ptr_array_add(r->values, g_strstrip(g_strdup(colon + 1)));
	}
	return TRUE;
}

/* Split a value on blanks and commas. */
static char **split_words(const char *value)
{
	g_auto(GStrv) parts = g_strsplit_set(value, " \t,", -1);
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();

	for (guint i = 0; parts[i]; i++)
		if (*parts[i])
			g_strv_builder_add(b, parts[i]);
	return g_strv_builder_end(b);
}

/* Apply key @key = @value of a request to the key file @kf of a tree:
 * FALSE with *@bad for a value that cannot be. */
static gboolean apply_key(GKeyFile *kf, const char *key, const char *value,
			  char **bad)
{
	g_auto(GStrv) words = split_words(value);
	guint n = g_strv_length(words);

	if (!n) {
		*bad = g_strdup_printf("'%s' has no value", key);
		return FALSE;
	}
	if (!strcmp(key, "url")) {
		/* a tree by mail is fetched from the network only: no
		 * file:// or local path of the bot's machine */
		if (n != 1 || (!g_str_has_prefix(words[0], "https://") &&
			       !g_str_has_prefix(words[0], "http://") &&
			       !g_str_has_prefix(words[0], "git://"))) {
			*bad = g_strdup_printf(
				"url must be one https://, "
				"http:// or git:// URL, not '%s'",
				value);
			return FALSE;
		}
		g_key_file_set_string(kf, "tree", "url", words[0]);
	} else if (!strcmp(key, "branch")) {
		g_auto(GStrv) have = g_key_file_get_string_list(
			kf, "tree", "branches", NULL, NULL);
		g_autoptr(GStrvBuilder) b = g_strv_builder_new();
		g_auto(GStrv) all = NULL;

		if (have)
			g_strv_builder_addv(b, (const char **)have);
		g_strv_builder_addv(b, (const char **)words);
		all = g_strv_builder_end(b);
		g_key_file_set_string_list(kf, "tree", "branches",
					   (const char *const *)all,
					   g_strv_length(all));
	} else if (!strcmp(key, "paths")) {
		for (guint i = 0; i < n; i++)
			if (strpbrk(words[i], "*?[]")) {
				*bad = g_strdup_printf(
					"path '%s': opting in by mail takes "
					"directories (ending in /) and files, "
					"not wildcards",
					words[i]);
				return FALSE;
			}
		g_key_file_set_string_list(kf, "paths", "F",
					   (const char *const *)words, n);
		g_key_file_remove_key(kf, "paths", "X", NULL);
		g_key_file_remove_key(kf, "paths", "N", NULL);
	} else if (!strcmp(key, "checks")) {
		g_key_file_set_string_list(kf, "tree", "checks",
					   (const char *const *)words, n);
	} else if (!strcmp(key, "reply")) {
		/* "problems", "problems to author" */
		if (n == 3 && !strcmp(words[1], "to")) {
			g_key_file_set_string(kf, "tree", "reply-to", words[2]);
		} else if (n != 1) {
			*bad = g_strdup_printf("reply must be always, "
					       "problems or never, optionally "
					       "followed by 'to list' or 'to "
					       "author', not '%s'",
					       value);
			return FALSE;
		}
		g_key_file_set_string(kf, "tree", "reply", words[0]);
	} else {
		*bad = g_strdup_printf("unknown key '%s' (url, branch, paths, "
				       "checks, reply)",
				       key);
		return FALSE;
	}
	return TRUE;
}

/* The F: paths of @tf, NULL-terminated (not owned strings). */
static GPtrArray *tree_paths(const struct treefile *tf)
{
	GPtrArray *out = g_ptr_array_new();

	for (guint i = 0; i < tf->paths->patterns->len; i++) {
		const struct maintainers_pattern *p =
			tf->paths->patterns->pdata[i];

		if (p->kind == MAINTAINERS_F)
			g_ptr_array_add(out, p->text);
	}
	g_ptr_array_add(out, NULL);
	return out;
}

/* What a tree is, for the record: "url U, branches B, paths P, checks C,
 * reply R to L". */
static char *describe(const struct treefile *tf)
{
	g_autoptr(GPtrArray) paths = tree_paths(tf);
	g_autofree char *p = g_strjoinv(" ", (char **)paths->pdata);
	g_autofree char *b = g_strjoinv(" ", tf->branches);
	g_autofree char *c = config_checks_string(tf->policy.checks);

	return g_strdup_printf("url %s, branches %s, paths %s, checks %s, "
			       "reply %s to %s",
			       tf->url ? tf->url : "-", *b ? b : "(all)", p, c,
			       config_reply_name(tf->policy.reply),
			       config_reply_to_name(tf->policy.reply_to));
}

static char *new_token(char **hash)
{
	guchar bytes[TOKEN_BYTES];
	GString *hex = g_string_new(NULL);
	gsize got = 0;

	/* getrandom(2): the kernel's CSPRNG; GLib's g_random is not one */
	while (got < sizeof(bytes)) {
		ssize_t n = getrandom(bytes + got, sizeof(bytes) - got, 0);

		if (n > 0)
			got += n;
	}
	for (guint i = 0; i < sizeof(bytes); i++)
		g_string_append_printf(hex, "%02x", bytes[i]);
	*hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, hex->str, -1);
	return g_string_free(hex, FALSE);
}

/* The token a confirmation quotes: "confirm: TOKEN", possibly quoted
 * ("> confirm: ..."), or "" for a confirm line with a malformed token.
 * NULL when there is no confirm line. */
static char *find_token(const struct message *msg)
{
	g_autofree char *body = message_body_text(msg, NULL);
	g_auto(GStrv) lines = g_strsplit(body, "\n", -1);

	for (guint i = 0; lines[i]; i++) {
		const char *p = lines[i];
		g_autofree char *token = NULL;

		while (*p == '>' || *p == ' ' || *p == '\t')
			p++;
		if (g_ascii_strncasecmp(p, "confirm:", 8))
			continue;
		token = g_strstrip(g_strdup(p + 8));
		if (strlen(token) != TOKEN_BYTES * 2 ||
		    strspn(token, "0123456789abcdef") != TOKEN_BYTES * 2)
			return g_strdup("");
		return g_steal_pointer(&token);
	}
	return NULL;
}

static gboolean handle_confirmation(const struct optin_context *ctx,
				    const struct message *msg,
				    const char *token, struct optin_reply *out,
				    GError **error)
{
	g_autoptr(store_optin_request) r = NULL;
	g_autoptr(store_tree) existing = NULL;
	g_autofree char *hash = NULL;
	g_autofree char *when = NULL;
	gint64 now = now_of(ctx);
	struct store_tree_change change;
	gboolean marked;

	if (!*token)
		return refuse(out, msg,
			      "the confirm line has no valid token (%u hex "
			      "digits)",
			      TOKEN_BYTES * 2);
	hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, token, -1);
	if (!store_optin_request_find(ctx->store, hash, &r, error))
		return FALSE;
	if (!r)
		return refuse(out, msg,
			      "unknown token: no request is waiting for it");
	if (r->used) {
		when = format_time(r->used);
		return refuse(out, msg,
			      "the token was already used on %s: a token "
			      "confirms one request once",
			      when);
	}
	if (now > r->expires) {
		when = format_time(r->expires);
		return refuse(out, msg,
			      "the token expired on %s: send the request "
			      "again",
			      when);
	}
	if (g_ascii_strcasecmp(r->sender, msg->from_email))
		return refuse(out, msg,
			      "the token was sent to %s, not to %s: only "
			      "the requester can confirm",
			      r->sender, msg->from_email);
	if (!store_tree_get(ctx->store, r->tree, &existing, error))
		return FALSE;
	if (!strcmp(r->action, "opt-in") ? existing && existing->active :
					   !existing || !existing->active)
		return refuse(out, msg,
			      "tree %s changed since the request (%s): send "
			      "it again",
			      r->tree,
			      existing && existing->active ?
				      "it is opted in now" :
				      "it is not opted in");

	if (!store_begin(ctx->store, error))
		return FALSE;
	if (!store_optin_request_use(ctx->store, r->id, now, &marked, error))
		goto fail;
	if (!marked) {
		store_rollback(ctx->store);
		return refuse(out, msg, "the token was already used");
	}
	{
		struct store_tree t = {
			.name = r->tree,
			.data = r->data ? r->data : existing->data,
			.active = strcmp(r->action, "opt-out") != 0,
			.owner = existing && strcmp(r->action, "opt-in") ?
					 existing->owner :
					 r->sender,
			.created = existing ? existing->created : now,
			.updated = now,
		};

		if (!store_tree_put(ctx->store, &t, error))
			goto fail;
	}
	change.tree = r->tree;
	change.who = r->sender;
	change.at = now;
	change.what = r->what;
	if (!store_tree_change_add(ctx->store, &change, error) ||
	    !store_commit(ctx->store, error))
		goto fail;
	reply_to(out, msg, OPTIN_APPLIED,
		 g_strdup_printf("%s of tree %s applied", r->action, r->tree),
		 g_strdup_printf("Done: %s.\n\nThe change is recorded as made "
				 "by %s; 'armbot tree list' and the web pages "
				 "show it.\n",
				 r->what, r->sender));
	return TRUE;
fail:
	store_rollback(ctx->store);
	return FALSE;
}

/* Whether the sender maintains every path of @tf; a refusal otherwise. */
static gboolean check_maintainer(const struct optin_context *ctx,
				 const struct message *msg,
				 const struct treefile *tf, char **bad)
{
	g_autoptr(GPtrArray) paths = tree_paths(tf);
	g_autofree char *why = NULL;

	if (!ctx->maintainers) {
		*bad = g_strdup("no MAINTAINERS file to check the sender "
				"against");
		return FALSE;
	}
	if (paths->len == 1) {
		*bad = g_strdup_printf("tree %s has no paths to check the "
				       "sender against",
				       tf->name);
		return FALSE;
	}
	if (!maintainers_is_maintainer(ctx->maintainers, msg->from_email,
				       (const char *const *)paths->pdata,
				       &why)) {
		*bad = g_strdup_printf("%s is not an M: entry of MAINTAINERS "
				       "for %s",
				       msg->from_email, why);
		return FALSE;
	}
	return TRUE;
}

/* The From: of a request is not authenticated: without limits anyone
 * could make the bot mail tokens (or refusals) to any address.  Over a
 * limit, @out gets OPTIN_LIMITED and no reply; *@limited is set. */
static gboolean check_limits(const struct optin_context *ctx,
			     const struct message *msg, gint64 now,
			     struct optin_reply *out, gboolean *limited,
			     GError **error)
{
	guint n;

	*limited = FALSE;
	if (!store_optin_request_count(ctx->store, msg->from_email,
				       now - 24 * 3600, &n, error))
		return FALSE;
	if (n >= OPTIN_LIMIT_SENDER_DAY) {
		out->reason = g_strdup_printf(
			"rate limit: %u token mails to %s in 24 hours", n,
			msg->from_email);
	} else {
		if (!store_optin_request_count(ctx->store, NULL, now - 3600, &n,
					       error))
			return FALSE;
		if (n >= OPTIN_LIMIT_HOUR)
			out->reason = g_strdup_printf(
				"rate limit: %u token mails in an hour", n);
	}
	if (!out->reason)
		return TRUE;
	out->outcome = OPTIN_LIMITED;
	*limited = TRUE;
	return TRUE;
}

static gboolean handle_request(const struct optin_context *ctx,
			       const struct message *msg, struct request *req,
			       struct optin_reply *out, GError **error)
{
	g_autoptr(store_tree) existing = NULL;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(treefile) tf = NULL;
	g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *bad = NULL;
	g_autofree char *data = NULL;
	g_autofree char *what = NULL;
	g_autofree char *desc = NULL;
	g_autofree char *token = NULL;
	g_autofree char *hash = NULL;
	g_autofree char *expires = NULL;
	const struct treefile *file;
	struct store_optin_request r = { 0 };
	gboolean limited;
	gint64 now = now_of(ctx);
	gint64 lifetime = ctx->token_lifetime ? ctx->token_lifetime :
						DEFAULT_LIFETIME;

	if (!msg->from_email || !*msg->from_email)
		return refuse(out, msg, "the mail has no sender address");
	if (!check_limits(ctx, msg, now, out, &limited, error))
		return FALSE;
	if (limited)
		return TRUE;
	if (!tree_name_valid(req->tree))
		return refuse(out, msg,
			      "'%s' is not a tree name ([A-Za-z0-9._-])",
			      req->tree);
	if (!strcmp(req->tree, TREE_DISTRO_NAME))
		return refuse(out, msg,
			      "%s is the distro tree: it is always tested",
			      TREE_DISTRO_NAME);
	file = config_tree(ctx->config, req->tree);
	if (file)
		return refuse(out, msg,
			      "tree %s is configured by %s: ask the bot's "
			      "operator",
			      req->tree, file->origin);
	if (!store_tree_get(ctx->store, req->tree, &existing, error))
		return FALSE;

	if (!strcmp(req->action, "opt-in")) {
		if (existing && existing->active)
			return refuse(out, msg,
				      "tree %s is opted in already (by %s): "
				      "use 'armbot set %s KEY VALUE'",
				      req->tree, existing->owner, req->tree);
		if (!g_ptr_array_find_with_equal_func(req->keys, "url",
						      g_str_equal, NULL) ||
		    !g_ptr_array_find_with_equal_func(req->keys, "paths",
						      g_str_equal, NULL))
			return refuse(out, msg,
				      "an opt-in needs 'url:' and 'paths:' "
				      "lines");
		g_key_file_set_string_list(
			kf, "tree", "maintainers",
			(const char *const[]){ msg->from_email }, 1);
	} else {
		if (!existing || !existing->active)
			return refuse(out, msg, "tree %s is not opted in",
				      req->tree);
		if (!g_key_file_load_from_data(kf, existing->data, -1,
					       G_KEY_FILE_NONE, error))
			return FALSE;
		if (!strcmp(req->action, "set") && !req->keys->len)
			return refuse(out, msg,
				      "nothing to set: 'armbot set %s KEY "
				      "VALUE' or key: value lines",
				      req->tree);
		if (!strcmp(req->action, "opt-out") && req->keys->len)
			return refuse(out, msg,
				      "an opt-out takes no key: value lines");
	}
	for (guint i = 0; i < req->keys->len; i++) {
		/* a set of branches replaces them */
		if (!strcmp(req->keys->pdata[i], "branch") &&
		    !strcmp(req->action, "set"))
			g_key_file_remove_key(kf, "tree", "branches", NULL);
	}
	for (guint i = 0; i < req->keys->len; i++)
		if (!apply_key(kf, req->keys->pdata[i], req->values->pdata[i],
			       &bad))
			return refuse(out, msg, "%s", bad);
	data = g_key_file_to_data(kf, NULL, NULL);
	tf = treefile_parse(req->tree, "the request", data,
			    &ctx->config->defaults, errors, NULL);
	if (!tf) {
		/* "the request:LINE: message": the line is of the key file
		 * made from the request, meaningless to its sender */
		const char *e = errors->pdata[0];
		const char *colon = strchr(e + strlen("the request:"), ':');

		return refuse(out, msg, "%s",
			      g_str_has_prefix(e, "the request:") && colon ?
				      colon + 2 :
				      e);
	}
	if (!check_maintainer(ctx, msg, tf, &bad))
		return refuse(out, msg, "%s", bad);
	/* a set or opt-out must also come from a maintainer of the paths
	 * the tree had */
	if (existing) {
		g_autoptr(treefile) old =
			treefile_parse(req->tree, "the store", existing->data,
				       &ctx->config->defaults, NULL, NULL);

		if (old && !check_maintainer(ctx, msg, old, &bad))
			return refuse(out, msg, "%s", bad);
	}

	desc = describe(tf);
	if (!strcmp(req->action, "opt-out")) {
		what = g_strdup("opt-out");
	} else if (!strcmp(req->action, "opt-in")) {
		what = g_strdup_printf("opt-in: %s", desc);
	} else {
		GString *keys = g_string_new(NULL);

		for (guint i = 0; i < req->keys->len; i++)
			g_string_append_printf(keys, "%s%s %s", i ? ", " : "",
					       (char *)req->keys->pdata[i],
					       (char *)req->values->pdata[i]);
		what = g_strdup_printf("set %s: now %s", keys->str, desc);
		g_string_free(keys, TRUE);
	}
	token = new_token(&hash);
	r.token_hash = hash;
	r.action = req->action;
	r.tree = req->tree;
	r.sender = msg->from_email;
	r.data = strcmp(req->action, "opt-out") ? treefile_to_data(tf) : NULL;
	r.what = what;
	r.message_id = msg->message_id;
	r.created = now;
	r.expires = now + lifetime;
	if (!store_optin_request_add(ctx->store, &r, error)) {
		g_free(r.data);
		return FALSE;
	}
	g_free(r.data);
	expires = format_time(r.expires);
	reply_to(out, msg, OPTIN_TOKEN_SENT,
		 g_strdup_printf("%s of tree %s waits for its confirmation",
				 req->action, req->tree),
		 g_strdup_printf(
			 "armbot received this request from %s:\n\n"
			 "  tree %s, %s\n\n"
			 "To confirm it, reply to this mail from the same "
			 "address before %s,\nkeeping this line:\n\n"
			 "confirm: %s\n\n"
			 "If you did not ask for this, ignore this mail: "
			 "nothing changes without\nthe reply.\n",
			 msg->from_email, req->tree, what, expires, token));
	return TRUE;
}

gboolean optin_handle(const struct optin_context *ctx,
		      const struct message *msg, struct optin_reply *out,
		      GError **error)
{
	g_autofree char *token = find_token(msg);
	g_autofree char *bad = NULL;
	struct request req = { 0 };
	gboolean ok;

	memset(out, 0, sizeof(*out));
	if (token && *token)
		return handle_confirmation(ctx, msg, token, out, error);
	if (!parse_subject(msg, &req, &bad)) {
		/* a "confirm:" line in some other mail is not ours */
		request_clear(&req);
		out->outcome = OPTIN_NOT_FOR_US;
		return TRUE;
	}
	if (token) {
		request_clear(&req);
		return handle_confirmation(ctx, msg, token, out, error);
	}
	if (bad || !parse_body(msg, &req, &bad))
		ok = refuse(out, msg, "%s", bad);
	else
		ok = handle_request(ctx, msg, &req, out, error);
	request_clear(&req);
	return ok;
}
