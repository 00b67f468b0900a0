#!/bin/sh
# A series that panics before init runs: armbot reports a boot failure,
# the kernel panic, and the last console lines with the panic message.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

make_mbox init/main.c 's/(\tdo_sysctl_args\(\);\n)/$1\tpanic("armbot e2e: injected panic");\n/' \
	"init: panic before running init" "$TMP/panic.mbox"
ok $? "make the panicking series"
run_boot --no-base "$TMP/panic.mbox"
is "$status" 1 "armbot boot exits 1"
worktree_at_series "init: panic before running init"
grep -q '^boot failed: kernel panic' "$TMP/out"; ok $? "reported as a kernel panic"
grep -q '^last 30 console lines:$' "$TMP/out"; ok $? "with the console's tail"
grep -q '^| .*Kernel panic - not syncing: armbot e2e: injected panic' "$TMP/out"
ok $? "which holds the panic line"
grep -q '^kunit: no results$' "$TMP/out"; ok $? "and no KUnit results"
done_testing
