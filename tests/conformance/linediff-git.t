#!/bin/sh
# linediff_count() against `git diff --numstat` (git's own xdiff) on
# thousands of pairs: random texts over small alphabets, large files with
# scattered edits that reach xdl_split's cost limits, runs of lines that
# match too often, one file over 2^20 lines; with the kernel tarball,
# real .c/.h files edited at random and the files the arm61 patches
# touch, before and after `git apply`.  All pairs are two commits of one
# scratch repository, so git runs once.  The count of pairs whose git
# counts differ from a minimal diff (`--minimal`) shows that the
# heuristics are exercised.
. "$(dirname "$0")/../lib/tap.sh"

git_test_env '2023-01-01 00:00'
SEED=${LINEDIFF_SEED:-1}

# the driver: the pairs are made by a plain build, and counted by one
# built as the binary under test is (with the sanitizers for ASan)
build() {	# build OUTPUT EXTRA-FLAGS
	# shellcheck disable=SC2046,SC2086
	cc -std=gnu11 -O2 -g $2 -I"$TOP" $(pkg-config --cflags glib-2.0) \
		-o "$1" "$TOP/tests/conformance/linediff-git.c" \
		"$TOP/kernel/diff/linediff.c" $(pkg-config --libs glib-2.0)
}
build "$TMP/gen" ""
ok $? "generator builds"
COUNT="$TMP/gen"
if [ -n "${ARMBOT_ASAN:-}" ]; then
	COUNT="$TMP/count"
	build "$COUNT" "-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
	ok $? "counter builds with ASan and UBSan"
fi
[ -x "$COUNT" ] || { done_testing; exit 1; }

PAIRS="$TMP/pairs"
mkdir -p "$PAIRS/a" "$PAIRS/b"

# Real kernel files, cached: some whole directories and every file the
# arm61 corpus touches, taken from Debian's tarball.
TARBALL=${ARMBOT_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CORPUS="$SHARED/corpora/arm61"
DIRS="kernel/sched drivers/gpio arch/arm/mach-omap2 drivers/clk/imx mm"
KFILES=
corpus_paths() {	# every path the patches name, old or new
	sed -n -e 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' \
		-e 's|^--- [^/]*/\([^\t ]*\).*|\1|p' \
		-e 's|^+++ [^/]*/\([^\t ]*\).*|\1|p' "$@" | sed 's|\.orig$||'
}
if [ -r "$TARBALL" ]; then
	{ for d in $DIRS; do echo "$d"; done
	  [ -d "$CORPUS" ] && corpus_paths "$CORPUS"/*/*.patch; } |
		sort -u > "$TMP/paths"
	key=$( (cat "$TMP/paths"; ls -l "$TARBALL") | sha1sum | cut -c1-12)
	mkdir -p "$ARMBOT_CACHE_DIR"
	BASE="$ARMBOT_CACHE_DIR/linediff-kernel-$key"
	(
		flock 9
		if [ ! -e "$BASE/.done" ]; then
			rm -rf "$ARMBOT_CACHE_DIR"/linediff-kernel-* &&
			mkdir -p "$BASE" &&
			sed 's|^|linux-source-6.1/|' "$TMP/paths" > "$TMP/members" &&
			{ tar -xJf "$TARBALL" -C "$BASE" --strip-components=1 \
				-T "$TMP/members" 2>/dev/null; true; } &&
			touch "$BASE/.done"
		fi
	) 9> "$ARMBOT_CACHE_DIR/linediff-kernel.lock"
	[ -e "$BASE/.done" ] &&
		KFILES=$(cd "$BASE" && find $DIRS -name '*.[ch]' 2>/dev/null |
			sort | awk 'NR % 2 == 0' | sed "s|^|$BASE/|")
fi

LINEDIFF_HUGE=1 "$TMP/gen" gen "$SEED" "$PAIRS" $KFILES
ok $? "pairs generated (seed $SEED)"

# the arm61 patches applied in order, each series on its own copy of the
# files it touches: a pair for every file a patch that applies changes,
# adds or removes
npatch=0
if [ -n "$KFILES" ] && [ -d "$CORPUS" ]; then
	i=0
	for series in "$CORPUS"/*/; do
		work="$TMP/apply"
		rm -rf "$work" && mkdir -p "$work"
		corpus_paths "$series"*.patch | sort -u | while read -r f; do
			[ -f "$BASE/$f" ] || continue
			mkdir -p "$work/$(dirname "$f")" && cp "$BASE/$f" "$work/$f"
		done
		for patch in "$series"*.patch; do
			i=$((i + 1))
			rm -rf "$TMP/before" && cp -r "$work" "$TMP/before"
			(cd "$work" && git apply "$patch") > /dev/null 2>&1 ||
				continue
			npatch=$((npatch + 1))
			(cd "$TMP/before" && find . -type f) > "$TMP/files"
			(cd "$work" && find . -type f) >> "$TMP/files"
			sort -u "$TMP/files" | while read -r f; do
				cmp -s "$TMP/before/$f" "$work/$f" && continue
				name=patch-$i-$(echo "${f#./}" | tr / _)
				if [ -f "$TMP/before/$f" ]; then
					cp "$TMP/before/$f" "$PAIRS/a/$name"
				else
					: > "$PAIRS/a/$name"
				fi
				if [ -f "$work/$f" ]; then
					cp "$work/$f" "$PAIRS/b/$name"
				else
					: > "$PAIRS/b/$name"
				fi
			done
		done
	done
fi
if [ -n "$KFILES" ]; then
	diag "$(echo "$KFILES" | wc -l) kernel files edited, $npatch arm61 patches applied"
else
	diag "no kernel tarball $TARBALL: generated pairs only"
fi

# one repository, two commits: a then b
repo="$TMP/repo"
git init -q "$repo" &&
	cp "$PAIRS"/a/* "$repo"/ && git -C "$repo" add -A &&
	git -C "$repo" commit -q -m a &&
	cp "$PAIRS"/b/* "$repo"/ && git -C "$repo" add -A &&
	git -C "$repo" commit -q -m b
ok $? "scratch repository of $(ls "$PAIRS/a" | wc -l) pairs"

# binary pairs ("-	-") are not the line counter's business
git -C "$repo" diff --numstat --no-renames HEAD~ HEAD |
	grep -v '^-	-	' | sort -k3 > "$TMP/want"
# (without the large random texts: a minimal diff of those is slow)
git -C "$repo" diff --numstat --no-renames --minimal HEAD~ HEAD -- \
	. ':!large-*' | grep -v '^-	-	' | sort -k3 > "$TMP/minimal"
"$COUNT" count "$PAIRS" 2> "$TMP/time" | sort -k3 > "$TMP/got.all"
ok $? "linediff_count over every pair ($(cat "$TMP/time"))"
# the driver does not know what git takes for binary: keep git's paths
cut -f3 "$TMP/want" > "$TMP/names"
awk -F '\t' 'NR == FNR { keep[$1] = 1; next } keep[$3]' \
	"$TMP/names" "$TMP/got.all" > "$TMP/got"

n=$(wc -l < "$TMP/want")
[ "$n" -gt 2500 ]
ok $? "git counted $n pairs"
is_file "$TMP/want" "$TMP/got" "counts of all $n pairs are git's"
nonmin=$(grep -v '	large-' "$TMP/want" | diff - "$TMP/minimal" |
	grep -c '^>')
diag "$nonmin pairs where git's counts are not those of a minimal diff"
[ "$nonmin" -gt 30 ]
ok $? "the heuristics are exercised ($nonmin pairs not minimal)"
huge=$(grep '	huge$' "$TMP/want")
is "$huge" "1799	1799	huge" "over 2^20 lines, lines matching too often are discarded"
done_testing
