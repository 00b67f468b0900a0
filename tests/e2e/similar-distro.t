#!/bin/sh
# armbot similar on the distro tree (Debian's linux-source-6.1, imported by
# tests/e2e/tree-import.t or am-distro.t): real drivers copied into
# arch/arm/mach-* as one who copies them would (identifiers renamed,
# functions reordered, comments rewritten: tests/lib/similar-mutate.pl)
# are named with their original above 70% and the drivers/ folder where
# they belong; the index is kept in $ARMBOT_CACHE_DIR/similar (built once,
# about 150 MB).  Then, on a small repository of its own, the index is
# rebuilt blob by blob when the tree moves.
. "$(dirname "$0")/../lib/tap.sh"

D=$ARMBOT_CACHE_DIR/distro-git
git -C "$D" rev-parse -q --verify HEAD^{commit} > /dev/null 2>&1 ||
	skip_all "no imported distro tree in $D"
CORE=$TOP/armbot-core
MUTATE=$TOP/tests/lib/similar-mutate.pl

# new_file_patch PATH FILE: a git format-patch mail adding FILE as PATH
new_file_patch() {
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: A Copier <copier@example.org>\nSubject: [PATCH] ARM: add %s\n\n---\n' "$1"
	printf 'diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..1111111\n' "$1" "$1"
	printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n' "$1" "$(wc -l < "$2")"
	sed 's/^/+/' "$2"
	printf -- '-- \n2.39.5\n\n'
}

# copy_case ORIGINAL STEM NEWPATH FOLDER: the copy of ORIGINAL as NEWPATH
# is named with ORIGINAL above 70% and FOLDER
copy_case() {
	git -C "$D" show "HEAD:$1" | perl "$MUTATE" "$2" brd > "$TMP/copy.c" ||
		{ fail "$1: mutated"; return; }
	# the copy is a copy, not the same text
	if git -C "$D" show "HEAD:$1" | cmp -s - "$TMP/copy.c"; then
		fail "$1: the mutation changed nothing"
		return
	fi
	new_file_patch "$3" "$TMP/copy.c" > "$TMP/copy.patch"
	"$CORE" -C "$D" similar --stats "$TMP/copy.patch" > "$TMP/out" 2> "$TMP/err"
	ok $? "$1: armbot similar runs" || sed 's/^/# /' "$TMP/err"
	sed 's/^/# /' "$TMP/out" "$TMP/err"
	pct=$(sed -n "s|^$3 is \([0-9]*\)% similar to $1 (lines [0-9]*-[0-9]*)\$|\1|p" "$TMP/out")
	ok "$([ -n "$pct" ] && [ "$pct" -gt 70 ] && echo 0 || echo 1)" \
		"$1: named as the original of $3 (${pct:-no}% similar)"
	grep -q "^$3:[0-9]* implements [A-Za-z_]*: such drivers live in $4" "$TMP/out"
	ok $? "$1: $4 named as its place"
}

copy_case drivers/gpio/gpio-mxc.c mxc arch/arm/mach-brd/gpio.c drivers/gpio/
copy_case drivers/irqchip/irq-orion.c orion arch/arm/mach-brd/irq.c drivers/irqchip/
copy_case drivers/clocksource/timer-digicolor.c digicolor arch/arm/plat-brd/timer.c drivers/clocksource/

# the second run reads the cache; the query costs milliseconds
"$CORE" -C "$D" similar --stats "$TMP/copy.patch" > /dev/null 2> "$TMP/err"
grep -q "read from the cache" "$TMP/err"
ok $? "the index is read back from the cache"
ms=$(sed -n 's/^query: \([0-9.]*\) ms$/\1/p' "$TMP/err")
diag "query: $ms ms"

# an original file that is no copy: unrelated code is not claimed
git -C "$D" show HEAD:kernel/sched/core.c | head -400 > "$TMP/own.c"
new_file_patch arch/arm/mach-brd/pm.c "$TMP/own.c" > "$TMP/own.patch"
"$CORE" -C "$D" similar "$TMP/own.patch" > "$TMP/out" 2> "$TMP/err"
is "$(grep -c 'similar to' "$TMP/out")" 0 "kernel/sched code is no copy of drivers/ or arch/arm/"

# incremental: a small tree, one file changed, the other blobs reused
R=$TMP/repo
mkdir -p "$R/drivers/gpio" "$R/arch/arm/mach-x"
git -C "$D" show HEAD:drivers/gpio/gpio-mxc.c > "$R/drivers/gpio/a.c"
git -C "$D" show HEAD:drivers/gpio/gpio-mvebu.c > "$R/drivers/gpio/b.c"
git -C "$D" show HEAD:drivers/irqchip/irq-orion.c > "$R/arch/arm/mach-x/c.c"
echo 'not C' > "$R/drivers/gpio/README"
git -C "$R" init -q && git -C "$R" add -A &&
	git -C "$R" -c user.name=t -c user.email=t@t commit -q -m one
export ARMBOT_CACHE_DIR=$TMP/cache
"$CORE" -C "$R" similar --stats < /dev/null 2> "$TMP/err"
grep -q '^index: 3 files (0 reused), [1-9][0-9]* fingerprints, built' "$TMP/err"
ok $? "a new tree: every C file indexed" || sed 's/^/# /' "$TMP/err"
echo 'int added_line;' >> "$R/drivers/gpio/b.c"
git -C "$R" -c user.name=t -c user.email=t@t commit -q -a -m two
"$CORE" -C "$R" similar --stats < /dev/null 2> "$TMP/err"
grep -q '^index: 3 files (2 reused), ' "$TMP/err"
ok $? "the tree moved: only the changed blob read again" || sed 's/^/# /' "$TMP/err"
is "$(ls "$TMP/cache/similar" | wc -l)" 2 "one index file per commit"
sleep 1
"$CORE" -C "$R" similar --stats --rev HEAD~1 < /dev/null 2> "$TMP/err"
grep -q 'read from the cache' "$TMP/err"
ok $? "the older commit's index is still read back"
# at most SIMINDEX_KEEP (3) files: a third and fourth commit, the oldest
# index goes
for n in 3 4; do
	echo "int line$n;" >> "$R/drivers/gpio/b.c"
	git -C "$R" -c user.name=t -c user.email=t@t commit -q -a -m $n
	sleep 1 # the files' times order them
	"$CORE" -C "$R" similar < /dev/null
done
is "$(ls "$TMP/cache/similar" | wc -l)" 3 "the three newest index files are kept"
ls "$TMP/cache/similar" | grep -q "^$(git -C "$R" rev-parse HEAD)-"
ok $? "the newest is among them"
# a damaged cache file is rebuilt, not trusted
for f in "$TMP"/cache/similar/*.idx; do head -c 100 "$f" > "$f.x" && mv "$f.x" "$f"; done
"$CORE" -C "$R" similar --stats < /dev/null 2> "$TMP/err"
grep -q '^index: 3 files (0 reused), [1-9][0-9]* fingerprints, built' "$TMP/err"
ok $? "a truncated index file is rebuilt" || sed 's/^/# /' "$TMP/err"

done_testing
