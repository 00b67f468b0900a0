/* Where a reviewer reads a message: the list's archive ([web]
 * archive-url, config/config.h) and the list's address. */
#pragma once

#include <glib.h>

/* The address of the list whose List-Id is @list_id: the List-Id's
 * "<list-label.list-domain>" (RFC 2919) with the first '.' read as '@'
 * ("linux-arm-kernel.lists.infradead.org" ->
 * "linux-arm-kernel@lists.infradead.org"), lowercased; NULL when it has
 * no '.' or a character a list address does not have.  Newly
 * allocated. */
char *web_archive_list_address(const char *list_id);

/* The archive URL of @message_id (with or without <>) on list
 * @address (or NULL): the template of @address in @templates ("ADDRESS
 * TEMPLATE" or "* TEMPLATE", config/config.h), else the "*" one, with
 * the id percent-encoded in place of %s; NULL when no template fits. */
char *web_archive_url(const char *const *templates, const char *address,
		      const char *message_id);

/* Append to @out the list of List-Id @list_id by its address
 * (web_archive_list_address()), the List-Id as its title; the List-Id
 * itself when it does not read as an address.  Escaped. */
void web_archive_list_append(GString *out, const char *list_id);
