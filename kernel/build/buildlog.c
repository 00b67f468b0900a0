/* A build log's quotable lines (see buildlog.h).  The shapes are gcc's
 * (gcc/diagnostic.cc: "FILE:LINE:COL: KIND: ", the "In function" and
 * "In file included from" context, the source lines of
 * -fdiagnostics-show-caret), sparse's (lib.c, "FILE:LINE:COL: warning: "
 * and its indented continuation) and GNU make's (main.c and job.c:
 * "make[N]: *** [MAKEFILE:LINE: TARGET] Error N"; a $(error) is
 * "MAKEFILE:LINE: *** TEXT.  Stop."). */
#include "kernel/build/buildlog.h"

#include <string.h>

/* make's error lines kept at the end when the excerpt is cut */
#define MAKE_LINES_KEPT 6
/* a quoted line is cut after this many bytes */
#define LINE_MAX_BYTES 400

/* kbuild's and armbot's own goals, which name no file of a series */
static const char *const goals[] = {
	".",
	"__sub-make",
	"__build",
	"_all",
	"all",
	"vmlinux",
	"vmlinux.o",
	"vmlinux.a",
	"modules",
	"modules_prepare",
	"prepare",
	"prepare0",
	"archprepare",
	"scripts",
	"zImage",
	"Image",
	"__modpost",
	"modpost",
	"armbot-objects",
	"armbot-probe",
	"allnoconfig",
	"allmodconfig",
	"olddefconfig",
	"syncconfig",
	"arch/arm/boot/zImage",
	NULL,
};

enum pattern {
	P_DIAG, /* FILE:LINE[:COL]: KIND: MESSAGE */
	P_SPARSE_MORE, /* FILE:LINE:COL:    MORE (sparse) */
	P_FUNCTION, /* FILE: In function 'f': */
	P_INCLUDED, /* In file included from FILE:LINE, / from FILE:LINE: */
	P_SOURCE, /* "   12 | code", "      | ^~~" */
	P_MAKE_ERROR, /* make[N]: *** [MAKEFILE:LINE: TARGET] Error N */
	P_MAKE_STOP, /* MAKEFILE:LINE: *** TEXT.  Stop. */
	P_KILLED, /* gcc: fatal error: Killed signal terminated program cc1 */
	P_SANDBOX, /* [sandbox: ... limit ... reached ...] */
	P_N
};

static const char *const pattern_text[P_N] = {
	[P_DIAG] = "^([^:\\s]+):\\d+(?::\\d+)?: "
		   "(?:fatal error|error|warning|note): ",
	[P_SPARSE_MORE] = "^([^:\\s]+):\\d+:\\d+:    \\S",
	[P_FUNCTION] = "^([^:\\s]+): (?:In function '[A-Za-z0-9_]+'|"
		       "At top level):$",
	[P_INCLUDED] = "^(?:In file included from|\\s+from) "
		       "([^:\\s]+):\\d+[,:]$",
	[P_SOURCE] = "^ *\\d* \\|(?: .*)?$",
	[P_MAKE_ERROR] = "^make(?:\\[\\d+\\])?: \\*\\*\\* "
			 "\\[(?:([^:\\s\\]]+):\\d+: )?([^\\]\\s]+)\\] "
			 "(?:Error \\d+|Killed)$",
	[P_MAKE_STOP] = "^([^:\\s]+):(\\d+): \\*\\*\\* ",
	[P_KILLED] = "^[A-Za-z0-9_.+-]*gcc(?:-\\d+)?: fatal error: Killed "
		     "signal terminated program [A-Za-z0-9_]+$",
	[P_SANDBOX] = "^\\[sandbox: (?:process limit of \\d+ reached, \\d+ "
		      "forks refused|memory limit of \\d+ MiB reached, \\d+ "
		      "process(?:es)? killed)\\]$",
};

static GRegex **patterns(void)
{
	static GRegex **compiled;

	if (g_once_init_enter(&compiled)) {
		GRegex **p = g_new0(GRegex *, P_N);

		for (int i = 0; i < P_N; i++)
			p[i] = g_regex_new(pattern_text[i], G_REGEX_OPTIMIZE, 0,
					   NULL);
		g_once_init_leave(&compiled, p);
	}
	return compiled;
}

/* The series' files, the stems of their objects and the directories on
 * the way to them. */
struct series_files {
	GHashTable *files;
	GHashTable *stems;
	GHashTable *dirs;
};

static void series_files_init(struct series_files *s, const GPtrArray *files)
{
	s->files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	s->stems = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	s->dirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; files && i < files->len; i++) {
		const char *f = files->pdata[i];
		const char *slash = strrchr(f, '/');
		const char *dot = strrchr(slash ? slash : f, '.');
		char *dir = g_strdup(f);

		g_hash_table_add(s->files, g_strdup(f));
		if (dot)
			g_hash_table_add(s->stems, g_strndup(f, dot - f));
		for (char *p = strrchr(dir, '/'); p; p = strrchr(dir, '/')) {
			*p = '\0';
			g_hash_table_add(s->dirs, g_strdup(dir));
		}
		g_free(dir);
	}
}

static void series_files_clear(struct series_files *s)
{
	g_hash_table_unref(s->files);
	g_hash_table_unref(s->stems);
	g_hash_table_unref(s->dirs);
}

/* A make target of the series: one of its files, an object or other
 * product of one (same stem), a directory on the way to one, kbuild's
 * goals, armbot's (armbot-dir/DIR, its external module). */
static gboolean series_target(const struct series_files *s, const char *t)
{
	const char *slash = strrchr(t, '/');
	const char *dot = strrchr(slash ? slash : t, '.');

	if (g_hash_table_contains(s->files, t) ||
	    g_hash_table_contains(s->dirs, t) ||
	    g_strv_contains((const char *const *)goals, t) ||
	    g_str_has_prefix(t, "armbot-ext/"))
		return TRUE;
	if (g_str_has_prefix(t, "armbot-dir/"))
		return g_hash_table_contains(s->dirs,
					     t + strlen("armbot-dir/"));
	if (dot && dot != t) {
		g_autofree char *stem = g_strndup(t, dot - t);

		return g_hash_table_contains(s->stems, stem);
	}
	return FALSE;
}

/* @line with the absolute prefixes removed ("DIR/" anywhere, and a
 * leading "./"), valid UTF-8, cut at LINE_MAX_BYTES. */
static char *clean_line(const char *line, const char *const *prefixes)
{
	GString *out = g_string_new(line);
	g_autofree char *valid = NULL;

	for (guint i = 0; prefixes[i]; i++) {
		g_autofree char *with_slash =
			g_strconcat(prefixes[i], "/", NULL);

		g_string_replace(out, with_slash, "", 0);
	}
	if (g_str_has_prefix(out->str, "./"))
		g_string_erase(out, 0, 2);
	valid = g_utf8_make_valid(out->str, out->len);
	g_string_assign(out, valid);
	if (out->len > LINE_MAX_BYTES) {
		const char *end = g_utf8_find_prev_char(
			out->str, out->str + LINE_MAX_BYTES);

		g_string_truncate(out, end ? (gsize)(end - out->str) :
					     LINE_MAX_BYTES);
		g_string_append(out, " [...]");
	}
	return g_string_free(out, FALSE);
}

/* Whether @p matches @line and its first capture names a file of the
 * series, or of armbot's external module (armbot-ext/ in the build dir:
 * armbot's own sources, the runtime-PM suite, which a series' change of
 * an API it uses breaks). */
static gboolean match_file(GRegex *p, const char *line,
			   const struct series_files *s)
{
	g_autoptr(GMatchInfo) m = NULL;
	g_autofree char *file = NULL;

	if (!g_regex_match(p, line, 0, &m))
		return FALSE;
	file = g_match_info_fetch(m, 1);
	return file && (g_hash_table_contains(s->files, file) ||
			g_str_has_prefix(file, "armbot-ext/"));
}

struct kept {
	char *text;
	gboolean make; /* one of make's error lines */
};

/* Whether @line is quotable; *@make_line for make's error lines, and
 * @in_diag says whether the quoted source lines that follow a kept
 * diagnostic belong to it. */
static char *judge(const char *line, const struct series_files *s,
		   gboolean *in_diag, gboolean *make_line)
{
	GRegex **p = patterns();
	g_autoptr(GMatchInfo) m = NULL;

	*make_line = FALSE;
	if (g_regex_match(p[P_SOURCE], line, 0, NULL))
		return *in_diag ? g_strdup(line) : NULL;
	*in_diag = FALSE;
	if (match_file(p[P_DIAG], line, s) ||
	    match_file(p[P_SPARSE_MORE], line, s)) {
		*in_diag = TRUE;
		return g_strdup(line);
	}
	if (match_file(p[P_FUNCTION], line, s) ||
	    match_file(p[P_INCLUDED], line, s) ||
	    g_regex_match(p[P_KILLED], line, 0, NULL) ||
	    g_regex_match(p[P_SANDBOX], line, 0, NULL) ||
	    !strcmp(line, "compilation terminated."))
		return g_strdup(line);
	if (g_regex_match(p[P_MAKE_ERROR], line, 0, &m)) {
		g_autofree char *target = g_match_info_fetch(m, 2);

		*make_line = TRUE;
		return series_target(s, target) ? g_strdup(line) : NULL;
	}
	g_clear_pointer(&m, g_match_info_free);
	if (g_regex_match(p[P_MAKE_STOP], line, 0, &m)) {
		g_autofree char *file = g_match_info_fetch(m, 1);
		g_autofree char *no = g_match_info_fetch(m, 2);

		/* where the series' Makefile stopped the build; what it
		 * said is its own text */
		if (g_hash_table_contains(s->files, file))
			return g_strdup_printf("%s:%s: *** (the Makefile's "
					       "message is not quoted)",
					       file, no);
	}
	return NULL;
}

char *buildlog_excerpt(const char *log, const GPtrArray *files,
		       const char *src_dir, const char *build_dir,
		       guint max_lines)
{
	const char *prefixes[3] = { NULL };
	g_auto(GStrv) lines = g_strsplit(log ? log : "", "\n", -1);
	g_autoptr(GArray) kept = g_array_new(FALSE, FALSE, sizeof(struct kept));
	struct series_files s;
	GString *out = g_string_new(NULL);
	gboolean in_diag = FALSE;
	guint n_make = 0, make_skip, other_room, others = 0;
	guint np = 0;

	if (src_dir)
		prefixes[np++] = src_dir;
	if (build_dir)
		prefixes[np++] = build_dir;
	series_files_init(&s, files);
	for (guint i = 0; lines[i]; i++) {
		g_autofree char *line = clean_line(lines[i], prefixes);
		struct kept k = { 0 };

		k.text = judge(line, &s, &in_diag, &k.make);
		if (!k.text)
			continue;
		n_make += k.make;
		g_array_append_val(kept, k);
	}
	/* the first diagnostics and the last of make's lines (the outer
	 * makes, whose errors end the log) */
	make_skip = n_make > MIN(MAKE_LINES_KEPT, max_lines) ?
			    n_make - MIN(MAKE_LINES_KEPT, max_lines) :
			    0;
	other_room = max_lines - MIN(n_make, MIN(MAKE_LINES_KEPT, max_lines));
	for (guint i = 0; i < kept->len; i++) {
		struct kept *k = &g_array_index(kept, struct kept, i);
		gboolean quote;

		if (k->make) {
			quote = !make_skip;
			if (make_skip)
				make_skip--;
		} else {
			quote = others++ < other_room;
		}
		if (quote)
			g_string_append_printf(out, "%s\n", k->text);
		g_free(k->text);
	}
	series_files_clear(&s);
	return g_string_free(out, FALSE);
}
