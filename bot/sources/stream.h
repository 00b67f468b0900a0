/* libetpan's streams, as the IMAP and NNTP sources use them. */
#pragma once

#include <libetpan/libetpan.h>

/* Make end of file on @s a read error.  libetpan's parsers take a read of
 * 0 bytes for "no data yet" in some states and spin on a server that
 * closed the connection in the middle of a response (a literal cut
 * short); for a protocol stream EOF there is always an error. */
void source_stream_guard(mailstream *s);
