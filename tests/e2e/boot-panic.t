#!/bin/sh
# A patch that panics before init runs: armbot reports a boot failure,
# the kernel panic, and the last console lines with the panic message.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

make_patch init/main.c 's/(\tdo_sysctl_args\(\);\n)/$1\tpanic("armbot e2e: injected panic");\n/' "$TMP/panic.patch"
ok $? "make the panicking patch"
# as a one-patch mbox, the way a series arrives
{
	echo "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001"
	echo "From: Test <test@example.org>"
	echo "Subject: [PATCH] init: panic before running init"
	echo
	echo "Injected by armbot's end-to-end tests."
	echo "---"
	cat "$TMP/panic.patch"
	echo "-- "
	echo "2.39.5"
} > "$TMP/panic.mbox"
run_boot --no-base "$TMP/panic.mbox"
is "$status" 1 "armbot boot exits 1"
grep -q '^boot failed: kernel panic' "$TMP/out"; ok $? "reported as a kernel panic"
grep -q '^last 30 console lines:$' "$TMP/out"; ok $? "with the console's tail"
grep -q '^| .*Kernel panic - not syncing: armbot e2e: injected panic' "$TMP/out"
ok $? "which holds the panic line"
grep -q '^kunit: no results$' "$TMP/out"; ok $? "and no KUnit results"
cmp -s "$SRC/init/main.c" "$TMP/a/init/main.c"; ok $? "the tree is back to the base"
done_testing
