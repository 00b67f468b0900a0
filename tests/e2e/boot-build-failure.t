#!/bin/sh
# A series that breaks the build: armbot reports the failed build with the
# compiler's error among the last lines of the build, and boots nothing.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

F=drivers/base/power/runtime.c
make_mbox $F 's/^(#include <linux\/sched\/mm.h>\n)/$1#error armbot e2e: broken build\n/m' \
	"PM: runtime: break the build" "$TMP/broken.mbox"
ok $? "make the build-breaking series"
run_boot --no-base "$TMP/broken.mbox"
is "$status" 1 "armbot boot exits 1"
worktree_at_series "PM: runtime: break the build"
grep -q '^kernel: build failed (exit status 2)$' "$TMP/out"; ok $? "reported as a failed build"
grep -q '^| .*runtime.c:[0-9]*:[0-9]*: error: #error armbot e2e: broken build' "$TMP/out"
ok $? "with the compiler's error in the build's tail"
grep -q '^boot ' "$TMP/out" && fail "something booted" || pass "nothing booted"
done_testing
