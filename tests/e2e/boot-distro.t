#!/bin/sh
# armbot boot on Debian's unmodified 6.1 tree (the distro tree of the data
# dir): it builds (cold the first time, then from the cached worktree,
# build dir and ccache), boots in qemu -M virt, and every case of the
# runtime-PM KUnit suite passes.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

run_boot
is "$status" 0 "armbot boot exits 0 on the distro kernel"
is "$(sed -n 's/^commit: //p' "$TMP/out")" "$(git -C "$REPO" rev-parse distro)" \
	"it builds the head of the distro tree"
is "$(sed -n 's/^commit=//p' "$WORKTREE/.armbot-checkout")" "$(git -C "$REPO" rev-parse distro)" \
	"checked out in the tree's persistent worktree"
grep -q '^boot ok: userspace at [0-9.]* s' "$TMP/out"
ok $? "the kernel boots to userspace and powers off"
n=$(suite_cases)
[ "$n" -ge 25 ]; ok $? "the suite has at least 25 cases ($n)"
grep -qx "kunit: $n passed, 0 failed, 0 skipped" "$TMP/out"
ok $? "all $n cases pass"
diag "$(grep '^built in' "$TMP/out")"
diag "$(grep '^boot ok' "$TMP/out"); armbot boot took ${elapsed} s"
done_testing
