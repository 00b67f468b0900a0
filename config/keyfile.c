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

/* The line scan: GKeyFile's own grammar (g_key_file_parse_line): leading
 * blanks skipped, '#' comments and blank lines, "[group]", "key=value"
 * with blanks around the key trimmed. */
static void scan_lines(struct keyfile *k, const char *data, gsize len)
{
	g_autofree char *text = g_strndup(data, len);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autofree char *group = NULL;
	gboolean bad_group = FALSE;

	for (guint i = 0; lines[i]; i++) {
		guint n = i + 1;
		char *line = g_strstrip(lines[i]);
		char *eq;

		if (!*line || line[0] == '#')
			continue;
		if (line[0] == '[') {
			g_autofree char *name = NULL;
			gsize l = strlen(line);
			guint first;

			if (l < 3 || line[l - 1] != ']' ||
			    memchr(line + 1, ']', l - 2) ||
			    memchr(line + 1, '[', l - 2)) {
				g_autofree char *m = g_strdup_printf(
					"bad group line '%s'", line);

				add_error_at(k, n, m);
				/* its keys are not "outside any group" */
				g_free(group);
				group = NULL;
				bad_group = TRUE;
				continue;
			}
			bad_group = FALSE;
			name = g_strndup(line + 1, l - 2);
			first = GPOINTER_TO_UINT(
				g_hash_table_lookup(k->lines, name));
			if (first) {
				g_autofree char *m = g_strdup_printf(
					"group [%s] given twice (first at "
					"line %u)",
					name, first);

				add_error_at(k, n, m);
			} else {
				g_hash_table_insert(k->lines, g_strdup(name),
						    GUINT_TO_POINTER(n));
			}
			g_free(group);
			group = g_steal_pointer(&name);
			continue;
		}
		eq = strchr(line, '=');
		if (!eq || eq == line) {
			g_autofree char *m = g_strdup_printf(
				"'%s' is not 'key = value', a [group] or a "
				"# comment",
				line);

			add_error_at(k, n, m);
			continue;
		}
		if (!group) {
			if (!bad_group)
				add_error_at(k, n, "key outside any [group]");
			continue;
		}
		*eq = '\0';
		g_strchomp(line);
		{
			g_autofree char *id = line_key(group, line);
			guint first = GPOINTER_TO_UINT(
				g_hash_table_lookup(k->lines, id));

			if (first) {
				g_autofree char *m = g_strdup_printf(
					"'%s' given twice in [%s] (first at "
					"line %u)",
					line, group, first);

				add_error_at(k, n, m);
			} else {
				g_hash_table_insert(k->lines,
						    g_steal_pointer(&id),
						    GUINT_TO_POINTER(n));
			}
		}
	}
}

struct keyfile *keyfile_parse(const char *origin, const char *data, gsize len)
{
	struct keyfile *k = g_new0(struct keyfile, 1);
	g_autoptr(GError) error = NULL;

	k->origin = g_strdup(origin);
	k->kf = g_key_file_new();
	k->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	k->errors = g_ptr_array_new_with_free_func(g_free);
	if (!g_utf8_validate(data, len, NULL)) {
		add_error_at(k, 0, "not UTF-8 text");
		return k;
	}
	scan_lines(k, data, len);
	if (!g_key_file_load_from_data(k->kf, data, len, G_KEY_FILE_NONE,
				       &error) &&
	    k->errors->len == 0) {
		/* the scan missed what GKeyFile refuses: say GKeyFile's */
		add_error_at(k, 0, error->message);
	}
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

		for (guint j = 0; j < n && !g; j++)
			if (!strcmp(groups[j].name, names[i]))
				g = &groups[j];
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
