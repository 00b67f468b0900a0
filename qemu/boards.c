/* The board map and the choice of boards for a series: qemu/boards.h. */
#include <fnmatch.h>
#include <string.h>

#include "config/datadir.h"
#include "config/keyfile.h"
#include "qemu/boards.h"

#define BOARDS_ERROR (g_quark_from_static_string("boards-error"))
#define BOARDS_MAX 256

static const char *const board_keys[] = { "arch",     "machine", "base",
					  "fragment", "dtb",	 "console",
					  "memory",   "append",	 "paths",
					  "fallback", "boots",	 NULL };

static void board_free(gpointer p)
{
	struct board *b = p;

	g_free(b->name);
	g_free(b->arch);
	g_free(b->machine);
	g_free(b->base);
	g_strfreev(b->fragment);
	g_free(b->dtb);
	g_free(b->console);
	g_free(b->append);
	g_strfreev(b->paths);
	g_free(b->not_booting);
	g_free(b);
}

void board_map_free(struct board_map *map)
{
	if (!map)
		return;
	g_ptr_array_unref(map->boards);
	g_free(map);
}

/* A name, machine or console: letters, digits, '-', '_', '.', ',' only
 * (they end up on a qemu or kernel command line). */
static gboolean plain_word(const char *s)
{
	if (!s || !*s)
		return FALSE;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr("-_.,", *s))
			return FALSE;
	return TRUE;
}

/* Kernel command line words: plain words with '=', single spaces, at most
 * 256 characters (no quoting, nothing a shell or qemu would read). */
static gboolean cmdline_words(const char *s)
{
	if (!*s || strlen(s) > 256 || s[0] == ' ')
		return FALSE;
	for (; *s; s++) {
		if (*s == ' ' && (s[1] == ' ' || !s[1]))
			return FALSE;
		if (*s != ' ' && *s != '=' && !g_ascii_isalnum(*s) &&
		    !strchr("-_.,", *s))
			return FALSE;
	}
	return TRUE;
}

static struct board *board_read(struct keyfile *k, const char *group)
{
	struct board *b = g_new0(struct board, 1);
	g_autofree char *boots = NULL;

	b->name = g_strdup(group);
	if (!plain_word(group))
		keyfile_error(k, group, NULL,
			      "board name '%s' is not a plain word", group);
	b->arch = keyfile_string(k, group, "arch", NULL);
	if (!b->arch)
		keyfile_error(k, group, NULL, "board %s has no arch", group);
	else if (strcmp(b->arch, "arm") && strcmp(b->arch, "arm64"))
		keyfile_error(k, group, "arch",
			      "arch must be arm or arm64, not '%s'", b->arch);
	b->machine = keyfile_string(k, group, "machine", NULL);
	if (!plain_word(b->machine))
		keyfile_error(k, group, b->machine ? "machine" : NULL,
			      "board %s needs a machine (a plain word)", group);
	b->base = keyfile_string(k, group, "base", NULL);
	if (!plain_word(b->base))
		keyfile_error(k, group, b->base ? "base" : NULL,
			      "board %s needs a base config (a plain word)",
			      group);
	b->fragment = keyfile_list(k, group, "fragment");
	b->dtb = keyfile_string(k, group, "dtb", NULL);
	if (b->dtb &&
	    (!plain_word(b->dtb) || !g_str_has_suffix(b->dtb, ".dtb")))
		keyfile_error(k, group, "dtb", "dtb '%s' is not a NAME.dtb",
			      b->dtb);
	b->console = keyfile_string(k, group, "console", NULL);
	if (!plain_word(b->console))
		keyfile_error(k, group, b->console ? "console" : NULL,
			      "board %s needs a console (a plain word)", group);
	/* MiB; some machines take only their real RAM size (orangepi-pc:
	 * 1024) */
	b->mem_mb = keyfile_uint(k, group, "memory", 0, 16, 16384);
	/* kernel command line words the machine needs (vexpress-a9:
	 * maxcpus=1, its device tree names four CPUs that QEMU's one-CPU
	 * machine cannot start: a second lost on each) */
	b->append = keyfile_string(k, group, "append", NULL);
	if (b->append && !cmdline_words(b->append))
		keyfile_error(k, group, "append",
			      "append '%s' is not words of [A-Za-z0-9-_.,=]",
			      b->append);
	b->paths = keyfile_list(k, group, "paths");
	if (!b->paths || !b->paths[0])
		keyfile_error(k, group, NULL, "board %s has no paths", group);
	for (guint i = 0; b->paths && b->paths[i]; i++)
		if (b->paths[i][0] == '/' || strstr(b->paths[i], ".."))
			keyfile_error(
				k, group, "paths",
				"path '%s' is not relative to the tree top",
				b->paths[i]);
	b->fallback = keyfile_bool(k, group, "fallback", FALSE);
	boots = keyfile_string(k, group, "boots", NULL);
	if (!g_strcmp0(boots, "yes"))
		b->boots = TRUE;
	else if (boots && g_str_has_prefix(boots, "no: ") && boots[4])
		b->not_booting = g_strdup(boots + 4);
	else if (boots)
		keyfile_error(k, group, "boots",
			      "board %s needs boots = yes or boots = no: WHY",
			      group);
	return b;
}

struct board_map *board_map_parse(const char *origin, const char *data,
				  gsize len, GPtrArray **errors)
{
	g_autoptr(keyfile) k = keyfile_parse(origin, data, len);
	g_auto(GStrv) groups = g_key_file_get_groups(k->kf, NULL);
	guint n = g_strv_length(groups);
	g_autofree struct keyfile_group *specs = NULL;
	struct board_map *map = g_new0(struct board_map, 1);
	gboolean fallback_arm = FALSE, fallback_arm64 = FALSE;

	map->boards = g_ptr_array_new_with_free_func(board_free);
	if (n > BOARDS_MAX)
		keyfile_error(k, groups[BOARDS_MAX], NULL,
			      "more than %d boards", BOARDS_MAX);
	specs = g_new0(struct keyfile_group, MAX(n, 1));
	for (guint i = 0; i < n; i++) {
		specs[i].name = groups[i];
		specs[i].keys = board_keys;
	}
	keyfile_check_keys(k, specs, n);
	for (guint i = 0; groups[i] && i < BOARDS_MAX; i++) {
		struct board *b = board_read(k, groups[i]);
		gboolean *seen = b->arch && !strcmp(b->arch, "arm64") ?
					 &fallback_arm64 :
					 &fallback_arm;

		if (b->fallback) {
			if (*seen)
				keyfile_error(k, groups[i], "fallback",
					      "a second fallback board for %s",
					      b->arch);
			*seen = TRUE;
		}
		g_ptr_array_add(map->boards, b);
	}
	if (!k->errors->len && !n)
		g_ptr_array_add(k->errors,
				g_strdup_printf("%s: no fallback board for arm "
						"(no boards)",
						origin));
	else if (!k->errors->len && !fallback_arm)
		keyfile_error(k, groups[0], NULL, "no fallback board for arm");
	if (k->errors->len) {
		*errors = g_ptr_array_ref(k->errors);
		board_map_free(map);
		return NULL;
	}
	return map;
}

struct board_map *board_map_load(const char *path, GError **error)
{
	g_autofree char *data = NULL;
	g_autoptr(GPtrArray) errors = NULL;
	struct board_map *map;
	g_autofree char *installed = NULL;
	gsize len;

	if (!path)
		path = installed = g_build_filename(datadir_source_dir(),
						    BOARDS_CONF, NULL);
	if (!g_file_get_contents(path, &data, &len, error))
		return NULL;
	map = board_map_parse(path, data, len, &errors);
	if (!map) {
		g_autoptr(GString) all = g_string_new(NULL);

		for (guint i = 0; i < errors->len; i++)
			g_string_append_printf(all, "%s%s", i ? "\n" : "",
					       (char *)errors->pdata[i]);
		g_set_error(error, BOARDS_ERROR, 1, "%s", all->str);
	}
	return map;
}

const struct board *board_map_find(const struct board_map *map,
				   const char *name)
{
	for (guint i = 0; i < map->boards->len; i++) {
		const struct board *b = map->boards->pdata[i];

		if (!strcmp(b->name, name))
			return b;
	}
	return NULL;
}

gboolean board_glob_match(const char *glob, const char *path)
{
	if (g_str_has_suffix(glob, "/"))
		return g_str_has_prefix(path, glob);
	return fnmatch(glob, path, FNM_PATHNAME) == 0;
}

/* The first of @paths one of @b's globs matches, and the glob. */
static gboolean board_matches(const struct board *b, const char *const *paths,
			      guint n, const char **glob, const char **path)
{
	for (guint i = 0; b->paths && b->paths[i]; i++)
		for (guint j = 0; j < n; j++)
			if (board_glob_match(b->paths[i], paths[j])) {
				*glob = b->paths[i];
				*path = paths[j];
				return TRUE;
			}
	return FALSE;
}

static void choice_free(gpointer p)
{
	struct board_choice *c = p;

	g_free(c->reason);
	g_free(c);
}

static void choose(GPtrArray *out, const struct board *b, char *reason)
{
	struct board_choice *c = g_new0(struct board_choice, 1);

	c->board = b;
	c->reason = reason;
	g_ptr_array_add(out, c);
}

GPtrArray *board_select(const struct board_map *map, const char *const *paths,
			guint n)
{
	return board_select_with(map, paths, n, NULL, NULL);
}

/* The first of @paths @match says selects @b, and why. */
static char *board_match_other(const struct board *b, const char *const *paths,
			       guint n, board_match_func match, gpointer data,
			       const char **path)
{
	for (guint j = 0; match && j < n; j++) {
		char *why = match(b, paths[j], data);

		if (why) {
			*path = paths[j];
			return why;
		}
	}
	return NULL;
}

GPtrArray *board_select_with(const struct board_map *map,
			     const char *const *paths, guint n,
			     board_match_func match, gpointer data)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(choice_free);
	gboolean arm = FALSE, arm64 = FALSE;
	const char *glob, *path;

	for (guint i = 0; i < map->boards->len; i++) {
		const struct board *b = map->boards->pdata[i];
		g_autofree char *why = NULL;

		if (b->fallback)
			continue;
		if (board_matches(b, paths, n, &glob, &path))
			why = g_strdup(glob);
		else
			why = board_match_other(b, paths, n, match, data,
						&path);
		if (!why)
			continue;
		*(strcmp(b->arch, "arm64") ? &arm : &arm64) = TRUE;
		choose(out, b,
		       g_strdup_printf("touches %s (%s) → %s", path, why,
				       b->name));
	}
	for (guint i = 0; i < map->boards->len; i++) {
		const struct board *b = map->boards->pdata[i];
		gboolean is64 = !strcmp(b->arch, "arm64");

		if (!b->fallback || (is64 ? arm64 : arm) ||
		    !board_matches(b, paths, n, &glob, &path))
			continue;
		*(is64 ? &arm64 : &arm) = TRUE;
		choose(out, b,
		       g_strdup_printf("touches %s, no board more specific → %s",
				       path, b->name));
	}
	if (out->len)
		return out;
	for (guint i = 0; i < map->boards->len; i++) {
		const struct board *b = map->boards->pdata[i];

		if (b->fallback && !strcmp(b->arch, "arm")) {
			choose(out, b,
			       g_strdup_printf("no board-specific path → %s",
					       b->name));
			break;
		}
	}
	return out;
}
