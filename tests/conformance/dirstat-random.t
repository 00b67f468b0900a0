#!/bin/sh
# `armbot dirstat` against `git diff --dirstat` on random scratch
# repositories: every unsigned mode, cut-offs, cumulative or not, with and
# without rename detection; identical bytes expected.
. "$(dirname "$0")/../lib/tap.sh"

GEN="$(dirname "$0")/dirstat-gen.pl"
# under ASan the point is memory safety: two seeds are enough
if [ -n "${ARMBOT_ASAN:-}" ]; then SEEDS=${DIRSTAT_SEEDS:-"1 2"}
else SEEDS=${DIRSTAT_SEEDS:-"1 2 3 4 5 6"}; fi
git_test_env

total=0
for seed in $SEEDS; do
	repo="$TMP/r$seed"
	git init -q "$repo"
	for phase in 0 1 2; do
		perl "$GEN" "$seed" "$phase" "$repo" || exit 1
		git -C "$repo" add -A
		git -C "$repo" commit -q --allow-empty -m "phase $phase"
	done
	for range in "HEAD~2 HEAD~1" "HEAD~1 HEAD" "HEAD~2 HEAD"; do
		bad=0
		n=0
		for mode in changes lines files; do
		for limit in 0 0.1 3 10 16.7; do
		for cumul in noncumulative cumulative; do
		for renames in "" --no-renames -l1; do
			p="$mode,$limit,$cumul"
			# shellcheck disable=SC2086
			git -C "$repo" diff $renames --dirstat="$p" $range \
				> "$TMP/want" 2>/dev/null
			# shellcheck disable=SC2086
			"$ARMBOT" dirstat -C "$repo" $renames --dirstat="$p" \
				$range > "$TMP/got" 2> "$TMP/err"
			n=$((n + 1))
			if ! cmp -s "$TMP/want" "$TMP/got"; then
				bad=$((bad + 1))
				diag "seed $seed, $range, --dirstat=$p $renames:"
				diff "$TMP/want" "$TMP/got" | head -10 | \
					sed 's/^/#   /'
				cat "$TMP/err" | sed 's/^/#   /'
			fi
		done
		done
		done
		done
		total=$((total + n))
		is "$bad" 0 "seed $seed, $range: $n dirstats identical to git"
	done
	# the range forms give the same as two arguments
	git -C "$repo" diff --dirstat=lines,0 HEAD~2...HEAD > "$TMP/want"
	"$ARMBOT" dirstat -C "$repo" --dirstat=lines,0 HEAD~2...HEAD > "$TMP/got"
	is_file "$TMP/want" "$TMP/got" "seed $seed: A...B as git"
	"$ARMBOT" dirstat -C "$repo" --dirstat=lines,0 HEAD~2..HEAD > "$TMP/got"
	is_file "$TMP/want" "$TMP/got" "seed $seed: A..B as git"
done
diag "$total comparisons with git diff --dirstat"
done_testing
