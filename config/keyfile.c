/* Key files with line numbers; see config/keyfile.h. */
#include "config/keyfile.h"

#include <string.h>

static char *line_key(const char *group, const char *key)
{
	return key ? g_strconcat(group, "\n", key, NULL) : g_strdup(group);
}

guint keyfile_line(const struct keyfile *k, const char *group, const char *key)
{
	g_autofree char *id = line_key(group, key);

	return GPOINTER_TO_UINT(g_hash_table_lookup(k->lines, id));
}

static void add_error_at(struct keyfile *k, guint line, const char *message)
{
	if (line)
		g_ptr_array_add(k->errors,
				g_strdup_printf("%s:%u: %s", k->origin, line,
						message));
	else
		g_ptr_array_add(k->errors,
				g_strdup_printf("%s: %s", k->origin, message));
}

void keyfile_error(struct keyfile *k, const char *group, const char *key,
		   const char *format, ...)
{
	g_autofree char *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	add_error_at(k, keyfile_line(k, group, key), message);
}

/* Where each group and key is, for messages: GKeyFile does the parsing but
 * keeps no line numbers.  The @n lines are ones GKeyFile took, so only
 * its rules for telling them apart are needed (g_key_file_parse_line():
 * leading blanks skipped, '#' comments and blank lines, "[group]",
 * "key=value" with blanks around the key trimmed).  GKeyFile merges a group
 * or a key given twice without a word: that is caught here. */
static void index_lines(struct keyfile *k, char **lines, guint n)
{
	g_autofree char *group = NULL;

	for (guint i = 0; i < n; i++) {
		char *line = g_strstrip(lines[i]);
		char *eq = strchr(line, '=');
		g_autofree char *id = NULL;
		g_autofree char *m = NULL;
		guint first;

		if (!*line || line[0] == '#')
			continue;
		if (line[0] == '[') {
			g_free(group);
			group = g_strndup(line + 1, strcspn(line + 1, "]"));
			id = g_strdup(group);
		} else if (eq && group) {
			*eq = '\0';
			id = line_key(group, g_strchomp(line));
		} else {
			continue;
		}
		first = GPOINTER_TO_UINT(g_hash_table_lookup(k->lines, id));
		if (!first) {
			g_hash_table_insert(k->lines, g_steal_pointer(&id),
					    GUINT_TO_POINTER(i + 1));
			continue;
		}
		if (line[0] == '[')
			m = g_strdup_printf("group [%s] given twice (first at "
					    "line %u)",
					    group, first);
		else
			m = g_strdup_printf(
				"'%s' given twice in [%s] (first at "
				"line %u)",
				line, group, first);
		add_error_at(k, i + 1, m);
	}
}

/* The index of the first of @lines (the @len bytes of @data, split at
 * '\n') that GKeyFile refuses: the first whose prefix of @data fails to
 * load (GKeyFile stops at the first bad line, so a longer prefix fails
 * too: a binary search). */
static guint refused_line(const char *data, gsize len, char **lines)
{
	guint lo = 0, hi = g_strv_length(lines) - 1;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		g_autoptr(GKeyFile) kf = g_key_file_new();
		gsize end = 0;

		for (guint i = 0; i <= mid; i++)
			end += strlen(lines[i]) + 1;
		if (g_key_file_load_from_data(kf, data, MIN(end, len),
					      G_KEY_FILE_NONE, NULL))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* GKeyFile's refusal of @line (number @n) in armbot's words */
static void add_syntax_error(struct keyfile *k, guint n, const char *line,
			     const GError *error)
{
	g_autofree char *stripped = g_strstrip(g_strdup(line));
	g_autofree char *m = NULL;

	if (g_error_matches(error, G_KEY_FILE_ERROR,
			    G_KEY_FILE_ERROR_GROUP_NOT_FOUND))
		m = g_strdup("key outside any [group]");
	else if (!g_error_matches(error, G_KEY_FILE_ERROR,
				  G_KEY_FILE_ERROR_PARSE))
		m = g_strdup(error->message);
	else if (stripped[0] == '[')
		m = g_strdup_printf("bad group line '%s'", stripped);
	else
		m = g_strdup_printf("'%s' is not 'key = value', a [group] or "
				    "a # comment",
				    stripped);
	add_error_at(k, n, m);
}

struct keyfile *keyfile_parse(const char *origin, const char *data, gsize len)
{
	struct keyfile *k = g_new0(struct keyfile, 1);
	g_autoptr(GError) error = NULL;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	guint bad;

	k->origin = g_strdup(origin);
	k->kf = g_key_file_new();
	k->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	k->errors = g_ptr_array_new_with_free_func(g_free);
	if (!g_utf8_validate(data, len, NULL)) {
		add_error_at(k, 0, "not UTF-8 text");
		return k;
	}
	text = g_strndup(data, len);
	lines = g_strsplit(text, "\n", -1);
	/* GKeyFile is the grammar.  At the first line it refuses it stops,
	 * keeping what came before: so do we, naming that line. */
	if (g_key_file_load_from_data(k->kf, data, len, G_KEY_FILE_NONE,
				      &error)) {
		index_lines(k, lines, g_strv_length(lines));
		return k;
	}
	bad = refused_line(data, len, lines);
	index_lines(k, lines, bad); /* leaves lines[bad] alone */
	add_syntax_error(k, bad + 1, lines[bad], error);
	return k;
}

struct keyfile *keyfile_load(const char *path, GError **error)
{
	g_autofree char *data = NULL;
	gsize len;

	if (!g_file_get_contents(path, &data, &len, error))
		return NULL;
	return keyfile_parse(path, data, len);
}

void keyfile_free(struct keyfile *k)
{
	if (!k)
		return;
	g_free(k->origin);
	g_key_file_free(k->kf);
	g_hash_table_unref(k->lines);
	g_ptr_array_unref(k->errors);
	g_free(k);
}

void keyfile_check_keys(struct keyfile *k, const struct keyfile_group *groups,
			guint n)
{
	g_auto(GStrv) names = g_key_file_get_groups(k->kf, NULL);

	for (guint i = 0; names[i]; i++) {
		const struct keyfile_group *g = NULL;
		g_auto(GStrv) keys = NULL;

		for (guint j = 0; j < n && !g; j++) {
			gsize len = strlen(groups[j].name);

			if (len && groups[j].name[len - 1] == ' ' ?
				    g_str_has_prefix(names[i],
						     groups[j].name) &&
					    names[i][len] :
				    !strcmp(groups[j].name, names[i]))
				g = &groups[j];
		}
		if (!g) {
			keyfile_error(k, names[i], NULL, "unknown group [%s]",
				      names[i]);
			continue;
		}
		keys = g_key_file_get_keys(k->kf, names[i], NULL, NULL);
		for (guint j = 0; keys && keys[j]; j++)
			if (!g_strv_contains(g->keys, keys[j]))
				keyfile_error(k, names[i], keys[j],
					      "unknown key '%s' in [%s]",
					      keys[j], names[i]);
	}
}

gboolean keyfile_has(const struct keyfile *k, const char *group,
		     const char *key)
{
	return g_key_file_has_key(k->kf, group, key, NULL);
}

char **keyfile_groups(const struct keyfile *k, const char *prefix)
{
	g_auto(GStrv) names = g_key_file_get_groups(k->kf, NULL);
	GPtrArray *out = g_ptr_array_new();

	for (guint i = 0; names[i]; i++)
		if (g_str_has_prefix(names[i], prefix))
			g_ptr_array_add(out, g_strdup(names[i]));
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}

char *keyfile_string(struct keyfile *k, const char *group, const char *key,
		     const char *def)
{
	g_autofree char *value = NULL;

	if (!keyfile_has(k, group, key))
		return g_strdup(def);
	value = g_key_file_get_string(k->kf, group, key, NULL);
	if (!value) {
		keyfile_error(k, group, key, "bad value for '%s'", key);
		return g_strdup(def);
	}
	g_strstrip(value);
	if (!*value) {
		keyfile_error(k, group, key, "'%s' is empty", key);
		return g_strdup(def);
	}
	return g_steal_pointer(&value);
}

gboolean keyfile_bool(struct keyfile *k, const char *group, const char *key,
		      gboolean def)
{
	g_autofree char *value = NULL;
	static const char *const yes[] = { "true", "yes", "1", NULL };
	static const char *const no[] = { "false", "no", "0", NULL };

	if (!keyfile_has(k, group, key))
		return def;
	value = g_key_file_get_value(k->kf, group, key, NULL);
	g_strstrip(value);
	if (g_strv_contains(yes, value))
		return TRUE;
	if (g_strv_contains(no, value))
		return FALSE;
	keyfile_error(k, group, key, "'%s' must be true or false, not '%s'",
		      key, value);
	return def;
}

guint keyfile_uint(struct keyfile *k, const char *group, const char *key,
		   guint def, guint min, guint max)
{
	g_autofree char *value = NULL;
	guint64 n;

	if (!keyfile_has(k, group, key))
		return def;
	value = g_key_file_get_value(k->kf, group, key, NULL);
	g_strstrip(value);
	if (!g_ascii_string_to_unsigned(value, 10, min, max, &n, NULL)) {
		keyfile_error(k, group, key,
			      "'%s' must be a number from %u to %u, not '%s'",
			      key, min, max, value);
		return def;
	}
	return n;
}

char **keyfile_list(struct keyfile *k, const char *group, const char *key)
{
	g_auto(GStrv) items = NULL;
	g_autoptr(GStrvBuilder) out = NULL;

	if (!keyfile_has(k, group, key))
		return NULL;
	items = g_key_file_get_string_list(k->kf, group, key, NULL, NULL);
	out = g_strv_builder_new();
	for (guint i = 0; items && items[i]; i++) {
		g_strstrip(items[i]);
		if (*items[i])
			g_strv_builder_add(out, items[i]);
	}
	return g_strv_builder_end(out);
}
