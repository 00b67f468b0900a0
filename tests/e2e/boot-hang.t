#!/bin/sh
# A series that hangs before init runs: the boot timeout stops qemu (the
# whole process group) and armbot reports the hang.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

make_mbox init/main.c 's/(\tdo_sysctl_args\(\);\n)/$1\tfor (;;)\n\t\tmsleep(1000);\n/' \
	"init: hang before running init" "$TMP/hang.mbox"
ok $? "make the hanging series"
run_boot --no-base --timeout 10 "$TMP/hang.mbox"
is "$status" 1 "armbot boot exits 1"
worktree_at_series "init: hang before running init"
grep -qx 'boot failed: hung: stopped by the timeout after 1[0-9]\.[0-9] s' "$TMP/out"
ok $? "reported as a hang stopped by the timeout"
grep -q '^| .*Run /init as init process' "$TMP/out" && fail "init ran" || pass "init never ran"
pgrep -f "qemu-system-arm.*$DATA" >/dev/null && fail "qemu left running" || pass "no qemu left running"
done_testing
