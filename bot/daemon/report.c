/* The reply mail: struct report rendered as an RFC 5322 message with a
 * plain text UTF-8 body, in the order the issue fixes (see report.h). */
#include "bot/daemon/report.h"

#include <string.h>

#include "bot/mail/compose.h"
#include "kernel/build/runner.h"

#define REPORT_WIDTH 72 /* body lines, where the content allows */

G_DEFINE_QUARK(report - error - quark, report_error)

const char *report_check_name(enum report_check_kind kind)
{
	static const char *const names[REPORT_N_CHECKS] = {
		"apply", "sparse", "build", "boot", "runtime-PM",
	};

	return kind < REPORT_N_CHECKS ? names[kind] : "?";
}

const char *report_status_pick(enum report_status status, const char *skipped,
			       const char *ok, const char *warn,
			       const char *fail)
{
	switch (status) {
	case REPORT_STATUS_OK:
		return ok;
	case REPORT_STATUS_WARN:
		return warn;
	case REPORT_STATUS_FAIL:
		return fail;
	case REPORT_STATUS_SKIPPED:
		break;
	}
	return skipped;
}

const char *report_status_name(enum report_status status)
{
	return report_status_pick(status, "skipped", "ok", "WARN", "FAIL");
}

const char *report_base_name(enum report_base how)
{
	switch (how) {
	case REPORT_BASE_COMMIT:
		return "base-commit";
	case REPORT_BASE_COMMIT_MISSING:
		return "base-commit not in the tree: branch head";
	case REPORT_BASE_GUESSED:
		return "blob ids";
	case REPORT_BASE_UNKNOWN:
		return "unknown: branch head tried";
	case REPORT_BASE_APPLIED:
		return "already applied";
	case REPORT_BASE_TREE_HEAD:
		break;
	}
	return "branch head";
}

char *report_message_id(const char *series_message_id, guint version,
			const char *tree, const char *bot_address)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	g_autofree char *domain = mail_compose_domain(bot_address);
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

GPtrArray *report_recipients(const struct report *r)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

	if (mail_compose_token_ok(r->author_email))
		g_ptr_array_add(out, g_strdup(r->author_email));
	if (mail_compose_token_ok(r->list_address) &&
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
	g_autoptr(GString) s = g_string_new(NULL);
	const char *how = "";

	g_string_append(s, r->not_tested ? "Not tested on " : "Tested on ");
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
	case REPORT_BASE_GUESSED:
		how = ", guessed from the blob ids of the patches.";
		break;
	case REPORT_BASE_UNKNOWN:
		how = ", the head of the tree: the base of the series is "
		      "unknown.";
		break;
	case REPORT_BASE_APPLIED:
		how = ", where the series is applied already.";
		break;
	}
	if (r->not_tested)
		g_string_append_printf(s, ": %s.", r->not_tested);
	else if (r->base_commit && *r->base_commit)
		g_string_append_printf(s, " at %.12s%s", r->base_commit, how);
	else
		g_string_append_c(s, '.');
	if (r->base_reason && *r->base_reason &&
	    (r->not_tested || r->base_how >= REPORT_BASE_GUESSED))
		g_string_append_printf(s, " Base: %s.", r->base_reason);
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

char *report_board_line(const struct report_board *b)
{
	GString *line = g_string_new(NULL);

	g_string_append_printf(line, "boot %s %s", b->name,
			       report_status_name(b->status));
	if (b->summary && *b->summary)
		g_string_append_printf(line, " %s", b->summary);
	if (b->reason && *b->reason)
		g_string_append_printf(line, " (%s)", b->reason);
	return g_string_free(line, FALSE);
}

static void append_boards(GString *out, const struct report *r)
{
	for (guint i = 0; r->boards && i < r->n_boards; i++) {
		g_autofree char *line = report_board_line(&r->boards[i]);

		g_string_append_printf(out, "  %s\n", line);
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
	if (r->arm64 && r->arm64->kind != DIRSTAT_VERDICT_UNTOUCHED) {
		g_autofree char *s = dirstat_verdict_sentence(r->arm64);

		g_string_append_printf(out, "\n%s\n", s);
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
	dirstat_verdict_dirs_append(out, v, 6);
}

/* --- section 7: how to reproduce --------------------------------------- */

#define REPRO_INDENT "        "

/* A paragraph, wrapped, after an empty line. */
static void append_paragraph(GString *out, const char *text)
{
	g_string_append_c(out, '\n');
	append_wrapped(out, text);
}

/* The NULL-terminated @lines, indented, after an empty line. */
static void append_commands(GString *out, const char *const *lines)
{
	g_string_append_c(out, '\n');
	for (guint i = 0; lines[i]; i++)
		g_string_append_printf(out, REPRO_INDENT "%s\n", lines[i]);
}

/* The distro tree: armbot imported Debian's tarball as one commit whose
 * tree equals `git add -A -f && git write-tree` of the unpacked files
 * (kernel/tree/tree.h); a reader's commit differs (author, date), its tree
 * does not. */
static void append_repro_distro(GString *out, const struct report *r)
{
	const struct report_reproduce *p = &r->reproduce;
	const char *version = p->distro_version ? p->distro_version : "";
	g_autofree char *pkg_v =
		*version ?
			g_strdup_printf("%s=%s", p->distro_package, version) :
			g_strdup(p->distro_package);
	g_autofree char *pkg_v_word = runner_shell_word(pkg_v);
	g_autofree char *tarball =
		runner_shell_word(p->distro_tarball ? p->distro_tarball : "");
	/* the tarball's one top directory is named as the package */
	g_autofree char *dir = runner_shell_word(p->distro_package);
	g_autofree char *message = g_strstrip(
		g_strdup_printf("%s %s", p->distro_package, version));
	g_autofree char *message_word = runner_shell_word(message);
	g_autofree char *text = g_strdup_printf(
		"The tree: Debian's %s, which armbot imported as commit %s.  "
		"Unpacked and added to git with every file, as here, it has "
		"the same files: git write-tree prints %s.",
		message, p->base, p->base_tree ? p->base_tree : "(unknown)");
	g_autofree char *install =
		g_strdup_printf("apt-get install %s", pkg_v_word);
	g_autofree char *untar = g_strdup_printf("tar -xf %s", tarball);
	g_autofree char *cd = g_strdup_printf("cd %s", dir);
	g_autofree char *commit = g_strdup_printf(
		"git commit -q -m %s && git checkout -b test", message_word);
	const char *const lines[] = {
		install, untar,
		cd,	 "git init -q && git add -A -f && git write-tree",
		commit,	 NULL,
	};

	append_paragraph(out, text);
	append_commands(out, lines);
}

static void append_repro_tree(GString *out, const struct report *r)
{
	const struct report_reproduce *p = &r->reproduce;
	g_autofree char *base = runner_shell_word(p->base);
	g_autofree char *checkout =
		g_strdup_printf("git checkout -b test %s", base);
	g_autofree char *text = NULL;
	g_autofree char *fetch = NULL;

	if (p->distro_package) {
		append_repro_distro(out, r);
		return;
	}
	if (p->tree_url) {
		g_autofree char *url = runner_shell_word(p->tree_url);
		g_autofree char *branch =
			p->tree_branch ? runner_shell_word(p->tree_branch) :
					 NULL;

		fetch = g_strdup_printf("git fetch %s%s%s", url,
					branch ? " " : "",
					branch ? branch : "");
		text = p->tree_branch ?
			       g_strdup_printf("The tree: branch %s of %s, "
					       "in a clone of the kernel, at "
					       "the commit armbot used:",
					       p->tree_branch, p->tree_url) :
			       g_strdup_printf("The tree: %s, in a clone of "
					       "the kernel, at the commit "
					       "armbot used:",
					       p->tree_url);
	} else {
		text = g_strdup_printf("The tree: armbot's %s, which is not "
				       "public, at the commit armbot used:",
				       r->tree_name);
	}
	append_paragraph(out, text);
	{
		const char *const lines[] = { fetch ? fetch : checkout,
					      fetch ? checkout : NULL, NULL };

		append_commands(out, lines);
	}
}

/* b4 am (b4's am-shazam docs): the thread of the cover letter or first
 * patch, trailers from the replies folded in, -v the version when the
 * thread holds several; -o - writes the mbox to stdout. */
static void append_repro_series(GString *out, const struct report *r)
{
	const struct report_reproduce *p = &r->reproduce;
	gboolean have_url = p->mbox_url && *p->mbox_url;

	if (p->message_id && *p->message_id) {
		g_autofree char *id = runner_shell_word(p->message_id);
		g_autofree char *b4 =
			g_strdup_printf("b4 am -o - -v %u %s | git am",
					r->version ? r->version : 1, id);
		const char *const b4_lines[] = { b4, NULL };

		append_paragraph(out, "The series on top, as b4 assembles it "
				      "from the list, with the trailers given "
				      "in the replies:");
		append_commands(out, b4_lines);
	}
	if (have_url) {
		g_autofree char *url = runner_shell_word(p->mbox_url);
		g_autofree char *curl =
			g_strdup_printf("curl -sSf %s | git am", url);
		const char *const curl_lines[] = { curl, NULL };

		append_paragraph(out, p->message_id && *p->message_id ?
					      "or as armbot applied it:" :
					      "The series on top, as armbot "
					      "applied it:");
		append_commands(out, curl_lines);
	}
}

/* Each check that says WARN or FAIL and has something to say: "sparse
 * (WARN): what.", its steps, its note.  Checks that share their steps
 * (boot and runtime-PM: one run of qemu) are printed together. */
static void append_repro_checks(GString *out, const struct report *r)
{
	const struct report_reproduce *p = &r->reproduce;
	gboolean done[REPORT_N_CHECKS] = { FALSE };

	for (int k = 0; k < REPORT_N_CHECKS; k++) {
		const struct report_repro_check *c = &p->checks[k];
		g_autoptr(GString) head = g_string_new(NULL);

		if (done[k] ||
		    (r->checks[k].status != REPORT_STATUS_WARN &&
		     r->checks[k].status != REPORT_STATUS_FAIL) ||
		    (!c->what && !c->steps))
			continue;
		for (int j = k; j < REPORT_N_CHECKS; j++) {
			if (j != k &&
			    (!c->steps || p->checks[j].steps != c->steps))
				continue;
			if (r->checks[j].status != REPORT_STATUS_WARN &&
			    r->checks[j].status != REPORT_STATUS_FAIL)
				continue;
			done[j] = TRUE;
			g_string_append_printf(
				head, "%s%s (%s)", head->len ? " and " : "",
				report_check_name(j),
				report_status_name(r->checks[j].status));
		}
		g_string_append_printf(head, ": %s", c->what ? c->what : "");
		while (head->len && head->str[head->len - 1] == ' ')
			g_string_truncate(head, head->len - 1);
		if (head->len && head->str[head->len - 1] != '.' &&
		    head->str[head->len - 1] != ':')
			g_string_append_c(head, c->steps ? ':' : '.');
		append_paragraph(out, head->str);
		if (c->steps && c->steps->len) {
			g_string_append_c(out, '\n');
			kbuild_steps_format(out, c->steps, REPRO_INDENT);
		}
		if (c->note && *c->note)
			append_paragraph(out, c->note);
	}
}

static void append_reproduce(GString *out, const struct report *r)
{
	const struct report_reproduce *p = &r->reproduce;

	if (!p->base && !p->armbot_check)
		return;
	g_string_append(out, "\nTo reproduce:\n");
	if (p->base) {
		append_repro_tree(out, r);
		append_repro_series(out, r);
		append_repro_checks(out, r);
	}
	if (p->armbot_check) {
		const char *const lines[] = { p->armbot_check, NULL };

		append_paragraph(out, p->base ? "Or all of it with armbot:" :
						"With armbot:");
		append_commands(out, lines);
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
	missing =
		!mail_compose_token_ok(r->bot_address)	? r->bot_address :
		!mail_compose_token_ok(r->author_email) ? r->author_email :
		!mail_compose_token_ok(r->parent_message_id) ?
							  r->parent_message_id :
		r->list_address && *r->list_address &&
				!mail_compose_token_ok(r->list_address) ?
							  r->list_address :
		r->message_id && !mail_compose_token_ok(r->message_id) ?
							  r->message_id :
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
	append_boards(out, r);

	/* 5. the signed dirstat and the mach-* / plat-* table */
	append_dirstat(out, r);
	if (r->similar && *r->similar) {
		g_string_append(out, "\nWhy it grows arch/arm:\n");
		append_verbatim(out, r->similar);
	}

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
	for (guint i = 0; r->boards && i < r->n_boards; i++) {
		const struct report_board *b = &r->boards[i];

		if ((b->status != REPORT_STATUS_FAIL &&
		     b->status != REPORT_STATUS_WARN) ||
		    !b->detail || !*b->detail)
			continue;
		g_string_append_c(out, '\n');
		append_verbatim(out, b->detail);
	}

	/* 7. how to reproduce */
	append_reproduce(out, r);

	/* 8. the signature (RFC 3676 4.3: "-- " alone on its line) */
	g_string_append_printf(out, "\n-- \n%s\n",
			       r->bot_name && *r->bot_name ? r->bot_name :
							     "armbot");
	if (r->series_url && *r->series_url)
		g_string_append_printf(out, "%s\n", r->series_url);
	mail_compose_limit_lines(out);
	return g_string_free(out, FALSE);
}

/* --- the headers ------------------------------------------------------- */

static gboolean append_headers(GString *out, const struct report *r,
			       gboolean eight_bit, GError **error)
{
	g_autofree char *subject = mail_compose_reply_subject(r->subject);
	g_autofree char *own_id =
		r->message_id ?
			g_strdup(r->message_id) :
			report_message_id(r->parent_message_id, r->version,
					  r->tree_name, r->bot_address);
	const char *cc[] = { r->list_address, NULL };
	struct mail_compose m = {
		.from_name = r->bot_name,
		.from_address = r->bot_address,
		.to_name = r->author_name,
		.to_address = r->author_email,
		.cc = r->list_address && *r->list_address ? cc : NULL,
		.subject = subject,
		.date = r->date,
		.message_id = own_id,
		.in_reply_to = r->parent_message_id,
		.references = r->parent_references,
		.auto_submitted = MAIL_COMPOSE_AUTO_GENERATED,
	};

	return mail_compose_headers(out, &m, eight_bit, error);
}

GBytes *report_render(const struct report *r, GError **error)
{
	g_autofree char *body = report_render_body(r, error);
	GString *out;

	if (!body)
		return NULL;
	out = g_string_new(NULL);
	if (!append_headers(out, r, !g_str_is_ascii(body), error)) {
		g_string_free(out, TRUE);
		return NULL;
	}
	g_string_append_c(out, '\n');
	g_string_append(out, body);
	return g_string_free_to_bytes(out);
}
