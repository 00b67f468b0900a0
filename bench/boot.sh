#!/bin/sh
# armbot boot, cold and warm: a cold build of the runtime-PM test kernel
# from the distro tree (fresh worktree and build dir, empty ccache) with
# its boot and KUnit suite, then a warm rebuild of a one-file ARM series
# (applied with am, the worktree checked out at its head) with its boot
# and suite.  Prints each phase and the ratio to the issue's goals (cold
# 5 min, warm 20 s).  Uses 2 make jobs at nice 10: the machine is shared.
# The distro tree is imported once into $ARMBOT_CACHE_DIR/bench-boot/data
# (not timed); the worktree and build dir are made fresh each run.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
CACHE=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
DATA=$CACHE/bench-boot/data
REPO=$DATA/trees/distro-6.1/repo.git

[ -x "$ARMBOT" ] || { echo "build armbot first (make)"; exit 1; }
mkdir -p "$DATA"
"$ARMBOT" --data-dir "$DATA" tree show > /dev/null
rm -rf "$DATA/worktrees" "$DATA/kbuild" "$DATA/boot"

W=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench-boot.XXXXXX")
trap 'rm -rf "$W"' EXIT
# a cache dir of its own: an empty ccache, so the cold build is cold
mkdir -p "$W/cache"

now() { date +%s.%N; }
phase() {	# phase NAME OUTPUT START END
	printf '%-40s %7.1f s\n' "$1" "$(echo "$4 - $3" | bc)"
	sed -n 's/^\(checkout \|built in\|boot \|kunit: \)/    &/p' "$2"
}

t0=$(now)
ARMBOT_CACHE_DIR=$W/cache "$ARMBOT" --data-dir "$DATA" boot --jobs 2 \
	> "$W/cold.out" || { cat "$W/cold.out"; exit 1; }
t1=$(now)
phase "cold: checkout + build + module + boot" "$W/cold.out" "$t0" "$t1"

# the warm series: one ARM file changed (bench/one-file-series.sh)
. "$TOP/bench/one-file-series.sh"
one_file_series "$REPO" "$W/one-file.mbox" || exit 1

t2=$(now)
ARMBOT_CACHE_DIR=$W/cache "$ARMBOT" --data-dir "$DATA" boot --jobs 2 \
	--no-base "$W/one-file.mbox" > "$W/warm.out" || { cat "$W/warm.out"; exit 1; }
t3=$(now)
phase "warm: am + checkout + rebuild + boot" "$W/warm.out" "$t2" "$t3"

cold=$(echo "$t1 - $t0" | bc)
warm=$(echo "$t3 - $t2" | bc)
printf 'cold %.1f s = %.2f of the 300 s goal; warm %.1f s = %.2f of the 20 s goal\n' \
	"$cold" "$(echo "$cold / 300" | bc -l)" "$warm" "$(echo "$warm / 20" | bc -l)"
