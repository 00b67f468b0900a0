#!/bin/sh
# `armbot dirstat` reads git diff's option forms as git does (issue 18):
# --dirstat and -X bare or with their parameters stuck to them (never the
# next argument: `--dirstat base head` is a bare --dirstat and two
# revisions), --cumulative, --dirstat-by-file[=...], -M and -l in their
# forms, options after the range, "--" after it.  Every form runs on real
# ranges through `git -C R diff FORM` and `armbot -C R dirstat FORM`, which
# must print the same bytes with the same exit status: each arm61 patch
# applied to the distro files, the whole series and the removal of
# mach-footbridge; the patches of the lakml week that apply one after the
# other; the random repositories of dirstat-random.t.  Errors (a refused
# parameter, a value where git takes none, a bad revision) must fail as
# git fails, with its exit status.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/dirstat-compare.sh"

git_test_env '2023-01-01 00:00'
TARBALL=${ARMBOT_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

# The forms: @A and @B stand for the range's ends, one form a line.
cat > "$TMP/forms" <<'END'
--dirstat @A @B
--dirstat= @A @B
--dirstat=lines @A @B
--dirstat=files,0 @A @B
--dirstat=changes,3,cumulative @A @B
--dirstat=lines,0,cumulative,noncumulative @A @B
--dirstat=16.7 @A @B
--dirstat=files --dirstat=lines,0 @A @B
-X @A @B
-Xlines @A @B
-Xfiles,0 @A @B
-Xcumulative,1 @A @B
-Xlines,0 -X @A @B
--cumulative @A @B
--cumulative --dirstat=lines,0 @A @B
--dirstat=lines,0 --cumulative @A @B
--dirstat-by-file @A @B
--dirstat-by-file=0 @A @B
--dirstat-by-file=cumulative,0 @A @B
--dirstat-by-file --dirstat=lines @A @B
@A @B --dirstat
@A @B -Xlines,0
@A --dirstat=files,0 @B
@A..@B --dirstat
@A...@B -X
@A @B --dirstat --
--dirstat @A..@B --
-Xlines,0 @A @B --
--dirstat -M @A @B
-M30% -Xlines,0 @A @B
--find-renames -X @A @B
--find-renames=90 --dirstat=files,0 @A @B
--no-renames --dirstat @A @B
--no-renames -M --dirstat @A @B
-l1 --dirstat @A @B
-l 1 -Xlines @A @B
END
# Errors: both fail, with git's exit status (128: git die()s, 129: usage).
cat > "$TMP/errors" <<'END'
--dirstat=bogus @A @B
-Xbogus @A @B
--dirstat=lines,bogus @A @B
--dirstat-by-file=bogus @A @B
-X= @A @B
--dirstat=-3 @A @B
--cumulative=3 @A @B
--no-renames=1 --dirstat @A @B
-Mx --dirstat @A @B
--find-renames=x --dirstat @A @B
-lx --dirstat @A @B
--no-such-option @A @B
--dirstat no-such-revision @B
--dirstat @A no-such-revision
END

# every second commit of a history is enough for the forms (the modes on
# every commit are dirstat-arm61.t's and dirstat-lakml.t's); under ASan,
# where the point is memory safety, every sixth
if [ -n "${ARMBOT_ASAN:-}" ]; then EVERY=6; else EVERY=${DIRSTAT_EVERY:-2}; fi
total=0

# run_form REPO FORM A B: git's and armbot's stdout and exit status into
# $TMP/{git,armbot}.{out,status}
run_form() {
	_args=$(echo "$2" | sed -e "s/@A/$3/g" -e "s/@B/$4/g")
	# shellcheck disable=SC2086
	git -C "$1" diff $_args > "$TMP/git.out" 2> "$TMP/git.err"
	echo $? > "$TMP/git.status"
	# shellcheck disable=SC2086
	"$ARMBOT" -C "$1" dirstat $_args > "$TMP/armbot.out" 2> "$TMP/armbot.err"
	echo $? > "$TMP/armbot.status"
	total=$((total + 1))
}

# compare_forms NAME REPO RANGES: every form on every range ("A B" a
# line), one test a form
compare_forms() {
	while read -r form; do
		_n=0
		_bad=0
		while read -r a b; do
			run_form "$2" "$form" "$a" "$b"
			_n=$((_n + 1))
			if cmp -s "$TMP/git.out" "$TMP/armbot.out" &&
			   [ "$(cat "$TMP/git.status")" = 0 ] &&
			   [ "$(cat "$TMP/armbot.status")" = 0 ]; then
				continue
			fi
			_bad=$((_bad + 1))
			[ "$_bad" -gt 2 ] && continue
			diag "$1, $form, $a $b: git exit $(cat "$TMP/git.status"), armbot exit $(cat "$TMP/armbot.status")"
			diff "$TMP/git.out" "$TMP/armbot.out" | head -6 | sed 's/^/#   /'
			head -3 "$TMP/armbot.err" | sed 's/^/#   /'
		done < "$3"
		is "$_bad" 0 "$1: $form: $_n ranges as git diff"
	done < "$TMP/forms"
}

# compare_errors NAME REPO A B: every error form fails as git's
compare_errors() {
	while read -r form; do
		run_form "$2" "$form" "$3" "$4"
		_g=$(cat "$TMP/git.status") _a=$(cat "$TMP/armbot.status")
		[ "$_g" != 0 ] && [ "$_g" = "$_a" ] && [ ! -s "$TMP/armbot.out" ]
		ok $? "$1: $form: fails as git (exit $_g; armbot $_a)"
	done < "$TMP/errors"
}

# ranges_of REPO: every $EVERY-th commit against its parent, and the
# whole history
ranges_of() {
	git -C "$1" rev-list --reverse HEAD | awk -v every="$EVERY" '
		NR == 1 { first = $1 }
		NR > 1 && (NR - 2) % every == 0 { print prev, $1 }
		{ prev = $1 }
		END { if (NR > 2) print first, prev }'
}

# 1. The arm61 patches applied one after the other to the distro files
# they touch (the base dirstat-arm61.t caches), then the removal of
# mach-footbridge: bench/dirstat.sh's ranges.
if [ -e "$SHARED/corpora/arm61" ] && [ -r "$TARBALL" ]; then
	BASE=$(dirstat_arm61_base "$SHARED/corpora/arm61")
fi
if [ -n "${BASE:-}" ]; then
	arm61="$TMP/arm61"
	git clone -q --shared "$BASE" "$arm61"
	for p in "$SHARED"/corpora/arm61/*/*.patch; do
		dirstat_apply "$arm61" "$p"
	done
	git -C "$arm61" rm -q -r arch/arm/mach-footbridge
	git -C "$arm61" commit -q -m "ARM: remove footbridge"
	ranges_of "$arm61" > "$TMP/arm61.ranges"
	diag "arm61: $(git -C "$arm61" rev-list --count HEAD) commits, $(wc -l < "$TMP/arm61.ranges") ranges"
	compare_forms arm61 "$arm61" "$TMP/arm61.ranges"
	compare_errors arm61 "$arm61" HEAD~1 HEAD

	# the repository's place: -C before or after the command, stuck or
	# not, --repo, after the range
	git -C "$arm61" diff --dirstat=lines,0 HEAD~3 HEAD > "$TMP/want"
	for form in "-C $arm61 dirstat" "-C$arm61 dirstat" "--repo=$arm61 dirstat" \
		"--repo $arm61 dirstat" "dirstat -C $arm61" "dirstat -C$arm61" \
		"dirstat --repo=$arm61"; do
		# shellcheck disable=SC2086
		"$ARMBOT" $form --dirstat=lines,0 HEAD~3 HEAD > "$TMP/got"
		is_file "$TMP/want" "$TMP/got" "arm61: armbot ${form%% *} ... dirstat: -C in its forms"
	done
	"$ARMBOT" dirstat --dirstat=lines,0 HEAD~3 HEAD -C "$arm61" > "$TMP/got"
	is_file "$TMP/want" "$TMP/got" "arm61: -C after the range"

	# paths after "--" limit git's diff; armbot takes none, and says so
	git -C "$arm61" diff --dirstat HEAD~3 HEAD -- arch/arm > "$TMP/git.out"
	"$ARMBOT" -C "$arm61" dirstat --dirstat HEAD~3 HEAD -- arch/arm \
		> "$TMP/armbot.out" 2> "$TMP/armbot.err"
	is "$?" 129 "arm61: paths after '--' are refused (a usage error)"
	grep -q "takes no paths: 'arch/arm' after '--'" "$TMP/armbot.err"
	ok $? "... naming the first"
else
	skip "no arm61 corpus or kernel tarball"
fi

# 2. The patches of the lakml week that apply one after the other to the
# distro files (the base dirstat-lakml.t caches); `git apply --check`
# first, as git am of a mail that does not apply costs ten times more.
BASE=
if [ -e "$SHARED/corpora/lakml" ] && [ -r "$TARBALL" ]; then
	BASE=$(dirstat_lakml_base)
fi
if [ -n "$BASE" ]; then
	lakml="$TMP/lakml"
	git clone -q --shared "$BASE" "$lakml"
	while read -r mail; do
		git -C "$lakml" apply --check "$mail" 2> /dev/null || continue
		git -C "$lakml" am -q "$mail" > /dev/null 2>&1 ||
			git -C "$lakml" am --abort > /dev/null 2>&1
	done < "$TMP/patches"
	ranges_of "$lakml" > "$TMP/lakml.ranges"
	n=$(git -C "$lakml" rev-list --count HEAD)
	[ "$n" -ge 16 ]
	ok $? "lakml: $((n - 1)) patches of the week apply one after the other"
	compare_forms lakml "$lakml" "$TMP/lakml.ranges"
	compare_errors lakml "$lakml" HEAD~1 HEAD
else
	skip "no lakml corpus or kernel tarball"
fi

# 3. Random repositories with renames (dirstat-random.t's generator), for
# -M and -l: three phases, three ranges each.
for seed in 1 2 3; do
	repo="$TMP/random$seed"
	git init -q "$repo"
	for phase in 0 1 2; do
		perl "$(dirname "$0")/dirstat-gen.pl" "$seed" "$phase" "$repo" || exit 1
		git -C "$repo" add -A
		git -C "$repo" commit -q --allow-empty -m "phase $phase"
	done
	{ echo HEAD~2 HEAD~1; echo HEAD~1 HEAD; echo HEAD~2 HEAD; } >> "$TMP/random.ranges.$seed"
done
for seed in 1 2 3; do
	while read -r a b; do
		echo "$(git -C "$TMP/random$seed" rev-parse "$a") $(git -C "$TMP/random$seed" rev-parse "$b")"
	done < "$TMP/random.ranges.$seed" > "$TMP/random.ranges"
	compare_forms "random seed $seed" "$TMP/random$seed" "$TMP/random.ranges"
done
compare_errors "random seed 1" "$TMP/random1" HEAD~2 HEAD

# 4. Where git and armbot fail differently: a third operand is a usage
# error to armbot (it takes no combined diff), a bad revision to git.
for form in "-X lines HEAD~2 HEAD" "--dirstat-by-file 0 HEAD~2 HEAD"; do
	# shellcheck disable=SC2086
	git -C "$TMP/random1" diff $form > /dev/null 2>&1
	g=$?
	# shellcheck disable=SC2086
	"$ARMBOT" -C "$TMP/random1" dirstat $form > "$TMP/armbot.out" 2>&1
	a=$?
	[ "$g" = 128 ] && [ "$a" = 129 ]
	ok $? "$form: the next word is no parameter: git fails on it as a revision (128), armbot on three operands (129)"
done
diag "$total runs of git diff and armbot dirstat each"
done_testing
