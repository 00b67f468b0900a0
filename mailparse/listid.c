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

char *listid_to_address(const char *list_id)
{
	g_autofree char *s = NULL;
	const char *lt, *gt;
	char *dot;

	if (!list_id || !*list_id || strlen(list_id) > 512)
		return NULL;
	/* "phrase <id>" or "<id>" as the header has it, or the bare id */
	lt = strchr(list_id, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (lt && gt)
		s = g_ascii_strdown(lt + 1, gt - lt - 1);
	else
		s = g_ascii_strdown(list_id, -1);
	for (const char *p = s; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr(".-_+", *p))
			return NULL;
	dot = strchr(s, '.');
	if (!dot || dot == s || !dot[1] || !strchr(dot + 1, '.'))
		return NULL;
	*dot = '@';
	return g_steal_pointer(&s);
}
