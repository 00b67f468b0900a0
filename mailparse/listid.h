/* List-Id (RFC 2919) and a list's posting address: the lists of vger,
 * infradead and lists.linaro.org name their id after the address, with
 * '.' for '@' (linux-arm-kernel@lists.infradead.org posts with List-Id
 * <linux-arm-kernel.lists.infradead.org>). */
#pragma once

#include <glib.h>

/* The List-Id of the list posting to @address: lowercase, '.' for the
 * '@'.  Newly allocated. */
char *listid_from_address(const char *address);

/* The address of the list whose List-Id is @list_id ("phrase <id>",
 * "<id>" or the bare id): the id's "list-label.list-domain" (RFC 2919)
 * with the first '.' read as '@' ("linux-arm-kernel.lists.infradead.org"
 * -> "linux-arm-kernel@lists.infradead.org"), lowercased; NULL when it
 * has no '.' before a domain with a '.', or a character a list address
 * does not have.  Newly allocated. */
char *listid_to_address(const char *list_id);
