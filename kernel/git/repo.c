/* A repository read as git 2.39 reads it: discovery (setup.c), the
 * files ref backend (refs/files-backend.c, refs/packed-backend.c), the
 * revision syntax (object-name.c get_oid_1()), merge bases (commit-reach.c)
 * and FROM..TO in topological order (revision.c limit_list(),
 * commit.c sort_in_topological_order()).  See kernel/git/repo.h. */
#include "kernel/git/repo.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/git/index.h"
#include "kernel/git/object.h"

G_DEFINE_QUARK(armbot - gitrepo - error - quark, gitrepo_error)

/* refs.h SYMREF_MAXDEPTH: the reads refs_resolve_ref_unsafe() makes */
#define SYMREF_MAXDEPTH 5

/* The public struct first, so that a struct gitrepo * is one of these. */
struct repo_private {
	struct gitrepo pub;
	gboolean packed_loaded;
	char *packed; /* packed-refs, or NULL when there is none */
	gsize packed_size;
	GPtrArray *packed_records; /* of char * into packed, by refname */
	GError *packed_error; /* why packed-refs could not be read */
	gboolean index_read; /* tried: index is the result */
	struct gitindex *index;
};

static struct repo_private *priv(struct gitrepo *repo)
{
	return (struct repo_private *)repo;
}

void gitrepo_free(struct gitrepo *repo)
{
	struct repo_private *p = (struct repo_private *)repo;

	if (!repo)
		return;
	g_free(repo->git_dir);
	g_free(repo->common_dir);
	g_free(repo->work_tree);
	gitodb_free(repo->odb);
	g_free(p->packed);
	g_clear_pointer(&p->packed_records, g_ptr_array_unref);
	g_clear_error(&p->packed_error);
	gitindex_free(p->index);
	g_free(p);
}

const struct gitindex *gitrepo_index(struct gitrepo *repo)
{
	struct repo_private *p = priv(repo);

	if (!p->index_read && repo->work_tree) {
		g_autofree char *file =
			g_build_filename(repo->git_dir, "index", NULL);

		p->index = gitindex_read(file, NULL);
	}
	p->index_read = TRUE;
	return p->index;
}

/* ---- config: the little of git's config.c parser that is needed ---- */

struct config {
	char *object_format;
	char *worktree;
	int bare; /* -1 when unset, as git's is_bare_repository_cfg */
	int version;
	gboolean worktree_config;
};

/* git_parse_maybe_bool(): -1 when @value is no boolean */
static int config_bool(const char *value)
{
	char *end;
	long n;

	if (!value)
		return 1;
	if (!*value)
		return 0;
	if (!g_ascii_strcasecmp(value, "true") ||
	    !g_ascii_strcasecmp(value, "yes") ||
	    !g_ascii_strcasecmp(value, "on"))
		return 1;
	if (!g_ascii_strcasecmp(value, "false") ||
	    !g_ascii_strcasecmp(value, "no") ||
	    !g_ascii_strcasecmp(value, "off"))
		return 0;
	errno = 0;
	n = strtol(value, &end, 0);
	if (errno || end == value || *end)
		return -1;
	return n != 0;
}

static gboolean config_set(struct config *cfg, const char *key,
			   const char *value, GError **error)
{
	if (!strcmp(key, "extensions.objectformat")) {
		if (!value) {
			g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT,
				    "missing value for "
				    "'extensions.objectformat'");
			return FALSE;
		}
		g_free(cfg->object_format);
		cfg->object_format = g_strdup(value);
	} else if (!strcmp(key, "extensions.worktreeconfig")) {
		cfg->worktree_config = config_bool(value) > 0;
	} else if (!strcmp(key, "core.bare")) {
		cfg->bare = config_bool(value);
		if (cfg->bare < 0) {
			g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT,
				    "bad boolean config value '%s' for "
				    "'core.bare'",
				    value);
			return FALSE;
		}
	} else if (!strcmp(key, "core.worktree")) {
		if (!value) {
			g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT,
				    "missing value for 'core.worktree'");
			return FALSE;
		}
		g_free(cfg->worktree);
		cfg->worktree = g_strdup(value);
	} else if (!strcmp(key, "core.repositoryformatversion")) {
		cfg->version = value ? atoi(value) : 0;
	}
	return TRUE;
}

struct config_source {
	const char *p, *end;
	int line;
};

/* get_next_char(): "\r\n" reads as "\n", and the end as a last "\n" */
static int config_next(struct config_source *cs, gboolean *eof)
{
	int c;

	if (cs->p >= cs->end) {
		*eof = TRUE;
		return '\n';
	}
	c = (unsigned char)*cs->p++;
	if (c == '\r' && cs->p < cs->end && *cs->p == '\n')
		c = (unsigned char)*cs->p++;
	if (c == '\n')
		cs->line++;
	return c;
}

/* parse_value(): quotes, escapes, continuation lines, comments; NULL
 * for a malformed value */
static char *config_value(struct config_source *cs, gboolean *eof)
{
	g_autoptr(GString) v = g_string_new(NULL);
	gboolean quote = FALSE, comment = FALSE;
	int space = 0;

	for (;;) {
		int c = config_next(cs, eof);

		if (c == '\n') {
			if (quote)
				return NULL;
			return g_string_free(g_steal_pointer(&v), FALSE);
		}
		if (comment)
			continue;
		if (g_ascii_isspace(c) && !quote) {
			if (v->len)
				space++;
			continue;
		}
		if (!quote && (c == ';' || c == '#')) {
			comment = TRUE;
			continue;
		}
		for (; space; space--)
			g_string_append_c(v, ' ');
		if (c == '\\') {
			c = config_next(cs, eof);
			switch (c) {
			case '\n':
				continue;
			case 't':
				c = '\t';
				break;
			case 'b':
				c = '\b';
				break;
			case 'n':
				c = '\n';
				break;
			case '\\':
			case '"':
				break;
			default:
				return NULL;
			}
			g_string_append_c(v, (char)c);
			continue;
		}
		if (c == '"') {
			quote = !quote;
			continue;
		}
		g_string_append_c(v, (char)c);
	}
}

/* git_parse_source(): sections "[name]", "[name "sub"]" and the old
 * "[name.sub]", keys case-insensitive, a key without "=" is true */
static gboolean config_parse(struct config *cfg, const char *text, gsize size,
			     const char *file, GError **error)
{
	struct config_source cs = { text, text + size, 1 };
	g_autoptr(GString) section = g_string_new(NULL);
	gboolean eof = FALSE;

	/* a UTF-8 byte order mark is skipped */
	if (size >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		cs.p += 3;
	for (;;) {
		int c = config_next(&cs, &eof);

		if (eof)
			return TRUE;
		if (c == '\n' || g_ascii_isspace(c))
			continue;
		if (c == '#' || c == ';') {
			while (c != '\n')
				c = config_next(&cs, &eof);
			continue;
		}
		if (c == '[') {
			g_string_truncate(section, 0);
			for (;;) {
				c = config_next(&cs, &eof);
				if (eof || c == '\n')
					goto bad;
				if (c == ']')
					break;
				if (g_ascii_isspace(c)) {
					/* get_extended_base_var() */
					do
						c = config_next(&cs, &eof);
					while (c != '\n' && g_ascii_isspace(c));
					if (c != '"')
						goto bad;
					g_string_append_c(section, '.');
					for (;;) {
						c = config_next(&cs, &eof);
						if (c == '\n')
							goto bad;
						if (c == '"')
							break;
						if (c == '\\') {
							c = config_next(&cs,
									&eof);
							if (c == '\n')
								goto bad;
						}
						g_string_append_c(section,
								  (char)c);
					}
					if (config_next(&cs, &eof) != ']')
						goto bad;
					break;
				}
				if (!g_ascii_isalnum(c) && c != '-' && c != '.')
					goto bad;
				g_string_append_c(section,
						  g_ascii_tolower((char)c));
			}
			continue;
		}
		if (g_ascii_isalpha(c)) {
			g_autoptr(GString) key = g_string_new(section->str);
			g_autofree char *value = NULL;
			gboolean has_value = FALSE;

			if (!section->len)
				goto bad;
			g_string_append_c(key, '.');
			for (;;) {
				g_string_append_c(key,
						  g_ascii_tolower((char)c));
				c = config_next(&cs, &eof);
				if (!g_ascii_isalnum(c) && c != '-')
					break;
			}
			while (c == ' ' || c == '\t')
				c = config_next(&cs, &eof);
			if (c == '=') {
				value = config_value(&cs, &eof);
				if (!value)
					goto bad;
				has_value = TRUE;
			} else if (c != '\n') {
				goto bad;
			}
			if (!config_set(cfg, key->str, has_value ? value : NULL,
					error)) {
				g_prefix_error(error, "%s: ", file);
				return FALSE;
			}
			if (eof)
				return TRUE;
			continue;
		}
		goto bad;
	}
bad:
	g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT,
		    "bad config line %d in file %s", cs.line, file);
	return FALSE;
}

static gboolean config_read(struct config *cfg, const char *file,
			    GError **error)
{
	g_autofree char *text = NULL;
	gsize size;
	g_autoptr(GError) local = NULL;

	if (!g_file_get_contents(file, &text, &size, &local)) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return TRUE;
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	return config_parse(cfg, text, size, file, error);
}

/* ---- discovery (setup.c) ---- */

/* realpath(), as git's strbuf_realpath() gives every directory it sets */
static char *real_path(const char *path)
{
	char *r = realpath(path, NULL);
	char *copy;

	if (!r)
		return NULL;
	copy = g_strdup(r);
	free(r);
	return copy;
}

/* validate_headref(): HEAD is a symlink into refs/, "ref: refs/...", or
 * a hex object id */
static gboolean head_valid(const char *git_dir)
{
	g_autofree char *path = g_build_filename(git_dir, "HEAD", NULL);
	g_autofree char *buf = NULL;
	const char *p;
	GStatBuf st;
	gsize len;

	if (g_lstat(path, &st) < 0)
		return FALSE;
	if (S_ISLNK(st.st_mode)) {
		g_autofree char *target = g_file_read_link(path, NULL);

		return target && g_str_has_prefix(target, "refs/");
	}
	if (!g_file_get_contents(path, &buf, &len, NULL))
		return FALSE;
	/* git reads at most 255 bytes */
	if (len > 255)
		buf[255] = '\0';
	if (g_str_has_prefix(buf, "ref:")) {
		p = buf + 4;
		while (g_ascii_isspace(*p))
			p++;
		if (g_str_has_prefix(p, "refs/"))
			return TRUE;
	}
	for (p = buf; p - buf < GITOID_HEXSZ; p++)
		if (!g_ascii_isxdigit(*p))
			return FALSE;
	return TRUE;
}

/* get_common_dir(): $GIT_DIR/commondir, relative to $GIT_DIR */
static char *common_dir_of(const char *git_dir)
{
	g_autofree char *file = g_build_filename(git_dir, "commondir", NULL);
	g_autofree char *text = NULL;
	g_autofree char *joined = NULL;
	gsize len;

	if (!g_file_get_contents(file, &text, &len, NULL))
		return g_strdup(git_dir);
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		text[--len] = '\0';
	if (g_path_is_absolute(text))
		joined = g_strdup(text);
	else
		joined = g_build_filename(git_dir, text, NULL);
	return real_path(joined);
}

/* is_git_directory(): a valid HEAD, objects/ and refs/ (those two in
 * the common directory of a linked worktree's git dir) */
static gboolean is_git_directory(const char *dir)
{
	g_autofree char *common = NULL;
	g_autofree char *objects = NULL;
	g_autofree char *refs = NULL;

	if (!head_valid(dir))
		return FALSE;
	common = common_dir_of(dir);
	if (!common)
		return FALSE;
	objects = g_build_filename(common, "objects", NULL);
	refs = g_build_filename(common, "refs", NULL);
	return !access(objects, X_OK) && !access(refs, X_OK);
}

/* read_gitfile_gently(): "gitdir: X" with X relative to the file's
 * directory; NULL with @error set when the file is not valid */
static char *read_gitfile(const char *file, GError **error)
{
	g_autofree char *text = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *joined = NULL;
	char *real;
	gsize len;

	if (!g_file_get_contents(file, &text, &len, error))
		return NULL;
	if (!g_str_has_prefix(text, "gitdir: ") || strlen(text) != len) {
		g_set_error(error, GITREPO_ERROR,
			    GITREPO_ERROR_NOT_A_REPOSITORY,
			    "invalid gitfile format: %s", file);
		return NULL;
	}
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		text[--len] = '\0';
	if (len <= 8) {
		g_set_error(error, GITREPO_ERROR,
			    GITREPO_ERROR_NOT_A_REPOSITORY,
			    "no path in gitfile: %s", file);
		return NULL;
	}
	if (g_path_is_absolute(text + 8)) {
		joined = g_strdup(text + 8);
	} else {
		dir = g_path_get_dirname(file);
		joined = g_build_filename(dir, text + 8, NULL);
	}
	if (!is_git_directory(joined)) {
		g_set_error(error, GITREPO_ERROR,
			    GITREPO_ERROR_NOT_A_REPOSITORY,
			    "not a git repository: %s", joined);
		return NULL;
	}
	real = real_path(joined);
	if (!real)
		g_set_error(error, GITREPO_ERROR,
			    GITREPO_ERROR_NOT_A_REPOSITORY,
			    "not a git repository: %s", joined);
	return real;
}

/* setup_git_directory_gently_1(): in each directory from @start up,
 * first DIR/.git (a gitfile or a git directory), then DIR itself as a
 * bare repository; discovery stops at a filesystem boundary as git's
 * does without GIT_DISCOVERY_ACROSS_FILESYSTEM.  Sets *@git_dir and
 * *@work_tree (NULL when found bare). */
static gboolean discover(const char *start, char **git_dir, char **work_tree,
			 GError **error)
{
	g_autofree char *dir = real_path(start);
	GStatBuf st;
	dev_t device;

	if (!dir || g_stat(dir, &st) < 0) {
		int e = errno;

		g_set_error(error, GITREPO_ERROR,
			    GITREPO_ERROR_NOT_A_REPOSITORY,
			    "cannot change to '%s': %s", start, g_strerror(e));
		return FALSE;
	}
	device = st.st_dev;
	for (;;) {
		g_autofree char *dot_git = g_build_filename(dir, ".git", NULL);
		char *slash;

		if (g_stat(dot_git, &st) == 0) {
			if (S_ISREG(st.st_mode)) {
				*git_dir = read_gitfile(dot_git, error);
				if (!*git_dir)
					return FALSE;
				*work_tree = g_strdup(dir);
				return TRUE;
			}
			if (is_git_directory(dot_git)) {
				*git_dir = g_strdup(dot_git);
				*work_tree = g_strdup(dir);
				return TRUE;
			}
		}
		if (is_git_directory(dir)) {
			*git_dir = g_strdup(dir);
			*work_tree = NULL;
			return TRUE;
		}
		slash = strrchr(dir, '/');
		if (!slash || slash == dir) {
			if (!strcmp(dir, "/"))
				break;
			dir[1] = '\0';
		} else {
			*slash = '\0';
		}
		if (g_stat(dir, &st) < 0 || st.st_dev != device)
			break;
	}
	g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_NOT_A_REPOSITORY,
		    "not a git repository (or any of the parent "
		    "directories): %s",
		    start);
	return FALSE;
}

struct gitrepo *gitrepo_open(const char *path, GError **error)
{
	struct repo_private *p = g_new0(struct repo_private, 1);
	g_autoptr(gitrepo) repo = &p->pub;
	struct config cfg = { .bare = -1 };
	g_autofree char *work_tree = NULL;
	g_autofree char *config = NULL;
	g_autofree char *objects = NULL;
	gboolean ok;

	if (!discover(path, &repo->git_dir, &work_tree, error))
		return NULL;
	repo->common_dir = common_dir_of(repo->git_dir);
	if (!repo->common_dir) {
		g_set_error(error, GITREPO_ERROR,
			    GITREPO_ERROR_NOT_A_REPOSITORY,
			    "%s: commondir does not exist", repo->git_dir);
		return NULL;
	}
	config = g_build_filename(repo->common_dir, "config", NULL);
	ok = config_read(&cfg, config, error);
	if (ok && cfg.worktree_config) {
		g_autofree char *wt_config = g_build_filename(
			repo->git_dir, "config.worktree", NULL);

		ok = config_read(&cfg, wt_config, error);
	}
	if (ok && cfg.version > 1) {
		g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_UNSUPPORTED,
			    "%s: expected git repo version <= 1, found %d",
			    repo->git_dir, cfg.version);
		ok = FALSE;
	}
	if (ok && cfg.object_format && strcmp(cfg.object_format, "sha1")) {
		g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_UNSUPPORTED,
			    "%s: object format '%s' is not supported "
			    "(only sha1)",
			    repo->git_dir, cfg.object_format);
		ok = FALSE;
	}
	/* setup_discovered_git_dir(), setup_explicit_git_dir(): core.bare
	 * wins, then core.worktree (relative to the git dir), then the
	 * directory holding .git */
	if (ok && cfg.bare <= 0 && cfg.worktree) {
		g_autofree char *joined =
			g_path_is_absolute(cfg.worktree) ?
				g_strdup(cfg.worktree) :
				g_build_filename(repo->git_dir, cfg.worktree,
						 NULL);

		g_free(work_tree);
		work_tree = real_path(joined);
		if (!work_tree) {
			g_set_error(error, GITREPO_ERROR,
				    GITREPO_ERROR_NOT_A_REPOSITORY,
				    "cannot chdir to '%s': %s", joined,
				    g_strerror(errno));
			ok = FALSE;
		}
	}
	g_free(cfg.object_format);
	g_free(cfg.worktree);
	if (!ok)
		return NULL;
	if (cfg.bare <= 0 && work_tree)
		repo->work_tree = g_str_has_suffix(work_tree, "/") ?
					  g_strdup(work_tree) :
					  g_strconcat(work_tree, "/", NULL);
	objects = g_build_filename(repo->common_dir, "objects", NULL);
	repo->odb = gitodb_open(objects, error);
	if (!repo->odb)
		return NULL;
	return g_steal_pointer(&repo);
}

/* ---- refs (refs.c, refs/files-backend.c, refs/packed-backend.c) ---- */

/* refs.c refname_disposition[]: 0 ok, 1 end of component, 2 '.',
 * 3 '{', 4 never allowed, 5 '*' */
static int refname_disposition(unsigned char c)
{
	if (c == '\0' || c == '/')
		return 1;
	if (c < 0x20 || c == 0x7f || c == ' ' || c == ':' || c == '?' ||
	    c == '[' || c == '\\' || c == '^' || c == '~')
		return 4;
	if (c == '.')
		return 2;
	if (c == '{')
		return 3;
	if (c == '*')
		return 5;
	return 0;
}

/* check_refname_format(refname, REFNAME_ALLOW_ONELEVEL) */
gboolean gitrepo_refname_valid(const char *refname)
{
	const char *cp;

	if (!strcmp(refname, "@"))
		return FALSE;
	for (;;) {
		const char *start = refname;
		char last = '\0';
		gsize len;

		for (cp = refname;; cp++) {
			int disp = refname_disposition((unsigned char)*cp);

			if (disp == 1)
				break;
			if (disp == 2 && last == '.')
				return FALSE;
			if (disp == 3 && last == '@')
				return FALSE;
			if (disp == 4 || disp == 5)
				return FALSE;
			last = *cp;
		}
		len = cp - start;
		if (!len || start[0] == '.')
			return FALSE;
		if (len >= 5 && !memcmp(cp - 5, ".lock", 5))
			return FALSE;
		if (!*cp) {
			if (cp[-1] == '.')
				return FALSE;
			return TRUE;
		}
		refname = cp + 1;
	}
}

/* is_pseudoref_syntax(): "HEAD", "ORIG_HEAD", ... */
static gboolean pseudoref_syntax(const char *name)
{
	for (; *name; name++)
		if (!g_ascii_isupper(*name) && *name != '-' && *name != '_')
			return FALSE;
	return TRUE;
}

/* files_ref_path(): per-worktree refs in the git dir, the rest in the
 * common dir (ref_type() of git 2.39) */
static char *ref_path(struct gitrepo *repo, const char *refname)
{
	const char *rest;

	if (g_str_has_prefix(refname, "refs/worktree/") ||
	    g_str_has_prefix(refname, "refs/bisect/") ||
	    g_str_has_prefix(refname, "refs/rewritten/") ||
	    pseudoref_syntax(refname))
		return g_build_filename(repo->git_dir, refname, NULL);
	if (g_str_has_prefix(refname, "main-worktree/")) {
		rest = refname + strlen("main-worktree/");
		if (*rest && pseudoref_syntax(rest))
			return g_build_filename(repo->common_dir, rest, NULL);
	}
	if (g_str_has_prefix(refname, "worktrees/")) {
		const char *slash;

		rest = refname + strlen("worktrees/");
		slash = strchr(rest, '/');
		if (slash && slash != rest && pseudoref_syntax(slash + 1))
			return g_build_filename(repo->common_dir, refname,
						NULL);
	}
	return g_build_filename(repo->common_dir, refname, NULL);
}

static gboolean hex_prefix_ok(const char *p)
{
	int i;

	for (i = 0; i < GITOID_HEXSZ; i++)
		if (!g_ascii_isxdigit(p[i]))
			return FALSE;
	return TRUE;
}

static gboolean oid_from_hex_n(struct gitoid *out, const char *p)
{
	char hex[GITOID_HEXSZ + 1];

	if (!hex_prefix_ok(p))
		return FALSE;
	memcpy(hex, p, GITOID_HEXSZ);
	hex[GITOID_HEXSZ] = '\0';
	return gitoid_from_hex(out, hex);
}

static int packed_record_cmp(gconstpointer a, gconstpointer b)
{
	const char *x = *(const char *const *)a + GITOID_HEXSZ + 1;
	const char *y = *(const char *const *)b + GITOID_HEXSZ + 1;

	for (; *x != '\n' && *x == *y; x++, y++)
		;
	if (*x == '\n')
		return *y == '\n' ? 0 : -1;
	if (*y == '\n')
		return 1;
	return (unsigned char)*x - (unsigned char)*y;
}

/* create_snapshot(): the optional "# pack-refs with:" header, then
 * "<hex> <refname>\n" records, each perhaps followed by its peeled
 * "^<hex>\n"; every line must end in a newline */
static gboolean packed_load(struct gitrepo *repo, GError **error)
{
	struct repo_private *p = priv(repo);
	g_autofree char *file = NULL;
	g_autoptr(GError) local = NULL;
	const char *s, *end;

	if (p->packed_loaded) {
		if (p->packed_error) {
			g_propagate_error(error, g_error_copy(p->packed_error));
			return FALSE;
		}
		return TRUE;
	}
	p->packed_loaded = TRUE;
	file = g_build_filename(repo->common_dir, "packed-refs", NULL);
	p->packed_records = g_ptr_array_new();
	if (!g_file_get_contents(file, &p->packed, &p->packed_size, &local)) {
		if (!g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			p->packed_error = g_steal_pointer(&local);
			g_propagate_error(error, g_error_copy(p->packed_error));
			return FALSE;
		}
		return TRUE;
	}
	s = p->packed;
	end = s + p->packed_size;
	if (s < end && end[-1] != '\n') {
		g_set_error(&p->packed_error, GITREPO_ERROR,
			    GITREPO_ERROR_CORRUPT, "unterminated line in %s",
			    file);
		g_propagate_error(error, g_error_copy(p->packed_error));
		return FALSE;
	}
	if (s < end && *s == '#') {
		if (!g_str_has_prefix(s, "# pack-refs with:"))
			goto bad;
		s = memchr(s, '\n', end - s) + 1;
	}
	while (s < end) {
		const char *eol = memchr(s, '\n', end - s);

		if (*s == '^') {
			if (!p->packed_records->len ||
			    eol - s != GITOID_HEXSZ + 1 ||
			    !hex_prefix_ok(s + 1))
				goto bad;
		} else {
			if (eol - s < GITOID_HEXSZ + 2 || !hex_prefix_ok(s) ||
			    s[GITOID_HEXSZ] != ' ')
				goto bad;
			g_ptr_array_add(p->packed_records, (gpointer)s);
		}
		s = eol + 1;
	}
	/* git writes them sorted; sort_snapshot() sorts any that are not */
	g_ptr_array_sort(p->packed_records, packed_record_cmp);
	return TRUE;
bad:
	g_set_error(&p->packed_error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT,
		    "unexpected line in %s: %.*s", file,
		    (int)((const char *)memchr(s, '\n', end - s) - s), s);
	g_propagate_error(error, g_error_copy(p->packed_error));
	g_ptr_array_set_size(p->packed_records, 0);
	return FALSE;
}

/* FALSE when @refname is not packed; an error only for a bad file */
static gboolean packed_find(struct gitrepo *repo, const char *refname,
			    struct gitoid *out, gboolean *found, GError **error)
{
	struct repo_private *p = priv(repo);
	guint lo = 0, hi;
	gsize len = strlen(refname);

	*found = FALSE;
	if (!packed_load(repo, error))
		return FALSE;
	hi = p->packed_records->len;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		const char *rec = p->packed_records->pdata[mid];
		const char *name = rec + GITOID_HEXSZ + 1;
		const char *eol =
			memchr(name, '\n', p->packed + p->packed_size - name);
		gsize nlen = eol - name;
		int cmp = memcmp(refname, name, MIN(len, nlen));

		if (!cmp)
			cmp = len < nlen ? -1 : len > nlen ? 1 : 0;
		if (!cmp) {
			*found = oid_from_hex_n(out, rec);
			return TRUE;
		}
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return TRUE;
}

enum raw_ref { RAW_MISSING, RAW_OID, RAW_SYMREF, RAW_BROKEN };

/* files_read_raw_ref(): the loose file (a symlink into refs/ is a
 * symbolic ref), else the packed ref */
static enum raw_ref read_raw_ref(struct gitrepo *repo, const char *refname,
				 struct gitoid *oid, char **target,
				 GError **error)
{
	g_autofree char *path = ref_path(repo, refname);
	g_autofree char *buf = NULL;
	gboolean found;
	GStatBuf st;
	gsize len;
	char *s;

	if (g_lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		g_autofree char *link = g_file_read_link(path, NULL);

		if (link && g_str_has_prefix(link, "refs/") &&
		    gitrepo_refname_valid(link)) {
			*target = g_steal_pointer(&link);
			return RAW_SYMREF;
		}
	}
	if (g_stat(path, &st) < 0 || S_ISDIR(st.st_mode)) {
		if (!packed_find(repo, refname, oid, &found, error))
			return RAW_BROKEN;
		return found ? RAW_OID : RAW_MISSING;
	}
	if (!g_file_get_contents(path, &buf, &len, NULL))
		return RAW_BROKEN;
	/* strbuf_rtrim(), then parse_loose_ref_contents() */
	while (len && g_ascii_isspace(buf[len - 1]))
		buf[--len] = '\0';
	if (strlen(buf) != len)
		return RAW_BROKEN;
	if (g_str_has_prefix(buf, "ref:")) {
		s = buf + 4;
		while (g_ascii_isspace(*s))
			s++;
		*target = g_strdup(s);
		return RAW_SYMREF;
	}
	/* FETCH_HEAD has more after the id */
	if (len < GITOID_HEXSZ || !oid_from_hex_n(oid, buf) ||
	    (buf[GITOID_HEXSZ] && !g_ascii_isspace(buf[GITOID_HEXSZ])))
		return RAW_BROKEN;
	return RAW_OID;
}

/* refs_resolve_ref_unsafe(..., RESOLVE_REF_READING, ...): FALSE when
 * the ref does not exist, is broken or dangles; an error only when the
 * repository cannot be read */
static gboolean resolve_ref(struct gitrepo *repo, const char *refname,
			    struct gitoid *out, gboolean *found, GError **error)
{
	g_autofree char *name = g_strdup(refname);
	int depth;

	*found = FALSE;
	if (!gitrepo_refname_valid(name))
		return TRUE;
	for (depth = 0; depth < SYMREF_MAXDEPTH; depth++) {
		g_autofree char *target = NULL;
		g_autoptr(GError) local = NULL;

		switch (read_raw_ref(repo, name, out, &target, &local)) {
		case RAW_OID:
			*found = TRUE;
			return TRUE;
		case RAW_MISSING:
			return TRUE;
		case RAW_BROKEN:
			if (local) {
				g_propagate_error(error,
						  g_steal_pointer(&local));
				return FALSE;
			}
			return TRUE;
		case RAW_SYMREF:
			if (!gitrepo_refname_valid(target))
				return TRUE;
			g_free(name);
			name = g_steal_pointer(&target);
			break;
		}
	}
	return TRUE;
}

/* expand_ref() with refs.c ref_rev_parse_rules: the first that
 * resolves wins (git warns when more than one do) */
static gboolean dwim_ref(struct gitrepo *repo, const char *str, gsize len,
			 struct gitoid *out, gboolean *found, GError **error)
{
	static const char *const rules[] = {
		"%.*s",
		"refs/%.*s",
		"refs/tags/%.*s",
		"refs/heads/%.*s",
		"refs/remotes/%.*s",
		"refs/remotes/%.*s/HEAD",
	};
	gsize i;

	*found = FALSE;
	for (i = 0; i < G_N_ELEMENTS(rules); i++) {
		g_autofree char *full =
			g_strdup_printf(rules[i], (int)len, str);

		if (!resolve_ref(repo, full, out, found, error))
			return FALSE;
		if (*found)
			return TRUE;
	}
	return TRUE;
}

/* ---- objects ---- */

gboolean gitrepo_peel(struct gitrepo *repo, const struct gitoid *oid,
		      enum gitobj_type type, struct gitoid *out, GError **error)
{
	struct gitoid cur = *oid;

	/* peel_to_type(); GITOBJ_NONE peels tags only (deref_tag()).  Each
	 * object is read whole, once, as git's parse_object() does (gitodb
	 * keeps commits, tags and trees read for the next step) */
	for (;;) {
		g_autoptr(GBytes) data = NULL;
		enum gitobj_type t;
		char hex[GITOID_HEXSZ + 1];

		data = gitodb_read(repo->odb, &cur, &t, error);
		if (!data)
			return FALSE;
		if (t == type || (type == GITOBJ_NONE && t != GITOBJ_TAG)) {
			*out = cur;
			return TRUE;
		}
		if (t == GITOBJ_TAG) {
			enum gitobj_type target_type;

			if (!gittag_parse(&cur, &target_type, data, error))
				return FALSE;
			continue;
		}
		/* peel_to_type() goes from a commit to its tree whatever
		 * the type wanted, without reading the tree, and fails
		 * there for a blob or a tag */
		if (t == GITOBJ_COMMIT && type != GITOBJ_NONE) {
			struct gitcommit c;

			if (!gitcommit_parse(&c, data, error)) {
				gitoid_to_hex(&cur, hex);
				g_prefix_error(error, "commit %s: ", hex);
				return FALSE;
			}
			cur = c.tree;
			gitcommit_clear(&c);
			if (type == GITOBJ_TREE) {
				*out = cur;
				return TRUE;
			}
			continue;
		}
		gitoid_to_hex(oid, hex);
		g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT,
			    "%s: expected %s type, but the object "
			    "dereferences to %s type",
			    hex, gitobj_type_name(type), gitobj_type_name(t));
		return FALSE;
	}
}

gboolean gitrepo_commit(struct gitrepo *repo, const struct gitoid *oid,
			struct gitcommit *out, GError **error)
{
	g_autoptr(GBytes) data = NULL;
	enum gitobj_type type;
	char hex[GITOID_HEXSZ + 1];

	data = gitodb_read(repo->odb, oid, &type, error);
	if (!data)
		return FALSE;
	gitoid_to_hex(oid, hex);
	if (type != GITOBJ_COMMIT) {
		g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_CORRUPT,
			    "object %s is a %s, not a commit", hex,
			    gitobj_type_name(type));
		return FALSE;
	}
	if (!gitcommit_parse(out, data, error)) {
		g_prefix_error(error, "commit %s: ", hex);
		return FALSE;
	}
	return TRUE;
}

/* ---- revisions (object-name.c) ---- */

static gboolean get_oid_1(struct gitrepo *repo, const char *name, gsize len,
			  struct gitoid *out, GError **error);

static void set_bad(GError **error, const char *name, gsize len)
{
	g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_BAD_REVISION,
		    "unknown revision '%.*s'", (int)len, name);
}

/* peel_onion(): NAME^{type}; -1 when @name does not end so */
static int peel_onion(struct gitrepo *repo, const char *name, gsize len,
		      struct gitoid *out, GError **error)
{
	const char *sp;
	enum gitobj_type type;
	gboolean any = FALSE;
	struct gitoid outer;

	if (len < 4 || name[len - 1] != '}')
		return -1;
	for (sp = name + len - 1; sp > name; sp--)
		if (*sp == '{' && sp[-1] == '^')
			break;
	if (sp <= name)
		return -1;
	sp++;
	if (g_str_has_prefix(sp, "commit}"))
		type = GITOBJ_COMMIT;
	else if (g_str_has_prefix(sp, "tag}"))
		type = GITOBJ_TAG;
	else if (g_str_has_prefix(sp, "tree}"))
		type = GITOBJ_TREE;
	else if (g_str_has_prefix(sp, "blob}"))
		type = GITOBJ_BLOB;
	else if (g_str_has_prefix(sp, "object}"))
		any = TRUE, type = GITOBJ_NONE;
	else if (sp[0] == '}')
		type = GITOBJ_NONE;
	else if (sp[0] == '/') {
		g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_UNSUPPORTED,
			    "'^{/text}' is not supported");
		return 0;
	} else
		return -1;
	if (!get_oid_1(repo, name, sp - name - 2, &outer, error))
		return 0;
	if (any) {
		/* parse_object(): it must exist */
		if (!gitodb_read_header(repo->odb, &outer, NULL, NULL, error))
			return 0;
		*out = outer;
		return 1;
	}
	return gitrepo_peel(repo, &outer, type, out, error) ? 1 : 0;
}

/* get_nth_ancestor() and get_parent(): the commit NAME peels to, then
 * @n first parents up (~) or its @n-th parent (^, ^0 itself) */
static gboolean walk_up(struct gitrepo *repo, const char *name, gsize len,
			char kind, unsigned n, struct gitoid *out,
			GError **error)
{
	struct gitoid oid;
	unsigned steps = kind == '^' ? MIN(n, 1) : n;

	if (!get_oid_1(repo, name, len, &oid, error))
		return FALSE;
	if (!gitrepo_peel(repo, &oid, GITOBJ_COMMIT, &oid, error))
		return FALSE;
	while (steps--) {
		struct gitcommit c;
		guint nth = kind == '^' ? n : 1;
		gboolean ok;

		if (!gitrepo_commit(repo, &oid, &c, error))
			return FALSE;
		ok = c.parents->len >= nth;
		if (ok)
			oid = g_array_index(c.parents, struct gitoid, nth - 1);
		gitcommit_clear(&c);
		if (!ok) {
			g_set_error(error, GITREPO_ERROR,
				    GITREPO_ERROR_BAD_REVISION,
				    "'%.*s' has no %s %u", (int)len, name,
				    kind == '^' ? "parent" : "ancestor", n);
			return FALSE;
		}
	}
	*out = oid;
	return TRUE;
}

/* ambiguous_path(): empty components, a leading or trailing slash */
static gboolean ambiguous_path(const char *path, gsize len)
{
	gboolean slash = TRUE;
	gsize i;

	for (i = 0; i < len; i++) {
		switch (path[i]) {
		case '\0':
			return slash;
		case '/':
			if (slash)
				return slash;
			slash = TRUE;
			continue;
		case '.':
			continue;
		default:
			slash = FALSE;
			continue;
		}
	}
	return slash;
}

/* get_short_oid() without a type hint: 4 to 40 hex digits naming
 * exactly one object */
static gboolean short_oid(struct gitrepo *repo, const char *name, gsize len,
			  struct gitoid *out, gboolean *tried, GError **error)
{
	g_autofree char *hex = NULL;
	gsize i;

	*tried = FALSE;
	if (len < 4 || len > GITOID_HEXSZ)
		return FALSE;
	for (i = 0; i < len; i++)
		if (!g_ascii_isxdigit(name[i]))
			return FALSE;
	*tried = TRUE;
	hex = g_ascii_strdown(name, len);
	return gitodb_resolve_prefix(repo->odb, hex, out, error);
}

/* get_oid_basic(), get_describe_name() and get_short_oid() in turn */
static gboolean get_oid_basic(struct gitrepo *repo, const char *str, gsize len,
			      struct gitoid *out, GError **error)
{
	gboolean found, tried;
	const char *cp;
	g_autoptr(GError) local = NULL;

	/* a full hex id is an id, whether or not the object exists */
	if (len == GITOID_HEXSZ && oid_from_hex_n(out, str))
		return TRUE;
	if (g_strstr_len(str, len, "@{")) {
		g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_UNSUPPORTED,
			    "'%.*s': reflogs, upstreams and @{-N} are not "
			    "supported",
			    (int)len, str);
		return FALSE;
	}
	if (!(len && ambiguous_path(str, len))) {
		/* interpret_empty_at(): "@" alone is "HEAD" */
		if (len == 1 && str[0] == '@')
			str = "HEAD", len = 4;
		if (!dwim_ref(repo, str, len, out, &found, error))
			return FALSE;
		if (found)
			return TRUE;
	}
	/* describe output "SOMETHING-gXXXX": git hints "commit" to its
	 * get_short_oid(), which only matters among several objects with
	 * that prefix; those stay ambiguous here */
	for (cp = str + len - 1; len >= 3 && str + 2 <= cp; cp--) {
		if (g_ascii_isxdigit(*cp))
			continue;
		if (*cp == 'g' && cp[-1] == '-' &&
		    short_oid(repo, cp + 1, str + len - cp - 1, out, &tried,
			      NULL))
			return TRUE;
		break;
	}
	if (short_oid(repo, str, len, out, &tried, &local))
		return TRUE;
	if (tried && local)
		g_propagate_error(error, g_steal_pointer(&local));
	else
		set_bad(error, str, len);
	return FALSE;
}

/* get_oid_1(): the suffixes are taken off from the right */
static gboolean get_oid_1(struct gitrepo *repo, const char *name, gsize len,
			  struct gitoid *out, GError **error)
{
	const char *cp;
	char suffix = 0;
	int ret;

	if (len && name[len - 1] == '}') {
		ret = peel_onion(repo, name, len, out, error);
		if (ret >= 0)
			return ret > 0;
	}
	for (cp = name + len; cp > name; cp--) {
		char ch = cp[-1];

		if (ch >= '0' && ch <= '9')
			continue;
		if (ch == '~' || ch == '^')
			suffix = ch;
		break;
	}
	if (suffix) {
		gsize len1 = cp - 1 - name;
		guint64 num = 0;
		const char *d;

		for (d = cp; d < name + len; d++) {
			num = num * 10 + (guint64)(*d - '0');
			if (num > INT_MAX) {
				set_bad(error, name, len);
				return FALSE;
			}
		}
		/* "X^" and "X~" mean one; "X^0" is the commit itself */
		if (cp == name + len)
			num = 1;
		return walk_up(repo, name, len1, suffix, (unsigned)num, out,
			       error);
	}
	return get_oid_basic(repo, name, len, out, error);
}

gboolean gitrepo_revparse(struct gitrepo *repo, const char *spec,
			  struct gitoid *out, GError **error)
{
	g_autoptr(GError) local = NULL;
	const char *cp;
	int depth = 0;

	/* get_oid_with_context_1(): ":path", ":N:path", ":/text" and
	 * "TREE:path" (a ':' outside braces) name blobs in the index or a
	 * tree, which a diff of two trees never needs */
	for (cp = spec; *cp; cp++) {
		if (*cp == '{')
			depth++;
		else if (depth && *cp == '}')
			depth--;
		else if (!depth && *cp == ':')
			break;
	}
	if (*cp == ':') {
		g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_UNSUPPORTED,
			    "bad revision '%s': the ':path' syntax is not "
			    "supported",
			    spec);
		return FALSE;
	}
	if (!get_oid_1(repo, spec, strlen(spec), out, &local)) {
		/* a missing object or an ambiguous prefix is a bad
		 * revision; a corrupt database stays what it is */
		if (local->domain == GITODB_ERROR &&
		    (local->code == GITODB_ERROR_NOT_FOUND ||
		     local->code == GITODB_ERROR_AMBIGUOUS)) {
			local->domain = GITREPO_ERROR;
			local->code = GITREPO_ERROR_BAD_REVISION;
		}
		g_propagate_prefixed_error(error, g_steal_pointer(&local),
					   "bad revision '%s': ", spec);
		return FALSE;
	}
	return TRUE;
}

/* ---- commit walks (commit-reach.c, revision.c) ---- */

/* object flags as git's revision.h and commit-reach.c number them */
#define SEEN (1u << 0)
#define UNINTERESTING (1u << 1)
#define SHOWN (1u << 3)
#define ADDED (1u << 7)
#define PARENT1 (1u << 16)
#define PARENT2 (1u << 17)
#define STALE (1u << 18)
#define RESULT (1u << 19)

struct node {
	struct gitoid oid;
	gint64 date;
	GPtrArray *parents; /* of struct node *; NULL until parsed */
	guint flags;
	int indegree;
};

/* The commits one walk has met, as git's object hash of struct commit. */
struct walk {
	struct gitrepo *repo;
	GHashTable *nodes; /* struct gitoid * -> struct node *, owned */
};

static void node_free(gpointer data)
{
	struct node *n = data;

	g_clear_pointer(&n->parents, g_ptr_array_unref);
	g_free(n);
}

static void walk_init(struct walk *w, struct gitrepo *repo)
{
	w->repo = repo;
	w->nodes = g_hash_table_new_full(gitoid_key_hash, gitoid_key_equal,
					 NULL, node_free);
}

static void walk_clear(struct walk *w)
{
	g_hash_table_unref(w->nodes);
}

/* lookup_commit(): the node for @oid, not parsed yet when new */
static struct node *walk_node(struct walk *w, const struct gitoid *oid)
{
	struct node *n = g_hash_table_lookup(w->nodes, oid);

	if (!n) {
		n = g_new0(struct node, 1);
		n->oid = *oid;
		g_hash_table_insert(w->nodes, &n->oid, n);
	}
	return n;
}

/* repo_parse_commit(): the date and the parents */
static gboolean walk_parse(struct walk *w, struct node *n, GError **error)
{
	struct gitcommit c;
	guint i;

	if (n->parents)
		return TRUE;
	if (!gitrepo_commit(w->repo, &n->oid, &c, error))
		return FALSE;
	n->date = c.committer_time;
	n->parents = g_ptr_array_sized_new(c.parents->len);
	for (i = 0; i < c.parents->len; i++)
		g_ptr_array_add(n->parents,
				walk_node(w, &g_array_index(c.parents,
							    struct gitoid, i)));
	gitcommit_clear(&c);
	return TRUE;
}

static void walk_clear_flags(struct walk *w)
{
	GHashTableIter it;
	gpointer value;

	g_hash_table_iter_init(&it, w->nodes);
	while (g_hash_table_iter_next(&it, NULL, &value))
		((struct node *)value)->flags = 0;
}

/* git's prio_queue ordered by compare_commits_by_commit_date(): newest
 * first, and among equal dates the one queued first */
struct queue_item {
	struct node *n;
	guint64 ctr;
};

struct queue {
	GArray *items;
	guint64 ctr;
};

static gboolean queue_before(const struct queue_item *a,
			     const struct queue_item *b)
{
	if (a->n->date != b->n->date)
		return a->n->date > b->n->date;
	return a->ctr < b->ctr;
}

static void queue_put(struct queue *q, struct node *n)
{
	struct queue_item item = { n, q->ctr++ };
	struct queue_item *a;
	guint i;

	g_array_append_val(q->items, item);
	a = (struct queue_item *)q->items->data;
	for (i = q->items->len - 1; i; i = (i - 1) / 2) {
		struct queue_item tmp;

		if (!queue_before(&a[i], &a[(i - 1) / 2]))
			break;
		tmp = a[i];
		a[i] = a[(i - 1) / 2];
		a[(i - 1) / 2] = tmp;
	}
}

static struct node *queue_get(struct queue *q)
{
	struct queue_item *a = (struct queue_item *)q->items->data;
	struct node *top;
	guint i = 0, len = q->items->len;

	if (!len)
		return NULL;
	top = a[0].n;
	a[0] = a[--len];
	g_array_set_size(q->items, len);
	for (;;) {
		guint l = 2 * i + 1, best = i;
		struct queue_item tmp;

		if (l < len && queue_before(&a[l], &a[best]))
			best = l;
		if (l + 1 < len && queue_before(&a[l + 1], &a[best]))
			best = l + 1;
		if (best == i)
			break;
		tmp = a[i];
		a[i] = a[best];
		a[best] = tmp;
		i = best;
	}
	return top;
}

static gboolean queue_has_nonstale(struct queue *q)
{
	guint i;

	for (i = 0; i < q->items->len; i++)
		if (!(g_array_index(q->items, struct queue_item, i).n->flags &
		      STALE))
			return TRUE;
	return FALSE;
}

/* commit_list_insert_by_date(): after every commit at least as new */
static GList *insert_by_date(GList *list, struct node *n)
{
	GList *l, *last = NULL;

	for (l = list; l; last = l, l = l->next)
		if (((struct node *)l->data)->date < n->date)
			break;
	if (!l) {
		GList *link = g_list_alloc();

		link->data = n;
		if (!last)
			return link;
		last->next = link;
		link->prev = last;
		return list;
	}
	return g_list_insert_before(list, l, n);
}

/* paint_down_to_common() without generation numbers: the commits
 * reachable from both, newest first, those below another one STALE */
static gboolean paint_down_to_common(struct walk *w, struct node *one,
				     struct node **twos, guint n,
				     GList **result, GError **error)
{
	struct queue q = { g_array_new(FALSE, FALSE, sizeof(struct queue_item)),
			   0 };
	gboolean ok = TRUE;
	guint i;

	*result = NULL;
	one->flags |= PARENT1;
	if (!n) {
		*result = g_list_append(NULL, one);
		g_array_unref(q.items);
		return TRUE;
	}
	queue_put(&q, one);
	for (i = 0; i < n; i++) {
		twos[i]->flags |= PARENT2;
		queue_put(&q, twos[i]);
	}
	while (ok && queue_has_nonstale(&q)) {
		struct node *c = queue_get(&q);
		guint flags = c->flags & (PARENT1 | PARENT2 | STALE);

		if (flags == (PARENT1 | PARENT2)) {
			if (!(c->flags & RESULT)) {
				c->flags |= RESULT;
				*result = insert_by_date(*result, c);
			}
			/* mark parents of a found merge stale */
			flags |= STALE;
		}
		for (i = 0; i < c->parents->len; i++) {
			struct node *p = c->parents->pdata[i];

			if ((p->flags & flags) == flags)
				continue;
			if (!walk_parse(w, p, error)) {
				ok = FALSE;
				break;
			}
			p->flags |= flags;
			queue_put(&q, p);
		}
	}
	g_array_unref(q.items);
	if (!ok)
		g_clear_pointer(result, g_list_free);
	return ok;
}

/* remove_redundant_no_gen(): drop the commits that are ancestors of
 * another in @array; keeps the order */
static gboolean remove_redundant(struct walk *w, GPtrArray *array,
				 GError **error)
{
	guint cnt = array->len, i, j;
	g_autofree gboolean *redundant = g_new0(gboolean, cnt);
	g_autofree struct node **work = g_new0(struct node *, cnt);
	g_autofree guint *filled_index = g_new0(guint, cnt);

	for (i = 0; i < cnt; i++) {
		struct node *a = array->pdata[i];
		GList *common = NULL;
		guint filled = 0;

		if (redundant[i])
			continue;
		for (j = 0; j < cnt; j++) {
			if (i == j || redundant[j])
				continue;
			filled_index[filled] = j;
			work[filled++] = array->pdata[j];
		}
		if (!paint_down_to_common(w, a, work, filled, &common, error))
			return FALSE;
		g_list_free(common);
		if (a->flags & PARENT2)
			redundant[i] = TRUE;
		for (j = 0; j < filled; j++)
			if (work[j]->flags & PARENT1)
				redundant[filled_index[j]] = TRUE;
		walk_clear_flags(w);
	}
	for (i = cnt; i-- > 0;)
		if (redundant[i])
			g_ptr_array_remove_index(array, i);
	return TRUE;
}

gboolean gitrepo_merge_base(struct gitrepo *repo, const struct gitoid *a,
			    const struct gitoid *b, struct gitoid *out,
			    GError **error)
{
	struct walk w;
	struct gitoid ca, cb;
	struct node *one, *two;
	GList *list = NULL, *result = NULL, *l;
	g_autoptr(GPtrArray) bases = NULL;
	gboolean ok = FALSE;

	if (!gitrepo_peel(repo, a, GITOBJ_COMMIT, &ca, error) ||
	    !gitrepo_peel(repo, b, GITOBJ_COMMIT, &cb, error))
		return FALSE;
	if (gitoid_equal(&ca, &cb)) {
		*out = ca;
		return TRUE;
	}
	walk_init(&w, repo);
	one = walk_node(&w, &ca);
	two = walk_node(&w, &cb);
	/* merge_bases_many() */
	if (!walk_parse(&w, one, error) || !walk_parse(&w, two, error) ||
	    !paint_down_to_common(&w, one, &two, 1, &list, error))
		goto done;
	for (l = list; l; l = l->next)
		if (!(((struct node *)l->data)->flags & STALE))
			result = insert_by_date(result, l->data);
	g_list_free(list);
	/* get_merge_bases_many_0(): when several, the redundant ones go
	 * and the rest are sorted by date again */
	bases = g_ptr_array_new();
	for (l = result; l; l = l->next)
		g_ptr_array_add(bases, l->data);
	g_clear_pointer(&result, g_list_free);
	walk_clear_flags(&w);
	if (bases->len > 1 && !remove_redundant(&w, bases, error))
		goto done;
	if (!bases->len) {
		char ha[GITOID_HEXSZ + 1], hb[GITOID_HEXSZ + 1];

		gitoid_to_hex(&ca, ha);
		gitoid_to_hex(&cb, hb);
		g_set_error(error, GITREPO_ERROR, GITREPO_ERROR_NO_MERGE_BASE,
			    "no merge base of %s and %s", ha, hb);
		goto done;
	}
	{
		guint i;

		for (i = 0; i < bases->len; i++)
			result = insert_by_date(result, bases->pdata[i]);
		*out = ((struct node *)result->data)->oid;
		g_list_free(result);
	}
	ok = TRUE;
done:
	walk_clear(&w);
	return ok;
}

/* mark_parents_uninteresting(): through the parents already parsed */
static void mark_parents_uninteresting(struct node *c)
{
	g_autoptr(GPtrArray) pending = g_ptr_array_new();
	guint i;

	if (c->parents)
		for (i = 0; i < c->parents->len; i++)
			g_ptr_array_add(pending, c->parents->pdata[i]);
	/* mark_one_parent_uninteresting() pushes parents in order and
	 * pops from the end */
	while (pending->len) {
		struct node *p =
			g_ptr_array_steal_index(pending, pending->len - 1);

		if (p->flags & UNINTERESTING)
			continue;
		p->flags |= UNINTERESTING;
		if (p->parents)
			for (i = 0; i < p->parents->len; i++)
				g_ptr_array_add(pending, p->parents->pdata[i]);
	}
}

/* process_parents() of a walk without pathspecs, into @list by date.
 * An uninteresting commit's parents that cannot be read are passed
 * over, as git parses them gently. */
static gboolean process_parents(struct walk *w, struct node *c, GList **list,
				GError **error)
{
	guint i;

	if (c->flags & ADDED)
		return TRUE;
	c->flags |= ADDED;
	if (c->flags & UNINTERESTING) {
		for (i = 0; i < c->parents->len; i++) {
			struct node *p = c->parents->pdata[i];

			p->flags |= UNINTERESTING;
			if (!walk_parse(w, p, NULL))
				continue;
			mark_parents_uninteresting(p);
			if (p->flags & SEEN)
				continue;
			p->flags |= SEEN;
			*list = insert_by_date(*list, p);
		}
		return TRUE;
	}
	for (i = 0; i < c->parents->len; i++) {
		struct node *p = c->parents->pdata[i];

		if (!walk_parse(w, p, error))
			return FALSE;
		if (p->flags & SEEN)
			continue;
		p->flags |= SEEN;
		*list = insert_by_date(*list, p);
	}
	return TRUE;
}

/* still_interesting() with revision.c's SLOP of five commits */
#define SLOP 5

static int still_interesting(GList *src, gint64 date, int slop,
			     struct node **interesting_cache)
{
	GList *l;

	if (!src)
		return 0;
	if (date <= ((struct node *)src->data)->date)
		return SLOP;
	/* everybody_uninteresting(), remembering the last interesting */
	if (*interesting_cache &&
	    !((*interesting_cache)->flags & UNINTERESTING))
		return SLOP;
	for (l = src; l; l = l->next)
		if (!(((struct node *)l->data)->flags & UNINTERESTING)) {
			*interesting_cache = l->data;
			return SLOP;
		}
	return slop - 1;
}

/* limit_list(): the commits of @list (by date) and their ancestors
 * until only uninteresting ones are left; in the order met */
static gboolean limit_list(struct walk *w, GList *list, GPtrArray *out,
			   GError **error)
{
	struct node *interesting_cache = NULL;
	int slop = SLOP;
	gint64 date = G_MAXINT64;
	gboolean ok = TRUE;

	while (list) {
		struct node *c = list->data;

		list = g_list_delete_link(list, list);
		if (c == interesting_cache)
			interesting_cache = NULL;
		if (!process_parents(w, c, &list, error)) {
			ok = FALSE;
			break;
		}
		if (c->flags & UNINTERESTING) {
			mark_parents_uninteresting(c);
			slop = still_interesting(list, date, slop,
						 &interesting_cache);
			if (slop)
				continue;
			break;
		}
		date = c->date;
		g_ptr_array_add(out, c);
	}
	g_list_free(list);
	return ok;
}

/* sort_in_topological_order() with REV_SORT_IN_GRAPH_ORDER: a LIFO
 * of the commits whose children are all out, the tips first in the
 * order the walk gave them */
static void topo_sort(GPtrArray *commits, GPtrArray *out)
{
	g_autoptr(GPtrArray) stack = g_ptr_array_new();
	guint i, j;

	for (i = 0; i < commits->len; i++)
		((struct node *)commits->pdata[i])->indegree = 1;
	for (i = 0; i < commits->len; i++) {
		struct node *c = commits->pdata[i];

		for (j = 0; j < c->parents->len; j++) {
			struct node *p = c->parents->pdata[j];

			if (p->indegree)
				p->indegree++;
		}
	}
	for (i = commits->len; i-- > 0;) {
		struct node *c = commits->pdata[i];

		if (c->indegree == 1)
			g_ptr_array_add(stack, c);
	}
	while (stack->len) {
		struct node *c = g_ptr_array_steal_index(stack, stack->len - 1);

		for (j = 0; j < c->parents->len; j++) {
			struct node *p = c->parents->pdata[j];

			if (!p->indegree)
				continue;
			if (--p->indegree == 1)
				g_ptr_array_add(stack, p);
		}
		c->indegree = 0;
		g_ptr_array_add(out, c);
	}
}

GArray *gitrepo_range(struct gitrepo *repo, const struct gitoid *from,
		      const struct gitoid *to, GError **error)
{
	struct walk w;
	struct gitoid cf, ct;
	struct node *nf, *nt;
	GList *list = NULL;
	g_autoptr(GPtrArray) limited = g_ptr_array_new();
	g_autoptr(GPtrArray) sorted = g_ptr_array_new();
	GArray *out = NULL;
	guint i;

	if (!gitrepo_peel(repo, from, GITOBJ_COMMIT, &cf, error) ||
	    !gitrepo_peel(repo, to, GITOBJ_COMMIT, &ct, error))
		return NULL;
	walk_init(&w, repo);
	nf = walk_node(&w, &cf);
	nt = walk_node(&w, &ct);
	/* handle_revision_arg() for "FROM..TO", then handle_commit() and
	 * prepare_revision_walk(): FROM and its parents uninteresting, both
	 * SEEN, sorted by date (a stable sort: FROM first on a tie) */
	nf->flags |= UNINTERESTING;
	if (!walk_parse(&w, nf, error) || !walk_parse(&w, nt, error))
		goto done;
	mark_parents_uninteresting(nf);
	nf->flags |= SEEN;
	list = g_list_append(list, nf);
	if (!(nt->flags & SEEN)) {
		nt->flags |= SEEN;
		list = nt->date > nf->date ? g_list_prepend(list, nt) :
					     g_list_append(list, nt);
	}
	if (!limit_list(&w, list, limited, error))
		goto done;
	topo_sort(limited, sorted);
	/* get_revision_1() skips what became uninteresting meanwhile;
	 * --reverse turns the list around */
	out = g_array_new(FALSE, FALSE, sizeof(struct gitoid));
	for (i = sorted->len; i-- > 0;) {
		struct node *c = sorted->pdata[i];

		if (c->flags & (UNINTERESTING | SHOWN))
			continue;
		c->flags |= SHOWN;
		g_array_append_val(out, c->oid);
	}
done:
	walk_clear(&w);
	return out;
}
