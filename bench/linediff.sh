#!/bin/sh
# linediff_count() against git's own xdiff on the pairs of
# tests/conformance/linediff-git.t (generated texts, and with the kernel
# files that test caches, real .c/.h files edited at random): the time of
# `git diff --numstat` over all pairs (one process; less the time git
# takes to read the same blobs, `git cat-file --batch`, for an estimate
# of its diffing alone) against the time linediff_count() spends on the
# same pairs.  Best of $ROUNDS; prints the ratios ours/git (goal: <= 1).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT_CACHE_DIR=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
ROUNDS=${ROUNDS:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME="$TMP" GIT_AUTHOR_NAME=t \
	GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@example.org

# shellcheck disable=SC2046
cc -std=gnu11 -O2 -I"$TOP" $(pkg-config --cflags glib-2.0) -o "$TMP/driver" \
	"$TOP/tests/conformance/linediff-git.c" "$TOP/kernel/diff/linediff.c" \
	$(pkg-config --libs glib-2.0)
BASE=$(ls -dt "$ARMBOT_CACHE_DIR"/linediff-kernel-* 2>/dev/null | head -1 || true)
KFILES=
[ -n "$BASE" ] && [ -e "$BASE/.done" ] &&
	KFILES=$(find "$BASE" -name '*.[ch]' | sort | awk 'NR % 2 == 0')
# shellcheck disable=SC2086
"$TMP/driver" gen 1 "$TMP/all" $KFILES
# "real": the kernel files with a few edits (not the heavy third variant)
mkdir -p "$TMP/real/a" "$TMP/real/b"
i=0
for f in "$TMP"/all/a/file-*; do
	[ -e "$f" ] || break
	i=$((i + 1))
	[ $((i % 3)) -eq 0 ] && continue
	n=$(basename "$f")
	ln "$f" "$TMP/real/a/$n" && ln "$TMP/all/b/$n" "$TMP/real/b/$n"
done

now() { date +%s%N; }
best() {	# best CMD...: the shortest wall time of $ROUNDS runs, in ms
	b=
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		t0=$(now)
		"$@" > /dev/null 2>&1
		t=$((($(now) - t0) / 1000000))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
		r=$((r + 1))
	done
	echo "$b"
}
ours() {	# ours DIR: the counting time the driver reports, best, in ms
	b=
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		t=$("$TMP/driver" count "$1" 2>&1 > /dev/null |
			sed -n 's/.* in \([0-9.]*\) s$/\1/p' |
			awk '{ printf "%d", $1 * 1000 }')
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
		r=$((r + 1))
	done
	echo "$b"
}

for set in all real; do
	[ -n "$(ls "$TMP/$set/a")" ] || { echo "$set: no pairs"; continue; }
	repo="$TMP/repo-$set"
	git init -q "$repo"
	cp "$TMP/$set"/a/* "$repo"/ && git -C "$repo" add -A &&
		git -C "$repo" commit -q -m a
	cp "$TMP/$set"/b/* "$repo"/ && git -C "$repo" add -A &&
		git -C "$repo" commit -q -m b
	git -C "$repo" gc -q
	n=$(git -C "$repo" diff --numstat --no-renames HEAD~ HEAD | wc -l)
	git -C "$repo" diff --raw --no-renames --no-abbrev HEAD~ HEAD |
		awk '{ print $3; print $4 }' > "$TMP/blobs-$set"
	g=$(best git -C "$repo" diff --numstat --no-renames HEAD~ HEAD)
	rd=$(best sh -c "git -C '$repo' cat-file --batch < '$TMP/blobs-$set'")
	o=$(ours "$TMP/$set")
	gx=$((g - rd))
	[ "$gx" -gt 0 ] || gx=1
	echo "$set: $n pairs; git diff --numstat ${g} ms (reading blobs ${rd} ms, so xdiff ~${gx} ms); linediff_count ${o} ms"
	awk -v o="$o" -v g="$g" -v x="$gx" 'BEGIN {
		printf "  ratio linediff/git numstat: %.2f, linediff/git xdiff: %.2f\n", o / g, o / x }'
done
