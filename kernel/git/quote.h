/* git's C-style quoting of path names (quote.c): what git writes for a
 * name with special bytes in it, "a\tb" or "\303\251", in diff headers
 * and in objects/info/alternates. */
#pragma once

#include <glib.h>

/* git's unquote_c_style(): append to @out the name @quoted (starting with
 * '"') stands for and set *@endp past its closing quote.  With @one_line,
 * a raw newline before the closing quote is broken quoting too (the name
 * is one line of a patch).  FALSE for broken quoting, @out then as it
 * was and *@endp not set. */
gboolean gitquote_unquote(GString *out, const char *quoted, gboolean one_line,
			  const char **endp);
