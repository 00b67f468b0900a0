/* What a device tree source (.dts, .dtsi, or a header it includes) and a
 * driver's C source name, for qemu/boardderive.c: a scan, not dtc's or
 * cpp's parser, enough to tell which files a device tree includes and
 * which compatibles it and a driver name.  The text is untrusted and not
 * NUL-terminated: nothing is read past its length, the counts kept are
 * bounded, strings with escapes or blanks are no compatibles. */
#pragma once

#include <glib.h>

struct dtsscan {
	/* the argument of each #include and /include/ with its first
	 * character, '"' ("X": beside the file first) or '<' (<X>) */
	GPtrArray *includes;
	GPtrArray *compatibles; /* every `compatible = "A", "B"` string */
	GPtrArray *root; /* those of the root node, `/ { ... }` */
};

void dtsscan_init(struct dtsscan *out);
void dtsscan_clear(struct dtsscan *s);
typedef struct dtsscan dtsscan;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(dtsscan, dtsscan_clear)

/* Add what device tree source @text (@len bytes) names to @out (from
 * dtsscan_init()): comments are skipped, a '#' first on its line that
 * starts a cpp directive is one (#address-cells is a property). */
void dtsscan_source(struct dtsscan *out, const char *text, gsize len);

/* The compatibles a driver's C source @text (@len bytes) matches: the
 * strings of `.compatible = "X"` and of `SOMETHING_DECLARE(name, "X",`
 * (CLK_OF_DECLARE, IRQCHIP_DECLARE, TIMER_OF_DECLARE...).  A new array
 * of new strings, each once. */
GPtrArray *dtsscan_driver_compatibles(const char *text, gsize len);
