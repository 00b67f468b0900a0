#!/bin/sh
# `armbot boards`: the board map qemu/boards.conf and the boards a series'
# paths select (issue 21).  The paths of real ARM patches of
# ../shared/corpora/arm61 are read by real git (`git apply --numstat`,
# which reads a patch without applying it) and each patch selects the
# expected boards; made-up paths give the expected reasons; a broken map
# is refused with FILE:LINE.  With -C and the imported distro tree, the
# paths derived from the tree (each board's device tree, the drivers of
# its SoC's own compatibles) select too.
. "$(dirname "$0")/../lib/tap.sh"

command -v git >/dev/null || skip_all "git not installed"
CORPORA="$TOP/../shared/corpora/arm61"
DISTRO=$ARMBOT_CACHE_DIR/distro-git
# made by lib/am-oracle.sh's am_distro_git under an exclusive lock held
# until its test ends, marked complete last: wait for a test beside this
# one that makes it; without the mark the distro cases are skipped
if [ ! -f "$DISTRO/.armbot-complete" ] && [ -f "$DISTRO.lock" ]; then
	flock -s "$DISTRO.lock" true
fi
[ -f "$DISTRO/.armbot-complete" ] || DISTRO=$TMP/no-distro-tree
plan 28

# select NAME WANT PATH...: the boards chosen, ' '-joined, are WANT
select() {
	_name=$1 _want=$2
	shift 2
	_got=$("$ARMBOT" boards "$@" | cut -f1 | tr '\n' ' ' | sed 's/ $//')
	[ "$_got" = "$_want" ] || echo "# $_name: got '$_got', want '$_want'"
	[ "$_got" = "$_want" ]
	ok $? "$_name selects $_want"
}

"$ARMBOT" boards > "$TMP/map"
ok $? "the map is read"
[ "$(cut -f1 "$TMP/map" | tr '\n' ' ')" = \
	"virt virt-arm64 sabrelite mcimx6ul-evk orangepi-pc cubieboard vexpress-a9 vexpress-a15 " ]
ok $? "the map lists its boards in file order"

select "an H3 DTS" orangepi-pc arch/arm/boot/dts/sun8i-h3-orangepi-pc.dts
"$ARMBOT" boards arch/arm/boot/dts/sun8i-h3-nanopi.dtsi | grep -q \
	'touches arch/arm/boot/dts/sun8i-h3-nanopi.dtsi (arch/arm/boot/dts/sun8i-h3\*) → orangepi-pc'
ok $? "the reason names the path and the glob"
select "mach-imx and mach-versatile" "sabrelite mcimx6ul-evk vexpress-a9" \
	arch/arm/mach-imx/pm-imx6.c arch/arm/mach-versatile/v2m.c
select "OMAP1 clock code" virt arch/arm/mach-omap1/clock.c
printf 'drivers/pci/quirks.c\n\narch/arm64/kernel/smp.c\n' > "$TMP/paths"
"$ARMBOT" boards - < "$TMP/paths" > "$TMP/out"
[ "$(cut -f1 "$TMP/out")" = virt-arm64 ]
ok $? "paths on standard input; arm64 alone selects arm64 virt"

# corpus PATCH WANT
corpus() {
	if [ ! -d "$CORPORA" ]; then
		ok 0 "# SKIP no $CORPORA"
		return
	fi
	git apply --numstat "$CORPORA/$1" | cut -f3 > "$TMP/p" ||
		echo "# git cannot read $1"
	select "$1" "$2" - < "$TMP/p"
	# the same with the paths the distro tree derives: none of these
	# patches touches a board's driver or device tree the globs miss
	if [ -d "$DISTRO" ]; then
		_got=$("$ARMBOT" -C "$DISTRO" boards - < "$TMP/p" | cut -f1 |
			tr '\n' ' ' | sed 's/ $//')
		[ "$_got" = "$2" ]
		ok $? "$1 selects $2 (derived)"
	else
		ok 0 "# SKIP no imported distro tree"
	fi
}
corpus imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch sabrelite
corpus meson-6.1/odroidc1-dts-Enable-HDMI.patch virt
corpus bcm2711-6.1/0001-Make-proc-cpuinfo-consistent-on-arm64-and-arm.patch virt-arm64
corpus mvebu-6.1/09-pci-link-retraining.patch virt

printf '[virt]\narch = arm\nmachine = virt\nbase = tinyconfig\nconsole = ttyAMA0\npaths = arch/arm/\nfallback = true\n[x]\narch = mips\n' > "$TMP/bad.conf"
"$ARMBOT" boards --map "$TMP/bad.conf" > /dev/null 2> "$TMP/err"
[ $? -ne 0 ] && grep -q "bad.conf:9: arch must be arm or arm64" "$TMP/err"
ok $? "a wrong entry is refused with its line"
"$ARMBOT" boards --map "$TMP/missing.conf" > /dev/null 2>&1
[ $? -ne 0 ]
ok $? "a missing map is an error"
"$ARMBOT" boards --map "$TMP/bad.conf" arch/arm/x.c > /dev/null 2>&1
[ $? -ne 0 ]
ok $? "no selection from a wrong map"

# The paths the distro tree derives (qemu/boardderive.h).
D=$DISTRO
# dselect NAME WANT PATH...: as select, with -C the distro tree
dselect() {
	_name=$1 _want=$2
	shift 2
	_got=$("$ARMBOT" -C "$D" boards "$@" | cut -f1 | tr '\n' ' ' | sed 's/ $//')
	[ "$_got" = "$_want" ] || echo "# $_name: got '$_got', want '$_want'"
	[ "$_got" = "$_want" ]
	ok $? "$_name selects $_want (derived)"
}
if [ ! -d "$D" ]; then
	for i in 1 2 3 4 5 6 7 8; do ok 0 "# SKIP no imported distro tree"; done
else
	"$ARMBOT" -C "$D" boards --no-cache --stats arch/arm/boot/dts/imx6ul.dtsi \
		> "$TMP/out" 2> "$TMP/err"
	grep -q "^derivation: computed, [0-9]* .dts read" "$TMP/err" &&
		grep -q "^mcimx6ul-evk	" "$TMP/out"
	ok $? "derived without the cache: $(cat "$TMP/err")"
	"$ARMBOT" -C "$D" boards --rev HEAD drivers/tty/serial/imx.c > "$TMP/out"
	grep -q "^sabrelite	touches drivers/tty/serial/imx.c (driver of fsl,imx6q-uart in imx6q-sabrelite.dtb) → sabrelite$" "$TMP/out"
	ok $? "the reason names the driver's compatible and the DTB"
	dselect "the i.MX UART driver" "sabrelite mcimx6ul-evk" drivers/tty/serial/imx.c
	dselect "the H3 CCU" orangepi-pc drivers/clk/sunxi-ng/ccu-sun8i-h3.c
	dselect "the PL011 driver" virt drivers/tty/serial/amba-pl011.c
	dselect "an i.MX6UL clock header" mcimx6ul-evk \
		include/dt-bindings/clock/imx6ul-clock.h
	dselect "the Versatile Express motherboard" vexpress-a9 \
		arch/arm/boot/dts/vexpress-v2m.dtsi
	"$ARMBOT" -C "$D" boards --derived 2> /dev/null |
		grep -q "^orangepi-pc	drivers/mmc/host/sunxi-mmc.c	driver of allwinner,sun7i-a20-mmc in sun8i-h3-orangepi-pc.dtb$"
	ok $? "--derived lists a board's drivers"
fi
"$ARMBOT" boards --rev HEAD x > /dev/null 2>&1
[ $? -eq 129 ]
ok $? "--rev without -C is a usage error"
"$ARMBOT" -C "$TMP" boards x > /dev/null 2> "$TMP/err"
[ $? -eq 1 ] && grep -q "armbot boards: " "$TMP/err"
ok $? "-C without a repository is an error"
