#!/bin/sh
# armbot tree checkout: the first checkout writes every path as git's
# checkout does; the next one writes or removes only the paths that differ,
# so untouched files keep their mtime.
. "$(dirname "$0")/../lib/tap.sh"

D="$TMP/data"
U="$TMP/upstream"
W="$TMP/work"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t

git init -q -b main "$U"
mkdir -p "$U/drivers/a" "$U/drivers/gone/deep" "$U/arch/arm" "$U/scripts"
for f in drivers/a/x.c drivers/a/y.c arch/arm/Makefile arch/arm/keep.c \
	drivers/gone/deep/old.c scripts/chmod-me becomes-dir; do
	echo "content of $f" > "$U/$f"
done
printf '#!/bin/sh\n' > "$U/scripts/run.sh"
chmod 755 "$U/scripts/run.sh"
ln -s arch/arm/keep.c "$U/link"
ln -s drivers "$U/link-to-file"
git -C "$U" add -A && git -C "$U" commit -q -m c1
git -C "$U" tag c1
# c2: modify, delete (a whole directory), add in a new directory, mode
# change only, file -> directory, symlink retargeted, symlink -> file
echo modified >> "$U/drivers/a/x.c"
git -C "$U" rm -q -r drivers/gone
mkdir -p "$U/new/dir"
echo new > "$U/new/dir/n.c"
chmod 755 "$U/scripts/chmod-me"
git -C "$U" rm -q becomes-dir
mkdir "$U/becomes-dir"
echo inside > "$U/becomes-dir/f"
rm "$U/link" && ln -s arch/arm/Makefile "$U/link"
rm "$U/link-to-file" && echo now-a-file > "$U/link-to-file"
git -C "$U" add -A && git -C "$U" commit -q -m c2
git -C "$U" tag c2

"$ARMBOT" --data-dir "$D" tree add up "$U" --branch main > /dev/null
ok $? "the tree is added"

# compare DIR with git's own checkout of REV
same_as_git() {	# same_as_git DIR REV
	rm -rf "$TMP/git-co"
	git -C "$U" worktree add -q --detach "$TMP/git-co" "$2" &&
	rm "$TMP/git-co/.git" &&
	diff -r --no-dereference -x .armbot-checkout "$TMP/git-co" "$1" > "$TMP/diff" 2>&1
	r=$?
	git -C "$U" worktree prune
	return $r
}
modes() {	# modes DIR: the mode of every file, sorted
	(cd "$1" && find . -path ./.armbot-checkout -prune -o ! -type d -printf '%M %p\n' | sort)
}

"$ARMBOT" --data-dir "$D" tree checkout up c1 "$W" > "$TMP/out"
ok $? "a first checkout exits 0"
is "$(cat "$TMP/out")" "$W: 10 written, 0 removed, 0 mode changes (full checkout)" "it writes every path"
same_as_git "$W" c1
ok $? "the directory holds what git checks out" || sed 's/^/# /' "$TMP/diff"
is "$(modes "$W")" "$(modes "$TMP/git-co")" "with git's modes and file types"
grep -q "^commit=$(git -C "$U" rev-parse c1)\$" "$W/.armbot-checkout"
ok $? "the state file records the commit"

# age every path, and add a build product that is in neither tree
find "$W" -exec touch -h -d '2001-01-01 00:00:00' {} +
echo obj > "$W/arch/arm/keep.o"
touch -d '2001-01-01 00:00:00' "$W/arch/arm/keep.o"
"$ARMBOT" --data-dir "$D" tree checkout up c2 "$W" > "$TMP/out"
ok $? "the second checkout exits 0"
is "$(cat "$TMP/out")" "$W: 5 written, 2 removed, 1 mode changes" \
	"it writes and removes only what differs"
rm -rf "$TMP/git-co"; git -C "$U" worktree add -q --detach "$TMP/git-co" c2; rm "$TMP/git-co/.git"
git -C "$U" worktree prune
diff -r --no-dereference -x .armbot-checkout -x keep.o "$TMP/git-co" "$W" > "$TMP/diff" 2>&1
ok $? "the directory now holds what git checks out for c2" || sed 's/^/# /' "$TMP/diff"
is "$(modes "$W" | grep -v keep.o)" "$(modes "$TMP/git-co")" "with c2's modes"
old=$(cd "$W" && find . ! -type d ! -name .armbot-checkout -newermt '2001-01-02' -printf '%p\n' | sort | tr '\n' ' ')
is "$old" "./becomes-dir/f ./drivers/a/x.c ./link ./link-to-file ./new/dir/n.c " \
	"only the changed paths have a new mtime"
is "$(stat -c %Y "$W/arch/arm/keep.c")" "$(date -d '2001-01-01 00:00:00' +%s)" "an untouched file keeps its mtime"
is "$(stat -c %Y "$W/scripts/chmod-me")" "$(date -d '2001-01-01 00:00:00' +%s)" "a mode change keeps the mtime"
[ ! -e "$W/drivers/gone" ]
ok $? "a directory whose files were all deleted is removed"
is "$(cat "$W/arch/arm/keep.o")" obj "a build product in neither tree is left alone"

"$ARMBOT" --data-dir "$D" tree checkout up c2 "$W" > "$TMP/out"
is "$(cat "$TMP/out")" "$W: 0 written, 0 removed, 0 mode changes" "the same revision again writes nothing"
"$ARMBOT" --data-dir "$D" tree checkout up c1 "$W" > "$TMP/out"
ok $? "going back to c1 works"
rm -rf "$TMP/git-co"; git -C "$U" worktree add -q --detach "$TMP/git-co" c1; rm "$TMP/git-co/.git"
git -C "$U" worktree prune
diff -r --no-dereference -x .armbot-checkout -x keep.o "$TMP/git-co" "$W" > "$TMP/diff" 2>&1
ok $? "and holds c1 again" || sed 's/^/# /' "$TMP/diff"

"$ARMBOT" --data-dir "$D" tree checkout up no-such-rev "$W" 2> "$TMP/err"
is "$?" 1 "an unknown revision fails"
is "$(cat "$TMP/err")" "error: tree 'up' has no revision 'no-such-rev'" "and says which"
# a hostile tree (made with git mktree) with a .git directory
E="$TMP/evil"
git init -q "$E"
b=$(echo pwned | git -C "$E" hash-object -w --stdin)
sub=$(printf '100644 blob %s\thooks-x\n' "$b" | git -C "$E" mktree)
t=$(printf '040000 tree %s\t.git\n100644 blob %s\tok\n' "$sub" "$b" | git -C "$E" mktree)
git -C "$E" update-ref refs/heads/main "$(git -C "$E" commit-tree -m evil "$t")"
"$ARMBOT" --data-dir "$D" tree add evil "$E" --branch main > /dev/null
"$ARMBOT" --data-dir "$D" tree checkout evil main "$TMP/evil-co" 2> "$TMP/err"
is "$?" 1 "a tree with a .git entry is not checked out"
is "$(cat "$TMP/err")" "error: refusing to check out '.git/hooks-x'" "and the path is named"
[ ! -e "$TMP/evil-co/.git" ]
ok $? "nothing was written under .git"
# a symlink that a later commit turns into a directory: the checkout
# replaces the link, it never writes through it (make_parents lstats each
# leading directory; the file is opened O_NOFOLLOW after an unlink)
L="$TMP/linky"
mkdir -p "$TMP/outside"
git init -q -b main "$L"
ln -s "$TMP/outside" "$L/esc"
git -C "$L" add -A && git -C "$L" commit -q -m k1 && git -C "$L" tag k1
rm "$L/esc" && mkdir "$L/esc" && echo through > "$L/esc/f"
git -C "$L" add -A && git -C "$L" commit -q -m k2 && git -C "$L" tag k2
"$ARMBOT" --data-dir "$D" tree add linky "$L" --branch main > /dev/null
"$ARMBOT" --data-dir "$D" tree checkout linky k1 "$TMP/linky-co" > /dev/null &&
"$ARMBOT" --data-dir "$D" tree checkout linky k2 "$TMP/linky-co" > /dev/null
ok $? "a symlink becomes a directory"
[ ! -e "$TMP/outside/f" ] && [ -d "$TMP/linky-co/esc" ] && [ ! -L "$TMP/linky-co/esc" ]
ok $? "nothing is written through the old link"
is "$(cat "$TMP/linky-co/esc/f")" through "the file is written in the tree"
done_testing
