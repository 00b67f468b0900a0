#!/bin/sh
# `armbot patch-id` on real ARM kernel patches (the arm61 corpus): each
# patch file read by git patch-id and by armbot in every mode, and all of
# them as one stream; then each patch applied with git am to Debian's
# linux-source-6.1 (the files it touches, as dirstat-arm61.t does), and
# the commit's patch-id from `armbot patch-id -C` compared with `git
# format-patch -1 | git patch-id --stable`, and with the id of the patch
# as it was mailed: finding a posted patch in a tree relies on the two
# being the same.
. "$(dirname "$0")/../lib/tap.sh"

need_corpus corpora/arm61
CORPUS="$SHARED/corpora/arm61"
git_test_env '2023-01-01 00:00'

files=0
for mode in --stable --unstable --verbatim; do
	bad=0
	files=0
	for patch in "$CORPUS"/*/*.patch; do
		files=$((files + 1))
		git patch-id $mode < "$patch" > "$TMP/want"
		"$ARMBOT" patch-id $mode < "$patch" > "$TMP/got" 2>&1
		if ! cmp -s "$TMP/want" "$TMP/got"; then
			bad=$((bad + 1))
			diag "$patch $mode:"
			diff "$TMP/want" "$TMP/got" | sed 's/^/#   /'
		fi
	done
	is "$bad" 0 "$mode: $files patch files, each as git patch-id"
	cat "$CORPUS"/*/*.patch > "$TMP/all"
	git patch-id $mode < "$TMP/all" > "$TMP/want"
	"$ARMBOT" patch-id $mode < "$TMP/all" > "$TMP/got"
	is_file "$TMP/want" "$TMP/got" \
		"$mode: all of them as one stream ($(wc -l < "$TMP/want") ids)"
done

# ---- the commits they become ----
TARBALL=${ARMBOT_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
if [ ! -r "$TARBALL" ]; then
	skip "no kernel tarball $TARBALL: patches not applied"
	done_testing
	exit
fi
. "$(dirname "$0")/../lib/dirstat-compare.sh"
# the same paths as dirstat-arm61.t, so that both share one cached base
BASE=$(dirstat_arm61_base "$CORPUS")
[ -n "$BASE" ] || { fail "cannot prepare the base tree"; done_testing; exit; }

applied=0
skipped=0
commits=0
bad=0
as_mailed=0
not_git=0
for series in "$CORPUS"/*/; do
	name=$(basename "$series")
	work="$TMP/$name"
	git clone -q --shared "$BASE" "$work"
	dirstat_series_order "$series" > "$TMP/order"
	while read -r patch; do
		before=$(git -C "$work" rev-parse HEAD)
		if ! dirstat_apply "$work" "$patch"; then
			skipped=$((skipped + 1))
			continue
		fi
		applied=$((applied + 1))
		# a file may hold several mails: one commit each
		new=$(git -C "$work" rev-list --reverse "$before..HEAD")
		for c in $new; do
			commits=$((commits + 1))
			git -C "$work" format-patch --stdout -1 "$c" |
				git patch-id --stable > "$TMP/want"
			"$ARMBOT" patch-id -C "$work" "$c" > "$TMP/got" 2>&1
			if ! cmp -s "$TMP/want" "$TMP/got"; then
				bad=$((bad + 1))
				diag "$name/$(basename "$patch"), commit $c:"
				diff "$TMP/want" "$TMP/got" | sed 's/^/#   /'
			fi
		done
		# the ids of the mails, in order, against those of the commits
		"$ARMBOT" patch-id < "$patch" | cut -d' ' -f1 > "$TMP/mailed"
		# shellcheck disable=SC2086
		"$ARMBOT" patch-id -C "$work" $new | cut -d' ' -f1 > "$TMP/made"
		if [ ! -s "$TMP/mailed" ]; then
			# git patch-id reads only "diff " headers: a plain
			# diff -u has no patch-id
			not_git=$((not_git + 1))
		elif cmp -s "$TMP/mailed" "$TMP/made"; then
			as_mailed=$((as_mailed + 1))
		else
			diag "not the ids of the mails: $name/$(basename "$patch")"
		fi
	done < "$TMP/order"
done
[ "$applied" -gt 0 ]
ok $? "$applied of $files patch files applied ($skipped do not apply to 6.1)"
is "$bad" 0 "$commits commits: -C as git format-patch -1 | git patch-id --stable"
# every file made by git with its default diff options is found again
is "$((as_mailed + not_git))" "$applied" \
	"$as_mailed files made by git: the commits have the ids of the mails ($not_git plain diffs have none)"
done_testing
