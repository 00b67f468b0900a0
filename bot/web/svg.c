#include "bot/web/svg.h"

#include <math.h>

#include "bot/web/escape.h"

#define GROW_COLOUR "#c0392b"
#define SHRINK_COLOUR "#27ae60"

/* printf's %f and %g follow LC_NUMERIC ("1,5" in some locales); SVG
 * wants a dot */
#define NUM_BUF G_ASCII_DTOSTR_BUF_SIZE
static const char *num(char *buf, const char *format, double v)
{
	return g_ascii_formatd(buf, NUM_BUF, format, v);
}

static double max_abs(const struct web_svg_bar *bars, guint n)
{
	double m = 0;

	for (guint i = 0; i < n; i++)
		m = MAX(m, fabs(bars[i].value));
	return m > 0 ? m : 1;
}

static void open_svg(GString *out, const char *title, const char *id,
		     guint width, guint height)
{
	g_string_append_printf(
		out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
		"width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		"role=\"img\" id=\"",
		width, height, width, height);
	web_escape_append(out, id);
	g_string_append(out, "\" aria-label=\"");
	web_escape_append(out, title);
	g_string_append(out, "\"><title>");
	web_escape_append(out, title);
	g_string_append(out, "</title>");
}

static void empty_chart(GString *out, const char *title, const char *id)
{
	open_svg(out, title, id, 400, 30);
	g_string_append(out, "<text x=\"4\" y=\"20\" font-size=\"13\">"
			     "nothing to draw</text></svg>\n");
}

void web_svg_hbars(GString *out, const char *title, const char *id,
		   const struct web_svg_bar *bars, guint n)
{
	const guint label_w = 300, half = 220, row = 20, note_w = 110;
	const guint width = label_w + 2 * half + note_w;
	double scale;

	if (!n) {
		empty_chart(out, title, id);
		return;
	}
	scale = half / max_abs(bars, n);
	open_svg(out, title, id, width, n * row + 10);
	g_string_append_printf(out,
			       "<line x1=\"%u\" y1=\"0\" x2=\"%u\" y2=\"%u\" "
			       "stroke=\"#555\"/>",
			       label_w + half, label_w + half, n * row + 10);
	for (guint i = 0; i < n; i++) {
		double v = bars[i].value;
		double w = fabs(v) * scale;
		double x = v < 0 ? label_w + half - w : label_w + half;
		guint y = 5 + i * row;
		char b1[NUM_BUF], b2[NUM_BUF], b3[NUM_BUF];

		g_string_append_printf(
			out,
			"<g class=\"bar\"><text x=\"%u\" y=\"%u\" "
			"font-size=\"12\" text-anchor=\"end\">",
			label_w - 6, y + 14);
		web_escape_append(out, bars[i].label);
		g_string_append_printf(
			out,
			"</text><rect x=\"%s\" y=\"%u\" width=\"%s\" "
			"height=\"%u\" fill=\"%s\" data-value=\"%s\"/>",
			num(b1, "%.1f", x), y + 2, num(b2, "%.1f", MAX(w, 0.5)),
			row - 4, v > 0 ? GROW_COLOUR : SHRINK_COLOUR,
			num(b3, "%g", v));
		g_string_append_printf(out,
				       "<text x=\"%u\" y=\"%u\" "
				       "font-size=\"12\">",
				       label_w + 2 * half + 4, y + 14);
		if (bars[i].note)
			web_escape_append(out, bars[i].note);
		else
			g_string_append_printf(out, "%s%s", v > 0 ? "+" : "",
					       num(b1, "%g", v));
		g_string_append(out, "</text></g>");
	}
	g_string_append(out, "</svg>\n");
}

void web_svg_columns(GString *out, const char *title, const char *id,
		     const struct web_svg_bar *bars, guint n)
{
	const guint col = 26, half = 120, top = 16, bottom = 70, left = 60;
	const guint width = left + n * col + 70; /* room for the last label */
	double m, scale;
	char b1[NUM_BUF], b2[NUM_BUF], b3[NUM_BUF];

	if (!n) {
		empty_chart(out, title, id);
		return;
	}
	m = max_abs(bars, n);
	scale = half / m;
	open_svg(out, title, id, width, top + 2 * half + bottom);
	/* the axis with its scale at both ends */
	g_string_append_printf(
		out,
		"<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#555\"/>"
		"<text x=\"%u\" y=\"%u\" font-size=\"11\" text-anchor=\"end\">"
		"+%s</text>"
		"<text x=\"%u\" y=\"%u\" font-size=\"11\" text-anchor=\"end\">"
		"0</text>"
		"<text x=\"%u\" y=\"%u\" font-size=\"11\" text-anchor=\"end\">"
		"-%s</text>",
		left, top + half, width, top + half, left - 4, top + 10,
		num(b1, "%g", m), left - 4, top + half + 4, left - 4,
		top + 2 * half, num(b2, "%g", m));
	for (guint i = 0; i < n; i++) {
		double v = bars[i].value;
		double h = fabs(v) * scale;
		double y = v > 0 ? top + half - h : top + half;
		guint x = left + i * col + 3;

		g_string_append_printf(
			out,
			"<g class=\"bar\"><rect x=\"%u\" y=\"%s\" "
			"width=\"%u\" height=\"%s\" fill=\"%s\" "
			"data-value=\"%s\"><title>",
			x, num(b1, "%.1f", y), col - 6,
			num(b2, "%.1f", MAX(h, 0.5)),
			v > 0 ? GROW_COLOUR : SHRINK_COLOUR, num(b3, "%g", v));
		web_escape_append(out, bars[i].label);
		g_string_append(out, ": ");
		if (bars[i].note)
			web_escape_append(out, bars[i].note);
		else
			g_string_append_printf(out, "%s%s", v > 0 ? "+" : "",
					       num(b1, "%g", v));
		g_string_append_printf(
			out,
			"</title></rect><text font-size=\"10\" "
			"transform=\"translate(%u,%u) rotate(60)\">",
			x + 4, top + 2 * half + 6);
		web_escape_append(out, bars[i].label);
		g_string_append(out, "</text></g>");
	}
	g_string_append(out, "</svg>\n");
}
