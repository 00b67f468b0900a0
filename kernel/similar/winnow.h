/* Winnowed k-gram fingerprints (Schleimer, Wilkerson, Aiken, "Winnowing:
 * local algorithms for document fingerprinting", SIGMOD 2003; what MOSS
 * does): the hash of every run of WINNOW_K normalised tokens, and of each
 * window of WINNOW_W consecutive k-gram hashes the smallest (the rightmost
 * on a tie), each kept once.  Any copied run of at least
 * WINNOW_K + WINNOW_W - 1 tokens shares a fingerprint with its original;
 * runs shorter than WINNOW_K never match. */
#pragma once

#include <glib.h>

#define WINNOW_K 24
#define WINNOW_W 16

struct winnow_print {
	guint32 hash;
	guint32 first_line, last_line; /* of the k-gram's tokens */
};

/* The fingerprints of @tokens (struct ctoken), in order. */
GArray *winnow_prints(const GArray *tokens);
