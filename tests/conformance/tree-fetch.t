#!/bin/sh
# armbot tree add / update / list against scratch git repositories: a local
# path and a file:// URL, named branches or every branch, forced updates.
. "$(dirname "$0")/../lib/tap.sh"

D="$TMP/data"
U="$TMP/upstream"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
export GIT_AUTHOR_DATE='2020-01-01T00:00:00Z' GIT_COMMITTER_DATE='2020-01-01T00:00:00Z'

git init -q -b main "$U"
echo one > "$U/file"
git -C "$U" add file && git -C "$U" commit -q -m one
git -C "$U" tag v1
git -C "$U" checkout -q -b next
echo two > "$U/file"
git -C "$U" commit -q -am two
git -C "$U" checkout -q main

"$ARMBOT" --data-dir "$D" tree add arm "$U" --branch next --branch main > "$TMP/out"
ok $? "tree add of a local path exits 0"
is "$(cat "$TMP/out")" "arm: next at $(git -C "$U" rev-parse next)" "the first --branch is the head"
R="$D/trees/arm/repo.git"
is "$(git -C "$R" rev-parse main next)" "$(git -C "$U" rev-parse main next)" "both branches are fetched"
is "$(git -C "$R" symbolic-ref HEAD)" refs/heads/next "HEAD names the head branch"
is "$(git -C "$R" rev-parse -q --verify v1)" "$(git -C "$U" rev-parse v1)" "tags pointing into them come along"
grep -q "^url=$U\$" "$D/trees/arm/tree.conf"
ok $? "the tree file keeps the absolute path"

# update: fast-forward and forced (rebased) branches follow upstream
echo three > "$U/file"
git -C "$U" commit -q -am three
git -C "$U" checkout -q next
git -C "$U" reset -q --hard main
echo rebased > "$U/other"
git -C "$U" add other && git -C "$U" commit -q -m rebased
git -C "$U" checkout -q main
"$ARMBOT" --data-dir "$D" tree update arm > "$TMP/out"
ok $? "tree update exits 0"
is "$(git -C "$R" rev-parse main)" "$(git -C "$U" rev-parse main)" "a fast-forward is fetched"
is "$(git -C "$R" rev-parse next)" "$(git -C "$U" rev-parse next)" "a rewritten branch is followed"
is "$(cat "$TMP/out")" "arm: next at $(git -C "$U" rev-parse next)" "update prints the new head"

# every branch, default head from the remote, file:// URL
"$ARMBOT" --data-dir "$D" tree add all "file://$U" > "$TMP/out"
ok $? "tree add of a file:// URL without --branch exits 0"
is "$(cat "$TMP/out")" "all: main at $(git -C "$U" rev-parse main)" "the remote's default branch is the head"
is "$(git -C "$D/trees/all/repo.git" for-each-ref --format='%(refname)' refs/heads | tr '\n' ' ')" \
	"refs/heads/main refs/heads/next " "every branch is fetched"

"$ARMBOT" --data-dir "$D" tree list > "$TMP/list"
cat > "$TMP/expected" <<EOT
all	git	main	$(git -C "$U" rev-parse --short=12 main)	file://$U
arm	git	next	$(git -C "$U" rev-parse --short=12 next)	$U
EOT
is_file "$TMP/expected" "$TMP/list" "tree list prints name, kind, head branch, head and source"

# tree show resolves revisions of a named tree
"$ARMBOT" --data-dir "$D" tree show arm v1 > "$TMP/show"
grep -q "^commit $(git -C "$U" rev-parse v1)\$" "$TMP/show"
ok $? "tree show NAME REV resolves a tag"

# errors
"$ARMBOT" --data-dir "$D" tree add arm "$U" 2> "$TMP/err"
is "$?" 1 "adding an existing name fails"
grep -q "^error: tree 'arm' already exists" "$TMP/err"
ok $? "and says so"
"$ARMBOT" --data-dir "$D" tree add bad "$TMP/no-such-repo" 2> "$TMP/err"
is "$?" 1 "adding a missing repository fails"
grep -q "^error: tree 'bad': cannot fetch" "$TMP/err"
ok $? "with the fetch error" || sed 's/^/# /' "$TMP/err"
"$ARMBOT" --data-dir "$D" tree add nob "$U" --branch nope 2> "$TMP/err"
is "$?" 1 "a branch the remote lacks fails"
"$ARMBOT" --data-dir "$D" tree update nosuch 2> "$TMP/err"
is "$?" 1 "updating an unknown tree fails"
is "$(cat "$TMP/err")" "error: no such tree 'nosuch'" "with a clear message"
"$ARMBOT" --data-dir "$D" tree add ../x "$U" 2> "$TMP/err"
is "$?" 1 "a tree name with a slash is refused"
"$ARMBOT" --data-dir "$D" tree add 2> /dev/null
is "$?" 129 "tree add without arguments is a usage error"
"$ARMBOT" --data-dir "$D" tree list | cut -f1 | tr '\n' ' ' > "$TMP/names"
is "$(cat "$TMP/names")" "all arm " "failed adds leave no tree behind"
is "$(ls "$D/trees" | tr '\n' ' ')" "all arm " "nor a directory"

# a failed fetch keeps the branches: libgit2 moves the refs one by one
# after the download, so a ref it cannot write (held by a lock file, as
# git would) fails the fetch after the refs before it moved; they are put
# back
before=$(git -C "$R" rev-parse main next)
echo four > "$U/file"
git -C "$U" commit -q -am four
git -C "$U" branch -f next main
touch "$R/refs/heads/next.lock"
"$ARMBOT" --data-dir "$D" tree update arm > /dev/null 2> "$TMP/err"
is "$?" 1 "a fetch that cannot write a branch fails"
grep -q "^error: tree 'arm': cannot fetch '$U': failed to lock file" "$TMP/err"
ok $? "and says which lock" || sed 's/^/# /' "$TMP/err"
is "$(git -C "$R" rev-parse main next)" "$before" "no branch moved: main, which libgit2 had moved, is put back"
"$ARMBOT" --data-dir "$D" status > "$TMP/status"
grep -q "^  arm: 1 failed in a row, the last at .*: tree 'arm': cannot fetch '$U': failed to lock file" "$TMP/status"
ok $? "armbot status lists the failed update" || sed 's/^/# /' "$TMP/status"
rm "$R/refs/heads/next.lock"

# a source that went away: an error that says so, branches kept
mv "$U" "$U.gone"
"$ARMBOT" --data-dir "$D" tree update arm > /dev/null 2> "$TMP/err"
is "$?" 1 "updating from a source that is gone fails"
is "$(cat "$TMP/err")" "error: tree 'arm': cannot fetch '$U': no such repository" "and says there is no repository"
is "$(git -C "$R" rev-parse main next)" "$before" "the branches are kept"
"$ARMBOT" --data-dir "$D" status > "$TMP/status"
grep -q "^  arm: 2 failed in a row, .*: no such repository$" "$TMP/status"
ok $? "armbot status counts the failures in a row" || sed 's/^/# /' "$TMP/status"
mv "$U.gone" "$U"
"$ARMBOT" --data-dir "$D" tree update arm > /dev/null
ok $? "once the source is back the update succeeds"
is "$(git -C "$R" rev-parse main next)" "$(git -C "$U" rev-parse main next)" "and both branches move"
"$ARMBOT" --data-dir "$D" status > "$TMP/status"
! grep -q "tree updates failing" "$TMP/status"
ok $? "armbot status lists no failure any more"

# one fetch of a tree at a time: another process holds the fetch lock
if command -v flock > /dev/null; then
	touch "$TMP/hold"
	(
		flock 9 && touch "$TMP/held"
		while [ -e "$TMP/hold" ]; do sleep 0.1; done
	) 9>> "$D/trees/arm/fetch.lock" &
	lock_pid=$!
	while [ ! -e "$TMP/held" ]; do sleep 0.1; done
	"$ARMBOT" --data-dir "$D" tree update arm > /dev/null 2> "$TMP/err"
	is "$?" 1 "a fetch while another runs fails"
	is "$(cat "$TMP/err")" "error: tree 'arm': another process is fetching it" "and says why"
	rm "$TMP/hold"
	wait $lock_pid
else
	skip "flock(1) not installed"
	skip "flock(1) not installed"
fi

# keys the tree file does not know yet (later configuration) survive
printf 'paths=arch/arm/\n' >> "$D/trees/arm/tree.conf"
"$ARMBOT" --data-dir "$D" tree update arm > /dev/null
grep -q '^paths=arch/arm/$' "$D/trees/arm/tree.conf"
ok $? "tree update keeps keys it does not know"
done_testing
