/* Key files that know their line numbers: GKeyFile parses (the one
 * grammar), and the lines it took are looked up for where each group and
 * key was, so that every complaint about a configuration is "FILE:LINE:
 * message".  Errors are collected (not thrown at the first) so that
 * `armbot config check` can list them all; only a syntax error ends the
 * reading, as it ends GKeyFile's. */
#pragma once

#include <glib.h>

struct keyfile {
	char *origin; /* the file name used in messages */
	GKeyFile *kf;
	GHashTable *lines; /* "group" and "group\nkey" -> line */
	GPtrArray *errors; /* char *, "FILE:LINE: message", in order */
};

/* Parse @data (from @origin).  Never NULL: a group or a key given twice
 * (which GKeyFile would merge), then the first line GKeyFile refuses (not
 * a group, key = value or comment; a key outside a group), are in
 * ->errors; what comes before that line is read. */
struct keyfile *keyfile_parse(const char *origin, const char *data, gsize len);

/* Read and parse the file @path; NULL with @error when it cannot be
 * read. */
struct keyfile *keyfile_load(const char *path, GError **error);

void keyfile_free(struct keyfile *k);
typedef struct keyfile keyfile;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(keyfile, keyfile_free)

/* The line of @key in @group (@key NULL: of the group), or 0. */
guint keyfile_line(const struct keyfile *k, const char *group, const char *key);

/* Add an error at the line of @group/@key (@key may be NULL). */
void keyfile_error(struct keyfile *k, const char *group, const char *key,
		   const char *format, ...) G_GNUC_PRINTF(4, 5);

/* The groups a file may have and each one's keys (NULL-terminated).  A
 * @name ending in a space names a family of groups: "list " takes
 * [list arm@lists.example.org] and every other [list ...]. */
struct keyfile_group {
	const char *name;
	const char *const *keys;
};

/* Complain about every group and key not in @groups (@n of them). */
void keyfile_check_keys(struct keyfile *k, const struct keyfile_group *groups,
			guint n);

gboolean keyfile_has(const struct keyfile *k, const char *group,
		     const char *key);

/* The names of the groups of @k that start with @prefix, in file order
 * (NULL-terminated, newly allocated). */
char **keyfile_groups(const struct keyfile *k, const char *prefix);

/* A string value (trimmed), or a copy of @def when absent; an empty value
 * is an error. */
char *keyfile_string(struct keyfile *k, const char *group, const char *key,
		     const char *def);

/* A boolean: true/false, yes/no, 1/0; @def when absent. */
gboolean keyfile_bool(struct keyfile *k, const char *group, const char *key,
		      gboolean def);

/* An unsigned number in [@min, @max]; @def when absent. */
guint keyfile_uint(struct keyfile *k, const char *group, const char *key,
		   guint def, guint min, guint max);

/* A ';'-separated list (GKeyFile's), items trimmed, empty ones dropped;
 * NULL when absent.  Newly allocated. */
char **keyfile_list(struct keyfile *k, const char *group, const char *key);
