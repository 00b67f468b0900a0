#!/bin/sh
# Base discovery on scratch repositories made with real git: every rule of
# kernel/base/baseguess.h, the blob index across a rebased branch, a merge
# history and a corrupt index file.  "Right" is judged with git: the
# guessed commit must hold, at every path the series touches, the blob of
# the commit the series was really written on.
. "$(dirname "$0")/../lib/tap.sh"

export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org
export GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.org
n=0
commit() {	# commit REPO MESSAGE: with an increasing date
	n=$((n + 1))
	GIT_AUTHOR_DATE="2024-01-01 00:00:$(printf %02d $((n % 60))) +0000" \
	GIT_COMMITTER_DATE="2024-01-01 00:$(printf %02d $((n / 60 % 60))):$(printf %02d $((n % 60))) +0000" \
		git -C "$1" commit -q -a -m "$2"
}
lines() {	# lines FILE N TAG: N numbered lines
	seq 1 "$2" | sed "s/^/$3 line /" > "$1"
}

R=$TMP/src
git init -q -b master "$R"
mkdir -p "$R/arch/arm/mach-foo" "$R/drivers/bar"
lines "$R/arch/arm/mach-foo/board.c" 40 board
lines "$R/drivers/bar/bar.c" 40 bar
lines "$R/drivers/bar/baz.c" 40 baz
git -C "$R" add -A && commit "$R" "root"
for i in 1 2 3; do
	sed -i "s/^bar line $((i * 5))\$/bar line $((i * 5)) v$i/" "$R/drivers/bar/bar.c"
	commit "$R" "bar v$i"
done
OLD=$(git -C "$R" rev-parse HEAD)	# the series below is written here

# a topic branch at OLD: patches as an author writes them
git -C "$R" checkout -q -b topic
sed -i 's/^board line 10$/board line 10 topic/' "$R/arch/arm/mach-foo/board.c"
commit "$R" "board: topic"
sed -i 's/^bar line 30$/bar line 30 topic/' "$R/drivers/bar/bar.c"
commit "$R" "bar: topic"
sed -i 's/^bar line 31$/bar line 31 topic again/' "$R/drivers/bar/bar.c"
commit "$R" "bar: topic again"
git -C "$R" format-patch -q -3 --stdout > "$TMP/series3.mbox"
git -C "$R" format-patch -q -3 --stdout --base="$OLD" > "$TMP/series3-base.mbox"
git -C "$R" checkout -q master

# master moves on: bar.c changes where the topic's hunks are, board.c
# changes later
sed -i 's/^bar line 31$/bar line 31 upstream/' "$R/drivers/bar/bar.c"
commit "$R" "bar: upstream"
MID=$(git -C "$R" rev-parse HEAD)
sed -i 's/^board line 12$/board line 12 upstream/' "$R/arch/arm/mach-foo/board.c"
commit "$R" "board: upstream"

D=$TMP/data
"$ARMBOT" --data-dir "$D" tree add t "$R" --branch master > /dev/null 2>&1
ok $? "tree add"
guess() {	# guess MBOX: the guess-base line in $TMP/g, status in $rc
	"$ARMBOT" --data-dir "$D" tree guess-base --tree t "$1" > "$TMP/g" 2>&1
	rc=$?
	set -- $(head -1 "$TMP/g")
	how=${3:-}
	base=${2:-}
}
# same_blobs A B PATH...: the paths have the same blobs at A and B
same_blobs() {
	_a=$1 _b=$2
	shift 2
	for _p; do
		[ "$(git -C "$R" rev-parse -q --verify "$_a:$_p")" = \
		  "$(git -C "$R" rev-parse -q --verify "$_b:$_p")" ] || return 1
	done
}

guess "$TMP/series3.mbox"
is "$rc $how" "0 blob-ids" "a 3-patch series: guessed from blob ids"
same_blobs "$base" "$OLD" arch/arm/mach-foo/board.c drivers/bar/bar.c
ok $? "... at a commit with the blobs of the commit it was written on"
# the newest such commit: after OLD, before bar.c moved on
is "$base" "$OLD" "... the newest such commit"
grep -q "3 pre-image blob\|2 pre-image blob" "$TMP/g"
ok $? "... the series' own blobs are not needed (bar.c's second patch)"
git -C "$R" am -q --abort 2>/dev/null

guess "$TMP/series3-base.mbox"
is "$rc $how $base" "0 base-commit $OLD" "base-commit: found in the tree wins"

# no blob ids: the head
git -C "$R" diff "$MID~1" "$MID" | sed '/^index /d' > "$TMP/noids.diff"
{ printf 'From: A <a@example.org>\nSubject: [PATCH] no ids\n\n---\n'; cat "$TMP/noids.diff"; } > "$TMP/noids.mbox"
guess "$TMP/noids.mbox"
is "$rc $how $base" "0 head $(git -C "$R" rev-parse master)" "no blob ids: the head"

# blob ids nobody has: no base
sed 's/^index [0-9a-f]*\.\./index 1234567../' "$TMP/series3.mbox" > "$TMP/unknown.mbox"
guess "$TMP/unknown.mbox"
is "$rc" 1 "unknown blob ids: no base, exit 1"
grep -q "^no base: .*not found anywhere: arch/arm/mach-foo/board.c 1234567" "$TMP/g"
ok $? "... and says which blob was not found"

# already applied: a patch of master
git -C "$R" format-patch -q -1 --stdout "$MID" > "$TMP/applied.mbox"
guess "$TMP/applied.mbox"
is "$rc $how" "0 applied" "a patch of the tree: applied"
is "$(sed -n 's/^applied 1 //p' "$TMP/g")" "$MID" "... with its commit"

# a new file: the base is before the file existed
lines "$R/drivers/bar/new.c" 5 new
git -C "$R" add drivers/bar/new.c
git -C "$R" stash -q
git -C "$R" checkout -q -b newfile "$OLD"
git -C "$R" stash pop -q
commit "$R" "bar: add new.c"
git -C "$R" format-patch -q -1 --stdout > "$TMP/newfile.mbox"
git -C "$R" checkout -q master
git -C "$R" checkout -q newfile -- drivers/bar/new.c
sed -i 's/new line 1/new line 1 upstream/' "$R/drivers/bar/new.c"
commit "$R" "bar: new.c upstream"
ADDED=$(git -C "$R" rev-parse HEAD)
"$ARMBOT" --data-dir "$D" tree update t > /dev/null 2>&1
ls "$D"/trees/t/baseindex/master.idx > /dev/null 2>&1 &&
	"$ARMBOT" --data-dir "$D" tree index t | grep -q "(0 new)"
ok $? "tree update brought the blob index up to date"
guess "$TMP/newfile.mbox"
is "$rc $how $base" "0 blob-ids $(git -C "$R" rev-parse "$ADDED~1")" "a new file: the newest commit where it is absent"

# prerequisite-patch-id: the base-commit plus a patch the tree has on top
PRE=$(git -C "$R" rev-parse "$MID")
git -C "$R" checkout -q -b dep "$MID"
sed -i 's/^bar line 32$/bar line 32 dep/' "$R/drivers/bar/bar.c"
commit "$R" "bar: needs bar upstream"
git -C "$R" format-patch -q -1 --stdout --base="$MID~1" > "$TMP/prereq.mbox"
git -C "$R" checkout -q master
grep -q "^prerequisite-patch-id: " "$TMP/prereq.mbox"
ok $? "format-patch --base wrote a prerequisite-patch-id:"
guess "$TMP/prereq.mbox"
is "$rc $how $base" "0 base-commit $PRE" "prerequisites found: the commit that has them"
sed 's/^prerequisite-patch-id: .*/prerequisite-patch-id: 0123456789012345678901234567890123456789/' \
	"$TMP/prereq.mbox" > "$TMP/prereq-missing.mbox"
guess "$TMP/prereq-missing.mbox"
is "$rc $how $base" "0 base-commit $(git -C "$R" rev-parse "$MID~1")" "prerequisites missing: the base-commit"
grep -q "without 1 of its 1 prerequisite patches" "$TMP/g"
ok $? "... and says that they are missing"

# a rebased branch: the index keeps what the chains share
"$ARMBOT" --data-dir "$D" tree index t > "$TMP/idx1" 2>&1
git -C "$R" checkout -q -b rebased "$MID"
sed -i 's/^baz line 3$/baz line 3 rebased/' "$R/drivers/bar/baz.c"
commit "$R" "baz: rebased"
git -C "$R" branch -q -f master rebased
git -C "$R" checkout -q master
# moved by git itself, so that `tree index` (not the hook of `tree
# update`) meets the rebased branch
git --git-dir="$D/trees/t/repo.git" fetch -q "$R" +master:master
"$ARMBOT" --data-dir "$D" tree index t > "$TMP/idx2" 2>&1
grep -q "(1 new, 2 dropped)" "$TMP/idx2"
ok $? "a rebased branch: its new commit indexed, the old ones dropped"
sed 's/^/# /' "$TMP/idx2"
guess "$TMP/series3.mbox"
is "$rc $how $base" "0 blob-ids $OLD" "... and the guess is still right"

# a corrupt index is rebuilt, never trusted
for f in "$D"/trees/t/baseindex/*.idx; do
	head -c 100 /dev/urandom > "$f"
done
guess "$TMP/series3.mbox"
is "$rc $how $base" "0 blob-ids $OLD" "a corrupt index file is rebuilt"

# a merge history: the base is found on the first-parent chain
M=$TMP/merge
git init -q -b master "$M"
lines "$M/a.c" 20 a
lines "$M/b.c" 20 b
git -C "$M" add -A && commit "$M" root
git -C "$M" checkout -q -b side
sed -i 's/^b line 5$/b line 5 side/' "$M/b.c"
commit "$M" "b: side"
SIDE=$(git -C "$M" rev-parse HEAD)
sed -i 's/^b line 15$/b line 15 patch/' "$M/b.c"
commit "$M" "b: the patch"
git -C "$M" format-patch -q -1 --stdout > "$TMP/side.mbox"
git -C "$M" reset -q --hard "$SIDE"
git -C "$M" checkout -q master
sed -i 's/^a line 5$/a line 5 master/' "$M/a.c"
commit "$M" "a: master"
git -C "$M" merge -q --no-edit side
MERGE=$(git -C "$M" rev-parse HEAD)
sed -i 's/^b line 14$/b line 14 later/' "$M/b.c"
commit "$M" "b: later"
"$ARMBOT" --data-dir "$D" tree add m "$M" --branch master > /dev/null 2>&1
"$ARMBOT" --data-dir "$D" tree guess-base --tree m "$TMP/side.mbox" > "$TMP/g" 2>&1
set -- $(head -1 "$TMP/g")
is "$2 $3" "$MERGE blob-ids" "a merge history: the merge that brought the blob in"
done_testing
