#!/bin/sh
# bench/base-guess.sh: base discovery against Debian's `b4 am --guess-base`
# on the same history and the same series.
#
# The history (bench/base-guess-gen.py, made once and cached under
# $ARMBOT_CACHE_DIR/bench, keyed by its parameters and the generator): a
# kernel-like tree of ~3,300 files and $BASE_GUESS_COMMITS (100,000) linear
# commits written with git fast-import, a commit every 1-5 minutes, an rc
# tag every 1,500 commits, and 1,000 more commits beyond master for an
# incremental update.  The series: 1, 5 and 30 patches on master~D for
# each depth D of $BASE_GUESS_DEPTHS, touching files that master changes
# again after the base (the head no longer has the pre-image blobs), in
# format-patch mboxes without base-commit:, posted ten minutes after the
# head.
#
# armbot: `tree add` of the history, `tree index` (full build, then the
# update after 1,000 more commits are fetched: ms per 1,000 commits; as
# `tree add` and `tree update` index in their hook, the bench removes the
# index, DATA/trees/bench/baseindex/master.idx, before the full build and
# puts back the one of before the fetch before the update), and `tree
# guess-base` per series (wall time, best of $ROUNDS, and the time it
# prints).  b4: `b4 am -m FILE -g --guess-lookback DAYS` once per series
# in a clone of master (wall time; and without -g, what b4 takes besides
# the guess), DAYS the default 21 or enough to reach back to the base,
# offline (--offline-mode, inside `unshare -rn` when it can, and the first
# run checked with strace for connect()).  A guess is right when the
# commit's tree has, at every path the series touches, what the true
# base has there (the same commit is not needed).
# Prints a table per series, the index rates, the ratio armbot/b4 of the
# guess times and the goal: each guess under 50 ms.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
ARMBOT_CACHE_DIR=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
COMMITS=${BASE_GUESS_COMMITS:-100000}
EXTRA=1000
DEPTHS=${BASE_GUESS_DEPTHS:-10 1000 20000 90000}
SIZES="1 5 30"
SEED=${BASE_GUESS_SEED:-1}
ROUNDS=${ROUNDS:-3}
B4_TIMEOUT=${BASE_GUESS_B4_TIMEOUT:-300}
GOAL_MS=50
# bump when the layout of the cached directory changes
FORMAT=1

if ! command -v b4 > /dev/null 2>&1; then
	echo "bench/base-guess.sh: skipped: b4 is not installed (make deps)"
	exit 0
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME="$TMP/home" TZ=UTC LC_ALL=C
mkdir -p "$HOME"
# b4 takes the identity from git config and fails without one
git config --global user.name "Bench Maintainer"
git config --global user.email bench@example.org

now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }

# depths the history does not reach become one at 9/10 of it
depths=
for d in $DEPTHS; do
	[ "$d" -lt "$COMMITS" ] || d=$((COMMITS * 9 / 10))
	case " $depths " in *" $d "*) ;; *) depths="$depths $d" ;; esac
done
depths=${depths# }

# --- the history and the series, cached -------------------------------
GEN=$TOP/bench/base-guess-gen.py
key=$(printf '%s\n' "format $FORMAT" "commits $COMMITS" "extra $EXTRA" \
	"seed $SEED" "depths $depths" "sizes $SIZES" |
	cat - "$GEN" | sha1sum | cut -c1-12)
D=$ARMBOT_CACHE_DIR/bench/base-guess-$COMMITS-$key
mkdir -p "$ARMBOT_CACHE_DIR/bench"
exec 9> "$ARMBOT_CACHE_DIR/bench/base-guess.lock"
flock 9
if [ ! -e "$D/.done" ]; then
	echo "creating $D (once: about a minute for 100,000 commits)"
	rm -rf "$D"
	mkdir -p "$D"
	git init -q --bare "$D/history.git"
	git -C "$D/history.git" config gc.auto 0
	# ending at the hour of the first run, so that the dates look recent
	end=$(($(date +%s) / 3600 * 3600))
	t0=$(now)
	python3 "$GEN" history --commits "$COMMITS" --extra "$EXTRA" \
		--seed "$SEED" --end "$end" |
		git -C "$D/history.git" fast-import --quiet
	# (sh has no pipefail: a generator that failed leaves less)
	[ "$(git -C "$D/history.git" rev-list --count refs/bench/more)" = \
	  $((COMMITS + EXTRA)) ] || { echo "error: generating $D failed" >&2; exit 1; }
	t1=$(now)
	git clone -q --bare --shared "$D/history.git" "$TMP/scratch.git"
	python3 "$GEN" series --git-dir "$TMP/scratch.git" --out "$D/series" \
		--depths "$(echo "$depths" | tr ' ' ',')" \
		--sizes "$(echo "$SIZES" | tr ' ' ',')" --seed "$SEED"
	rm -rf "$TMP/scratch.git"
	t2=$(now)
	printf 'generated: history %d ms, series %d ms\n' \
		"$(ms "$t0" "$t1")" "$(ms "$t1" "$t2")" |
		tee "$D/generated"
	touch "$D/.done"
fi
exec 9>&-
H=$D/history.git
more=$(git -C "$H" rev-parse refs/bench/more)
nfiles=$(git -C "$H" ls-tree -r --name-only master | wc -l)
echo "history: $COMMITS commits on master (+$EXTRA for the update)," \
	"$nfiles files, $(du -sh "$H" | cut -f1) ($D)"

# right SERIES COMMIT: does COMMIT hold what the base of SERIES holds at
# every path the series touches (the same blob, or absent alike)?
right() {
	[ -n "$2" ] || { echo none; return; }
	line=$(awk -F '\t' -v s="$1" '$1 == s' "$D/series/series.tsv")
	base=$(echo "$line" | cut -f4)
	paths=$(echo "$line" | cut -f5 | tr ',' ' ')
	# shellcheck disable=SC2086
	if [ "$(git -C "$H" ls-tree "$base" -- $paths)" = \
	     "$(git -C "$H" ls-tree "$2" -- $paths)" ]; then
		echo yes
	else
		echo WRONG
	fi
}

# --- armbot --------------------------------------------------------------
DATA=$TMP/data
SRC=$TMP/src.git
IDX=$DATA/trees/bench/baseindex/master.idx	# README: the blob index
git clone -q --bare --shared "$H" "$SRC"
t0=$(now)
"$ARMBOT" --data-dir "$DATA" tree add bench "$SRC" --branch master > /dev/null
t1=$(now)
add_ms=$(ms "$t0" "$t1")
# `tree add` indexes the branch after the fetch (the hook); the full build
# timed is `tree index` without an index
rm -f "$IDX"
"$ARMBOT" --data-dir "$DATA" tree index bench > "$TMP/index-full"
t2=$(now)
full_wall=$(ms "$t1" "$t2")
# "bench master: N commits indexed (M new) in S s"
indexed() {
	sed -n 's/^bench master: \([0-9]*\) commits indexed (\([0-9]*\) new.*) in \([0-9.]*\) s$/\1 \2 \3/p' "$1"
}
full=$(indexed "$TMP/index-full")
[ -n "$full" ] || { echo "error: tree index said: $(cat "$TMP/index-full")" >&2; exit 1; }
# shellcheck disable=SC2086
set -- $full
[ "$2" = "$COMMITS" ] || { echo "error: the full build indexed $2 commits, not $COMMITS" >&2; exit 1; }
cp "$IDX" "$TMP/master.idx"

: > "$TMP/armbot"
for size in $SIZES; do
	for depth in $depths; do
		s=$size-$depth
		best=
		r=0
		while [ "$r" -lt "$ROUNDS" ]; do
			t0=$(now)
			rc=0
			"$ARMBOT" --data-dir "$DATA" tree guess-base --tree bench \
				"$D/series/$s.mbox" > "$TMP/out" || rc=$?
			t=$(ms "$t0" "$(now)")
			if [ -z "$best" ] || [ "$t" -lt "$best" ]; then
				best=$t
				cp "$TMP/out" "$TMP/out.best"
			fi
			r=$((r + 1))
		done
		[ "$rc" -le 1 ] || { echo "error: guess-base $s failed" >&2; exit 1; }
		commit=$(sed -n 's/^base \([0-9a-f]\{40\}\) .*/\1/p' "$TMP/out.best")
		how=$(sed -n 's/^base [0-9a-f]* \([a-z-]*\) .*/\1/p' "$TMP/out.best")
		inner=$(sed -n 's/^time \([0-9.]*\) s$/\1/p' "$TMP/out.best" |
			awk '{ printf "%.1f", $1 * 1000 }')
		echo "$s $best ${inner:--} $(right "$s" "$commit") ${how:-none}" >> "$TMP/armbot"
	done
done

# the update: 1,000 more commits at the source, fetched (and indexed by
# the hook), then indexed again from the index of before the fetch, timed
git -C "$SRC" update-ref refs/heads/master "$more"
t0=$(now)
"$ARMBOT" --data-dir "$DATA" tree update bench > /dev/null
t1=$(now)
cp "$TMP/master.idx" "$IDX"
t2=$(now)
"$ARMBOT" --data-dir "$DATA" tree index bench > "$TMP/index-update"
t3=$(now)
fetch_ms=$(ms "$t0" "$t1")
update_wall=$(ms "$t2" "$t3")
update=$(indexed "$TMP/index-update")
[ -n "$update" ] || { echo "error: tree index said: $(cat "$TMP/index-update")" >&2; exit 1; }
# shellcheck disable=SC2086
set -- $update
[ "$2" = "$EXTRA" ] || { echo "error: the update indexed $2 commits, not $EXTRA" >&2; exit 1; }

# --- b4 ----------------------------------------------------------------
# b4 guesses in the repository it runs in (no option names another): a
# clone of master alone, so that its `git log --all` sees what armbot sees
V=$TMP/b4-view
git clone -q --no-checkout --single-branch -b master --shared "$H" "$V"
NET=
if unshare -rn true 2> /dev/null; then
	NET="unshare -rn"
fi
posted=$(($(git -C "$H" log -1 --format=%ct master) + 600))
b4run() {	# b4run MBOX [ARGS...]: b4 am, offline, in $V; output in $TMP/b4.err
	mbox=$1
	shift
	# shellcheck disable=SC2086
	(cd "$V" && timeout "$B4_TIMEOUT" $NET b4 --offline-mode am -m "$mbox" \
		-o - "$@" > /dev/null 2> "$TMP/b4.err")
}

first=$(echo "$SIZES" | cut -d' ' -f1)-$(echo "$depths" | cut -d' ' -f1)
if command -v strace > /dev/null 2>&1; then
	(cd "$V" && strace -f -q -e trace=connect -o "$TMP/strace" \
		b4 --offline-mode am -m "$D/series/$first.mbox" -o - -g \
		> /dev/null 2>&1) || true
	if grep -q 'AF_INET' "$TMP/strace"; then
		echo "error: b4 opened a network socket:" >&2
		grep AF_INET "$TMP/strace" >&2
		exit 1
	elif grep -q '+++ exited with' "$TMP/strace"; then
		b4net="no connect() to the network (strace)"
	else
		b4net="strace could not trace it, not checked"
	fi
else
	b4net="strace not installed, not checked"
fi
[ -z "$NET" ] || b4net="$b4net, every run in unshare -rn"

: > "$TMP/b4"
for size in $SIZES; do
	for depth in $depths; do
		s=$size-$depth
		base=$(awk -F '\t' -v s="$s" '$1 == s { print $4 }' "$D/series/series.tsv")
		# b4 searches from the day the first mail was posted back
		# --guess-lookback days: 21 by default, more when the base is
		# older
		age=$((posted - $(git -C "$H" log -1 --format=%ct "$base")))
		days=$(((age + 86399) / 86400 + 1))
		[ "$days" -ge 21 ] || days=21
		t0=$(now)
		rc=0
		b4run "$D/series/$s.mbox" -g --guess-lookback "$days" || rc=$?
		t=$(ms "$t0" "$(now)")
		commit=
		if [ "$rc" = 124 ]; then
			verdict=timeout
			t=">$t"
		else
			name=$(sed -n 's/^ Base: \([^ ]*\) (\(exact match\|best guess.*\))$/\1/p' \
				"$TMP/b4.err")
			grep -q '^ Base: applies clean to current tree' "$TMP/b4.err" &&
				name=HEAD
			[ -z "$name" ] ||
				commit=$(git -C "$V" rev-parse --verify -q "$name^{commit}" || true)
			verdict=$(right "$s" "$commit")
		fi
		t0=$(now)
		b4run "$D/series/$s.mbox" || true
		plain=$(ms "$t0" "$(now)")
		echo "$s $t $plain $verdict $days" >> "$TMP/b4"
	done
done

# --- report ------------------------------------------------------------
echo "b4 $(b4 --version): $b4net; its default lookback (21 days) reaches" \
	"$(git -C "$H" rev-list --count --since=$((posted - 21 * 86400)) master)" \
	"commits back here"
echo "armbot: best of $ROUNDS; internal = the time guess-base prints;" \
	"b4: once, -g with --guess-lookback DAYS, and without -g"
printf '%-9s %7s %6s | %9s %9s %6s %-8s | %9s %9s %5s %6s\n' series patches \
	depth "armbot ms" internal right how "b4 ms" "w/o -g" days right
paste -d ' ' "$TMP/armbot" "$TMP/b4" | while read -r s a_ms a_in a_ok how _ b_ms b_plain b_ok days; do
	printf '%-9s %7s %6s | %9s %9s %6s %-8s | %9s %9s %5s %6s\n' "$s" \
		"${s%-*}" "${s#*-}" "$a_ms" "$a_in" "$a_ok" "$how" "$b_ms" \
		"$b_plain" "$days" "$b_ok"
done
# shellcheck disable=SC2086
set -- $full
printf 'tree add (fetch of the history, then the index hook): %d ms\n' "$add_ms"
printf 'index, full build: %d commits in %s s (%.1f ms per 1,000 commits; wall %d ms)\n' \
	"$1" "$3" "$(echo "$3 * 1000000 / $1" | bc -l)" "$full_wall"
# shellcheck disable=SC2086
set -- $update
printf 'index, update: %d new commits in %s s (%.1f ms per 1,000 commits; wall %d ms; tree update before it %d ms)\n' \
	"$2" "$3" "$(echo "$3 * 1000000 / ($2 + ($2 == 0))" | bc -l)" \
	"$update_wall" "$fetch_ms"
paste -d ' ' "$TMP/armbot" "$TMP/b4" | awk -v goal="$GOAL_MS" '
	{ a += $2; bt = ($7 ~ /^>/ ? substr($7, 2) : $7); b += bt; n++
	  r = $2 / bt; if (n == 1 || r < rmin) rmin = r; if (r > rmax) rmax = r
	  if ($2 > amax) amax = $2
	  if ($3 != "-" && $3 > imax) imax = $3
	  if ($4 != "yes") awrong++
	  if ($9 != "yes") bwrong++ }
	END {
	printf "right: armbot %d/%d, b4 %d/%d\n", n - awrong, n, n - bwrong, n
	printf "ratio armbot/b4 (sum of the guess times, %d series): %.4f (b4 %.0fx slower; per series %.4f to %.4f)\n", n, a / b, b / a, rmin, rmax
	printf "each guess under %d ms: %s (wall, slowest %d ms; internal, slowest %.1f ms: %s)\n",
		goal, amax < goal ? "yes" : "no", amax, imax, imax < goal ? "yes" : "no"
	}'
