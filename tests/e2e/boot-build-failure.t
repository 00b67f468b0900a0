#!/bin/sh
# A patch that breaks the build: armbot reports the failed build with the
# compiler's error among the last lines of the build, boots nothing, and
# reverts the tree.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

F=drivers/base/power/runtime.c
make_patch $F 's/^(#include <linux\/sched\/mm.h>\n)/$1#error armbot e2e: broken build\n/m' "$TMP/broken.patch"
ok $? "make the build-breaking patch"
run_boot --no-base --patch "$TMP/broken.patch"
is "$status" 1 "armbot boot exits 1"
grep -q '^kernel: build failed (exit status 2)$' "$TMP/out"; ok $? "reported as a failed build"
grep -q '^| .*runtime.c:[0-9]*:[0-9]*: error: #error armbot e2e: broken build' "$TMP/out"
ok $? "with the compiler's error in the build's tail"
grep -q '^boot ' "$TMP/out" && fail "something booted" || pass "nothing booted"
cmp -s "$SRC/$F" "$TMP/a/$F"; ok $? "the tree is back to the base"
done_testing
