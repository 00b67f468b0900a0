#!/bin/sh
# Import of the distro tree: `armbot tree import` (streams the tarball,
# writes one pack) against extracting it and `git add -A -f && git commit`
# of the extracted tree, measured in the same run.  Prints both and the
# ratio.  Usage: sh bench/tree-import.sh [TARBALL]
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
TARBALL=${1:-/usr/src/linux-source-6.1.tar.xz}
[ -r "$TARBALL" ] || { echo "bench/tree-import.sh: $TARBALL missing (make deps)" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench.XXXXXX")
trap 'cd /; rm -rf "$W"' EXIT
now() { date +%s.%N; }

t0=$(now)
"$ARMBOT" --data-dir "$W/data" tree import --tarball "$TARBALL" --version bench > "$W/armbot.out"
t1=$(now)
armbot_s=$(echo "$t1 - $t0" | bc)
armbot_tree=$(git -C "$W/data/trees/distro-6.1/repo.git" rev-parse 'distro^{tree}')
rm -rf "$W/data"

mkdir "$W/x"
t0=$(now)
tar -C "$W/x" -xf "$TARBALL"
t1=$(now)
top=$(ls "$W/x")
cd "$W/x/$top"
git init -q
git config gc.auto 0	# no detached gc racing the clean-up
git add -A -f
GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@b GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@b \
	git commit -q -m import
t2=$(now)
git_tree=$(git rev-parse 'HEAD^{tree}')
extract_s=$(echo "$t1 - $t0" | bc)
git_s=$(echo "$t2 - $t1" | bc)
total_s=$(echo "$t2 - $t0" | bc)

[ "$armbot_tree" = "$git_tree" ] || { echo "tree ids differ: armbot $armbot_tree, git $git_tree" >&2; exit 1; }
printf 'tree id (both)                      %s\n' "$git_tree"
printf 'armbot tree import                  %6.1f s\n' "$armbot_s"
printf 'tar -x                              %6.1f s\n' "$extract_s"
printf 'git add -A -f && git commit         %6.1f s\n' "$git_s"
printf 'ratio git add+commit / armbot       %6.2fx\n' "$(echo "$git_s / $armbot_s" | bc -l)"
printf 'ratio tar -x + git / armbot         %6.2fx\n' "$(echo "$total_s / $armbot_s" | bc -l)"
