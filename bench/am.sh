#!/bin/sh
# bench/am.sh: a series of 40 patches on the distro tree (Debian's
# linux-source-6.1), applied by `git am` (one process, one mbox, from a
# checked-out worktree) and by `armbot am` (object database only).
# Prints both times and the ratio.  Goal: armbot at least 5x faster.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
ARMBOT_CACHE_DIR=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
TARBALL=/usr/src/linux-source-6.1.tar.xz
N=${AM_BENCH_PATCHES:-40}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# the distro tree as an ordinary git repository with a worktree, shared
# with tests/e2e/am-distro.t (created once, under a lock)
D=$ARMBOT_CACHE_DIR/distro-git
mkdir -p "$ARMBOT_CACHE_DIR"
exec 9> "$ARMBOT_CACHE_DIR/distro-git.lock"
flock 9
if [ ! -f "$D/.armbot-complete" ]; then
	echo "creating $D (once)"
	rm -rf "$D"; mkdir -p "$D"
	tar -xJf "$TARBALL" -C "$D" --strip-components=1
	git -C "$D" init -q -b distro
	git -C "$D" -c core.excludesFile=/dev/null add -A -f .
	GIT_AUTHOR_DATE="2024-01-01 00:00:00 +0000" \
	GIT_COMMITTER_DATE="2024-01-01 00:00:00 +0000" \
	git -C "$D" -c user.name=armbot -c user.email=armbot@localhost \
		commit -q -m "linux-source-6.1"
	touch "$D/.armbot-complete"
fi
BASE=$(git -C "$D" rev-parse distro)
G="git -C $D -c user.name=Bench -c user.email=bench@example.com"

# the series: one small change in each of N arch/arm machine files, made
# with plumbing on a scratch index so that the worktree stays at the base
export GIT_INDEX_FILE=$TMP/index
$G read-tree "$BASE"
tip=$BASE
for f in $($G ls-tree -r --name-only "$BASE" arch/arm | grep '^arch/arm/mach-.*\.c$' | head -n "$N"); do
	$G cat-file blob "$BASE:$f" | sed '20a\
/* bench: a line added in the middle of the file */' > "$TMP/blob"
	blob=$($G hash-object -w "$TMP/blob")
	$G update-index --cacheinfo "100644,$blob,$f"
	tree=$($G write-tree)
	tip=$(echo "ARM: bench: touch $f" | $G commit-tree "$tree" -p "$tip")
done
unset GIT_INDEX_FILE
$G format-patch -q --stdout "$BASE..$tip" > "$TMP/series.mbox"
count=$(grep -c '^From [0-9a-f]\{40\} ' "$TMP/series.mbox")

now() { date +%s.%N; }

$G checkout -q -f --detach "$BASE"
t0=$(now)
$G am -q "$TMP/series.mbox"
t1=$(now)
git_tree=$($G rev-parse HEAD^{tree})
$G checkout -q -f --detach "$BASE"

t2=$(now)
"$ARMBOT" am -C "$D" --base "$BASE" "$TMP/series.mbox" > "$TMP/armbot.out"
t3=$(now)
armbot_tree=$($G rev-parse "$(tail -1 "$TMP/armbot.out" | cut -d' ' -f2)^{tree}")
$G checkout -q distro

[ "$git_tree" = "$armbot_tree" ] || { echo "error: trees differ"; exit 1; }
awk -v n="$count" -v g="$(echo "$t1 - $t0" | bc)" -v a="$(echo "$t3 - $t2" | bc)" 'BEGIN {
	printf "am: %d patches on the distro tree (same resulting tree)\n", n
	printf "  git am:     %.3f s\n", g
	printf "  armbot am:  %.3f s\n", a
	printf "  ratio:      %.1fx (goal: 5x)\n", g / a
}'
