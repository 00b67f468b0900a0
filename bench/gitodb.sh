#!/bin/sh
# kernel/gitodb.c against git: read every object of a large repository
# (Debian's distro kernel tree) with `git cat-file --batch
# --batch-all-objects` and with bench/gitodb-cat.c (the same ids in the
# same order), and the headers only with --batch-check.  Prints the best
# time of each over ROUNDS rounds and the ratio armbot/git (goal: <= 1),
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
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

OBJECTS=$(cd "$REPO" && git rev-parse --path-format=absolute --git-path objects)
cc -std=gnu11 -O2 -I"$TOP" -o "$TMP/gitodb-cat" "$TOP/bench/gitodb-cat.c" \
	"$TOP/kernel/gitodb.c" "$TOP/kernel/gitobject.c" \
	$(pkg-config --cflags --libs glib-2.0 zlib)
git -C "$REPO" cat-file --batch-all-objects --batch-check='%(objectname)' \
	> "$TMP/ids"
echo "$REPO: $(wc -l < "$TMP/ids") objects"

# the outputs must agree before the times mean anything
a=$(git -C "$REPO" cat-file --batch --batch-all-objects | sha1sum)
b=$("$TMP/gitodb-cat" "$OBJECTS" < "$TMP/ids" | sha1sum)
[ "$a" = "$b" ] || { echo "FAIL: --batch output differs"; exit 1; }
a=$(git -C "$REPO" cat-file --batch-check --batch-all-objects | sha1sum)
b=$("$TMP/gitodb-cat" -c "$OBJECTS" < "$TMP/ids" | sha1sum)
[ "$a" = "$b" ] || { echo "FAIL: --batch-check output differs"; exit 1; }
echo "outputs identical"

now() { date +%s.%N; }
best() {	# best CMD...: the shortest wall time of ROUNDS runs
	b=
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		t0=$(now)
		"$@" > /dev/null
		t=$(echo "$(now) - $t0" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
		r=$((r + 1))
	done
	echo "$b"
}
from_ids() { "$@" < "$TMP/ids"; }

report() {	# report WHAT GIT ARMBOT
	printf '%-34s git %6.3fs  armbot %6.3fs  ratio %.2f\n' "$1" "$2" "$3" \
		"$(echo "$3 / $2" | bc -l)"
}
g=$(best git -C "$REPO" cat-file --batch --batch-all-objects)
g2=$(best from_ids git -C "$REPO" cat-file --batch)
a=$(best from_ids "$TMP/gitodb-cat" "$OBJECTS")
report "--batch --batch-all-objects" "$g" "$a"
report "--batch < same ids" "$g2" "$a"
g=$(best git -C "$REPO" cat-file --batch-check --batch-all-objects)
a=$(best from_ids "$TMP/gitodb-cat" -c "$OBJECTS")
report "--batch-check --batch-all-objects" "$g" "$a"
