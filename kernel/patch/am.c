/* `git am` (git 2.39 builtin/am.c) in the object database.  See
 * kernel/patch/am.h. */
#include "kernel/patch/am.h"

#include <gio/gio.h>
#include <string.h>

#include "kernel/git/lg2repo.h"
#include "mailparse/date.h"
#include "mailparse/mailbox.h"
#include "mailparse/mailinfo.h"

static void am_patch_free(struct am_patch *p)
{
	if (!p)
		return;
	g_free(p->subject);
	g_free(p->path);
	g_free(p->reason);
	g_free(p);
}

void am_series_free(struct am_series *s)
{
	if (!s)
		return;
	g_free(s->base_note);
	g_clear_pointer(&s->patches, g_ptr_array_unref);
	g_free(s);
}

char *am_stripspace(const char *text)
{
	GString *out = g_string_new(NULL);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	guint empties = 0;

	for (char **l = lines; *l; l++) {
		gsize len = strlen(*l);

		while (len && g_ascii_isspace((*l)[len - 1]))
			len--;
		if (!len) {
			empties++;
			continue;
		}
		if (empties && out->len)
			g_string_append_c(out, '\n');
		empties = 0;
		g_string_append_len(out, *l, len);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

/* git ident.c: crud() */
static gboolean crud(guchar c)
{
	return c <= 32 || c == ',' || c == ':' || c == ';' || c == '<' ||
	       c == '>' || c == '"' || c == '\\' || c == '\'';
}

char *am_ident_clean(const char *s)
{
	GString *out = g_string_new(NULL);
	gsize len;

	while (*s && crud(*s))
		s++;
	len = strlen(s);
	while (len && crud(s[len - 1]))
		len--;
	for (gsize i = 0; i < len; i++)
		if (s[i] != '\n' && s[i] != '<' && s[i] != '>')
			g_string_append_c(out, s[i]);
	return g_string_free(out, FALSE);
}

/* git am's detect_patch_format for a file: mbox when the first non-blank
 * line is a "From " or "From: " line or the file starts with mail
 * headers (is_mail).  Returns NULL when it is an mbox, else why not. */
static char *detect_format(const char *path)
{
	g_autofree char *data = NULL;
	gsize len;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GRegex) header = NULL;
	char **l, **first;

	if (!g_strcmp0(path, "-") || g_file_test(path, G_FILE_TEST_IS_DIR))
		return NULL;
	/* the first lines decide: 64 KiB is plenty */
	{
		g_autoptr(GFile) f = g_file_new_for_path(path);
		g_autoptr(GFileInputStream) in = g_file_read(f, NULL, NULL);
		gsize got = 0;

		if (!in)
			return NULL; /* the mailbox reader reports it */
		data = g_malloc(65537);
		g_input_stream_read_all(G_INPUT_STREAM(in), data, 65536, &got,
					NULL, NULL);
		data[got] = '\0';
		len = got;
	}
	(void)len;
	lines = g_strsplit(data, "\n", -1);
	for (l = lines; *l && !**l; l++)
		;
	first = l;
	if (!*first)
		return NULL;
	if (g_str_has_prefix(*first, "From ") ||
	    g_str_has_prefix(*first, "From: "))
		return NULL;
	if (g_str_has_prefix(*first, "# This series applies on GIT commit"))
		return g_strdup("StGit series format is not supported");
	if (!strcmp(*first, "# HG changeset patch"))
		return g_strdup("Mercurial patch format is not supported");
	if (first[1] && !*first[1] && first[2] &&
	    (g_str_has_prefix(first[2], "From:") ||
	     g_str_has_prefix(first[2], "Author:") ||
	     g_str_has_prefix(first[2], "Date:")))
		return g_strdup("StGit patch format is not supported");
	/* git's is_mail(), from the start of the file */
	header = g_regex_new("^[!-9;-~]+:", 0, 0, NULL);
	for (l = lines; *l; l++) {
		if (!**l)
			break;
		if (**l == '\t' || **l == ' ')
			continue;
		if (!g_regex_match(header, *l, 0, NULL))
			return g_strdup("patch format detection failed");
	}
	return NULL;
}

/* A "base-commit: <hex>" line in @raw, as git format-patch --base writes */
static char *find_base_commit(GBytes *raw)
{
	gsize len;
	const char *data = g_bytes_get_data(raw, &len);
	const char *p = data, *end = data + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		gsize l = (nl ? nl : end) - p;

		if (l >= 13 + 40 && !memcmp(p, "base-commit: ", 13)) {
			gsize n = 0;

			while (13 + n < l && g_ascii_isxdigit(p[13 + n]))
				n++;
			if (n == 40)
				return g_strndup(p + 13, 40);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return NULL;
}

static gboolean resolve_commit(struct git_repository *repo, const char *rev,
			       struct gitoid *out)
{
	return lg2repo_revparse_commit(repo, rev, out);
}

static gboolean git_fail(GError **error, const char *what)
{
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", what,
		    lg2repo_last_error());
	return FALSE;
}

/* The author as git am's fmt_ident(IDENT_STRICT) builds it, into @out
 * (whose strings @name and @email own).  FALSE with *@why set where git
 * am dies. */
static gboolean author_ident(const struct mailinfo_result *mi,
			     struct lg2repo_ident *out, char **name,
			     char **email, char **why)
{
	gint64 ts;
	int offset;

	*name = am_ident_clean(mi->author ? mi->author : "");
	*email = am_ident_clean(mi->email ? mi->email : "");
	if (!**name) {
		*why = g_strdup_printf("empty ident name (for <%s>) not "
				       "allowed",
				       *email);
		return FALSE;
	}
	if (mi->date && *mi->date) {
		if (!date_parse(mi->date, &ts, &offset)) {
			*why = g_strdup_printf("invalid date format: %s",
					       mi->date);
			return FALSE;
		}
	} else {
		g_autoptr(GDateTime) now = g_date_time_new_now_local();

		ts = g_date_time_to_unix(now);
		offset = g_date_time_get_utc_offset(now) / G_TIME_SPAN_MINUTE;
	}
	*out = (struct lg2repo_ident){ *name, *email, FALSE, ts, offset };
	if (!lg2repo_ident_valid(out)) {
		*why = g_strdup_printf("invalid author identity: %s",
				       lg2repo_last_error());
		return FALSE;
	}
	return TRUE;
}

/* One mail, parsed */
struct mail {
	struct mailinfo_result *mi;
	char *parse_error;
};

static void mail_free(struct mail *m)
{
	mailinfo_result_free(m->mi);
	g_free(m->parse_error);
	g_free(m);
}

/* Commit one patch on @parent; fills @p. */
static gboolean am_one(struct git_repository *repo, const struct gitoid *parent,
		       struct mail *m, const struct am_options *opts,
		       struct am_patch *p, GError **error)
{
	g_autoptr(lg2tree) base = NULL;
	g_autofree char *author_name = NULL;
	g_autofree char *author_email = NULL;
	struct lg2repo_ident author;
	struct lg2repo_ident committer = { opts->committer_name,
					   opts->committer_email, TRUE, 0, 0 };
	struct apply_options aopts = APPLY_OPTIONS_INIT;
	struct apply_result r = { 0 };
	g_autofree char *raw_msg = NULL;
	g_autofree char *msg = NULL;
	gboolean ok = FALSE;

	if (m->parse_error) {
		p->reason = g_strdup_printf("could not parse patch: %s",
					    m->parse_error);
		return TRUE;
	}
	/* git am: subject, blank line, the message, stripspace */
	raw_msg = g_strdup_printf("%s\n\n%s",
				  m->mi->subject ? m->mi->subject : "",
				  m->mi->msg ? m->mi->msg->str : "");
	msg = am_stripspace(raw_msg);
	base = lg2repo_commit_root(repo, parent);
	if (!base) {
		git_fail(error, "cannot read the base commit");
		goto done;
	}
	aopts.threeway = opts->threeway;
	aopts.max_patch_size = opts->max_patch_size;
	if (!apply_to_tree(&r, repo, base, m->mi->patch->str, m->mi->patch->len,
			   &aopts, error))
		goto done;
	if (!r.applied) {
		p->path = g_steal_pointer(&r.path);
		p->reason = g_steal_pointer(&r.reason);
		ok = TRUE;
		goto done;
	}
	/* git am dies on the identity only when it commits, after applying */
	if (!author_ident(m->mi, &author, &author_name, &author_email,
			  &p->reason)) {
		ok = TRUE;
		goto done;
	}
	if (!lg2repo_commit_create(repo, &p->commit, &author, &committer, msg,
				   &r.tree, parent, error))
		goto done;
	p->applied = TRUE;
	p->merged = r.merged;
	ok = TRUE;
done:
	apply_result_clear(&r);
	return ok;
}

gboolean am_apply_mbox(struct am_series **out, struct git_repository *repo,
		       const char *head_rev, const char *mbox_path,
		       const struct am_options *opts, GError **error)
{
	static const struct am_options defaults = AM_OPTIONS_INIT;
	struct mailbox_options mbopts = MAILBOX_OPTIONS_INIT;
	struct mailinfo_options miopts = MAILINFO_OPTIONS_INIT;
	g_autoptr(mailbox) mb = NULL;
	g_autoptr(GPtrArray) mails =
		g_ptr_array_new_with_free_func((GDestroyNotify)mail_free);
	g_autoptr(am_series) s = g_new0(struct am_series, 1);
	g_autofree char *format_error = NULL;
	g_autofree char *base_commit = NULL;
	struct gitoid head;
	guint number = 0;

	if (!opts)
		opts = &defaults;
	s->patches =
		g_ptr_array_new_with_free_func((GDestroyNotify)am_patch_free);
	format_error = detect_format(mbox_path);
	if (format_error) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			    "%s: %s", mbox_path, format_error);
		return FALSE;
	}
	mbopts.keep_cr = opts->keep_cr;
	mb = mailbox_open(mbox_path, &mbopts, error);
	if (!mb)
		return FALSE;
	for (;;) {
		g_autoptr(GBytes) raw = NULL;
		g_autoptr(GError) perr = NULL;
		struct mail *m;

		if (!mailbox_next(mb, &raw, error))
			return FALSE;
		if (!raw)
			break;
		if (!base_commit)
			base_commit = find_base_commit(raw);
		m = g_new0(struct mail, 1);
		if (!mailinfo_parse(&m->mi, raw, &miopts, &perr))
			m->parse_error = g_strdup(perr->message);
		else if (!m->mi->patch || !m->mi->patch->len ||
			 !g_strcmp0(m->mi->author,
				    "Mail System Internal Data")) {
			/* no patch (a cover letter) or pine's folder data:
			 * not a patch of the series */
			mail_free(m);
			continue;
		}
		g_ptr_array_add(mails, m);
	}

	/* the base */
	if (opts->base) {
		if (!resolve_commit(repo, opts->base, &s->base)) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
				    "unknown base '%s'", opts->base);
			return FALSE;
		}
	} else {
		if (!resolve_commit(repo, head_rev, &head)) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
				    "cannot resolve the tree's head '%s'",
				    head_rev);
			return FALSE;
		}
		s->base = head;
		if (base_commit &&
		    !resolve_commit(repo, base_commit, &s->base)) {
			s->base = head;
			s->base_note = g_strdup_printf(
				"base-commit %s is not in the tree; applying "
				"to %s (%s)",
				base_commit, head_rev, gitoid_hex(&head));
		}
	}

	s->head = s->base;
	for (guint i = 0; i < mails->len; i++) {
		struct mail *m = mails->pdata[i];
		struct am_patch *p = g_new0(struct am_patch, 1);

		p->number = ++number;
		p->subject =
			g_strdup(m->mi && m->mi->subject ? m->mi->subject : "");
		g_ptr_array_add(s->patches, p);
		if (!am_one(repo, &s->head, m, opts, p, error))
			return FALSE;
		if (p->applied)
			s->head = p->commit;
		else
			s->failed++;
	}
	*out = g_steal_pointer(&s);
	return TRUE;
}
