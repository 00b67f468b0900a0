/* The dirstat and the verdict as JSON (json-glib), for `armbot dirstat
 * --json`, the store and the web page (/api/series/<id>: verdict_detail).
 * Written only by armbot-core: json-glib brings GObject and GIO, which the
 * lean front program leaves out (bot/cli/front.c).  Every member through
 * bot/common/jsonout.h: a file name from a tree may hold any bytes, each
 * bad byte becomes U+FFFD. */
#pragma once

#include <glib.h>

#include "kernel/diff/dirstat-verdict.h"
#include "kernel/diff/dirstat.h"

/* {"mode","signed","cumulative","limit_permille","files","total",
 * "balanced","directories":[{"path","value","permille","percent"}]} on one
 * line; "percent" is the string the text prints ("-11.7"), sign included.
 * Caller owns the string. */
char *dirstat_json_report(const struct dirstat_report *report);

/* {"path","verdict","files","added","removed","net","sentence",
 * "directories":[{"path","added","removed","net"}]} on one line.  Caller
 * owns the string. */
char *dirstat_json_verdict(const struct dirstat_verdict *v);
