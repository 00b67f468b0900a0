/* A small reader of unified diffs, after git's apply.c parse_chunk():
 * the extended header lines of "diff --git" say what happened to the file,
 * hunk headers say how many lines follow. */
#include "kernel/diff/patchstat.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/diff/dirstat.h"
#include "mailparse/mailbox.h"
#include "mailparse/mailinfo.h"

/* Unquote a C-quoted path (git's quote_c_style) or take it up to @stop. */
static char *take_path(const char *s, const char *end, char stop)
{
	GString *out = g_string_new(NULL);

	if (s < end && *s == '"') {
		for (s++; s < end && *s != '"'; s++) {
			if (*s == '\\' && s + 1 < end) {
				s++;
				if (*s >= '0' && *s <= '7' && s + 2 < end) {
					g_string_append_c(
						out,
						(char)(((s[0] - '0') << 6) |
						       ((s[1] - '0') << 3) |
						       (s[2] - '0')));
					s += 2;
					continue;
				}
				switch (*s) {
				case 'n':
					g_string_append_c(out, '\n');
					break;
				case 't':
					g_string_append_c(out, '\t');
					break;
				default:
					g_string_append_c(out, *s);
				}
			} else {
				g_string_append_c(out, *s);
			}
		}
		return g_string_free(out, FALSE);
	}
	for (; s < end && *s != stop && *s != '\n'; s++)
		g_string_append_c(out, *s);
	return g_string_free(out, FALSE);
}

/* A "---"/"+++" name with its first component stripped; NULL for
 * /dev/null.  A tab ends the name (diff -u puts the date after it). */
static char *strip_name(const char *s, const char *end)
{
	g_autofree char *name = take_path(s, end, '\t');
	char *slash;

	g_strchomp(name);
	if (!strcmp(name, "/dev/null"))
		return NULL;
	slash = strchr(name, '/');
	return g_strdup(slash ? slash + 1 : name);
}

/* "diff --git a/X b/Y": when X and Y are the same name (no rename), take
 * it; git's git_header_name() does the same for names with spaces. */
static char *git_header_name(const char *s, const char *end)
{
	gsize len = end - s;

	if (len > 4 && s[0] == 'a' && s[1] == '/' && !((len - 1) & 1)) {
		gsize half = (len - 1) / 2;

		if (s[half] == ' ' && s[half + 1] == 'b' &&
		    s[half + 2] == '/' &&
		    !memcmp(s + 2, s + half + 3, half - 2))
			return g_strndup(s + 2, half - 2);
	}
	if (len > 2 && (s[0] == '"' || (s[0] == 'a' && s[1] == '/'))) {
		g_autofree char *a = NULL;
		const char *sp = s;

		if (*s == '"') {
			a = take_path(s, end, ' ');
			sp = memchr(s + 1, '"', len - 1);
			sp = sp ? sp + 1 : end;
		} else {
			sp = memchr(s, ' ', len);
			if (!sp)
				return NULL;
			a = g_strndup(s, sp - s);
		}
		if (sp < end && *sp == ' ')
			sp++;
		if (sp < end) {
			g_autofree char *b = take_path(sp, end, '\n');
			char *slash = strchr(b, '/');

			return g_strdup(slash ? slash + 1 : b);
		}
	}
	return NULL;
}

static gboolean parse_range(const char *s, gulong *count)
{
	char *end;

	strtoul(s, &end, 10);
	if (end == s)
		return FALSE;
	*count = 1;
	if (*end == ',') {
		s = end + 1;
		*count = strtoul(s, &end, 10);
		if (end == s)
			return FALSE;
	}
	return TRUE;
}

/* "@@ -a[,b] +c[,d] @@" */
static gboolean parse_hunk_header(const char *line, gulong *old_lines,
				  gulong *new_lines)
{
	const char *plus;

	if (!g_str_has_prefix(line, "@@ -") ||
	    !parse_range(line + 4, old_lines))
		return FALSE;
	plus = strstr(line + 4, " +");
	return plus && parse_range(plus + 2, new_lines);
}

struct file_state {
	struct dirstat_filestat *fs;
	gboolean git;
};

static void file_finish(struct file_state *st, GPtrArray *out, guint *count)
{
	struct dirstat_filestat *fs = st->fs;

	if (!fs)
		return;
	st->fs = NULL;
	if (!fs->path && !fs->old_path) {
		dirstat_filestat_free(fs);
		return;
	}
	if (!fs->path)
		fs->path = g_strdup(fs->old_path);
	if (!fs->old_path)
		fs->old_path = g_strdup(fs->path);
	if (fs->status == 'M' && !fs->added && !fs->deleted && !fs->binary)
		fs->same_content = TRUE;
	g_ptr_array_add(out, fs);
	(*count)++;
}

static struct dirstat_filestat *
file_start(struct file_state *st, GPtrArray *out, guint *count, gboolean git)
{
	file_finish(st, out, count);
	st->fs = g_new0(struct dirstat_filestat, 1);
	st->fs->status = 'M';
	st->git = git;
	return st->fs;
}

guint patchstat_parse(const char *text, gsize len, GPtrArray *out)
{
	const char *p = text, *end = text + len;
	struct file_state st = { NULL, FALSE };
	gulong old_left = 0, new_left = 0;
	guint count = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);
		const char *next = eol ? eol + 1 : end;
		g_autofree char *line = g_strndup(p, (eol ? eol : end) - p);
		gulong ol, nl;

		p = next;
		if (old_left || new_left) {
			/* inside a hunk: apply.c counts lines the same way */
			switch (line[0]) {
			case ' ':
			case '\0': /* an empty context line, damaged in mail */
				if (old_left)
					old_left--;
				if (new_left)
					new_left--;
				continue;
			case '-':
				st.fs->deleted++;
				if (old_left)
					old_left--;
				continue;
			case '+':
				st.fs->added++;
				if (new_left)
					new_left--;
				continue;
			case '\\':
				continue;
			default:
				/* a truncated hunk: stop counting */
				old_left = new_left = 0;
				break;
			}
		}
		if (g_str_has_prefix(line, "diff --git ")) {
			struct dirstat_filestat *fs =
				file_start(&st, out, &count, TRUE);
			const char *names = line + strlen("diff --git ");

			fs->path =
				git_header_name(names, names + strlen(names));
			fs->old_path = g_strdup(fs->path);
			continue;
		}
		if (g_str_has_prefix(line, "--- ") && p < end &&
		    g_str_has_prefix(p, "+++ ") &&
		    (!st.fs || !st.git || st.fs->added || st.fs->deleted)) {
			/* a plain unified diff starts a file here; in a git
			 * diff these two lines belong to the current file */
			file_start(&st, out, &count, FALSE);
		}
		if (!st.fs)
			continue;
		if (g_str_has_prefix(line, "--- ")) {
			char *name = strip_name(line + 4, line + strlen(line));

			if (!name)
				st.fs->status = 'A';
			else if (!st.git || !st.fs->old_path) {
				g_free(st.fs->old_path);
				st.fs->old_path = g_strdup(name);
			}
			g_free(name);
		} else if (g_str_has_prefix(line, "+++ ")) {
			char *name = strip_name(line + 4, line + strlen(line));

			if (!name) {
				st.fs->status = 'D';
			} else if (!st.git || !st.fs->path) {
				g_free(st.fs->path);
				st.fs->path = g_strdup(name);
			}
			g_free(name);
		} else if (parse_hunk_header(line, &ol, &nl)) {
			old_left = ol;
			new_left = nl;
		} else if (!st.git) {
			continue;
		} else if (g_str_has_prefix(line, "new file mode ")) {
			st.fs->status = 'A';
		} else if (g_str_has_prefix(line, "deleted file mode ")) {
			st.fs->status = 'D';
		} else if (g_str_has_prefix(line, "rename from ") ||
			   g_str_has_prefix(line, "copy from ")) {
			const char *s = strstr(line, "from ") + strlen("from ");

			g_free(st.fs->old_path);
			st.fs->old_path = take_path(s, s + strlen(s), '\n');
			st.fs->status = line[0] == 'r' ? 'R' : 'A';
		} else if (g_str_has_prefix(line, "rename to ") ||
			   g_str_has_prefix(line, "copy to ")) {
			const char *s = strstr(line, "to ") + strlen("to ");

			g_free(st.fs->path);
			st.fs->path = take_path(s, s + strlen(s), '\n');
		} else if (g_str_has_prefix(line, "Binary files ") ||
			   !strcmp(line, "GIT binary patch")) {
			st.fs->binary = TRUE;
		} else if (g_str_has_prefix(line, "similarity index 100%")) {
			st.fs->same_content = TRUE;
		}
	}
	file_finish(&st, out, &count);
	return count;
}

GPtrArray *patchstat_mbox(const char *path, patchstat_skip_fn on_skip,
			  gpointer user_data, GError **error)
{
	struct mailbox_options mopts = MAILBOX_OPTIONS_INIT;
	struct mailinfo_options miopts = MAILINFO_OPTIONS_INIT;
	g_autoptr(mailbox) mb = mailbox_open(path, &mopts, error);
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(
		(GDestroyNotify)dirstat_filestat_free);

	if (!mb)
		return NULL;
	for (guint n = 1;; n++) {
		g_autoptr(GBytes) msg = NULL;
		g_autoptr(mailinfo_result) mi = NULL;
		g_autoptr(GError) perr = NULL;

		if (!mailbox_next(mb, &msg, error))
			return NULL;
		if (!msg)
			break;
		if (!mailinfo_parse(&mi, msg, &miopts, &perr)) {
			if (on_skip)
				on_skip(n, perr, user_data);
			continue;
		}
		patchstat_parse(mi->patch->str, mi->patch->len, all);
	}
	return g_steal_pointer(&all);
}
