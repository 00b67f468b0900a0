#!/bin/sh
# kernel/git/odb.c against git: read every object of a large repository
# (Debian's distro kernel tree) with `git cat-file --batch
# --batch-all-objects` and with bench/gitodb-cat.c (the same ids in the
# same order), and the headers only with --batch-check; then the same
# on a repository of long delta chains made here.  Prints the best
# CPU time of each over ROUNDS rounds and the ratio armbot/git (goal: <= 1),
# after checking that both outputs are byte for byte the same.
# The repository is only read.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${ROUNDS:-3}
ORACLE=/root/.cache/armbot/oracle
if [ -z "${REPO:-}" ]; then
	if [ -e "$ORACLE/HEAD.txt" ]; then
		REPO=$ORACLE/linux-source-6.1
	else
		REPO=${XDG_CACHE_HOME:-$HOME/.cache}/armbot/distro-git
	fi
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME="$TMP"

cc -std=gnu11 -O2 -I"$TOP" -o "$TMP/gitodb-cat" "$TOP/bench/gitodb-cat.c" \
	"$TOP/kernel/git/odb.c" "$TOP/kernel/git/object.c" \
	$(pkg-config --cflags --libs glib-2.0 zlib libdeflate)

best() {	# best IN CMD...: the least CPU time (user + system) of ROUNDS
	b=	# runs: steadier than wall time on a machine shared by others
	in=$1
	shift
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		/usr/bin/time -o "$TMP/time" -f '%U %S' "$@" < "$in" > /dev/null
		t=$(awk '{ print $1 + $2 }' "$TMP/time")
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
		r=$((r + 1))
	done
	echo "$b"
}

report() {	# report WHAT GIT ARMBOT
	if [ "$(echo "$2 > 0" | bc)" = 1 ]; then
		printf '%-34s git %6.3fs  armbot %6.3fs  ratio %.2f\n' "$1" \
			"$2" "$3" "$(echo "$3 / $2" | bc -l)"
	else
		printf '%-34s git %6.3fs  armbot %6.3fs  (too short)\n' "$1" \
			"$2" "$3"
	fi
}

bench_repo() {	# bench_repo REPO [N]: check, then time (the ids N times)
	REPO=$1
	n=${2:-1}
	OBJECTS=$(cd "$REPO" && git rev-parse --path-format=absolute \
		--git-path objects)
	git -C "$REPO" cat-file --batch-all-objects \
		--batch-check='%(objectname)' > "$TMP/ids"
	echo "$REPO: $(wc -l < "$TMP/ids") objects"
	# the outputs must agree before the times mean anything
	a=$(git -C "$REPO" cat-file --batch --batch-all-objects | sha1sum)
	b=$("$TMP/gitodb-cat" "$OBJECTS" < "$TMP/ids" | sha1sum)
	[ "$a" = "$b" ] || { echo "FAIL: --batch output differs"; exit 1; }
	a=$(git -C "$REPO" cat-file --batch-check --batch-all-objects | sha1sum)
	b=$("$TMP/gitodb-cat" -c "$OBJECTS" < "$TMP/ids" | sha1sum)
	[ "$a" = "$b" ] || { echo "FAIL: --batch-check output differs"; exit 1; }
	echo "outputs identical"
	: > "$TMP/ids.n"
	i=0
	while [ "$i" -lt "$n" ]; do
		cat "$TMP/ids" >> "$TMP/ids.n"
		i=$((i + 1))
	done
	g=$(best /dev/null git -C "$REPO" cat-file --batch --batch-all-objects)
	a=$(best "$TMP/ids" "$TMP/gitodb-cat" "$OBJECTS")
	report "--batch --batch-all-objects" "$g" "$a"
	g=$(best "$TMP/ids.n" git -C "$REPO" cat-file --batch)
	a=$(best "$TMP/ids.n" "$TMP/gitodb-cat" "$OBJECTS")
	report "--batch < same ids (x$n)" "$g" "$a"
	g=$(best /dev/null git -C "$REPO" cat-file --batch-check --batch-all-objects)
	a=$(best "$TMP/ids" "$TMP/gitodb-cat" -c "$OBJECTS")
	report "--batch-check --batch-all-objects" "$g" "$a"
}

bench_repo "$REPO"

# long delta chains: 400 versions of a 20000-line file, one line changed
# each time, packed with --depth=50
chains=$TMP/chains
git init -q "$chains"
seq 1 20000 > "$chains/f"
i=0
while [ "$i" -lt 400 ]; do
	sed -i "s/^$((i * 7 + 1))\$/line $i changed/" "$chains/f"
	git -C "$chains" add f
	git -C "$chains" -c user.name=b -c user.email=b@example.org \
		commit -q -m "v$i"
	i=$((i + 1))
done
git -C "$chains" repack -adfq --depth=50 --window=50
bench_repo "$chains" 50
