/* Applying one patch to a tree in the object database, as `git am` runs
 * `git apply --index`.  The parser and the hunk matcher follow git's
 * apply.c (git 2.39) function by function; the names of the git functions
 * are given where the behaviour is matched.  See kernel/patch/apply.h. */
#include "kernel/patch/apply.h"

#include <ctype.h>
#include <gio/gio.h>
#include <string.h>

#include "kernel/git/lg2merge.h"
#include "kernel/git/lg2repo.h"
#include "kernel/git/lg2write.h"
#include "kernel/git/object.h"
#include "kernel/git/quote.h"
#include "kernel/patch/apply-binary.h"

#define MODE_FILE 0100644
#define MODE_EXEC 0100755
#define MODE_LINK 0120000
#define MODE_GITLINK 0160000
#define MODE_TYPE 0170000

/* One hunk: the text from its "@@ -" line through its last line (and a
 * trailing "\ No newline" marker), as git's struct fragment. */
struct hunk {
	unsigned long oldpos, oldlines, newpos, newlines;
	unsigned long leading, trailing;
	const char *text;
	gsize size;
};

/* One file diff of the patch, as git's struct patch. */
struct file_diff {
	char *def_name, *old_name, *new_name;
	int is_new, is_delete; /* -1: not known yet */
	gboolean is_rename, is_copy, is_binary;
	guint old_mode, new_mode;
	char old_oid[GITOID_HEXSZ + 1], new_oid[GITOID_HEXSZ + 1];
	GArray *hunks; /* struct hunk */
	struct apply_binary_hunk *binary; /* forward binary hunk */
	unsigned long lines_added, lines_deleted;
};

static void file_diff_free(struct file_diff *p)
{
	if (!p)
		return;
	g_free(p->def_name);
	g_free(p->old_name);
	g_free(p->new_name);
	g_clear_pointer(&p->hunks, g_array_unref);
	apply_binary_hunk_free(p->binary);
	g_free(p);
}

typedef struct file_diff file_diff;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(file_diff, file_diff_free)

/* The parser's state, as git's struct apply_state for parsing. */
struct parser {
	int p_value;
	gboolean p_value_known;
	int linenr;
	char *error; /* why parsing failed */
};

static void parser_fail(struct parser *ps, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

static void parser_fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	if (ps->error)
		return;
	va_start(ap, fmt);
	ps->error = g_strdup_vprintf(fmt, ap);
	va_end(ap);
}

static const char *find_eol(const char *s)
{
	while (*s && *s != '\n')
		s++;
	return s;
}

static gsize linelen(const char *buf, gsize size)
{
	const char *nl = memchr(buf, '\n', size);

	return nl ? (gsize)(nl - buf) + 1 : size;
}

static gboolean starts(const char *line, gsize len, const char *prefix)
{
	gsize n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

/* git's is_dev_null: "/dev/null" followed by whitespace */
static gboolean is_dev_null(const char *str)
{
	return g_str_has_prefix(str, "/dev/null") && isspace((guchar)str[9]);
}

/* git's squash_slash: collapse runs of '/' */
static char *squash_slash(char *name)
{
	int i = 0, j = 0;

	if (!name)
		return NULL;
	while (name[i]) {
		if ((name[j++] = name[i++]) == '/')
			while (name[i] == '/')
				i++;
	}
	name[j] = '\0';
	return name;
}

/* git's unquote_c_style() of a name on one line of a patch: @quoted
 * starts with '"'.  Returns the unquoted name and sets *@endp (unless
 * NULL) past the closing quote, or NULL when malformed. */
static char *unquote_c_style(const char *quoted, const char **endp)
{
	g_autoptr(GString) out = g_string_new(NULL);
	const char *end;

	if (!gitquote_unquote(out, quoted, TRUE, &end))
		return NULL;
	if (endp)
		*endp = end;
	return g_string_free(g_steal_pointer(&out), FALSE);
}

/* git's find_name_gnu: a quoted name, @p_value components stripped */
static char *find_name_gnu(const char *line, int p_value)
{
	g_autofree char *name = unquote_c_style(line, NULL);
	char *cp;

	if (!name)
		return NULL;
	for (cp = name; p_value; p_value--) {
		cp = strchr(cp, '/');
		if (!cp)
			return NULL;
		cp++;
	}
	return squash_slash(g_strdup(cp));
}

#define TERM_SPACE 1
#define TERM_TAB 2

static gboolean name_terminate(int c, int terminate)
{
	if (c == ' ' && !(terminate & TERM_SPACE))
		return FALSE;
	if (c == '\t' && !(terminate & TERM_TAB))
		return FALSE;
	return TRUE;
}

/* git's find_name_common */
static char *find_name_common(const char *line, const char *def, int p_value,
			      const char *end, int terminate)
{
	const char *start = NULL;
	gsize len;

	if (p_value == 0)
		start = line;
	while (line != end) {
		char c = *line;

		if (!end && isspace((guchar)c)) {
			if (c == '\n')
				break;
			if (name_terminate(c, terminate))
				break;
		}
		line++;
		if (c == '/' && !--p_value)
			start = line;
	}
	if (!start)
		return squash_slash(g_strdup(def));
	len = line - start;
	if (!len)
		return squash_slash(g_strdup(def));
	/* prefer the shorter name when the other merely adds a suffix
	 * ("file.orig", "file~") */
	if (def) {
		gsize deflen = strlen(def);

		if (deflen < len && !strncmp(start, def, deflen))
			return squash_slash(g_strdup(def));
	}
	return squash_slash(g_strndup(start, len));
}

static char *find_name(const char *line, const char *def, int p_value,
		       int terminate)
{
	if (*line == '"') {
		char *name = find_name_gnu(line, p_value);

		if (name)
			return name;
	}
	return find_name_common(line, def, p_value, NULL, terminate);
}

/* The timestamp helpers of git's find_name_traditional: how many trailing
 * bytes of a "--- name<TAB>date" line are the date. */
static gsize sane_tz_len(const char *line, gsize len)
{
	const char *tz, *p;

	if (len < 6 || line[len - 6] != ' ')
		return 0;
	tz = line + len - 6;
	if (tz[1] != '+' && tz[1] != '-')
		return 0;
	for (p = tz + 2; p != line + len; p++)
		if (!isdigit((guchar)*p))
			return 0;
	return line + len - tz;
}

static gsize tz_with_colon_len(const char *line, gsize len)
{
	const char *tz, *p;

	if (len < 7 || line[len - 3] != ':')
		return 0;
	tz = line + len - 7;
	if (tz[0] != ' ' || (tz[1] != '+' && tz[1] != '-'))
		return 0;
	p = tz + 2;
	if (!isdigit((guchar)p[0]) || !isdigit((guchar)p[1]) || p[2] != ':' ||
	    !isdigit((guchar)p[3]) || !isdigit((guchar)p[4]))
		return 0;
	return line + len - tz;
}

static gsize date_len(const char *line, gsize len)
{
	const char *date, *p;

	if (len < 8 || line[len - 3] != '-')
		return 0;
	p = date = line + len - 8;
	if (!isdigit((guchar)p[0]) || !isdigit((guchar)p[1]) || p[2] != '-' ||
	    !isdigit((guchar)p[3]) || !isdigit((guchar)p[4]) || p[5] != '-' ||
	    !isdigit((guchar)p[6]) || !isdigit((guchar)p[7]))
		return 0;
	if (date - line >= 2 && isdigit((guchar)date[-1]) &&
	    isdigit((guchar)date[-2]))
		date -= 2;
	return line + len - date;
}

static gsize short_time_len(const char *line, gsize len)
{
	const char *time, *p;

	if (len < 9 || line[len - 3] != ':')
		return 0;
	p = time = line + len - 9;
	if (p[0] != ' ' || !isdigit((guchar)p[1]) || !isdigit((guchar)p[2]) ||
	    p[3] != ':' || !isdigit((guchar)p[4]) || !isdigit((guchar)p[5]) ||
	    p[6] != ':' || !isdigit((guchar)p[7]) || !isdigit((guchar)p[8]))
		return 0;
	return line + len - time;
}

static gsize fractional_time_len(const char *line, gsize len)
{
	const char *p;
	gsize n;

	if (!len || !isdigit((guchar)line[len - 1]))
		return 0;
	p = line + len - 1;
	while (p > line && isdigit((guchar)*p))
		p--;
	if (*p != '.')
		return 0;
	n = short_time_len(line, p - line);
	if (!n)
		return 0;
	return line + len - p + n;
}

static gsize trailing_spaces_len(const char *line, gsize len)
{
	const char *p;

	if (!len || line[len - 1] != ' ')
		return 0;
	p = line + len;
	while (p != line) {
		p--;
		if (*p != ' ')
			return line + len - (p + 1);
	}
	return len;
}

static gsize diff_timestamp_len(const char *line, gsize len)
{
	const char *end = line + len;
	gsize n;

	if (!len || !isdigit((guchar)end[-1]))
		return 0;
	n = sane_tz_len(line, end - line);
	if (!n)
		n = tz_with_colon_len(line, end - line);
	end -= n;
	n = short_time_len(line, end - line);
	if (!n)
		n = fractional_time_len(line, end - line);
	end -= n;
	n = date_len(line, end - line);
	if (!n)
		return 0;
	end -= n;
	if (end == line)
		return 0;
	if (end[-1] == '\t') {
		end--;
		return line + len - end;
	}
	if (end[-1] != ' ')
		return 0;
	end -= trailing_spaces_len(line, end - line);
	return line + len - end;
}

static char *find_name_traditional(const char *line, const char *def,
				   int p_value)
{
	gsize len, dlen;

	if (*line == '"') {
		char *name = find_name_gnu(line, p_value);

		if (name)
			return name;
	}
	len = find_eol(line) - line;
	dlen = diff_timestamp_len(line, len);
	if (!dlen)
		return find_name_common(line, def, p_value, NULL, TERM_TAB);
	len -= dlen;
	return find_name_common(line, def, p_value, line + len, 0);
}

/* git's guess_p_value without a prefix: 0 for a name without '/' */
static int guess_p_value(const char *nameline)
{
	g_autofree char *name = NULL;

	if (is_dev_null(nameline))
		return -1;
	name = find_name_traditional(nameline, NULL, 0);
	if (!name)
		return -1;
	return strchr(name, '/') ? -1 : 0;
}

/* git's has_epoch_timestamp: GNU diff marks creation and deletion with the
 * epoch as the timestamp after the last TAB */
static gboolean has_epoch_timestamp(const char *nameline)
{
	static GRegex *stamp;
	const char *timestamp = NULL, *cp;
	g_autoptr(GMatchInfo) m = NULL;
	g_autofree char *hh = NULL, *mm = NULL, *zone = NULL;
	g_autofree char *stamp_line = NULL;
	int epoch_hour, hour, minute, zoneoffset;

	for (cp = nameline; *cp && *cp != '\n'; cp++)
		if (*cp == '\t')
			timestamp = cp + 1;
	if (!timestamp)
		return FALSE;
	if (g_str_has_prefix(timestamp, "1969-12-31 "))
		epoch_hour = 24;
	else if (g_str_has_prefix(timestamp, "1970-01-01 "))
		epoch_hour = 0;
	else
		return FALSE;
	timestamp += 11;
	static gsize stamp_once;

	if (g_once_init_enter(&stamp_once)) {
		GRegex *re =
			g_regex_new("^([0-2][0-9]):([0-5][0-9]):00(\\.0+)? "
				    "([-+][0-2][0-9]:?[0-5][0-9])\n",
				    G_REGEX_OPTIMIZE, 0, NULL);

		stamp = re;
		g_once_init_leave(&stamp_once, 1);
	}
	stamp_line = g_strndup(timestamp, find_eol(timestamp) - timestamp + 1);
	if (!g_regex_match(stamp, stamp_line, 0, &m))
		return FALSE;
	hh = g_match_info_fetch(m, 1);
	mm = g_match_info_fetch(m, 2);
	zone = g_match_info_fetch(m, 4);
	hour = atoi(hh);
	minute = atoi(mm);
	if (strchr(zone, ':'))
		zoneoffset = atoi(zone + 1) * 60 + atoi(strchr(zone, ':') + 1);
	else {
		int z = atoi(zone + 1);

		zoneoffset = (z / 100) * 60 + (z % 100);
	}
	if (zone[0] == '-')
		zoneoffset = -zoneoffset;
	return hour * 60 + minute - zoneoffset == epoch_hour * 60;
}

/* git's parse_traditional_patch: names from the "---"/"+++" lines */
static gboolean parse_traditional_patch(struct parser *ps, const char *first,
					const char *second,
					struct file_diff *patch)
{
	char *name;

	first += 4;
	second += 4;
	if (!ps->p_value_known) {
		int p = guess_p_value(first);
		int q = guess_p_value(second);

		if (p < 0)
			p = q;
		if (0 <= p && p == q) {
			ps->p_value = p;
			ps->p_value_known = TRUE;
		}
	}
	if (is_dev_null(first)) {
		patch->is_new = 1;
		patch->is_delete = 0;
		name = find_name_traditional(second, NULL, ps->p_value);
		patch->new_name = name;
	} else if (is_dev_null(second)) {
		patch->is_new = 0;
		patch->is_delete = 1;
		name = find_name_traditional(first, NULL, ps->p_value);
		patch->old_name = name;
	} else {
		g_autofree char *first_name =
			find_name_traditional(first, NULL, ps->p_value);

		name = find_name_traditional(second, first_name, ps->p_value);
		if (has_epoch_timestamp(first)) {
			patch->is_new = 1;
			patch->is_delete = 0;
			patch->new_name = name;
		} else if (has_epoch_timestamp(second)) {
			patch->is_new = 0;
			patch->is_delete = 1;
			patch->old_name = name;
		} else {
			patch->old_name = name;
			patch->new_name = g_strdup(name);
		}
	}
	if (!name) {
		parser_fail(ps, "unable to find filename in patch at line %d",
			    ps->linenr);
		return FALSE;
	}
	return TRUE;
}

/* git's skip_tree_prefix: NULL for absolute paths */
static const char *skip_tree_prefix(int p_value, const char *line, int llen)
{
	int nslash, i;

	if (!p_value)
		return (llen && line[0] == '/') ? NULL : line;
	nslash = p_value;
	for (i = 0; i < llen; i++) {
		if (line[i] == '/' && --nslash <= 0)
			return i == 0 ? NULL : &line[i + 1];
	}
	return NULL;
}

/* git's git_header_name: the name on "diff --git a/N b/N" when both sides
 * are the same (mode changes, empty files) */
static char *git_header_name(int p_value, const char *line, int llen)
{
	const char *name, *second = NULL;
	gsize len, line_len;

	line += strlen("diff --git ");
	llen -= strlen("diff --git ");
	if (*line == '"') {
		const char *cp;
		g_autofree char *first = unquote_c_style(line, &second);
		g_autofree char *sp = NULL;

		if (!first)
			return NULL;
		cp = skip_tree_prefix(p_value, first, strlen(first));
		if (!cp)
			return NULL;
		memmove(first, cp, strlen(cp) + 1);
		while (second < line + llen && isspace((guchar)*second))
			second++;
		if (line + llen <= second)
			return NULL;
		if (*second == '"') {
			sp = unquote_c_style(second, NULL);
			if (!sp)
				return NULL;
			cp = skip_tree_prefix(p_value, sp, strlen(sp));
			if (!cp || strcmp(cp, first))
				return NULL;
			return g_steal_pointer(&first);
		}
		cp = skip_tree_prefix(p_value, second, line + llen - second);
		if (!cp)
			return NULL;
		/* the unquoted second name runs to the newline */
		if (line + llen - cp - 1 != (long)strlen(first) ||
		    memcmp(first, cp, strlen(first)))
			return NULL;
		return g_steal_pointer(&first);
	}
	name = skip_tree_prefix(p_value, line, llen);
	if (!name)
		return NULL;
	for (second = name; second < line + llen; second++) {
		if (*second == '"') {
			g_autofree char *sp = unquote_c_style(second, NULL);
			const char *np;

			if (!sp)
				return NULL;
			np = skip_tree_prefix(p_value, sp, strlen(sp));
			if (!np)
				return NULL;
			len = strlen(np);
			if (len < (gsize)(second - name) &&
			    !strncmp(np, name, len) &&
			    isspace((guchar)name[len]))
				return g_strdup(np);
			return NULL;
		}
	}
	second = memchr(name, '\n', line + llen - name);
	if (!second)
		return NULL;
	line_len = second - name;
	for (len = 0;; len++) {
		switch (name[len]) {
		default:
			continue;
		case '\n':
			return NULL;
		case '\t':
		case ' ':
			if (!name[len + 1])
				return NULL;
			second = skip_tree_prefix(p_value, name + len + 1,
						  line_len - (len + 1));
			if (!second)
				continue;
			if (second[len] == '\n' && !strncmp(name, second, len))
				return g_strndup(name, len);
		}
	}
}

static gboolean parse_mode_line(struct parser *ps, const char *line,
				guint *mode)
{
	char *end;

	*mode = strtoul(line, &end, 8);
	if (end == line || !isspace((guchar)*end)) {
		parser_fail(ps, "invalid mode on line %d", ps->linenr);
		return FALSE;
	}
	return TRUE;
}

/* git's gitdiff_verify_name */
static gboolean verify_name(struct parser *ps, const char *line, int isnull,
			    char **name, const char *side)
{
	if (!*name && !isnull) {
		*name = find_name(line, NULL, ps->p_value, TERM_TAB);
		return TRUE;
	}
	if (*name) {
		g_autofree char *another = NULL;

		if (isnull) {
			parser_fail(ps,
				    "bad git-diff - expected /dev/null, got %s "
				    "on line %d",
				    *name, ps->linenr);
			return FALSE;
		}
		another = find_name(line, NULL, ps->p_value, TERM_TAB);
		if (!another || strcmp(another, *name)) {
			parser_fail(ps,
				    "bad git-diff - inconsistent %s filename "
				    "on line %d",
				    side, ps->linenr);
			return FALSE;
		}
	} else if (!is_dev_null(line)) {
		parser_fail(ps, "bad git-diff - expected /dev/null on line %d",
			    ps->linenr);
		return FALSE;
	}
	return TRUE;
}

/* git's gitdiff_index: "index <old>..<new>[ <mode>]" */
static gboolean gitdiff_index(struct parser *ps, const char *line,
			      struct file_diff *patch)
{
	const char *ptr, *eol;
	gsize len;

	ptr = strchr(line, '.');
	if (!ptr || ptr[1] != '.' || GITOID_HEXSZ < ptr - line)
		return TRUE;
	len = ptr - line;
	memcpy(patch->old_oid, line, len);
	patch->old_oid[len] = 0;
	line = ptr + 2;
	ptr = strchr(line, ' ');
	eol = find_eol(line);
	if (!ptr || eol < ptr)
		ptr = eol;
	len = ptr - line;
	if (GITOID_HEXSZ < len)
		return TRUE;
	memcpy(patch->new_oid, line, len);
	patch->new_oid[len] = 0;
	if (*ptr == ' ')
		return parse_mode_line(ps, ptr + 1, &patch->old_mode);
	return TRUE;
}

/* git's parse_git_diff_header.  Returns the header size, or -1 on error
 * (ps->error set). */
static long parse_git_diff_header(struct parser *ps, const char *line,
				  gsize len, gsize size,
				  struct file_diff *patch)
{
	gsize offset;
	int extensions_line = 0;

	patch->is_new = 0;
	patch->is_delete = 0;
	patch->def_name = git_header_name(ps->p_value, line, len);
	line += len;
	size -= len;
	ps->linenr++;
	for (offset = len; size > 0;
	     offset += len, size -= len, line += len, ps->linenr++) {
		g_autofree char *l = NULL;
		const char *arg;
		int extensions;

		len = linelen(line, size);
		if (!len || line[len - 1] != '\n')
			break;
		l = g_strndup(line, len);
		if (g_str_has_prefix(l, "@@ -"))
			break;
		if ((arg = starts(l, len, "--- ") ? l + 4 : NULL)) {
			if (!verify_name(ps, arg, patch->is_new,
					 &patch->old_name, "old"))
				return -1;
		} else if ((arg = starts(l, len, "+++ ") ? l + 4 : NULL)) {
			if (!verify_name(ps, arg, patch->is_delete,
					 &patch->new_name, "new"))
				return -1;
		} else if (starts(l, len, "old mode ")) {
			if (!parse_mode_line(ps, l + 9, &patch->old_mode))
				return -1;
		} else if (starts(l, len, "new mode ")) {
			if (!parse_mode_line(ps, l + 9, &patch->new_mode))
				return -1;
		} else if (starts(l, len, "deleted file mode ")) {
			patch->is_delete = 1;
			g_free(patch->old_name);
			patch->old_name = g_strdup(patch->def_name);
			if (!parse_mode_line(ps, l + 18, &patch->old_mode))
				return -1;
		} else if (starts(l, len, "new file mode ")) {
			patch->is_new = 1;
			g_free(patch->new_name);
			patch->new_name = g_strdup(patch->def_name);
			if (!parse_mode_line(ps, l + 14, &patch->new_mode))
				return -1;
		} else if (starts(l, len, "copy from ") ||
			   starts(l, len, "copy to ") ||
			   starts(l, len, "rename old ") ||
			   starts(l, len, "rename new ") ||
			   starts(l, len, "rename from ") ||
			   starts(l, len, "rename to ")) {
			gboolean copy = l[0] == 'c';
			gboolean src = strstr(l, " from ") ||
				       strstr(l, " old ");
			const char *val = strchr(strchr(l, ' ') + 1, ' ') + 1;
			char **slot = src ? &patch->old_name : &patch->new_name;

			if (copy)
				patch->is_copy = TRUE;
			else
				patch->is_rename = TRUE;
			g_free(*slot);
			*slot = find_name(val, NULL,
					  ps->p_value ? ps->p_value - 1 : 0, 0);
		} else if (starts(l, len, "similarity index ") ||
			   starts(l, len, "dissimilarity index ")) {
			/* scores are informational */
		} else if (starts(l, len, "index ")) {
			if (!gitdiff_index(ps, l + 6, patch))
				return -1;
		} else {
			/* git's gitdiff_unrecognized ends the header */
			break;
		}
		extensions = (patch->is_delete == 1) + (patch->is_new == 1) +
			     (patch->is_rename == 1) + (patch->is_copy == 1);
		if (extensions > 1) {
			parser_fail(ps, "inconsistent header lines %d and %d",
				    extensions_line, ps->linenr);
			return -1;
		}
		if (extensions && !extensions_line)
			extensions_line = ps->linenr;
	}
	if (!patch->old_name && !patch->new_name) {
		if (!patch->def_name) {
			parser_fail(
				ps,
				"git diff header lacks filename information "
				"when removing %d leading pathname "
				"component%s (line %d)",
				ps->p_value, ps->p_value == 1 ? "" : "s",
				ps->linenr);
			return -1;
		}
		patch->old_name = g_strdup(patch->def_name);
		patch->new_name = g_strdup(patch->def_name);
	}
	if ((!patch->new_name && !patch->is_delete) ||
	    (!patch->old_name && !patch->is_new)) {
		parser_fail(ps,
			    "git diff header lacks filename information "
			    "(line %d)",
			    ps->linenr);
		return -1;
	}
	return offset;
}

static int parse_num(const char *line, unsigned long *p)
{
	char *ptr;

	if (!isdigit((guchar)*line))
		return 0;
	*p = strtoul(line, &ptr, 10);
	return ptr - line;
}

static int parse_range(const char *line, int len, int offset,
		       const char *expect, unsigned long *p1, unsigned long *p2)
{
	int digits, ex;

	if (offset < 0 || offset >= len)
		return -1;
	line += offset;
	len -= offset;
	digits = parse_num(line, p1);
	if (!digits)
		return -1;
	offset += digits;
	line += digits;
	len -= digits;
	*p2 = 1;
	if (*line == ',') {
		digits = parse_num(line + 1, p2);
		if (!digits)
			return -1;
		offset += digits + 1;
		line += digits + 1;
		len -= digits + 1;
	}
	ex = strlen(expect);
	if (ex > len || memcmp(line, expect, ex))
		return -1;
	return offset + ex;
}

static int parse_fragment_header(const char *line, int len, struct hunk *h)
{
	int offset;

	if (!len || line[len - 1] != '\n')
		return -1;
	offset = parse_range(line, len, 4, " +", &h->oldpos, &h->oldlines);
	return parse_range(line, len, offset, " @@", &h->newpos, &h->newlines);
}

/* git's find_header: the offset of the next file diff header and its size
 * in *@hdrsize; -1 when there is none, -128 on error */
static long find_header(struct parser *ps, const char *line, gsize size,
			gsize *hdrsize, struct file_diff *patch)
{
	gsize offset, len;

	patch->is_rename = patch->is_copy = FALSE;
	patch->is_new = patch->is_delete = -1;
	patch->old_mode = patch->new_mode = 0;
	for (offset = 0; size > 0;
	     offset += len, size -= len, line += len, ps->linenr++) {
		gsize nextlen;

		len = linelen(line, size);
		if (!len)
			break;
		if (len < 6)
			continue;
		/* hunks without a header mean a broken patch */
		if (!memcmp("@@ -", line, 4)) {
			struct hunk dummy;

			if (parse_fragment_header(line, len, &dummy) < 0)
				continue;
			parser_fail(ps,
				    "patch fragment without header at line "
				    "%d: %.*s",
				    ps->linenr, (int)len - 1, line);
			return -128;
		}
		if (size < len + 6)
			break;
		if (!memcmp("diff --git ", line, 11)) {
			long hdr = parse_git_diff_header(ps, line, len, size,
							 patch);

			if (hdr < 0)
				return -128;
			if ((gsize)hdr <= len)
				continue;
			*hdrsize = hdr;
			return offset;
		}
		if (memcmp("--- ", line, 4) || memcmp("+++ ", line + len, 4))
			continue;
		nextlen = linelen(line + len, size - len);
		if (size < nextlen + 14 ||
		    memcmp("@@ -", line + len + nextlen, 4))
			continue;
		{
			g_autofree char *first = g_strndup(line, len);
			g_autofree char *second =
				g_strndup(line + len, nextlen);

			if (!parse_traditional_patch(ps, first, second, patch))
				return -128;
		}
		*hdrsize = len + nextlen;
		ps->linenr += 2;
		return offset;
	}
	return -1;
}

/* git's parse_fragment: the size of the hunk text, -1 when corrupt */
static long parse_fragment(struct parser *ps, const char *line, gsize size,
			   struct file_diff *patch, struct hunk *h)
{
	int added = 0, deleted = 0;
	gsize len = linelen(line, size);
	long offset;
	unsigned long oldlines, newlines, leading = 0, trailing = 0;

	offset = parse_fragment_header(line, len, h);
	if (offset < 0)
		return -1;
	oldlines = h->oldlines;
	newlines = h->newlines;
	line += len;
	size -= len;
	ps->linenr++;
	for (offset = len; size > 0;
	     offset += len, size -= len, line += len, ps->linenr++) {
		if (!oldlines && !newlines)
			break;
		len = linelen(line, size);
		if (!len || line[len - 1] != '\n')
			return -1;
		switch (*line) {
		default:
			return -1;
		case '\n':
		case ' ':
			if (!oldlines || !newlines)
				return -1;
			oldlines--;
			newlines--;
			if (!deleted && !added)
				leading++;
			trailing++;
			break;
		case '-':
			if (!oldlines)
				return -1;
			deleted++;
			oldlines--;
			trailing = 0;
			break;
		case '+':
			if (!newlines)
				return -1;
			added++;
			newlines--;
			trailing = 0;
			break;
		case '\\':
			if (len < 12 || memcmp(line, "\\ ", 2))
				return -1;
			break;
		}
	}
	if (oldlines || newlines)
		return -1;
	if (!deleted && !added)
		return -1;
	h->leading = leading;
	h->trailing = trailing;
	/* a final incomplete line is not counted in the loop above */
	if (12 < size && !memcmp(line, "\\ ", 2))
		offset += linelen(line, size);
	patch->lines_added += added;
	patch->lines_deleted += deleted;
	if (0 < patch->is_new && h->oldlines) {
		parser_fail(ps, "new file depends on old contents");
		return -2;
	}
	if (0 < patch->is_delete && h->newlines) {
		parser_fail(ps, "deleted file still has contents");
		return -2;
	}
	return offset;
}

/* git's parse_single_patch: the hunks of one file diff */
static long parse_single_patch(struct parser *ps, const char *line, gsize size,
			       struct file_diff *patch)
{
	gsize offset = 0;
	unsigned long oldlines = 0, newlines = 0;

	while (size > 4 && !memcmp(line, "@@ -", 4)) {
		struct hunk h = { 0 };
		long len;

		len = parse_fragment(ps, line, size, patch, &h);
		if (len <= 0) {
			if (len == -1)
				parser_fail(ps, "corrupt patch at line %d",
					    ps->linenr);
			return -1;
		}
		h.text = line;
		h.size = len;
		oldlines += h.oldlines;
		newlines += h.newlines;
		g_array_append_val(patch->hunks, h);
		offset += len;
		line += len;
		size -= len;
	}
	/* see git: something removed cannot be a creation, something added
	 * cannot be a deletion; more than one hunk is neither */
	if (patch->is_new < 0 && (oldlines || patch->hunks->len > 1))
		patch->is_new = 0;
	if (patch->is_delete < 0 && (newlines || patch->hunks->len > 1))
		patch->is_delete = 0;
	if (0 < patch->is_new && oldlines) {
		parser_fail(ps, "new file %s depends on old contents",
			    patch->new_name);
		return -1;
	}
	if (0 < patch->is_delete && newlines) {
		parser_fail(ps, "deleted file %s still has contents",
			    patch->old_name);
		return -1;
	}
	return offset;
}

static gboolean metadata_changes(const struct file_diff *p)
{
	return p->is_rename || p->is_copy || p->is_new > 0 || p->is_delete ||
	       (p->old_mode && p->new_mode && p->old_mode != p->new_mode);
}

/* git's parse_chunk: one file diff; returns the bytes consumed, -1 when
 * there is no further header, -128 on error */
static long parse_chunk(struct parser *ps, const char *buf, gsize size,
			struct file_diff *patch)
{
	gsize hdrsize = 0;
	long offset = find_header(ps, buf, size, &hdrsize, patch);
	long patchsize;

	if (offset < 0)
		return offset;
	patchsize = parse_single_patch(ps, buf + offset + hdrsize,
				       size - offset - hdrsize, patch);
	if (patchsize < 0)
		return -128;
	if (!patchsize) {
		gsize hd = hdrsize + offset;
		gsize llen = linelen(buf + hd, size - hd);

		if (llen == strlen("GIT binary patch\n") &&
		    !memcmp("GIT binary patch\n", buf + hd, llen)) {
			gsize used = 0;
			g_autofree char *err = NULL;

			ps->linenr++;
			patch->binary = apply_binary_parse(
				buf + hd + llen, size - hd - llen, &used, &err);
			if (!patch->binary) {
				parser_fail(ps, "%s at line %d", err,
					    ps->linenr);
				return -128;
			}
			patch->is_binary = TRUE;
			patchsize = used + llen;
		} else if (llen >= 8 &&
			   !memcmp(" differ\n", buf + hd + llen - 8, 8) &&
			   (starts(buf + hd, size - hd, "Binary files ") ||
			    starts(buf + hd, size - hd, "Files "))) {
			ps->linenr++;
			patch->is_binary = TRUE;
			patchsize = llen;
		}
		if (!patch->is_binary && !metadata_changes(patch)) {
			parser_fail(ps, "patch with only garbage at line %d",
				    ps->linenr);
			return -128;
		}
	}
	return offset + hdrsize + patchsize;
}

/* Parse every file diff of @text: NULL with *@why set when git apply would
 * refuse the input. */
static GPtrArray *parse_patch(const char *text, gsize len, char **why)
{
	g_autoptr(GPtrArray) list =
		g_ptr_array_new_with_free_func((GDestroyNotify)file_diff_free);
	struct parser ps = { .p_value = 1, .linenr = 1 };
	gsize offset = 0;

	while (offset < len) {
		g_autoptr(file_diff) patch = g_new0(struct file_diff, 1);
		long nr;

		patch->hunks = g_array_new(FALSE, TRUE, sizeof(struct hunk));
		nr = parse_chunk(&ps, text + offset, len - offset, patch);
		if (nr < 0) {
			if (nr == -128) {
				*why = ps.error ? ps.error :
						  g_strdup("corrupt patch");
				return NULL;
			}
			break;
		}
		g_ptr_array_add(list, g_steal_pointer(&patch));
		offset += nr;
	}
	g_free(ps.error);
	if (!list->len) {
		*why = g_strdup("no valid patches in input");
		return NULL;
	}
	return g_steal_pointer(&list);
}

void apply_file_free(struct apply_file *f)
{
	if (!f)
		return;
	g_free(f->old_path);
	g_free(f->new_path);
	g_free(f);
}

GPtrArray *apply_parse_files(const char *patch, gsize len, GError **error)
{
	g_autofree char *why = NULL;
	g_autoptr(GPtrArray) diffs = parse_patch(patch, len, &why);
	GPtrArray *out;

	if (!diffs) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
			    why);
		return NULL;
	}
	out = g_ptr_array_new_with_free_func((GDestroyNotify)apply_file_free);
	for (guint i = 0; i < diffs->len; i++) {
		const struct file_diff *d = diffs->pdata[i];
		struct apply_file *f = g_new0(struct apply_file, 1);

		f->is_new = d->is_new > 0;
		f->is_delete = d->is_delete > 0;
		f->is_rename = d->is_rename;
		f->is_copy = d->is_copy;
		f->is_binary = d->is_binary;
		f->old_path = f->is_new ? NULL :
					  g_strdup(d->old_name ? d->old_name :
								 d->def_name);
		f->new_path = f->is_delete ?
				      NULL :
				      g_strdup(d->new_name ? d->new_name :
							     d->def_name);
		g_strlcpy(f->old_blob, d->old_oid, sizeof(f->old_blob));
		g_strlcpy(f->new_blob, d->new_oid, sizeof(f->new_blob));
		g_ptr_array_add(out, f);
	}
	return out;
}

/* ---- images and hunk matching (git's struct image, find_pos) ---- */

#define LINE_PATCHED 1

struct line {
	gsize len;
	guint flag;
};

struct image {
	GString *buf;
	GArray *lines; /* struct line */
};

static void image_index(struct image *img)
{
	const char *cp = img->buf->str, *ep = cp + img->buf->len;

	g_array_set_size(img->lines, 0);
	while (cp < ep) {
		struct line l = { linelen(cp, ep - cp), 0 };

		g_array_append_val(img->lines, l);
		cp += l.len;
	}
}

static void image_init(struct image *img, const char *data, gsize len)
{
	img->buf = g_string_new_len(data, len);
	img->lines = g_array_new(FALSE, FALSE, sizeof(struct line));
	image_index(img);
}

static void image_clear(struct image *img)
{
	if (img->buf)
		g_string_free(img->buf, TRUE);
	img->buf = NULL;
	g_clear_pointer(&img->lines, g_array_unref);
}

#define IMG_LINE(img, i) (g_array_index((img)->lines, struct line, (i)))

/* The preimage or postimage of a hunk: text and its line lengths, with a
 * window [first, first + nr) that context reduction would narrow. */
struct side {
	GString *buf;
	GArray *lens; /* gsize */
};

/* git's match_fragment for exact matching (git am's default whitespace
 * handling never corrects or ignores whitespace) */
static gboolean match_fragment(const struct image *img, const struct side *pre,
			       gsize current, gsize current_lno,
			       gboolean match_beginning, gboolean match_end)
{
	gsize nr = pre->lens->len, i;

	if (nr + current_lno > img->lines->len)
		return FALSE;
	if (match_end && nr + current_lno != img->lines->len)
		return FALSE;
	if (match_beginning && current_lno)
		return FALSE;
	for (i = 0; i < nr; i++)
		if ((IMG_LINE(img, current_lno + i).flag & LINE_PATCHED) ||
		    IMG_LINE(img, current_lno + i).len !=
			    g_array_index(pre->lens, gsize, i))
			return FALSE;
	if (match_end ? current + pre->buf->len != img->buf->len :
			current + pre->buf->len > img->buf->len)
		return FALSE;
	return !memcmp(img->buf->str + current, pre->buf->str, pre->buf->len);
}

/* git's find_pos: try @line, then line+1, line-1, line+2, ... */
static long find_pos(const struct image *img, const struct side *pre, long line,
		     gboolean match_beginning, gboolean match_end)
{
	gsize nr = img->lines->len;
	gsize backwards, forwards, current;
	gsize backwards_lno, forwards_lno, current_lno;
	long i;

	if (match_beginning)
		line = 0;
	else if (match_end)
		line = (long)nr - (long)pre->lens->len;
	if (line < 0 || (gsize)line > nr)
		line = nr;
	current = 0;
	for (i = 0; i < line; i++)
		current += IMG_LINE(img, i).len;
	backwards = forwards = current;
	backwards_lno = forwards_lno = current_lno = line;
	for (i = 0;; i++) {
		if (match_fragment(img, pre, current, current_lno,
				   match_beginning, match_end))
			return current_lno;
again:
		if (backwards_lno == 0 && forwards_lno == nr)
			break;
		if (i & 1) {
			if (backwards_lno == 0) {
				i++;
				goto again;
			}
			backwards_lno--;
			backwards -= IMG_LINE(img, backwards_lno).len;
			current = backwards;
			current_lno = backwards_lno;
		} else {
			if (forwards_lno == nr) {
				i++;
				goto again;
			}
			forwards += IMG_LINE(img, forwards_lno).len;
			forwards_lno++;
			current = forwards;
			current_lno = forwards_lno;
		}
	}
	return -1;
}

/* git's update_image: replace the preimage at @pos by the postimage and
 * mark its lines as patched so later hunks cannot match them */
static void update_image(struct image *img, gsize pos, const struct side *pre,
			 const struct side *post)
{
	gsize applied_at = 0, remove_count = 0, i;
	struct line *newlines;

	for (i = 0; i < pos; i++)
		applied_at += IMG_LINE(img, i).len;
	for (i = 0; i < pre->lens->len; i++)
		remove_count += IMG_LINE(img, pos + i).len;
	g_string_erase(img->buf, applied_at, remove_count);
	g_string_insert_len(img->buf, applied_at, post->buf->str,
			    post->buf->len);
	g_array_remove_range(img->lines, pos, pre->lens->len);
	newlines = g_new(struct line, post->lens->len ? post->lens->len : 1);
	for (i = 0; i < post->lens->len; i++) {
		newlines[i].len = g_array_index(post->lens, gsize, i);
		newlines[i].flag = LINE_PATCHED;
	}
	g_array_insert_vals(img->lines, pos, newlines, post->lens->len);
	g_free(newlines);
}

static void side_add(struct side *s, const char *data, gsize len)
{
	g_string_append_len(s->buf, data, len);
	g_array_append_val(s->lens, len);
}

static void side_clear(struct side *s)
{
	g_string_free(s->buf, TRUE);
	g_array_unref(s->lens);
}

/* Quote one line of a hunk for a failure report. */
static char *quote_line(const char *s, gsize len)
{
	g_autofree char *l = NULL;

	if (len && s[len - 1] == '\n')
		len--;
	if (len > 72)
		len = 72;
	l = g_strndup(s, len);
	return g_strescape(l, NULL);
}

/* Why the hunk did not match at its stated line: the first preimage line
 * that differs there. */
static char *describe_mismatch(const struct image *img, const struct side *pre,
			       long line)
{
	gsize off = 0, preoff = 0, i;

	if (line < 0)
		line = 0;
	if ((gsize)line > img->lines->len)
		line = img->lines->len;
	for (i = 0; i < (gsize)line; i++)
		off += IMG_LINE(img, i).len;
	for (i = 0; i < pre->lens->len; i++) {
		gsize plen = g_array_index(pre->lens, gsize, i);
		g_autofree char *want =
			quote_line(pre->buf->str + preoff, plen);

		if (line + i >= img->lines->len)
			return g_strdup_printf(
				"expected \"%s\" at line %zu, past the end of "
				"the file",
				want, line + i + 1);
		{
			gsize ilen = IMG_LINE(img, line + i).len;

			if (ilen != plen ||
			    memcmp(img->buf->str + off, pre->buf->str + preoff,
				   plen)) {
				g_autofree char *got =
					quote_line(img->buf->str + off, ilen);

				return g_strdup_printf(
					"expected \"%s\" at line %zu, found "
					"\"%s\"",
					want, line + i + 1, got);
			}
			off += ilen;
		}
		preoff += plen;
	}
	return g_strdup("context matches but not at the required start or "
			"end of the file");
}

/* git's apply_one_fragment.  Returns NULL when applied, else why not. */
static char *apply_one_hunk(struct image *img, const struct hunk *h, int nth)
{
	struct side pre = { g_string_new(NULL),
			    g_array_new(FALSE, FALSE, sizeof(gsize)) };
	struct side post = { g_string_new(NULL),
			     g_array_new(FALSE, FALSE, sizeof(gsize)) };
	const char *patch = h->text;
	gsize size = h->size;
	gboolean match_beginning, match_end;
	long pos, applied_pos;
	char *why = NULL;

	while (size > 0) {
		gsize len = linelen(patch, size);
		gsize plen;

		if (!len)
			break;
		plen = len - 1;
		/* a line followed by "\ No newline" loses its newline */
		if (len < size && patch[len] == '\\')
			plen--;
		switch (*patch) {
		case '\n':
			if ((long)len - 1 > (long)plen)
				break;
			side_add(&pre, "\n", 1);
			side_add(&post, "\n", 1);
			break;
		case ' ':
			side_add(&pre, patch + 1, plen);
			side_add(&post, patch + 1, plen);
			break;
		case '-':
			side_add(&pre, patch + 1, plen);
			break;
		case '+':
			side_add(&post, patch + 1, plen);
			break;
		case '@':
		case '\\':
			break;
		default:
			why = g_strdup_printf("invalid start of line: '%c'",
					      *patch);
			goto out;
		}
		patch += len;
		size -= len;
	}
	/* git: a hunk at the start (-0,0 or -1,L) must match at the
	 * beginning, one without trailing context at the end */
	match_beginning = !h->oldpos || h->oldpos == 1;
	match_end = !h->trailing;
	pos = h->newpos ? (long)h->newpos - 1 : 0;
	applied_pos = find_pos(img, &pre, pos, match_beginning, match_end);
	if (applied_pos < 0) {
		g_autofree char *header =
			g_strndup(h->text, linelen(h->text, h->size) - 1);
		g_autofree char *detail = describe_mismatch(img, &pre, pos);

		why = g_strdup_printf("hunk #%d %s does not apply: %s", nth,
				      header, detail);
		goto out;
	}
	update_image(img, applied_pos, &pre, &post);
out:
	side_clear(&pre);
	side_clear(&post);
	return why;
}

/* ---- paths, safety and the tree ---- */

enum path_state {
	PATH_RESULT, /* content and mode below */
	PATH_WAS_DELETED, /* removed or renamed away by this patch */
	PATH_TO_BE_DELETED, /* a later file diff removes it */
};

struct path_entry {
	enum path_state state;
	GBytes *content;
	guint mode;
};

static void path_entry_free(struct path_entry *e)
{
	if (!e)
		return;
	g_clear_pointer(&e->content, g_bytes_unref);
	g_free(e);
}

struct applier {
	struct git_repository *repo;
	struct git_tree *base;
	const struct apply_options *opts;
	GHashTable *paths; /* name -> struct path_entry */
	gboolean merged;
};

/* git's is_ntfs_dotgit (path.c), as core.protectNTFS applies it and as
 * libgit2 refuses tree entries: ".git" followed only by spaces and dots,
 * or by an NTFS stream (":"), and the short name "git~1". */
static gboolean component_is_dotgit(const char *c)
{
	gsize n = strlen(c);

	if (!g_ascii_strcasecmp(c, "git~1"))
		return TRUE;
	if (n < 4 || g_ascii_strncasecmp(c, ".git", 4))
		return FALSE;
	if (c[4] == ':')
		return TRUE;
	for (gsize i = 4; i < n; i++)
		if (c[i] != ' ' && c[i] != '.')
			return FALSE;
	return TRUE;
}

/* git's verify_path and die_on_unsafe_path, stricter: no absolute paths,
 * no empty, "." or ".." components, no ".git" component in any case or
 * NTFS spelling (libgit2 refuses those in a tree entry). */
static gboolean path_is_safe(const char *name)
{
	g_auto(GStrv) parts = NULL;

	if (!name || !*name || name[0] == '/' || name[strlen(name) - 1] == '/')
		return FALSE;
	parts = g_strsplit(name, "/", -1);
	for (char **p = parts; *p; p++) {
		if (!**p || !strcmp(*p, ".") || !strcmp(*p, "..") ||
		    component_is_dotgit(*p))
			return FALSE;
	}
	return TRUE;
}

/* Would the symlink @target, stored at @path, point outside the tree? */
static gboolean symlink_escapes(const char *path, const char *target, gsize len)
{
	g_autofree char *t = g_strndup(target, len);
	g_auto(GStrv) parts = NULL;
	int depth = 0;

	if (!len || t[0] == '/' || memchr(target, '\0', len))
		return TRUE;
	for (const char *c = path; *c; c++)
		if (*c == '/')
			depth++;
	parts = g_strsplit(t, "/", -1);
	for (char **p = parts; *p; p++) {
		if (!strcmp(*p, ".."))
			depth--;
		else if (**p && strcmp(*p, "."))
			depth++;
		if (depth < 0)
			return TRUE;
		if (!g_ascii_strcasecmp(*p, ".git"))
			return TRUE;
	}
	return FALSE;
}

/* The entry for @path in the base tree: *@found, and the entry in @out
 * when found. */
static gboolean base_entry(struct applier *ap, const char *path,
			   gboolean *found, struct lg2repo_entry *out,
			   GError **error)
{
	int rc = lg2repo_tree_entry(ap->base, path, out);

	*found = rc > 0;
	if (rc < 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot look up '%s': %s", path,
			    lg2repo_last_error());
		return FALSE;
	}
	return TRUE;
}

/* git's path_is_beyond_symlink: is a leading directory of @path a
 * symbolic link, in this patch's results or in the base tree? */
static gboolean beyond_symlink(struct applier *ap, const char *path,
			       gboolean *out, GError **error)
{
	g_autofree char *dir = g_strdup(path);
	char *slash;

	*out = FALSE;
	while ((slash = strrchr(dir, '/'))) {
		struct path_entry *e;
		struct lg2repo_entry te;
		gboolean found;

		*slash = '\0';
		e = g_hash_table_lookup(ap->paths, dir);
		if (e && e->state == PATH_RESULT) {
			if ((e->mode & MODE_TYPE) == MODE_LINK)
				*out = TRUE;
			continue;
		}
		if (!base_entry(ap, dir, &found, &te, error))
			return FALSE;
		if (found && te.mode == GITMODE_LINK)
			*out = TRUE;
		if (*out)
			return TRUE;
	}
	return TRUE;
}

/* Read @path from the base tree: its content and mode.  Returns FALSE with
 * @error set for repository errors; *@found tells whether it exists as a
 * file (blob or symlink), *@gitlink whether it is a submodule. */
static gboolean read_base(struct applier *ap, const char *path,
			  GBytes **content, guint *mode, gboolean *found,
			  gboolean *gitlink, GError **error)
{
	struct lg2repo_entry te;
	gboolean in_base;

	*found = *gitlink = FALSE;
	if (!base_entry(ap, path, &in_base, &te, error))
		return FALSE;
	if (!in_base)
		return TRUE;
	*mode = te.mode;
	if (*mode == GITMODE_COMMIT) {
		*gitlink = TRUE;
		return TRUE;
	}
	if (te.type != GITOBJ_BLOB)
		return TRUE;
	*content = lg2repo_blob(ap->repo, &te.oid);
	if (!*content) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot read blob of '%s': %s", path,
			    lg2repo_last_error());
		return FALSE;
	}
	*found = TRUE;
	return TRUE;
}

/* Linux's MAXSYMLINKS: more links than this in one lookup is a loop */
#define LINK_MAX_HOPS 40

/* Push the components of @text onto @todo so that the first is on top. */
static void push_components(GPtrArray *todo, const char *text, gsize len)
{
	g_autofree char *t = g_strndup(text, len);
	g_auto(GStrv) parts = g_strsplit(t, "/", -1);

	for (guint n = g_strv_length(parts); n > 0; n--)
		g_ptr_array_add(todo, g_strdup(parts[n - 1]));
}

/* Does the symlink at @path, resolved through the resulting tree (this
 * patch's results over the base tree, following every symlink met on the
 * way, as the kernel would once it is checked out), lead outside the
 * tree or into ".git"?  Each link's text judged alone is not enough:
 * "h/L -> ../../.." and "h/B -> L/../etc/passwd". */
static gboolean link_escapes(struct applier *ap, const char *path,
			     gboolean *out, GError **error)
{
	g_autoptr(GPtrArray) dir = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) todo = g_ptr_array_new_with_free_func(g_free);
	int hops = 0;

	*out = TRUE;
	push_components(todo, path, strlen(path));
	while (todo->len) {
		g_autofree char *c =
			g_ptr_array_steal_index(todo, todo->len - 1);
		g_autoptr(GBytes) content = NULL;
		g_autofree char *joined = NULL;
		struct path_entry *e;
		gboolean link = FALSE;

		if (!*c || !strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			if (!dir->len)
				return TRUE;
			g_ptr_array_remove_index(dir, dir->len - 1);
			continue;
		}
		if (component_is_dotgit(c))
			return TRUE;
		g_ptr_array_add(dir, g_steal_pointer(&c));
		g_ptr_array_add(dir, NULL);
		joined = g_strjoinv("/", (char **)dir->pdata);
		g_ptr_array_remove_index(dir, dir->len - 1);
		e = g_hash_table_lookup(ap->paths, joined);
		if (e) {
			if (e->state == PATH_RESULT &&
			    (e->mode & MODE_TYPE) == MODE_LINK) {
				link = TRUE;
				content = g_bytes_ref(e->content);
			}
		} else {
			guint mode = 0;
			gboolean found, gitlink;

			if (!read_base(ap, joined, &content, &mode, &found,
				       &gitlink, error))
				return FALSE;
			link = found && mode == GITMODE_LINK;
		}
		if (link) {
			gsize len;
			const char *t = g_bytes_get_data(content, &len);

			if (++hops > LINK_MAX_HOPS || !len || t[0] == '/' ||
			    memchr(t, '\0', len))
				return TRUE;
			/* the link's text is read from its directory */
			g_ptr_array_remove_index(dir, dir->len - 1);
			push_components(todo, t, len);
		}
	}
	*out = FALSE;
	return TRUE;
}

/* Apply the text hunks of @p to @data; NULL with *@why set on failure. */
static GBytes *apply_hunks(const struct file_diff *p, GBytes *data, char **why)
{
	struct image img;
	gsize len;
	const char *raw = g_bytes_get_data(data, &len);

	image_init(&img, raw, len);
	for (guint i = 0; i < p->hunks->len; i++) {
		*why = apply_one_hunk(
			&img, &g_array_index(p->hunks, struct hunk, i), i + 1);
		if (*why) {
			image_clear(&img);
			return NULL;
		}
	}
	len = img.buf->len;
	g_array_unref(img.lines);
	return g_bytes_new_take(g_string_free(img.buf, FALSE), len);
}

/* git's apply_binary: the postimage of a binary file diff */
static GBytes *apply_binary(struct applier *ap, const struct file_diff *p,
			    GBytes *data, char **why)
{
	const char *name = p->old_name ? p->old_name : p->new_name;
	struct gitoid oid, want;
	gsize len;
	const char *raw = g_bytes_get_data(data, &len);
	GBytes *result;

	if (strlen(p->old_oid) != GITOID_HEXSZ ||
	    strlen(p->new_oid) != GITOID_HEXSZ ||
	    !gitoid_from_hex(&oid, p->old_oid) ||
	    !gitoid_from_hex(&want, p->new_oid)) {
		*why = g_strdup_printf("cannot apply binary patch to '%s' "
				       "without full index line",
				       name);
		return NULL;
	}
	if (p->old_name) {
		lg2write_blob_id(raw, len, &oid);
		if (strcmp(gitoid_hex(&oid), p->old_oid)) {
			*why = g_strdup_printf(
				"the patch applies to '%s' (%s), which does "
				"not match the current contents",
				name, p->old_oid);
			return NULL;
		}
	} else if (len) {
		*why = g_strdup_printf("the patch applies to an empty '%s' but "
				       "it is not empty",
				       name);
		return NULL;
	}
	if (gitoid_is_zero(&want))
		return g_bytes_new(NULL, 0);
	result = lg2repo_blob(ap->repo, &want);
	if (result)
		return result;
	if (!p->binary) {
		*why = g_strdup_printf("missing binary patch data for '%s'",
				       name);
		return NULL;
	}
	result = apply_binary_hunk_apply(p->binary, data);
	if (!result) {
		*why = g_strdup_printf("binary patch does not apply to '%s'",
				       name);
		return NULL;
	}
	raw = g_bytes_get_data(result, &len);
	lg2write_blob_id(raw, len, &oid);
	if (!gitoid_equal(&oid, &want)) {
		*why = g_strdup_printf("binary patch to '%s' creates incorrect "
				       "result (expecting %s, got %s)",
				       name, p->new_oid, gitoid_hex(&oid));
		g_bytes_unref(result);
		return NULL;
	}
	return result;
}

/* The three-way fallback of `git am -3` for one file: apply the hunks to
 * the preimage blob named on the index line and merge the result into
 * @ours.  NULL with *@why set when that is not possible or conflicts. */
static GBytes *apply_threeway(struct applier *ap, const struct file_diff *p,
			      GBytes *ours, char **why)
{
	struct gitoid prefix;
	gsize plen = strlen(p->old_oid);
	g_autoptr(GBytes) base = NULL;
	g_autoptr(GBytes) theirs = NULL;
	g_autofree char *apply_why = NULL;
	const char *name = p->new_name ? p->new_name : p->old_name;
	GBytes *out = NULL;

	if (p->is_binary || p->is_delete > 0 || p->is_new > 0 || !plen ||
	    !gitoid_from_hexn(&prefix, p->old_oid, plen) ||
	    !(base = lg2repo_blob_prefix(ap->repo, &prefix, plen))) {
		*why = g_strdup("repository lacks the necessary blob to "
				"perform 3-way merge");
		return NULL;
	}
	theirs = apply_hunks(p, base, &apply_why);
	if (!theirs) {
		*why = g_strdup_printf("3-way merge: %s", apply_why);
		return NULL;
	}
	if (!lg2merge_file(base, ours, theirs, name, &out)) {
		*why = g_strdup_printf("3-way merge failed: %s",
				       lg2repo_last_error());
		return NULL;
	}
	if (!out)
		*why = g_strdup("3-way merge left conflicts");
	if (out)
		ap->merged = TRUE;
	return out;
}

/* git's check_patch + apply_data for one file diff: compute its result
 * into ap->paths.  Returns FALSE with @error on repository errors; a file
 * that does not apply sets *@why. */
static gboolean apply_file(struct applier *ap, struct file_diff *p, char **why,
			   GError **error)
{
	const char *old_name = p->old_name, *new_name = p->new_name;
	g_autoptr(GBytes) data = NULL;
	struct path_entry *prev, *entry;
	guint st_mode = 0;
	GBytes *result;
	gboolean beyond;

	if ((old_name && !path_is_safe(old_name)) ||
	    (new_name && !path_is_safe(new_name))) {
		*why = g_strdup_printf(
			"unsafe path '%s' (absolute, '..', '.git' or empty "
			"component)",
			new_name && !path_is_safe(new_name) ? new_name :
							      old_name);
		return TRUE;
	}
	if ((p->old_mode & MODE_TYPE) == MODE_GITLINK ||
	    (p->new_mode & MODE_TYPE) == MODE_GITLINK) {
		*why = g_strdup("patch touches a submodule (gitlink) entry");
		return TRUE;
	}
	for (int i = 0; i < 2; i++) {
		const char *n = i ? new_name : old_name;

		if (!n)
			continue;
		if (!beyond_symlink(ap, n, &beyond, error))
			return FALSE;
		if (beyond) {
			*why = g_strdup_printf(
				"affected file '%s' is beyond a symbolic link",
				n);
			return TRUE;
		}
	}

	/* git's check_preimage: the old contents */
	if (old_name && p->is_new <= 0) {
		gboolean found = FALSE, gitlink = FALSE;

		prev = (p->is_copy || p->is_rename) ?
			       NULL :
			       g_hash_table_lookup(ap->paths, old_name);
		if (prev && prev->state == PATH_WAS_DELETED) {
			*why = g_strdup_printf("path %s has been "
					       "renamed/deleted",
					       old_name);
			return TRUE;
		}
		if (prev && prev->state == PATH_RESULT) {
			data = g_bytes_ref(prev->content);
			st_mode = prev->mode;
		} else {
			if (!read_base(ap, old_name, &data, &st_mode, &found,
				       &gitlink, error))
				return FALSE;
			if (gitlink) {
				*why = g_strdup("patch touches a submodule "
						"(gitlink) entry");
				return TRUE;
			}
			if (!found && p->is_new < 0) {
				/* git: a traditional patch to a missing
				 * file creates it */
				p->is_new = 1;
				p->is_delete = 0;
				g_clear_pointer(&p->old_name, g_free);
				old_name = NULL;
			} else if (!found) {
				*why = g_strdup_printf("%s: does not exist in "
						       "index",
						       old_name);
				return TRUE;
			}
		}
		if (old_name) {
			if (p->is_new < 0)
				p->is_new = 0;
			if (!p->old_mode)
				p->old_mode = st_mode;
			if ((st_mode ^ p->old_mode) & MODE_TYPE) {
				*why = g_strdup_printf("%s: wrong type",
						       old_name);
				return TRUE;
			}
			if (!p->new_mode && !(p->is_delete > 0))
				p->new_mode = st_mode;
		}
	}
	if (!old_name)
		data = g_bytes_new(NULL, 0);
	if (!p->new_mode) {
		p->new_mode = p->is_new > 0 ? MODE_FILE : p->old_mode;
	}

	/* git's check_to_create */
	if (new_name && (p->is_new > 0 || p->is_rename || p->is_copy)) {
		struct path_entry *t = g_hash_table_lookup(ap->paths, new_name);
		gboolean ok_if_exists = t && (t->state == PATH_WAS_DELETED ||
					      t->state == PATH_TO_BE_DELETED);

		if (!ok_if_exists) {
			struct lg2repo_entry te;
			gboolean found, exists;

			if (!base_entry(ap, new_name, &found, &te, error))
				return FALSE;
			exists = (found && te.type != GITOBJ_TREE) ||
				 (t && t->state == PATH_RESULT);
			if (exists) {
				*why = g_strdup_printf("%s: already exists in "
						       "index",
						       new_name);
				return TRUE;
			}
		}
	}

	/* git's apply_data */
	if (p->is_binary)
		result = apply_binary(ap, p, data, why);
	else
		result = apply_hunks(p, data, why);
	if (!result && !p->is_binary && ap->opts->threeway && old_name) {
		g_autofree char *first_why = *why;

		*why = NULL;
		result = apply_threeway(ap, p, data, why);
		if (!result) {
			char *both = g_strdup_printf("%s; %s", first_why, *why);

			g_free(*why);
			*why = both;
		}
	}
	if (!result)
		return TRUE;
	if (p->is_delete > 0 && g_bytes_get_size(result)) {
		g_bytes_unref(result);
		*why = g_strdup("removal patch leaves file contents");
		return TRUE;
	}
	if (new_name && (p->new_mode & MODE_TYPE) == MODE_LINK) {
		gsize len;
		const char *t = g_bytes_get_data(result, &len);

		if (symlink_escapes(new_name, t, len)) {
			g_bytes_unref(result);
			*why = g_strdup_printf("symbolic link '%s' leads "
					       "outside the tree",
					       new_name);
			return TRUE;
		}
	}
	if (new_name && p->new_mode != MODE_FILE && p->new_mode != MODE_EXEC &&
	    p->new_mode != MODE_LINK) {
		g_bytes_unref(result);
		*why = g_strdup_printf("%s: unsupported mode %o", new_name,
				       p->new_mode);
		return TRUE;
	}

	/* git's add_to_fn_table */
	if (new_name && !(p->is_delete > 0)) {
		entry = g_new0(struct path_entry, 1);
		entry->state = PATH_RESULT;
		entry->content = result;
		entry->mode = p->new_mode;
		g_hash_table_replace(ap->paths, g_strdup(new_name), entry);
	} else {
		g_bytes_unref(result);
	}
	if (!new_name || p->is_delete > 0 || p->is_rename) {
		entry = g_new0(struct path_entry, 1);
		entry->state = PATH_WAS_DELETED;
		g_hash_table_replace(ap->paths, g_strdup(old_name), entry);
	}
	return TRUE;
}

/* Write the blobs and the updated tree.  Sets *@why, not @error, when
 * libgit2 refuses an entry name. */
static gboolean write_tree(struct applier *ap, struct gitoid *out, char **why,
			   GError **error)
{
	g_autoptr(GArray) updates =
		g_array_new(FALSE, TRUE, sizeof(struct lg2write_update));
	g_autoptr(GError) err = NULL;
	GHashTableIter it;
	gpointer key, value;

	g_hash_table_iter_init(&it, ap->paths);
	while (g_hash_table_iter_next(&it, &key, &value)) {
		struct path_entry *e = value;
		struct lg2write_update u = { 0 };

		u.path = key;
		if (e->state == PATH_RESULT) {
			gsize len;
			const void *data = g_bytes_get_data(e->content, &len);

			if (!lg2write_blob(ap->repo, data, len, &u.oid)) {
				g_set_error(error, G_IO_ERROR,
					    G_IO_ERROR_FAILED,
					    "cannot write blob of '%s': %s",
					    (char *)key, lg2repo_last_error());
				return FALSE;
			}
			u.mode = e->mode;
		} else if (e->state == PATH_WAS_DELETED) {
			struct lg2repo_entry te;
			gboolean found;

			if (!base_entry(ap, key, &found, &te, error))
				return FALSE;
			if (!found)
				continue;
			u.remove = TRUE;
		} else {
			continue;
		}
		g_array_append_val(updates, u);
	}
	if (!lg2write_tree_update(ap->repo, ap->base,
				  (struct lg2write_update *)updates->data,
				  updates->len, out, &err)) {
		/* an entry name libgit2 refuses (its verify_path) is the
		 * patch's fault: that patch fails, the series goes on */
		if (g_error_matches(err, LG2REPO_ERROR,
				    LG2REPO_ERROR_REFUSED_PATH)) {
			*why = g_strdup_printf("refused path: %s",
					       err->message);
			return TRUE;
		}
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "cannot write tree: %s", err->message);
		return FALSE;
	}
	return TRUE;
}

static gint compare_names(gconstpointer a, gconstpointer b, gpointer unused)
{
	(void)unused;
	return strcmp(*(char *const *)a, *(char *const *)b);
}

gboolean apply_to_tree(struct apply_result *out, struct git_repository *repo,
		       struct git_tree *base, const char *patch, gsize len,
		       const struct apply_options *opts, GError **error)
{
	static const struct apply_options defaults = APPLY_OPTIONS_INIT;
	g_autoptr(GPtrArray) list = NULL;
	g_autoptr(GHashTable) paths = NULL;
	g_autofree char **links = NULL;
	struct applier ap = { 0 };
	char *why = NULL;

	memset(out, 0, sizeof(*out));
	if (!opts)
		opts = &defaults;
	if (opts->max_patch_size && len > opts->max_patch_size) {
		out->reason = g_strdup_printf("patch too large (%zu bytes, "
					      "limit %zu)",
					      len, opts->max_patch_size);
		return TRUE;
	}
	list = parse_patch(patch, len, &why);
	if (!list) {
		out->reason = why;
		return TRUE;
	}
	out->files = list->len;
	paths = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				      (GDestroyNotify)path_entry_free);
	ap.repo = repo;
	ap.base = base;
	ap.opts = opts;
	ap.paths = paths;
	/* git's prepare_fn_table: paths removed by a later file diff */
	for (guint i = 0; i < list->len; i++) {
		struct file_diff *p = list->pdata[i];

		if (p->old_name && (!p->new_name || p->is_rename)) {
			struct path_entry *e = g_new0(struct path_entry, 1);

			e->state = PATH_TO_BE_DELETED;
			g_hash_table_replace(paths, g_strdup(p->old_name), e);
		}
	}
	for (guint i = 0; i < list->len; i++) {
		struct file_diff *p = list->pdata[i];

		if (!apply_file(&ap, p, &why, error))
			return FALSE;
		if (why) {
			out->path = g_strdup(p->new_name ? p->new_name :
							   p->old_name);
			out->reason = why;
			return TRUE;
		}
	}
	/* after every file diff: a link may lead through one made later */
	links = (char **)g_hash_table_get_keys_as_array(paths, NULL);
	g_qsort_with_data(links, g_strv_length(links), sizeof(char *),
			  compare_names, NULL);
	for (char **l = links; *l; l++) {
		struct path_entry *e = g_hash_table_lookup(paths, *l);
		gboolean escapes;

		if (e->state != PATH_RESULT ||
		    (e->mode & MODE_TYPE) != MODE_LINK)
			continue;
		if (!link_escapes(&ap, *l, &escapes, error))
			return FALSE;
		if (escapes) {
			out->path = g_strdup(*l);
			out->reason = g_strdup_printf(
				"symbolic link '%s' leads outside the tree",
				*l);
			return TRUE;
		}
	}
	if (!write_tree(&ap, &out->tree, &why, error))
		return FALSE;
	if (why) {
		out->reason = why;
		return TRUE;
	}
	out->applied = TRUE;
	out->merged = ap.merged;
	return TRUE;
}

void apply_result_clear(struct apply_result *r)
{
	if (!r)
		return;
	g_free(r->path);
	g_free(r->reason);
	memset(r, 0, sizeof(*r));
}
