/* Where a reviewer reads a message: the list's archive ([web]
 * archive-url, config/config.h) and the list's address. */
#pragma once

#include <glib.h>

/* The archive URL of @message_id (with or without <>) on list
 * @address (or NULL): the template of @address in @templates ("ADDRESS
 * TEMPLATE" or "* TEMPLATE", config/config.h), else the "*" one, with
 * the id percent-encoded in place of %s; NULL when no template fits. */
char *web_archive_url(const char *const *templates, const char *address,
		      const char *message_id);

/* Append to @out the list of List-Id @list_id by its address
 * (listid_to_address(), mailparse/listid.h), the List-Id as its title; the List-Id
 * itself when it does not read as an address.  Escaped. */
void web_archive_list_append(GString *out, const char *list_id);
