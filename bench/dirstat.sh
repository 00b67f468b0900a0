#!/bin/sh
# armbot dirstat against git diff --dirstat on the same ranges, in each
# mode: every arm61 patch applied to the distro files it touches, the
# whole series, and the removal of arch/arm/mach-footbridge.  Prints the
# time of each and the ratio armbot/git (goal: <= 1), per command and in
# batch (one process for all ranges on each side).
# Needs the base tree that tests/conformance/dirstat-arm61.t caches.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
SHARED=${SHARED:-$TOP/../shared}
ARMBOT_CACHE_DIR=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
ROUNDS=${ROUNDS:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME="$TMP" GIT_AUTHOR_NAME=t \
	GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@example.org

BASE=$(ls -dt "$ARMBOT_CACHE_DIR"/dirstat-arm61-* 2>/dev/null | head -1 || true)
if [ -z "$BASE" ] || [ ! -e "$BASE/.git/armbot-done" ]; then
	ARMBOT="$ARMBOT" sh "$TOP/tests/conformance/dirstat-arm61.t" > /dev/null || true
	BASE=$(ls -dt "$ARMBOT_CACHE_DIR"/dirstat-arm61-* | head -1)
fi
repo="$TMP/repo"
git clone -q --shared "$BASE" "$repo"
for p in "$SHARED"/corpora/arm61/*/*.patch; do
	git -C "$repo" am -q "$p" > /dev/null 2>&1 && continue
	git -C "$repo" am --abort > /dev/null 2>&1 || true
	git -C "$repo" apply --index "$p" > /dev/null 2>&1 &&
		git -C "$repo" commit -q -m "$(basename "$p")" || true
done
git -C "$repo" rm -q -r arch/arm/mach-footbridge
git -C "$repo" commit -q -m removal
n=$(git -C "$repo" rev-list --count HEAD)
ranges=""
i=1
while [ "$i" -lt "$n" ]; do
	ranges="$ranges HEAD~$i..HEAD~$((i - 1))"
	i=$((i + 1))
done
ranges="$ranges HEAD~$((n - 1))..HEAD"
echo "$(echo "$ranges" | wc -w) ranges, $ROUNDS rounds"

now() { date +%s.%N; }
run() {	# run CMD...: every range, every round
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		for range in $ranges; do
			if [ "$1" = empty ]; then
				range=HEAD..HEAD
				shift
			fi
			"$@" "$range" > /dev/null
			[ "$range" != HEAD..HEAD ] || set -- empty "$@"
		done
		r=$((r + 1))
	done
}
# the cost of starting each program and opening the repository (an empty
# range), to show the dirstat work apart from it (armbot's front program
# links GLib and zlib only and reads the repository itself)
calls=$((ROUNDS * $(echo "$ranges" | wc -w)))
t0=$(now)
run empty git -C "$repo" diff --dirstat
t1=$(now)
run empty "$ARMBOT" dirstat -C "$repo"
t2=$(now)
start_git=$(echo "$t0 $t1" | awk '{ print $2 - $1 }')
start_armbot=$(echo "$t1 $t2" | awk '{ print $2 - $1 }')
printf 'start-up, empty range (%d calls): git %.3fs, armbot %.3fs\n' "$calls" \
	"$start_git" "$start_armbot"
printf '%-28s %10s %10s %7s %16s\n' mode git armbot ratio "ratio w/o start"

for mode in changes lines files "changes --no-renames" "lines,cumulative,0"; do
	set -- $mode
	params=$1
	shift
	t0=$(now)
	run git -C "$repo" diff "$@" --dirstat="$params"
	t1=$(now)
	run "$ARMBOT" dirstat -C "$repo" "$@" --dirstat="$params"
	t2=$(now)
	echo "$mode $start_git $start_armbot $t0 $t1 $t2" | awk '{
		n = NF; g = $(n-1) - $(n-2); a = $n - $(n-1);
		sg = $(n-4); sa = $(n-3);
		label = $1; for (i = 2; i <= n - 5; i++) label = label " " $i;
		w = (g - sg > 0.001) ? (a - sa) / (g - sg) : 0;
		printf "%-28s %9.3fs %9.3fs %7.2f %16.2f\n", label, g, a, a / g, w }'
done

# Batch: every range of every round in one process on each side, as the
# daemon computes them (git diff-tree --stdin, -M for git diff's default
# renames, against armbot dirstat --stdin): the dirstat work itself.
pairs="$TMP/pairs"
: > "$pairs"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	for range in $ranges; do
		echo "$(git -C "$repo" rev-parse "${range%%..*}") $(git -C "$repo" rev-parse "${range##*..}")" >> "$pairs"
	done
	r=$((r + 1))
done
echo "batch, one process each side ($(wc -l < "$pairs") ranges):"
printf '%-28s %10s %10s %7s\n' mode git armbot ratio
for mode in changes lines files "changes --no-renames" "lines,cumulative,0"; do
	set -- $mode
	params=$1
	shift
	rename=-M
	[ "${1:-}" != --no-renames ] || rename=
	t0=$(now)
	git -C "$repo" diff-tree $rename --stdin --dirstat="$params" < "$pairs" > "$TMP/g"
	t1=$(now)
	"$ARMBOT" dirstat -C "$repo" --stdin "$@" --dirstat="$params" < "$pairs" > "$TMP/a"
	t2=$(now)
	cmp -s "$TMP/g" "$TMP/a" || echo "  (outputs differ for $mode!)"
	echo "$mode $t0 $t1 $t2" | awk '{ n = NF; g = $(n-1) - $(n-2); a = $n - $(n-1);
		label = $1; for (i = 2; i <= n - 3; i++) label = label " " $i;
		printf "%-28s %9.3fs %9.3fs %7.2f\n", label, g, a, a / g }'
done
