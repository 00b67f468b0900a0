#!/bin/sh
# Differential fuzzing of `armbot patch-id` against git patch-id: the
# mails and `git log -p` of a random history (patchid-gen.pl), mangled
# by patchid-mutate.pl with fixed seeds (lines deleted, duplicated,
# swapped, cut, inserted from git's own markers; NUL, CR, VT, FF and
# 8-bit bytes; hunk counts changed, huge or negative), read as streams
# of thousands of patches in every mode; a few mutants also alone and
# without their last newline, and lines longer than armbot's read buffer.
# The output must be git's, byte for byte.
. "$(dirname "$0")/../lib/tap.sh"

command -v git >/dev/null || skip_all "git not installed"
git_test_env
GEN="$(dirname "$0")/patchid-gen.pl"
MUT="$(dirname "$0")/patchid-mutate.pl"
if [ -n "${ARMBOT_ASAN:-}" ]; then SEEDS="1"; else SEEDS="1 2 3"; fi
. "$(dirname "$0")/../lib/patchid-compare.sh"

H="$TMP/history"
git init -q "$H"
perl "$GEN" 2 60 "$H" || exit 1
git -C "$H" format-patch --stdout --root HEAD > "$TMP/mails"
git -C "$H" log -p > "$TMP/log"
for seed in $SEEDS; do
	perl "$MUT" "$seed" 10 < "$TMP/mails" > "$TMP/mails.mut"
	patchid_compare_stream "seed $seed: 600 mangled mails" "$TMP/mails.mut"
	perl "$MUT" "$((seed + 100))" 10 < "$TMP/log" > "$TMP/log.mut"
	patchid_compare_stream "seed $seed: 600 mangled log entries" "$TMP/log.mut"
done

# alone, and without the last newline: how a patch ends matters
perl "$MUT" 9 1 < "$TMP/mails" > "$TMP/one.mut"
bad=0
n=0
start=1
for end in $(grep -n '^[0-9a-f]\{40\}$' "$TMP/one.mut" | cut -d: -f1 | tail -n +2) $(($(wc -l < "$TMP/one.mut") + 1)); do
	sed -n "$start,$((end - 1))p" "$TMP/one.mut" > "$TMP/case"
	start=$end
	n=$((n + 1))
	[ $n -gt 30 ] && break
	for trim in keep cut; do
		[ $trim = cut ] && truncate -s -1 "$TMP/case"
		for m in $PATCHID_MODES; do
			git patch-id $m < "$TMP/case" > "$TMP/want"
			"$ARMBOT" patch-id $m < "$TMP/case" > "$TMP/got"
			cmp -s "$TMP/want" "$TMP/got" || {
				bad=$((bad + 1))
				diag "case $n ($trim the last newline) $m differs"
			}
		done
	done
done
is "$bad" 0 "30 mangled mails alone, with and without their last newline"

# lines far longer than the 64 KiB armbot reads at a time
{
	printf 'From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n'
	printf 'Subject: long\n\n---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n ctx\n-'
	head -c 200000 /dev/zero | tr '\0' 'a'
	printf '\n+'
	head -c 150000 /dev/zero | tr '\0' ' b'
	printf '\n ctx\n'
	printf 'index '
	head -c 100000 /dev/zero | tr '\0' '0'
	printf '..'
	head -c 70000 /dev/zero | tr '\0' '1'
	printf '\nGIT binary patch\n'
} > "$TMP/long"
patchid_compare_stream "lines of 150 and 200 KB" "$TMP/long"
cat "$TMP/long" "$TMP/mails" "$TMP/long" > "$TMP/long2"
patchid_compare_stream "long lines between mails" "$TMP/long2"

diag "$patchid_total patch-ids of mangled input compared with git"
done_testing
