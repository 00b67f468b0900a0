/* Kernel C as a stream of normalised tokens, for finding copied code:
 * identifiers become one class, literals (numbers, strings, characters)
 * another, keywords and operators stay themselves; comments, whitespace and
 * preprocessor lines (includes, defines) are dropped, and so is boilerplate
 * that every driver shares and that is no sign of copying: MODULE_*() and
 * EXPORT_SYMBOL*() lines and `struct of_device_id` tables (an SPDX line is
 * a comment).  Any bytes tokenize: an unknown byte is an operator of its
 * own, an unterminated comment or string ends at the end of the input. */
#pragma once

#include <glib.h>

struct ctoken {
	guint32 hash; /* of the normalised class: "I", "L", "while", "->" */
	guint32 line; /* 1-based line of the token's first byte */
};

/* The tokens of @len bytes of @text, in order, as struct ctoken. */
GArray *ctoken_scan(const char *text, gsize len);

/* The normalised class of each token, space-separated, for tests. */
char *ctoken_describe(const char *text, gsize len);
