#!/bin/sh
# `armbot dirstat` on real ARM kernel changes: the arm61 corpus applied to
# Debian's linux-source-6.1, compared byte for byte with `git diff
# --dirstat` for every applied patch and every series, in each mode; and
# the verdict read from the patches as mailed against the applied commits.
#
# Only the files the corpus touches are taken from the tarball: `git diff`
# and `git apply` look at no other path, so the outputs are those of the
# full tree.  The base repository is cached in $ARMBOT_CACHE_DIR.
. "$(dirname "$0")/../lib/tap.sh"

need_corpus corpora/arm61
CORPUS="$SHARED/corpora/arm61"
TARBALL=${ARMBOT_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -r "$TARBALL" ] || skip_all "no kernel tarball $TARBALL"
export GIT_CONFIG_NOSYSTEM=1 HOME="$TMP" GIT_AUTHOR_NAME=t \
	GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@example.org GIT_AUTHOR_DATE='2023-01-01 00:00' \
	GIT_COMMITTER_DATE='2023-01-01 00:00'

# every path a patch names, old or new
sed -n -e 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' \
	-e 's|^--- [^/]*/\([^\t ]*\).*|\1|p' -e 's|^+++ [^/]*/\([^\t ]*\).*|\1|p' \
	-e 's|^rename \(from\|to\) \(.*\)|\2|p' "$CORPUS"/*/*.patch |
	sed 's|\.orig$||' > "$TMP/paths.corpus"
# and a whole platform, for the verdict on a real removal
{ cat "$TMP/paths.corpus"; echo arch/arm/mach-footbridge; } | sort -u > "$TMP/paths"
key=$( (cat "$TMP/paths"; ls -l "$TARBALL") | sha1sum | cut -c1-12)
mkdir -p "$ARMBOT_CACHE_DIR"
BASE="$ARMBOT_CACHE_DIR/dirstat-arm61-$key"
(
	flock 9
	if [ ! -e "$BASE/.git/armbot-done" ]; then
		# older bases (another corpus or tarball) are of no use
		rm -rf "$ARMBOT_CACHE_DIR"/dirstat-arm61-* &&
		mkdir -p "$BASE" &&
		sed 's|^|linux-source-6.1/|' "$TMP/paths" > "$TMP/members" &&
		{ tar -xJf "$TARBALL" -C "$BASE" --strip-components=1 \
			-T "$TMP/members" 2>/dev/null; true; } &&
		git -C "$BASE" init -q && git -C "$BASE" add -A &&
		git -C "$BASE" commit -q -m "linux-source-6.1: the files arm61 touches" &&
		touch "$BASE/.git/armbot-done"
	fi
) 9> "$ARMBOT_CACHE_DIR/dirstat-arm61.lock"
[ -e "$BASE/.git/armbot-done" ] || skip_all "cannot prepare the base tree"

compare() {	# compare REPO A B LABEL: every mode, as git
	bad=0
	n=0
	for mode in changes lines files; do
	for limit in $LIMITS; do
	for cumul in $CUMULS; do
	for renames in "" --no-renames; do
		p="$mode,$limit,$cumul"
		# shellcheck disable=SC2086
		git -C "$1" diff $renames --dirstat="$p" "$2" "$3" > "$TMP/want"
		# shellcheck disable=SC2086
		"$ARMBOT" dirstat -C "$1" $renames --dirstat="$p" "$2" "$3" \
			> "$TMP/got" 2>&1
		n=$((n + 1))
		if ! cmp -s "$TMP/want" "$TMP/got"; then
			bad=$((bad + 1))
			diag "$4 --dirstat=$p $renames:"
			diff "$TMP/want" "$TMP/got" | head -8 | sed 's/^/#   /'
		fi
	done
	done
	done
	done
	total=$((total + n))
	is "$bad" 0 "$4: $n dirstats identical to git"
}

# under ASan the point is memory safety: fewer variants
if [ -n "${ARMBOT_ASAN:-}" ]; then LIMITS=0 CUMULS=cumulative
else LIMITS="0 3" CUMULS="noncumulative cumulative"; fi
total=0
applied=0
skipped=0
for series in "$CORPUS"/*/; do
	name=$(basename "$series")
	work="$TMP/$name"
	git clone -q --shared "$BASE" "$work"
	: > "$TMP/$name.mbox"
	if [ -f "$series/series.conf" ]; then
		grep -v '^[[:space:]]*\(#\|$\)' "$series/series.conf" |
			sed "s|^|$series/|"
	else
		ls "$series"*.patch
	fi > "$TMP/order"
	while read -r patch; do
		if git -C "$work" am -q "$patch" > /dev/null 2>&1; then
			:
		else
			git -C "$work" am --abort > /dev/null 2>&1
			# a bare diff is no mail: apply it as git am would
			if git -C "$work" apply --index "$patch" > /dev/null 2>&1; then
				git -C "$work" commit -q -m "$(basename "$patch")"
			else
				diag "skipped (does not apply): $name/$(basename "$patch")"
				skipped=$((skipped + 1))
				continue
			fi
		fi
		applied=$((applied + 1))
		compare "$work" HEAD~1 HEAD "$name/$(basename "$patch")"
		# the mail as mailed, one mbox message per patch
		head -c 5 "$patch" | grep -q '^From ' ||
			echo "From armbot Mon Sep 17 00:00:00 2001" >> "$TMP/$name.mbox"
		cat "$patch" >> "$TMP/$name.mbox"
	done < "$TMP/order"
	count=$(git -C "$work" rev-list --count HEAD)
	[ "$count" -gt 2 ] && compare "$work" HEAD~$((count - 1)) HEAD "$name (series)"
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

diag "$applied patches applied, $skipped skipped; $total comparisons with git diff --dirstat"
done_testing
