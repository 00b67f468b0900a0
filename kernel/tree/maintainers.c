/* The MAINTAINERS file and its path patterns, as scripts/get_maintainer.pl
 * of Linux 6.1 reads them; see kernel/tree/maintainers.h. */
#include "kernel/tree/maintainers.h"

#include <string.h>

#include "kernel/git/lg2repo.h"
#include "kernel/tree/tree.h"

G_DEFINE_QUARK(maintainers - error - quark, maintainers_error)

static void pattern_free(gpointer data)
{
	struct maintainers_pattern *p = data;

	if (!p)
		return;
	g_free(p->text);
	g_clear_pointer(&p->regex, g_regex_unref);
	g_free(p);
}

struct maintainers_section *maintainers_section_new(const char *name)
{
	struct maintainers_section *s = g_new0(struct maintainers_section, 1);

	s->name = g_strdup(name);
	s->maintainers = g_ptr_array_new_with_free_func(g_free);
	s->reviewers = g_ptr_array_new_with_free_func(g_free);
	s->lists = g_ptr_array_new_with_free_func(g_free);
	s->keywords = g_ptr_array_new_with_free_func(g_free);
	s->patterns = g_ptr_array_new_with_free_func(pattern_free);
	return s;
}

void maintainers_section_free(struct maintainers_section *s)
{
	if (!s)
		return;
	g_free(s->name);
	g_ptr_array_unref(s->maintainers);
	g_ptr_array_unref(s->reviewers);
	g_ptr_array_unref(s->lists);
	g_ptr_array_unref(s->keywords);
	g_ptr_array_unref(s->patterns);
	g_free(s);
}

void maintainers_free(struct maintainers *m)
{
	if (!m)
		return;
	g_clear_pointer(&m->sections, g_ptr_array_unref);
	g_free(m);
}

static guint count_slashes(const char *s)
{
	guint n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/* get_maintainer.pl turns an F:/X: value into a regex: '.' becomes "\.",
 * '*' ".*" and '?' "."; every other character keeps its
 * meaning in Perl's regex syntax, so "drivers/edac/altera_edac.[ch]" is a
 * character class.  PCRE (GRegex) reads the same syntax. */
static char *pattern_to_regex(const char *text)
{
	GString *re = g_string_new("^");

	for (const char *p = text; *p; p++) {
		if (*p == '.')
			g_string_append(re, "\\.");
		else if (*p == '*')
			g_string_append(re, ".*");
		else if (*p == '?')
			g_string_append_c(re, '.');
		else
			g_string_append_c(re, *p);
	}
	return g_string_free(re, FALSE);
}

gboolean maintainers_section_add_pattern(struct maintainers_section *section,
					 enum maintainers_pattern_kind kind,
					 const char *text, guint line,
					 gboolean (*is_dir)(const char *path,
							    gpointer data),
					 gpointer is_dir_data, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree char *value = g_strstrip(g_strdup(text));
	g_autofree char *re = NULL;
	struct maintainers_pattern *p;

	if (!*value) {
		g_set_error(error, MAINTAINERS_ERROR, 0, "empty pattern");
		return FALSE;
	}
	if (kind != MAINTAINERS_N && value[0] == '/') {
		g_set_error(error, MAINTAINERS_ERROR, 0,
			    "pattern '%s' is absolute: paths are from the top "
			    "of the tree",
			    value);
		return FALSE;
	}
	if (kind != MAINTAINERS_N && strstr(value, "..")) {
		g_set_error(error, MAINTAINERS_ERROR, 0,
			    "pattern '%s' has '..'", value);
		return FALSE;
	}
	p = g_new0(struct maintainers_pattern, 1);
	p->kind = kind;
	p->line = line;
	if (kind == MAINTAINERS_N) {
		/* N: $file =~ m/$value/x */
		p->text = g_steal_pointer(&value);
		p->regex = g_regex_new(p->text, G_REGEX_EXTENDED, 0, &local);
		p->depth = 0;
	} else {
		/* "if pattern is a directory and it lacks a trailing slash,
		 * add one" (get_maintainer.pl asks the work tree, -d) */
		if (!g_str_has_suffix(value, "/") && is_dir &&
		    is_dir(value, is_dir_data)) {
			char *dir = g_strconcat(value, "/", NULL);

			g_free(value);
			value = dir;
		}
		p->dir = g_str_has_suffix(value, "/");
		/* $value_pd = ($value =~ tr@/@@); $value_pd++ if the value
		 * does not end in '/'; -1 if it starts with .* */
		p->depth = count_slashes(value) + (p->dir ? 0 : 1);
		if (value[0] == '*')
			p->depth = -1;
		p->literal = strcspn(value, "*?[");
		re = pattern_to_regex(value);
		p->text = g_steal_pointer(&value);
		p->regex = g_regex_new(re, G_REGEX_OPTIMIZE, 0, &local);
	}
	if (!p->regex) {
		g_set_error(error, MAINTAINERS_ERROR, 0, "bad pattern '%s': %s",
			    p->text, local->message);
		pattern_free(p);
		return FALSE;
	}
	g_ptr_array_add(section->patterns, p);
	return TRUE;
}

/* get_maintainer.pl's file_match_pattern(): a prefix match, and for a
 * pattern not ending in '/' the same number of '/' as the file. */
static gboolean file_match(const struct maintainers_pattern *p,
			   const char *file, guint file_slashes)
{
	if (!g_regex_match(p->regex, file, 0, NULL))
		return FALSE;
	return p->dir || count_slashes(p->text) == file_slashes;
}

gboolean maintainers_section_match(const struct maintainers_section *section,
				   const char *file, int *depth,
				   const struct maintainers_pattern **pattern)
{
	guint slashes = count_slashes(file);
	const struct maintainers_pattern *best = NULL;

	for (guint i = 0; i < section->patterns->len; i++) {
		const struct maintainers_pattern *p =
			section->patterns->pdata[i];

		if (p->kind == MAINTAINERS_X && file_match(p, file, slashes))
			return FALSE;
	}
	for (guint i = 0; i < section->patterns->len; i++) {
		const struct maintainers_pattern *p =
			section->patterns->pdata[i];
		gboolean hit;

		if (p->kind == MAINTAINERS_X)
			continue;
		if (p->kind == MAINTAINERS_N)
			hit = g_regex_match(p->regex, file, 0, NULL);
		else
			hit = file_match(p, file, slashes);
		if (hit &&
		    (!best || p->depth > best->depth ||
		     (p->depth == best->depth && p->literal > best->literal)))
			best = p;
	}
	if (!best)
		return FALSE;
	if (depth)
		*depth = best->depth;
	if (pattern)
		*pattern = best;
	return TRUE;
}

/* A tag line: get_maintainer.pl's m/^([A-Z]):\s*(.*)/. */
static gboolean tag_line(const char *line, char *tag, const char **value)
{
	if (!g_ascii_isupper(line[0]) || line[1] != ':')
		return FALSE;
	*tag = line[0];
	line += 2;
	while (g_ascii_isspace(*line))
		line++;
	*value = line;
	return TRUE;
}

struct maintainers *maintainers_parse(const char *data, gsize len,
				      gboolean (*is_dir)(const char *path,
							 gpointer data),
				      gpointer is_dir_data, GError **error)
{
	g_autoptr(maintainers) m = g_new0(struct maintainers, 1);
	g_autofree char *text = g_strndup(data, len);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autofree char *title = NULL;
	guint title_line = 0;
	struct maintainers_section *cur = NULL;

	m->sections = g_ptr_array_new_with_free_func(
		(GDestroyNotify)maintainers_section_free);
	for (guint i = 0; lines[i]; i++) {
		char *line = lines[i];
		const char *value;
		char tag;

		g_strchomp(line);
		if (tag_line(line, &tag, &value)) {
			if (!cur) {
				if (!title)
					continue; /* a tag without a title */
				cur = maintainers_section_new(title);
				cur->line = title_line;
				g_ptr_array_add(m->sections, cur);
			}
			switch (tag) {
			case 'M':
				g_ptr_array_add(cur->maintainers,
						g_strdup(value));
				break;
			case 'R':
				g_ptr_array_add(cur->reviewers,
						g_strdup(value));
				break;
			case 'L':
				g_ptr_array_add(cur->lists, g_strdup(value));
				break;
			case 'K':
				g_ptr_array_add(cur->keywords, g_strdup(value));
				break;
			case 'F':
			case 'X':
			case 'N':
				if (!maintainers_section_add_pattern(
					    cur,
					    tag == 'F' ? MAINTAINERS_F :
					    tag == 'X' ? MAINTAINERS_X :
							 MAINTAINERS_N,
					    value, i + 1, is_dir, is_dir_data,
					    error)) {
					g_prefix_error(
						error,
						"MAINTAINERS:%u: ", i + 1);
					return NULL;
				}
				break;
			default:
				break; /* S:, W:, T:, Q:, B:, C:, P: */
			}
			continue;
		}
		/* blank lines and comments are skipped; any other line is
		 * the title of the section its tags will open */
		g_strchug(line);
		if (!*line || line[0] == '#')
			continue;
		g_free(title);
		title = g_strdup(line);
		title_line = i + 1;
		cur = NULL;
	}
	return g_steal_pointer(&m);
}

/* @data is the root tree (lg2tree) */
static gboolean git_is_dir(const char *path, gpointer data)
{
	/* only literal paths can name a directory */
	if (strpbrk(path, "*?[]"))
		return FALSE;
	return lg2repo_tree_is_dir(data, path);
}

struct maintainers *maintainers_load_git(struct git_repository *repo,
					 const struct gitoid *commit,
					 GError **error)
{
	g_autoptr(lg2tree) root = lg2repo_commit_root(repo, commit);
	g_autoptr(GBytes) blob = NULL;
	const char *data;
	gsize len;

	if (!root) {
		tree_set_git_error(error, "cannot read the commit");
		return NULL;
	}
	blob = lg2repo_tree_blob(root, "MAINTAINERS");
	if (!blob) {
		tree_set_git_error(error, "cannot read MAINTAINERS");
		return NULL;
	}
	data = g_bytes_get_data(blob, &len);
	return maintainers_parse(data ? data : "", len, git_is_dir, root,
				 error);
}

struct ranked {
	struct maintainers_section *section;
	int depth;
};

static gint ranked_cmp(gconstpointer a, gconstpointer b)
{
	const struct ranked *x = a, *y = b;

	/* deeper first */
	return y->depth - x->depth;
}

GPtrArray *maintainers_for_file(const struct maintainers *m, const char *file)
{
	g_autoptr(GArray)
		hits = g_array_new(FALSE, FALSE, sizeof(struct ranked));
	GPtrArray *out = g_ptr_array_new();

	for (guint i = 0; i < m->sections->len; i++) {
		struct ranked r = { m->sections->pdata[i], 0 };

		if (maintainers_section_match(r.section, file, &r.depth, NULL))
			g_array_append_val(hits, r);
	}
	/* g_array_sort() is stable (GLib 2.32): file order among equals */
	g_array_sort(hits, ranked_cmp);
	for (guint i = 0; i < hits->len; i++)
		g_ptr_array_add(out,
				g_array_index(hits, struct ranked, i).section);
	return out;
}

char *maintainers_address(const char *entry)
{
	const char *lt = strrchr(entry, '<');
	const char *gt = lt ? strchr(lt, '>') : NULL;
	g_autofree char *addr = NULL;

	if (lt && gt)
		addr = g_strndup(lt + 1, gt - lt - 1);
	else
		addr = g_strdup(entry);
	g_strstrip(addr);
	return g_ascii_strdown(addr, -1);
}

static gboolean section_has_maintainer(const struct maintainers_section *s,
				       const char *address)
{
	for (guint i = 0; i < s->maintainers->len; i++) {
		g_autofree char *a =
			maintainers_address(s->maintainers->pdata[i]);

		if (!g_ascii_strcasecmp(a, address))
			return TRUE;
	}
	return FALSE;
}

gboolean maintainers_is_maintainer(const struct maintainers *m,
				   const char *address,
				   const char *const *files, char **why)
{
	if (why)
		*why = NULL;
	for (guint f = 0; files[f]; f++) {
		gboolean found = FALSE;

		for (guint i = 0; i < m->sections->len && !found; i++) {
			const struct maintainers_section *s =
				m->sections->pdata[i];

			found = section_has_maintainer(s, address) &&
				maintainers_section_match(s, files[f], NULL,
							  NULL);
		}
		if (!found) {
			if (why)
				*why = g_strdup(files[f]);
			return FALSE;
		}
	}
	return TRUE;
}
