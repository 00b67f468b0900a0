/* Writing JSON by hand where a whole library would be overkill: strings
 * from mail and from trees, escaped as RFC 8259 section 7 requires. */
#pragma once

#include <glib.h>

/* Append @s (UTF-8) to @out as a JSON string, or `null` when @s is NULL. */
void json_append_string(GString *out, const char *s);
