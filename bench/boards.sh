#!/bin/sh
# Build+boot time per board of the map (issue 21), cold and warm, beside
# virt's: for every board marked `boots = yes` in qemu/boards.conf (or the
# boards named in $BOARDS), `armbot boot --board NAME` on the distro tree
# with a fresh build dir and an empty ccache (cold, skipped with COLD=0),
# then a one-file ARM series on top (warm: am, checkout, incremental
# rebuild of the board's build dir, boot).  Prints each board's times and
# the ratio of its warm time to virt's, the peer run side by side (the
# issue's goal: a board's warm check costs what virt's does, under 20 s).
# 2 make jobs; the distro tree is imported once into
# $ARMBOT_CACHE_DIR/bench-boards/data (not timed).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
CACHE=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
DATA=$CACHE/bench-boards/data
REPO=$DATA/trees/distro-6.1/repo.git
COLD=${COLD:-1}

[ -x "$ARMBOT" ] || { echo "build armbot first (make)"; exit 1; }
mkdir -p "$DATA"
"$ARMBOT" --data-dir "$DATA" tree show > /dev/null
BOARDS=${BOARDS:-$("$ARMBOT" boards | awk -F'\t' '$6 == "boots" { print $1 }')}
# virt first: the peer
BOARDS="virt $(echo "$BOARDS" | tr ' ' '\n' | grep -vx virt | tr '\n' ' ')"

W=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench-boards.XXXXXX")
trap 'rm -rf "$W"' EXIT
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }

# the warm series: one ARM file changed (bench/one-file-series.sh)
. "$TOP/bench/one-file-series.sh"
one_file_series "$REPO" "$W/one-file.mbox" || exit 1

boot() {	# boot BOARD CACHE OUT [ARGS...]
	_b=$1 _c=$2 _o=$3
	shift 3
	ARMBOT_CACHE_DIR=$_c nice -n 10 "$ARMBOT" --data-dir "$DATA" boot \
		--jobs 2 --board "$_b" "$@" > "$_o" 2>&1 || {
		echo "$_b: armbot boot failed:"; tail -20 "$_o"; exit 1; }
	grep "^boot $_b ok" "$_o" > /dev/null || {
		echo "$_b: no clean boot:"; tail -20 "$_o"; exit 1; }
}

printf '%-14s %9s %9s %10s  %s\n' board cold warm "warm/virt" "userspace (warm)"
virt_warm=
for b in $BOARDS; do
	cold=-
	c=$CACHE
	if [ "$COLD" = 1 ]; then
		c=$W/cache-$b
		rm -rf "$DATA/kbuild/distro-6.1/rpm-$b" "$c"
		mkdir -p "$c"
		t0=$(now)
		boot "$b" "$c" "$W/$b-cold.out"
		cold=$(printf '%.1f' "$(secs "$t0" "$(now)")")
	else
		boot "$b" "$c" "$W/$b-base.out"
	fi
	t0=$(now)
	boot "$b" "$c" "$W/$b-warm.out" --no-base "$W/one-file.mbox"
	warm=$(secs "$t0" "$(now)")
	[ -n "$virt_warm" ] || virt_warm=$warm
	up=$(sed -n "s/^boot $b ok userspace at \([0-9.]*\) s.*/\1 s/p" "$W/$b-warm.out")
	printf '%-14s %9s %8.1fs %10.2f  %s\n' "$b" "$cold" "$warm" \
		"$(echo "$warm / $virt_warm" | bc -l)" "$up"
done
