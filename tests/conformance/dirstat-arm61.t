#!/bin/sh
# `armbot dirstat` on real ARM kernel changes: the arm61 corpus applied to
# Debian's linux-source-6.1, compared byte for byte with `git diff
# --dirstat` for every applied patch and every series, in each mode; and
# the verdict read from the patches as mailed against the applied commits.
#
# Only the files the corpus touches are taken from the tarball
# (dirstat_base in tests/lib/dirstat-compare.sh).
. "$(dirname "$0")/../lib/tap.sh"

need_corpus corpora/arm61
CORPUS="$SHARED/corpora/arm61"
TARBALL=${ARMBOT_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -r "$TARBALL" ] || skip_all "no kernel tarball $TARBALL"
git_test_env '2023-01-01 00:00'

. "$(dirname "$0")/../lib/dirstat-compare.sh"

BASE=$(dirstat_arm61_base "$CORPUS")
[ -n "$BASE" ] || skip_all "cannot prepare the base tree"

applied=0
skipped=0
for series in "$CORPUS"/*/; do
	name=$(basename "$series")
	work="$TMP/$name"
	git clone -q --shared "$BASE" "$work"
	: > "$TMP/$name.mbox"
	dirstat_series_order "$series" > "$TMP/order"
	while read -r patch; do
		if ! dirstat_apply "$work" "$patch"; then
			diag "skipped (does not apply): $name/$(basename "$patch")"
			skipped=$((skipped + 1))
			continue
		fi
		applied=$((applied + 1))
		dirstat_compare "$work" HEAD~1 HEAD "$name/$(basename "$patch")"
		# the mail as mailed, one mbox message per patch
		head -c 5 "$patch" | grep -q '^From ' ||
			echo "From armbot Mon Sep 17 00:00:00 2001" >> "$TMP/$name.mbox"
		cat "$patch" >> "$TMP/$name.mbox"
	done < "$TMP/order"
	count=$(git -C "$work" rev-list --count HEAD)
	[ "$count" -gt 2 ] && dirstat_compare "$work" HEAD~$((count - 1)) HEAD "$name (series)"
	if [ "$count" -gt 1 ]; then
		"$ARMBOT" dirstat -C "$work" --verdict --per-commit \
			HEAD~$((count - 1)) HEAD > "$TMP/commits.verdict"
		"$ARMBOT" dirstat --verdict --mbox "$TMP/$name.mbox" \
			> "$TMP/mails.verdict"
		is_file "$TMP/commits.verdict" "$TMP/mails.verdict" \
			"$name: the verdict from the mails is the one from the commits"
		diag "$name: $(head -1 "$TMP/mails.verdict")"
	fi
done
# A real removal: the footbridge platform, every file of it, deleted.
work="$TMP/removal"
git clone -q --shared "$BASE" "$work"
git -C "$work" rm -q -r arch/arm/mach-footbridge
git -C "$work" commit -q -m "ARM: remove footbridge"
removed=$(git -C "$work" diff --numstat HEAD~ HEAD | awk '{ n += $2 } END { print n }')
[ "$removed" -gt 1000 ]; ok $? "footbridge removal deletes $removed lines"
"$ARMBOT" dirstat -C "$work" --verdict HEAD~ HEAD > "$TMP/got"
printf 'This series shrinks arch/arm by %s lines (+0 -%s).\n  -%s (+0 -%s) arch/arm/mach-footbridge/\n' \
	"$removed" "$removed" "$removed" "$removed" > "$TMP/want"
is_file "$TMP/want" "$TMP/got" "verdict on the removal"
git -C "$work" format-patch -q -1 HEAD -o "$TMP/removal-mail"
"$ARMBOT" dirstat --verdict --mbox "$TMP/removal-mail"/*.patch > "$TMP/got.mail"
is_file "$TMP/want" "$TMP/got.mail" "verdict on the removal, from the mail"
# every net is negative and equals the damage: git's rows, negated
"$ARMBOT" dirstat -C "$work" --signed --dirstat=lines,0,cumulative HEAD~ HEAD \
	> "$TMP/got"
awk '{ v = $1; sub("%", "", v); printf "%6.1f%% %s\n", -v, $2 }' \
	"$TMP/got" > "$TMP/got.norm"
git -C "$work" diff --dirstat=lines,0,cumulative HEAD~ HEAD |
	awk '{ v = $1; sub("%", "", v); printf "%6.1f%% %s\n", v, $2 }' > "$TMP/want"
is_file "$TMP/want" "$TMP/got.norm" "signed dirstat of the removal is git's, negated"
grep -q '^-100.0% arch/arm/mach-footbridge/$' "$TMP/got"
ok $? "the removed platform is at -100.0%"

diag "$applied patches applied, $skipped skipped; $dirstat_total comparisons with git diff --dirstat"
done_testing
