#!/bin/sh
# armbot boot, cold and warm: a cold build of the runtime-PM test kernel
# (fresh build dir, empty ccache) with its boot and KUnit suite, then a
# warm rebuild after a one-file ARM change with its boot and suite.  Prints
# each phase and the ratio to the issue's goals (cold 5 min, warm 20 s).
# Uses 2 make jobs at nice 10: the machine is shared.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
CACHE=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
SRC=$CACHE/boot/linux-source-6.1

[ -x "$ARMBOT" ] || { echo "build armbot first (make)"; exit 1; }
if [ ! -f "$SRC/Makefile" ]; then
	mkdir -p "$CACHE/boot/src.tmp"
	tar -xJf "$TARBALL" -C "$CACHE/boot/src.tmp"
	mv "$CACHE/boot/src.tmp/linux-source-6.1" "$SRC"
	rmdir "$CACHE/boot/src.tmp"
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench-boot.XXXXXX")
trap 'rm -rf "$W"' EXIT
# a cache dir of its own: an empty ccache, so the cold build is cold
mkdir -p "$W/cache"

now() { date +%s.%N; }
phase() {	# phase NAME OUTPUT START END
	printf '%-34s %7.1f s\n' "$1" "$(echo "$4 - $3" | bc)"
	sed -n 's/^\(built in\|boot \|kunit: \)/    &/p' "$2"
}

t0=$(now)
ARMBOT_CACHE_DIR=$W/cache "$ARMBOT" --data-dir "$W/data" boot \
	--source "$SRC" --jobs 2 > "$W/cold.out" || {
	cat "$W/cold.out"; exit 1; }
t1=$(now)
phase "cold: build + module + boot + suite" "$W/cold.out" "$t0" "$t1"

# one ARM file changed: the boot banner of arch/arm/kernel/setup.c
mkdir -p "$W/a/arch/arm/kernel" "$W/b/arch/arm/kernel"
cp "$SRC/arch/arm/kernel/setup.c" "$W/a/arch/arm/kernel/"
cp "$SRC/arch/arm/kernel/setup.c" "$W/b/arch/arm/kernel/"
perl -0pi -e 's/"CPU: %s \[%08x\]/"CPU (armbot bench): %s [%08x]/' \
	"$W/b/arch/arm/kernel/setup.c"
(cd "$W" && diff -u a/arch/arm/kernel/setup.c b/arch/arm/kernel/setup.c \
	> one-file.patch) || true
[ -s "$W/one-file.patch" ] || { echo "bench patch did not change setup.c"; exit 1; }

t2=$(now)
ARMBOT_CACHE_DIR=$W/cache "$ARMBOT" --data-dir "$W/data" boot \
	--source "$SRC" --jobs 2 --no-base --patch "$W/one-file.patch" \
	> "$W/warm.out" || { cat "$W/warm.out"; exit 1; }
t3=$(now)
phase "warm: one-file rebuild + boot + suite" "$W/warm.out" "$t2" "$t3"

cold=$(echo "$t1 - $t0" | bc)
warm=$(echo "$t3 - $t2" | bc)
printf 'cold %.1f s = %.2f of the 300 s goal; warm %.1f s = %.2f of the 20 s goal\n' \
	"$cold" "$(echo "$cold / 300" | bc -l)" "$warm" "$(echo "$warm / 20" | bc -l)"
