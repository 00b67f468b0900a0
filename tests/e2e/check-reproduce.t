#!/bin/sh
# The reply's "To reproduce", followed by a reader without armbot: a series
# that panics before init is checked with `armbot check`; the reply names
# the distro tree (package, version, armbot's base and its root tree), the
# series (b4 am), and for the failed boot the rpm-virt config, the makes
# and the qemu line, with no path of the data dir, the cache dir or
# armbot's sources.  Then the printed commands are run as a reader would:
# in a copy of the kernel tree at the series, the config steps give the
# .config armbot built with, and the qemu line boots armbot's kernel and
# initramfs to the same panic.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/boot-lib.sh"

# a store of the test's own; the tree, worktree and builds of boot-lib.sh
CDATA=$TMP/data
own_data_dir "$CDATA" || skip_all "cannot link the data dirs"
# the reader's kernel tree: hard links to the worktree, on its file system
LINUX_TOP=$(mktemp -d "$ARMBOT_CACHE_DIR/e2e-reproduce.XXXXXX")
trap 'rm -rf "$TMP" "$LINUX_TOP"' EXIT

make_mbox init/main.c 's/(\tdo_sysctl_args\(\);\n)/$1\tpanic("armbot e2e: injected panic");\n/' \
	"init: panic before running init" "$TMP/panic.mbox" &&
	sed -i 's/^From: .*/&\nMessage-ID: <panic.1@example.org>/' "$TMP/panic.mbox"
ok $? "make the panicking series"
"$ARMBOT" --data-dir "$CDATA" check --no-sparse --jobs 2 --body \
	"$TMP/panic.mbox" > "$TMP/body" 2> "$TMP/err"
is "$?" 1 "armbot check exits 1: a check failed"
[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err"
sed -n '/^To reproduce:$/,/^-- $/p' "$TMP/body" > "$TMP/repro"
sed 's/^/# /' "$TMP/repro"
[ -s "$TMP/repro" ]; ok $? "the reply has a To reproduce section"

# nothing of armbot's machine in it
for p in "$CDATA" "$DATA" "$ARMBOT_CACHE_DIR" "$TOP" \
	"$(realpath "$DATA")" "$(realpath "$ARMBOT_CACHE_DIR")"; do
	grep -qF "$p" "$TMP/body" && { fail "the reply names $p"; continue; }
	pass "no '$p' in the reply"
done

# the tree and the series
base=$(git -C "$REPO" rev-parse distro)
base_tree=$(git -C "$REPO" rev-parse "distro^{tree}")
version=$(dpkg-query -W -f '${Version}' linux-source-6.1)
tr '\n' ' ' < "$TMP/repro" | grep -q "imported as commit $base\. .* git write-tree prints $base_tree\."
ok $? "the base, in full, and its root tree"
grep -qx "        apt-get install linux-source-6.1=$version" "$TMP/repro"
ok $? "the package at the version imported"
grep -qx "        tar -xf /usr/src/linux-source-6.1.tar.xz" "$TMP/repro"
ok $? "the tarball Debian installs"
grep -qx '        b4 am -o - -v 1 panic.1@example.org | git am' "$TMP/repro"
ok $? "the series by b4 am"
grep -q '^boot (FAIL) and runtime-PM (FAIL): the rpm-virt kernel' "$TMP/repro"
ok $? "one section for the boot and the runtime-PM suite"
grep -qx "        armbot check --tree distro-6.1 '<panic.1@example.org>'" "$TMP/repro"
ok $? "armbot check last"

# the reader's steps: the config, and qemu
awk '/^        mkdir -p build$/ { on = 1 } on { print } on && / allnoconfig$/ { exit }' \
	"$TMP/repro" > "$TMP/config.sh"
# (a long line is continued with a backslash)
awk '/^        qemu-system-arm / { on = 1 } on { print } on && !/\\$/ { exit }' \
	"$TMP/repro" > "$TMP/qemu.sh"
[ -s "$TMP/config.sh" ] && [ -s "$TMP/qemu.sh" ]
ok $? "the config steps and the qemu line are printed"
LINUX=$LINUX_TOP/linux
cp -al "$WORKTREE" "$LINUX" && rm -f "$LINUX/.armbot-checkout"
ok $? "a copy of the kernel tree at the series"
(cd "$LINUX" && sh -e "$TMP/config.sh") > "$TMP/config.out" 2>&1
st=$?
ok $st "the config steps run"
[ $st -eq 0 ] || tail -20 "$TMP/config.out" | sed 's/^/# /'
is_file "$DATA/kbuild/distro-6.1/rpm-virt/.config" "$LINUX/build/.config" \
	"they give the .config armbot built with"
# armbot's kernel and initramfs where the qemu line reads them: the
# series' were built in the series' copy of the build dir (kernel/kbuild.h)
SERIES_BUILD=$DATA/kbuild/distro-6.1/.series/rpm-virt/build
mkdir -p "$LINUX/build/arch/arm/boot" &&
	ln -sf "$SERIES_BUILD/arch/arm/boot/zImage" \
		"$LINUX/build/arch/arm/boot/zImage" &&
	ln -sf "$SERIES_BUILD/armbot-initramfs.cpio" \
		"$LINUX/build/armbot-initramfs.cpio"
(cd "$LINUX" && timeout 120 sh "$TMP/qemu.sh") > "$TMP/console" 2>&1
grep -q 'Kernel panic - not syncing: armbot e2e: injected panic' "$TMP/console"
ok $? "the qemu line boots it to the same panic"
tail -5 "$TMP/console" | sed 's/^/# console: /'
done_testing
