/* The series page's reproduction steps: the base each tree's job used,
 * and the commands that check out that base, apply the series (b4 from
 * the list's thread, or armbot's mbox of the series) and build it as
 * armbot's kbuild does (ARCH=arm, CROSS_COMPILE=arm-linux-gnueabihf-,
 * out of tree). */
#pragma once

#include <glib.h>

#include "bot/store/web.h"

/* Append <section id="reproduce"> for @x; @self_url is the pages' base
 * URL (no trailing '/'), for the mbox link. */
void web_repro_section(GString *out, const struct store_web_series *x,
		       const char *self_url);
