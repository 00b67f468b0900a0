/* List-Id (RFC 2919) and a list's posting address: the lists of vger,
 * infradead and lists.linaro.org name their id after the address, with
 * '.' for '@' (linux-arm-kernel@lists.infradead.org posts with List-Id
 * <linux-arm-kernel.lists.infradead.org>). */
#pragma once

#include <glib.h>

/* The List-Id of the list posting to @address: lowercase, '.' for the
 * '@'.  Newly allocated. */
char *listid_from_address(const char *address);
