/* The sources' cursors and done names (bot/store/sources.h). */
#include "bot/store/sources.h"

#include "bot/store/db.h"

static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE source_cursors ("
	" source TEXT NOT NULL,"
	" key TEXT NOT NULL,"
	" value TEXT NOT NULL,"
	" updated INTEGER NOT NULL,"
	" PRIMARY KEY (source, key));"
	"CREATE TABLE source_done ("
	" source TEXT NOT NULL,"
	" name TEXT NOT NULL,"
	" PRIMARY KEY (source, name)) WITHOUT ROWID;",
};

STORE_PART_DEFINE(sources, migrations);

static const char sql_get[] =
	"SELECT value FROM source_cursors WHERE source = ?1 AND key = ?2";
static const char sql_set[] =
	"INSERT OR REPLACE INTO source_cursors (source, key, value, updated)"
	" VALUES (?1, ?2, ?3, ?4)";
static const char sql_unset[] =
	"DELETE FROM source_cursors WHERE source = ?1 AND key = ?2";
static const char sql_done[] =
	"SELECT 1 FROM source_done WHERE source = ?1 AND name = ?2";
static const char sql_mark_done[] =
	"INSERT OR IGNORE INTO source_done (source, name) VALUES (?1, ?2)";
static const char sql_forget[] = "DELETE FROM source_done WHERE source = ?1";

gboolean store_sources_get(struct store *st, const char *source,
			   const char *key, char **out, GError **error)
{
	return store_query_text(st, sql_get, out, error, STORE_T(source),
				STORE_T(key), STORE_END);
}

gboolean store_sources_get_int(struct store *st, const char *source,
			       const char *key, gint64 fallback, gint64 *out,
			       GError **error)
{
	g_autofree char *v = NULL;

	if (!store_sources_get(st, source, key, &v, error))
		return FALSE;
	if (!v ||
	    !g_ascii_string_to_signed(v, 10, G_MININT64, G_MAXINT64, out, NULL))
		*out = fallback;
	return TRUE;
}

gboolean store_sources_set(struct store *st, const char *source,
			   const char *key, const char *value, GError **error)
{
	if (!value)
		return store_exec(st, sql_unset, error, STORE_T(source),
				  STORE_T(key), STORE_END);
	return store_exec(st, sql_set, error, STORE_T(source), STORE_T(key),
			  STORE_T(value),
			  STORE_I(g_get_real_time() / G_USEC_PER_SEC),
			  STORE_END);
}

gboolean store_sources_set_int(struct store *st, const char *source,
			       const char *key, gint64 value, GError **error)
{
	g_autofree char *v = g_strdup_printf("%" G_GINT64_FORMAT, value);

	return store_sources_set(st, source, key, v, error);
}

gboolean store_sources_done(struct store *st, const char *source,
			    const char *name, gboolean *out, GError **error)
{
	gint64 one;
	gboolean ok = store_query_int64(st, sql_done, &one, error,
					STORE_T(source), STORE_T(name),
					STORE_END);

	*out = one != 0;
	return ok;
}

gboolean store_sources_mark_done(struct store *st, const char *source,
				 const char *name, GError **error)
{
	return store_exec(st, sql_mark_done, error, STORE_T(source),
			  STORE_T(name), STORE_END);
}

gboolean store_sources_forget(struct store *st, const char *source,
			      GError **error)
{
	return store_exec(st, sql_forget, error, STORE_T(source), STORE_END);
}
