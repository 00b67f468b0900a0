#!/bin/sh
# `armbot boards`: the board map qemu/boards.conf and the boards a series'
# paths select (issue 21).  The paths of real ARM patches of
# ../shared/corpora/arm61 are read by real git (`git apply --numstat`,
# which reads a patch without applying it) and each patch selects the
# expected boards; made-up paths give the expected reasons; a broken map
# is refused with FILE:LINE.
. "$(dirname "$0")/../lib/tap.sh"

command -v git >/dev/null || skip_all "git not installed"
CORPORA="$TOP/../shared/corpora/arm61"
plan 14

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
	"virt virt-arm64 sabrelite mcimx6ul-evk orangepi-pc cubieboard vexpress-a9 " ]
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
