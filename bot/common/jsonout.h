/* Members of the bot's JSON documents (the /api of bot/web/api.h, `armbot
 * series --json`), written with json-glib's JsonBuilder: one call a
 * member, for the values that may be absent or that come from mail.
 * Each adds "@name": value to the open object, or an element to the open
 * array when @name is NULL. */
#pragma once

#include <json-glib/json-glib.h>

/* @s as a JSON string, made valid UTF-8 (RFC 8259 8.1: mail and file
 * names may carry any bytes; each bad byte becomes U+FFFD), or null when
 * @s is NULL. */
void jsonout_string(JsonBuilder *b, const char *name, const char *s);

/* @len bytes of @data the same way (a NUL becomes U+FFFD too), or null
 * when @data is NULL. */
void jsonout_bytes(JsonBuilder *b, const char *name, const char *data,
		   gsize len);

void jsonout_int(JsonBuilder *b, const char *name, gint64 v);
void jsonout_bool(JsonBuilder *b, const char *name, gboolean v);
void jsonout_double(JsonBuilder *b, const char *name, double v);
void jsonout_null(JsonBuilder *b, const char *name);

/* Open an object or an array as the member @name (an element when @name
 * is NULL); json_builder_end_object() or json_builder_end_array() closes
 * it. */
void jsonout_begin_object(JsonBuilder *b, const char *name);
void jsonout_begin_array(JsonBuilder *b, const char *name);

/* @text, a JSON document (armbot's own, kept in the store), as a value
 * of its own.  Returns FALSE, adding nothing, when @text is NULL or not
 * JSON: the caller writes null or leaves the member out. */
gboolean jsonout_json(JsonBuilder *b, const char *name, const char *text);

/* A row id, or null for 0 (SQLite never gives a row the id 0). */
void jsonout_id(JsonBuilder *b, const char *name, gint64 id);

/* Unix time @t as RFC 3339 in UTC ("2024-05-01T12:00:00Z"), or null for 0
 * (never). */
void jsonout_time(JsonBuilder *b, const char *name, gint64 t);

/* The document @b built, compact (no spaces: "key":value) and ended by a
 * newline.  Caller owns the string. */
char *jsonout_finish(JsonBuilder *b);
