#!/bin/sh
# bench/sparse.sh: a 5-file ARM series on the distro tree, on warm build
# dirs (those of tests/e2e/sparse-*.t under $ARMBOT_CACHE_DIR/e2e-tree):
# the whole `armbot sparse` check (apply, select, config choice, checkout,
# sparse + compiler at head and base) against what a human runs by hand
# for the same objects: `armbot tree checkout` to the base, `make C=2
# CHECK=sparse OBJS`, checkout to the head, the same make (in bwrap, as
# patched kernel code never runs outside a sandbox here).  Prints armbot's
# phases, both times and the ratio.  Goal: armbot under 30 s warm.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
ARMBOT_CACHE_DIR=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
export ARMBOT_CACHE_DIR
DATA=$ARMBOT_CACHE_DIR/e2e-tree/data
REPO=$DATA/trees/distro-6.1/repo.git
WT=$DATA/worktrees/distro-6.1
BUILD=$DATA/kbuild/distro-6.1/allmodconfig
CCACHE=$ARMBOT_CACHE_DIR/ccache
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

"$ARMBOT" --data-dir "$DATA" tree show > /dev/null

# the series, made by git: one small change in each of five ARM files
FILES="arch/arm/kernel/setup.c arch/arm/kernel/traps.c arch/arm/mm/init.c
arch/arm/kernel/time.c arch/arm/mach-imx/pm-imx6.c"
G=$TMP/g
git clone -q --shared --no-checkout "$REPO" "$G"
BASE=$(git -C "$G" rev-parse distro)
git -C "$G" reset -q "$BASE"
n=0
for f in $FILES; do
	n=$((n + 1))
	git -C "$G" checkout "$BASE" -- "$f"
	perl -0pi -e 's/\n(#include [^\n]*\n)(?!#include)/\n$1\n\/* bench: note '$n' *\/\n/s' "$G/$f"
	git -C "$G" -c user.name=Bench -c user.email=bench@example.org \
		commit -q -m "ARM: bench change $n" -- "$f"
done
git -C "$G" format-patch -q -5 -o "$TMP/fp"
cat "$TMP/fp"/*.patch > "$TMP/series.mbox"
OBJS=$(echo $FILES | sed 's/\.c/.o/g')

# warm-up: the build dirs exist and the objects were built once
"$ARMBOT" --data-dir "$DATA" sparse -q --jobs 2 "$TMP/series.mbox" > /dev/null

now() { date +%s.%N; }
t0=$(now)
"$ARMBOT" --data-dir "$DATA" sparse -q --jobs 2 "$TMP/series.mbox" > "$TMP/out"
t1=$(now)
HEAD=$(sed -n 's/^series: [0-9]* patches, head //p' "$TMP/out")
sed -n 's/^result: /armbot: result /p; s/^time: /armbot phases: /p' "$TMP/out"

# by hand: the same objects, the same sandbox limits left aside
by_hand_make() {
	bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp \
		--bind "$BUILD" "$BUILD" --bind "$CCACHE" "$CCACHE" \
		--unshare-all --die-with-parent --chdir "$WT" \
		env -i PATH="$PATH" HOME="$HOME" LANG=C CCACHE_DIR="$CCACHE" \
		nice make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- \
		CC="ccache arm-linux-gnueabihf-gcc" HOSTCC="ccache gcc" \
		O="$BUILD" -j2 C=2 CHECK=sparse $OBJS > "$TMP/hand.log" 2>&1 ||
		true
}
t2=$(now)
"$ARMBOT" --data-dir "$DATA" tree checkout distro-6.1 "$BASE" "$WT" > /dev/null
t3=$(now)
by_hand_make
t4=$(now)
"$ARMBOT" --data-dir "$DATA" tree checkout distro-6.1 "$HEAD" "$WT" > /dev/null
t5=$(now)
by_hand_make
t6=$(now)
echo "by hand: checkout base $(echo "$t3 - $t2" | bc) s, make C=2 base $(echo "$t4 - $t3" | bc) s, checkout head $(echo "$t5 - $t4" | bc) s, make C=2 head $(echo "$t6 - $t5" | bc) s"
a=$(echo "$t1 - $t0" | bc)
h=$(echo "$t6 - $t2" | bc)
printf 'armbot sparse: %.1f s   by hand: %.1f s   ratio armbot/by hand: %.2f\n' \
	"$a" "$h" "$(echo "$a / $h" | bc -l)"
