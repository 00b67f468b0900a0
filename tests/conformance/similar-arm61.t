#!/bin/sh
# armbot similar on the real ARM patches of the arm61 corpus against the
# distro tree (Debian's linux-source-6.1): no near-copy claim but the pairs
# listed here by hand, each read and agreed with.  Today the list is empty:
# at the default threshold (60%) the corpus makes no claim (the closest,
# at a 10% threshold, are 10-25% matches of idioms: meson HDMI code against
# unrelated drivers).  Drivers in the wrong place are printed too: the
# corpus adds none under arch/arm/mach-* or plat-*.
. "$(dirname "$0")/../lib/tap.sh"

need_corpus corpora/arm61
D=$ARMBOT_CACHE_DIR/distro-git
git -C "$D" rev-parse -q --verify HEAD^{commit} > /dev/null 2>&1 ||
	skip_all "no imported distro tree in $D"
CORE=$TOP/armbot-core

# PATCH<TAB>CLAIM, one a line, agreed by a reader
cat > "$TMP/agreed" <<'AGREED'
AGREED

: > "$TMP/claims"
n=0
for f in "$SHARED"/corpora/arm61/*/*.patch; do
	rel=${f#"$SHARED"/corpora/arm61/}
	"$CORE" -C "$D" similar "$f" > "$TMP/out" 2> "$TMP/err"
	ok $? "$rel: armbot similar runs" || sed 's/^/# /' "$TMP/err"
	sed "s|^|$rel	|" "$TMP/out" >> "$TMP/claims"
	n=$((n + 1))
done
[ "$n" -gt 30 ]
ok $? "the corpus has its patches ($n)"
sed 's/^/# claim: /' "$TMP/claims"
sort "$TMP/claims" > "$TMP/claims.sorted"
sort "$TMP/agreed" > "$TMP/agreed.sorted"
cmp -s "$TMP/claims.sorted" "$TMP/agreed.sorted"
ok $? "the claims are the pairs agreed by hand" ||
	diff "$TMP/agreed.sorted" "$TMP/claims.sorted" | sed 's/^/# /'

# the same patches at a low threshold do make (weak) claims: the
# comparison runs, it is the threshold that keeps them out
"$CORE" -C "$D" similar --threshold 10 --min-lines 10 \
	"$SHARED"/corpora/arm61/meson-6.1/generic-0001-m8-m8b-m8m2-Support-HDMI.patch > "$TMP/low"
grep -q ' is [0-9]*% similar to ' "$TMP/low"
ok $? "at 10% the meson HDMI patch has weak matches"

done_testing
