#!/bin/sh
# The pipeline boots the boards a series selects (qemu/boards.conf): two
# real one-patch series made with git format-patch from the imported
# distro tree, both changing the Versatile Express CoreTile A9 device tree
# (arch/arm/boot/dts/vexpress-v2p-ca9.dts, which selects vexpress-a9), are
# checked with `armbot check`:
#  (a) one deletes the clocks of the PL011 UART the console is on
#      (v2m_serial0): the kernel cannot register its console, the board
#      does not boot; the reply says vexpress-a9 FAILs (with what its
#      console showed), the boot check FAILs for it, and virt still boots;
#  (b) one changes the board's model string: vexpress-a9 boots.
# The builds are boot-lib.sh's (rpm-virt and rpm-vexpress-a9 in its data
# dir, ccache next to them): warm, a vexpress-a9 build takes ~25 s; on a
# cold cache the first run builds both kernels (~8 min each on 2 cores).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"
. "$(dirname "$0")/boards-lib.sh"

# a store of the test's own; the tree, worktree and builds of boot-lib.sh
CDATA=$TMP/data
mkdir -p "$CDATA" "$DATA/kbuild" "$DATA/worktrees" "$DATA/boot"
for d in trees worktrees kbuild boot; do
	ln -s "$DATA/$d" "$CDATA/$d" || skip_all "cannot link $d"
done

DTS=$VEXPRESS_DTS

# check MBOX: armbot check, the reply's body in $TMP/body
check() {
	_start=$(date +%s)
	"$ARMBOT" --data-dir "$CDATA" check --no-sparse --jobs 2 --body "$1" \
		> "$TMP/body" 2> "$TMP/err"
	status=$?
	elapsed=$(( $(date +%s) - _start ))
	sed 's/^/# /' "$TMP/body"
	[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err"
	return 0
}

why="touches $DTS (arch/arm/boot/dts/vexpress-\\*) → vexpress-a9"

# (a) the console's UART without its clocks
format_dts_patch "$DTS" "$UART_NO_CLOCKS" \
	"ARM: dts: vexpress-v2p-ca9: drop the clocks of UART0" "$TMP/noclk.mbox"
ok $? "git format-patch: the series that drops UART0's clocks"
grep -q '^+	/delete-property/ clocks;$' "$TMP/noclk.mbox"
ok $? "it deletes the clocks of v2m_serial0"
check "$TMP/noclk.mbox"
is "$status" 1 "armbot check exits 1: a check failed"
diag "(a) checked in $elapsed s"
grep -q "^  build  *ok " "$TMP/body"; ok $? "the rpm-virt kernel builds"
grep -q "^  runtime-PM  *ok " "$TMP/body"; ok $? "virt runs the runtime-PM suite"
grep -q "^  boot  *FAIL  userspace at [0-9.]* s\( (the base's kernel)\)\{0,1\}; fails on vexpress-a9\$" "$TMP/body"
ok $? "the boot check: virt reaches userspace, FAIL for vexpress-a9"
grep -q "^  boot vexpress-a9 FAIL .* ($why)\$" "$TMP/body"
ok $? "the board's line: vexpress-a9 FAILs, and why the series selects it"
! grep -q "(the base fails too)" "$TMP/body"
ok $? "the base boots on vexpress-a9: the failure is the series'"
grep -q "^Board vexpress-a9 (qemu-system-arm -M vexpress-a9 -dtb vexpress-v2p-ca9.dtb, console=ttyAMA0): " "$TMP/body"
ok $? "the failure's detail names the machine, DTB and console"
# without its UART's clocks the kernel never gets a console: the reply
# says so, then shows what the console showed (QEMU's own lines)
grep -q "the kernel printed nothing on ttyAMA0" "$TMP/body"
ok $? "the detail says the kernel printed nothing on the board's console"
grep -q "^| " "$TMP/body"
ok $? "and shows the console's last lines"
# "To reproduce" the board's failure: its config, makes and qemu line
# (the board's machine, the build's DTB, its console), no path of armbot's
sed -n '/^To reproduce:$/,/^-- $/p' "$TMP/body" > "$TMP/repro"
tr '\n' ' ' < "$TMP/repro" |
	grep -q "boot (FAIL): the kernel of board vexpress-a9, allnoconfig with armbot's qemu/vexpress-a9.config, booted in QEMU's vexpress-a9 machine"
ok $? "To reproduce: the boot check's failure is the board's kernel"
grep -q "^CONFIG_ARCH_VEXPRESS=y\$" "$TMP/repro"
ok $? "with the board's config fragment inlined"
tr '\n' ' ' < "$TMP/repro" | sed 's/\\  */ /g' |
	grep -q "qemu-system-arm -M vexpress-a9 .*-dtb build/arch/arm/boot/dts/vexpress-v2p-ca9.dtb"
ok $? "and the qemu line with the board's machine and the build's DTB"
grep -q "console=ttyAMA0" "$TMP/repro"
ok $? "and its console"
for p in "$CDATA" "$DATA" "$ARMBOT_CACHE_DIR" "$TOP"; do
	grep -qF "$p" "$TMP/body" && { fail "the reply names $p"; continue; }
	pass "no '$p' in the reply"
done
logs=$(ls -d "$CDATA"/logs/series-*/distro-6.1 | head -1)
[ -s "$logs/build-vexpress-a9-series.log" ] &&
	[ -f "$logs/console-vexpress-a9-series.log" ] &&
	[ -f "$logs/console-vexpress-a9-base.log" ]
ok $? "the board's build and consoles (series, base) are kept with the logs"
grep -q "^boot ok\|armbot-init: " "$logs/console-vexpress-a9-base.log"
ok $? "the base booted the board to userspace"

# (b) a harmless change of the same board
format_dts_patch "$DTS" 's/model = "V2P-CA9";/model = "V2P-CA9 (armbot)";/' \
	"ARM: dts: vexpress-v2p-ca9: rename the model" "$TMP/model.mbox"
ok $? "git format-patch: the series that renames the model"
check "$TMP/model.mbox"
is "$status" 0 "armbot check exits 0: no check found a problem"
diag "(b) checked in $elapsed s"
grep -q "^  boot  *ok  *userspace at [0-9.]* s\( (the base's kernel)\)\{0,1\}\$" "$TMP/body"
ok $? "virt boots"
grep -q "^  boot vexpress-a9 ok userspace at [0-9.]* s ($why)\$" "$TMP/body"
ok $? "vexpress-a9 boots to userspace"
done_testing
