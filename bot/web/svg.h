/* SVG charts drawn by armbot for the web pages (inline <svg>, no
 * script): signed bars, where growth goes one way in red and removal the
 * other way in green, as the signed dirstat reads. */
#pragma once

#include <glib.h>

struct web_svg_bar {
	const char *label; /* escaped when written */
	double value; /* signed */
	const char *note; /* shown at the bar's end, e.g. "+12 -40", or NULL */
};

/* Append to @out a horizontal bar chart of @n @bars, one row each, the
 * label on the left and a zero line in the middle; @title becomes the
 * chart's <title> and aria-label.  An empty chart says so. */
void web_svg_hbars(GString *out, const char *title, const char *id,
		   const struct web_svg_bar *bars, guint n);

/* Append a column chart of @n @bars over time (labels under the
 * columns, e.g. week dates), positive up, negative down. */
void web_svg_columns(GString *out, const char *title, const char *id,
		     const struct web_svg_bar *bars, guint n);
