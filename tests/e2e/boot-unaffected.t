#!/bin/sh
# A series that changes no file the base's build read (a device tree of
# another board, a driver the rpm-virt config does not build) has the
# base's kernel: armbot check reports the base's boot for it and builds
# and boots nothing (kernel/build/builddeps.h).  A series that changes a
# file the build compiles is built and booted as before: a wrong skip
# would report a kernel that was never built, so both are checked on the
# distro tree, after `armbot boot` of its head wrote the build dir's
# record of what it holds.  (--no-boards: the boards the device tree
# selects are bench/boards.sh's and pipeline-boards.t's.)
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

CDATA=$TMP/data
own_data_dir "$CDATA" || skip_all "cannot link the data dirs"
BUILD=$DATA/kbuild/distro-6.1/rpm-virt
LOGS=$CDATA/logs/series-1/distro-6.1

# the build dir holds the trusted build of the tree's head
run_boot
is "$status" 0 "armbot boot of the distro tree's head"
[ -s "$BUILD/armbot-built" ]
ok $? "the build dir records the inputs of the build it holds"

# check MBOX: armbot check of the series in a store of its own
check() {
	rm -rf "$CDATA/store.sqlite"* "$CDATA/logs"
	"$ARMBOT" --data-dir "$CDATA" check --no-sparse --no-boards --jobs 2 --body "$1" \
		> "$TMP/body" 2> "$TMP/err"
	RC=$?
	[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err"
	sed -n '/^  apply/,/^$/p' "$TMP/body" | sed 's/^/# /'
}

make_mbox arch/arm/boot/dts/imx6qdl-sabrelite.dtsi 's/\z/\n\/* armbot e2e *\/\n/' \
	"ARM: dts: imx6qdl-sabrelite: a comment" "$TMP/dts.mbox"
ok $? "make a series of a device tree the virt kernel does not build"
check "$TMP/dts.mbox"
is "$RC" 0 "armbot check exits 0"
grep -q "^  build  *ok  *rpm-virt, not rebuilt: the series changes no file it reads$" "$TMP/body"
ok $? "the build line says the series' kernel is the base's"
grep -q "^  boot  *ok  *userspace at [0-9.]* s (the base's kernel)$" "$TMP/body"
ok $? "the boot line says whose boot it is"
grep -q "^  runtime-PM  *ok  *$(suite_cases) passed" "$TMP/body"
ok $? "the suite's results are the base's, all passed"
grep -q "not built or booted again" "$LOGS/build-series.log"
ok $? "the series' build log says nothing was built" ||
	sed 's/^/# /' "$LOGS/build-series.log"
cmp -s "$LOGS/console-base.log" "$LOGS/console-series.log"
ok $? "the series' console is the base's"

make_mbox drivers/base/power/runtime.c 's/\z/\n\/* armbot e2e *\/\n/' \
	"PM: runtime: a comment" "$TMP/c.mbox"
ok $? "make a series of a file the virt kernel compiles"
check "$TMP/c.mbox"
is "$RC" 0 "armbot check exits 0"
grep -q "^  build  *ok  *rpm-virt, [0-9]* s" "$TMP/body"
ok $? "the series is built"
grep -q "drivers/base/power/runtime.o" "$LOGS/build-series.log"
ok $? "its make compiled the file it changes" ||
	tail -5 "$LOGS/build-series.log" | sed 's/^/# /'
grep -q "^  boot  *ok  *userspace at [0-9.]* s$" "$TMP/body"
ok $? "and booted"

make_mbox arch/arm/boot/dts/Makefile 's/\z/\n# armbot e2e\n/' \
	"ARM: dts: a comment in the Makefile" "$TMP/mk.mbox"
check "$TMP/mk.mbox"
is "$RC" 0 "armbot check of a series changing a Makefile exits 0"
grep -q "^  build  *ok  *rpm-virt, [0-9]* s" "$TMP/body"
ok $? "a Makefile is read by every build: the series is built"
done_testing
