#!/bin/sh
# armbot similar (kernel/similar/): the rate at which the fingerprint index
# of the distro tree is built (files/s, --no-cache: nothing read back), and
# the time a query for a 5-patch series takes (five real drivers copied
# under arch/arm/mach-* by tests/lib/similar-mutate.pl) with the cached
# index, against its peer, a brute-force comparison of the same five files
# with every file of a sample of the tree (bench/similar-brute.c: both
# sides tokenized and winnowed per pair, no index), extrapolated from the
# sample to the whole index.  Prints the ratio brute/indexed.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT_CACHE_DIR=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
export ARMBOT_CACHE_DIR
D=$ARMBOT_CACHE_DIR/distro-git
SAMPLE=${SAMPLE:-400}
CORE=$TOP/armbot-core
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
git -C "$D" rev-parse -q --verify HEAD > /dev/null ||
	{ echo "no distro tree in $D: skipped"; exit 0; }

# shellcheck disable=SC2046
cc -std=gnu11 -O2 -I"$TOP" $(pkg-config --cflags glib-2.0) -o "$TMP/brute" \
	"$TOP/bench/similar-brute.c" "$TOP/kernel/similar/ctoken.c" \
	"$TOP/kernel/similar/winnow.c" $(pkg-config --libs glib-2.0)

# the build, from scratch
if [ "${BUILD:-1}" = 1 ]; then
	"$CORE" -C "$D" similar --no-cache --stats < /dev/null 2> "$TMP/build"
	sed -n 's/^index: \([0-9]*\) files .* \([0-9.]*\) s$/\1 \2/p' "$TMP/build" |
		awk '{ printf "index build: %d files in %.1f s: %.0f files/s\n", $1, $2, $1 / $2 }'
fi

# a 5-patch series: five drivers copied into arch/arm
set -- drivers/gpio/gpio-mxc.c:mxc drivers/irqchip/irq-orion.c:orion \
	drivers/clocksource/timer-digicolor.c:digicolor \
	drivers/gpio/gpio-mvebu.c:mvebu drivers/pinctrl/pinctrl-at91.c:at91
i=0
for spec in "$@"; do
	i=$((i + 1))
	f=${spec%%:*}
	git -C "$D" show "HEAD:$f" | perl "$TOP/tests/lib/similar-mutate.pl" "${spec##*:}" brd > "$TMP/q$i.c"
	n=$(wc -l < "$TMP/q$i.c")
	{
		printf 'From: b <b@example.org>\nSubject: [PATCH %d/5] ARM: brd\n\n---\n' $i
		printf 'diff --git a/arch/arm/mach-brd/f%d.c b/arch/arm/mach-brd/f%d.c\nnew file mode 100644\n' $i $i
		printf -- '--- /dev/null\n+++ b/arch/arm/mach-brd/f%d.c\n@@ -0,0 +1,%d @@\n' $i "$n"
		sed 's/^/+/' "$TMP/q$i.c"
		printf -- '-- \n2.39.5\n\n'
	} >> "$TMP/series.mbox"
	echo "$f" >> "$TMP/originals"
done
"$CORE" -C "$D" similar --stats "$TMP/series.mbox" > /dev/null 2> /dev/null # warm the cache
best=
for r in 1 2 3 4 5; do
	"$CORE" -C "$D" similar --stats "$TMP/series.mbox" > "$TMP/out" 2> "$TMP/q"
	ms=$(sed -n 's/^query: \([0-9.]*\) ms$/\1/p' "$TMP/q")
	best=$(echo "$ms ${best:-$ms}" | awk '{ print ($1 < $2) ? $1 : $2 }')
done
files=$(sed -n 's/^index: \([0-9]*\) files.*/\1/p' "$TMP/q")
load=$(sed -n 's/^index: .* \([0-9.]*\) s$/\1/p' "$TMP/q")
echo "query of the 5-patch series: $best ms (best of 5; reading the index back: $load s)"
sed 's/^/  /' "$TMP/out"

# the sample: the five originals and SAMPLE other .c files of the index
mkdir -p "$TMP/s"
{ cat "$TMP/originals"; git -C "$D" ls-tree -r --name-only HEAD drivers arch/arm |
	grep '\.c$' | awk -v n="$SAMPLE" 'NR % 37 == 0' | head -n "$SAMPLE"; } |
	sort -u > "$TMP/sample"
while read -r f; do
	git -C "$D" show "HEAD:$f" > "$TMP/s/$(echo "$f" | tr / _)"
done < "$TMP/sample"
nsample=$(ls "$TMP/s" | wc -l)
"$TMP/brute" "$TMP"/q*.c -- "$TMP"/s/* > "$TMP/brute.out"
us=$(sed -n 's/^us //p' "$TMP/brute.out")
grep -v '^us ' "$TMP/brute.out" | sed "s|$TMP/||g; s|s/||; s/^/  brute: /"
awk -v us="$us" -v n="$nsample" -v files="$files" -v ms="$best" 'BEGIN {
	full = us / 1000 / n * files
	printf "brute force: %.0f ms for %d sample files, %.0f ms extrapolated to %d files\n", us / 1000, n, full, files
	printf "ratio brute/indexed query: %.0f\n", full / ms
}'
