/* List-Id and list address (see mailparse/listid.h). */
#include "mailparse/listid.h"

#include <string.h>

char *listid_from_address(const char *address)
{
	char *id = g_ascii_strdown(address, -1);
	char *at = strchr(id, '@');

	if (at)
		*at = '.';
	return id;
}
