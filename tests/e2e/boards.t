#!/bin/sh
# armbot boot --board on Debian's unmodified 6.1 tree: the kernel built
# with a board's config of the map (qemu/boards.conf) in its own build dir
# boots on the board's QEMU machine to the initramfs, with no oops, WARN or
# BUG on the console, and every case of the runtime-PM KUnit suite passes.
# `make check` boots one board of each family the issue names besides
# virt: vexpress-a9 (Versatile Express), arm64's virt-arm64, whose kernel
# is built with aarch64-linux-gnu-gcc and boots on qemu-system-aarch64,
# mcimx6ul-evk (i.MX; its kernel has no power-off handler and halts,
# and armbot ends QEMU at "reboot: System halted") and orangepi-pc
# (sunxi; -m 1024, powered off through the PSCI node QEMU adds to its
# DTB).  The first run on a machine builds each cold (on 2 shared cores at
# load ~5: vexpress-a9 about 8 min, virt-arm64 about 10.5 min; at load
# ~3-4: mcimx6ul-evk 5.5 min, orangepi-pc 4.6 min, at load ~10 three
# times that), later runs in 8 to 25 s each.
# ARMBOT_BOARDS=all (`make check-boards`) boots every board the map marks
# `boots = yes`, twice, and prints the build+boot time of each run (the
# first is cold on a fresh cache, the second warm).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

if [ "${ARMBOT_BOARDS:-}" = all ]; then
	boards=$("$ARMBOT" boards | awk -F'\t' '$6 == "boots" { print $1 }')
	runs="cold-or-warm warm"
else
	boards="vexpress-a9 virt-arm64 mcimx6ul-evk orangepi-pc"
	runs=once
fi
[ -n "$boards" ]; ok $? "the map has booting boards ($(echo $boards))"
n=$(suite_cases)

for board in $boards; do
	"$ARMBOT" boards | awk -F'\t' -v b="$board" '$1 == b && $6 == "boots" { f = 1 } END { exit !f }'
	ok $? "$board is marked boots = yes in the map"
	# the compiler the kernel's banner names is the board's arch's
	case $("$ARMBOT" boards | awk -F'\t' -v b="$board" '$1 == b { print $2 }') in
	arm64) cc=aarch64-linux-gnu-gcc ;;
	*) cc=arm-linux-gnueabihf-gcc ;;
	esac
	for run in $runs; do
		run_boot --board "$board" --console "$TMP/console"
		is "$status" 0 "$board ($run): armbot boot --board exits 0"
		grep -q "^board: $board (qemu -M " "$TMP/out"
		ok $? "$board ($run): booted on the board's machine"
		grep -q "^build: .*/kbuild/distro-6.1/rpm-$board\$" "$TMP/out"
		ok $? "$board ($run): in the board's own build dir"
		grep -q "^boot $board ok userspace at [0-9.]* s\$" "$TMP/out"
		ok $? "$board ($run): userspace reached, no oops/WARN/BUG"
		grep -q "Linux version .* ($cc " "$TMP/console"
		ok $? "$board ($run): a kernel built by $cc booted"
		grep -qx "kunit: $n passed, 0 failed, 0 skipped" "$TMP/out"
		ok $? "$board ($run): all $n KUnit cases pass"
		diag "$board ($run): $(grep '^built in' "$TMP/out"); $(grep "^boot $board" "$TMP/out"); build+boot ${elapsed} s"
	done
done

# a board the map does not have is refused before anything is built
run_boot --board no-such-board
is "$status" 2 "an unknown board is an error"
grep -q "no board 'no-such-board'" "$TMP/err"
ok $? "and says which"
done_testing
