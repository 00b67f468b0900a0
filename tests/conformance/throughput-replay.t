#!/bin/sh
# bench/throughput-replay.py (bench/throughput.sh MODE=replay) on a week
# and a patch pool made here with real git: the plan keeps each series'
# arrival (compressed into the span) and patch count, leaves out the
# patch that does not apply, never puts two patches touching one file in
# a series (so every series applies as a whole) and cuts a series that
# needs more; the mails it delivers (tests/lib/make-series.pl, which also
# takes bare diffs and quilt-style patches) are assembled by armbot into
# those series, and each applies with `armbot am`.
. "$(dirname "$0")/../lib/tap.sh"
plan 12

R=$TMP/repo
git init -q "$R"
git -C "$R" config user.name 'Jane Doe'
git -C "$R" config user.email jane@example.org
for f in a.c b.c c.c d.dts; do
	printf 'line 1 of %s\nline 2\nline 3\nline 4\nline 5\n' "$f" > "$R/$f"
done
git -C "$R" add . && git -C "$R" commit -qm base
POOL=$TMP/pool
mkdir -p "$POOL/fam"
# p1: a.c (format-patch); p2: a.c and b.c (format-patch); p3: c.c (a bare
# diff); p4: does not apply; p5: d.dts (quilt: subject, blank, text, diff)
change() {	# change FILE...: edit line 3 of each
	for f in "$@"; do
		sed -i "s/^line 3\$/line 3 changed ($*)/" "$R/$f"
	done
}
change a.c
git -C "$R" commit -qam 'a: change line 3'
git -C "$R" format-patch -q --stdout -1 > "$POOL/fam/p1.patch"
git -C "$R" reset -q --hard HEAD^
change a.c b.c
git -C "$R" commit -qam 'a, b: change line 3'
git -C "$R" format-patch -q --stdout -1 > "$POOL/fam/p2.patch"
git -C "$R" reset -q --hard HEAD^
change c.c
git -C "$R" diff > "$POOL/fam/p3.patch"
git -C "$R" checkout -q -- .
sed 's/^ line 2$/ no such line/' "$POOL/fam/p1.patch" > "$POOL/fam/p4.patch"
change d.dts
{ printf 'd: the quilt one\n\nA change made with quilt.\n\n'; git -C "$R" diff; } \
	> "$POOL/fam/p5.patch"
git -C "$R" checkout -q -- .

# the week: a 1-patch series, then a 3-patch one an hour later, then a
# 5-patch one two hours after the start
mail() {	# mail ID DATE SUBJECT [PARENT]
	printf 'From x Mon Jun 15 10:00:00 2020\nFrom: Dev <dev@example.org>\n'
	printf 'Subject: %s\nDate: %s\nMessage-ID: <%s>\n' "$3" "$2" "$1"
	[ -z "${4:-}" ] || printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$4" "$4"
	printf '\nbody\n\n'
}
{
	mail s1@x 'Mon, 15 Jun 2020 10:00:00 +0000' '[PATCH] one'
	for i in 1 2 3; do
		mail "s2.$i@x" "Mon, 15 Jun 2020 11:00:0$i +0000" \
			"[PATCH $i/3] three" s2.0@x
	done
	for i in 1 2 3 4 5; do
		mail "s3.$i@x" "Mon, 15 Jun 2020 12:00:0$i +0000" \
			"[PATCH v2 $i/5] five" s3.0@x
	done
} > "$TMP/week.mbox"

python3 "$TOP/bench/throughput-replay.py" plan --week "$TMP/week.mbox" \
	--pool "$POOL" --git-dir "$R/.git" --span 4 > "$TMP/plan" 2> "$TMP/plan.err"
ok $? "plan"
is "$(cut -f1,2,4 "$TMP/plan" | tr '\t' ' ' | tr '\n' ';')" \
	"r001 0.0 1;r002 2.0 3;r003 4.0 5;" \
	"each series keeps its arrival, compressed into the span, and its patch count"
grep -q 'p4.patch' "$TMP/plan"
ok $((!$?)) "the patch that does not apply is left out"
bad=0
while IFS= read -r line; do
	n=$(printf '%s\n' "$line" | cut -f5- | tr '\t' '\n' | wc -l)
	printf '%s\n' "$line" | grep -q 'p1.patch' &&
		printf '%s\n' "$line" | grep -q 'p2.patch' && bad=1
	printf '%s\n' "$line" | cut -f5- | tr '\t' '\n' > "$TMP/these"
	rm -f "$TMP/index"
	GIT_INDEX_FILE=$TMP/index git -C "$R" read-tree HEAD
	GIT_INDEX_FILE=$TMP/index xargs git -C "$R" apply --cached < "$TMP/these" ||
		bad=1
	echo "$n"
done < "$TMP/plan" > "$TMP/counts"
ok $bad "no series holds two patches of one file; each applies as a whole"
is "$(tr '\n' ' ' < "$TMP/counts")" "1 3 3 " \
	"the 5-patch series is cut to the largest disjoint set"
grep -q '3 series of the week (9 patches; 2 cut.*4 arm61 patches that apply.*into 4 s' \
	"$TMP/plan.err"
ok $? "the plan says what it cut and the compression"

M=$TMP/list
mkdir -p "$M/new" "$M/cur" "$M/tmp"
before=$(date +%s.%N)
python3 "$TOP/bench/throughput-replay.py" deliver --plan "$TMP/plan" \
	--maildir "$M" --list arm@lists.test \
	--make-series "$TOP/tests/lib/make-series.pl" > "$TMP/delivered"
ok $? "deliver"
is "$(ls "$M/new" | wc -l)" 9 "1 + 4 + 4 mails (covers for the series of more than one patch)"
awk -v t0="$before" 'NR == 3 && $2 - t0 >= 4 && $2 - t0 < 30 { good = 1 }
	END { exit !good }' "$TMP/delivered"
ok $? "the last series is delivered at its offset"
grep -l '^Subject: \[PATCH [0-9]/3\] d: the quilt one$' "$M"/new/* > /dev/null
ok $? "a quilt patch's subject is its first line"

D=$TMP/data
"$ARMBOT" --data-dir "$D" ingest "$M" > /dev/null
is "$("$ARMBOT" --data-dir "$D" series --json | python3 -c '
import json, sys
print(" ".join("%s/%s" % (s["received"], s["total"])
	       for s in sorted(json.load(sys.stdin), key=lambda s: s["id"])))')" \
	"1/1 3/3 3/3" "armbot assembles the three series, complete"
bad=0
for id in $("$ARMBOT" --data-dir "$D" series --json | python3 -c '
import json, sys
print(" ".join(str(s["id"]) for s in json.load(sys.stdin)))'); do
	"$ARMBOT" --data-dir "$D" series --mbox "$id" > "$TMP/s.mbox"
	"$ARMBOT" -C "$R" am "$TMP/s.mbox" > "$TMP/am.out" 2>&1 || bad=1
	grep -q '^fail' "$TMP/am.out" && bad=1
done
ok $bad "every series applies with armbot am"
done_testing
