#!/bin/sh
# armbot tree import: a small tarball made here (a .gitignore ignoring
# everything, an executable, symlinks, a hard link, empty files and
# directories, names that test git's tree order) gives the tree id that
# `git add -A -f && git write-tree` gives for its extraction.
. "$(dirname "$0")/../lib/tap.sh"

D="$TMP/data"
REPO="$D/trees/distro-6.1/repo.git"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t

make_tree() {	# make_tree DIR: the sample source tree
	mkdir -p "$1/foo" "$1/emptydir/sub" "$1/a/b/c" "$1/scripts" "$1/foo-bar"
	printf '*\n!.gitignore\n' > "$1/.gitignore"
	printf '*\n' > "$1/foo/.gitignore"
	echo hi > "$1/foo.c"
	echo x > "$1/foo/bar"
	echo y > "$1/foo0"
	echo z > "$1/foo-bar/z"
	printf '#!/bin/sh\necho run\n' > "$1/scripts/run.sh"
	chmod 755 "$1/scripts/run.sh"
	printf 'group exec only\n' > "$1/scripts/gx"
	chmod 654 "$1/scripts/gx"
	ln -s ../foo/bar "$1/scripts/link"
	ln -s does-not-exist "$1/dangling"
	ln "$1/foo0" "$1/hard"
	echo deep > "$1/a/b/c/d"
	: > "$1/empty"
	printf 'caf\303\251\n' > "$1/name with spaces \303\251"
	seq 1 40000 > "$1/a/numbers.txt"
}

git_tree() {	# git_tree DIR: git's tree id of DIR's files, ignoring nothing
	rm -rf "$1/.git"
	git -C "$1" init -q && git -C "$1" add -A -f && git -C "$1" write-tree
	rm -rf "$1/.git"
}

mkdir -p "$TMP/src"
make_tree "$TMP/src/pkg-1.0"
expected=$(git_tree "$TMP/src/pkg-1.0")
tar -C "$TMP/src" -cJf "$TMP/pkg-1.0.tar.xz" pkg-1.0

"$ARMBOT" --data-dir "$D" tree import --tarball "$TMP/pkg-1.0.tar.xz" \
	--version 1.0 > "$TMP/out" 2> "$TMP/err"
ok $? "tree import of a tar.xz exits 0"
grep -q "^distro-6.1 1.0: imported as [0-9a-f]\{40\} (tree $expected), 15 files" "$TMP/out"
ok $? "it reports the tree id and the file count"
is "$(git -C "$REPO" ls-tree -r distro | wc -l)" 15 "git counts as many files"
is "$(git -C "$REPO" rev-parse 'distro^{tree}')" "$expected" \
	"the tree equals git add -A -f && git write-tree of the extraction"
is "$(git -C "$REPO" rev-parse 'debian/1.0')" "$(git -C "$REPO" rev-parse distro)" \
	"refs/tags/debian/1.0 names the import"
is "$(git -C "$REPO" symbolic-ref HEAD)" "refs/heads/distro" "HEAD is the distro branch"
git -C "$REPO" log -1 --format=%s distro > "$TMP/subject"
is "$(cat "$TMP/subject")" "Import pkg-1.0.tar.xz 1.0" "the commit message names the version"
is "$(git -C "$REPO" ls-tree distro scripts/run.sh | cut -c1-6)" 100755 "an executable keeps its mode"
is "$(git -C "$REPO" ls-tree distro scripts/gx | cut -c1-6)" 100644 "only the owner's x bit makes 100755, as in git"
is "$(git -C "$REPO" ls-tree distro scripts/link | cut -c1-6)" 120000 "a symlink is recorded as a symlink"
is "$(git -C "$REPO" cat-file blob distro:scripts/link)" "../foo/bar" "with its target as content"
is "$(git -C "$REPO" rev-parse distro:hard)" "$(git -C "$REPO" rev-parse distro:foo0)" \
	"a hard link gets its target's blob"
git -C "$REPO" cat-file -e distro:foo/.gitignore
ok $? "ignored files are imported (no ignore rules applied)"
git -C "$REPO" fsck --full --strict 2> "$TMP/fsck"
ok $? "git fsck --full --strict accepts the repository" || sed 's/^/# /' "$TMP/fsck"
git -C "$REPO" verify-pack "$REPO"/objects/pack/*.pack > /dev/null 2>&1
ok $? "git verify-pack accepts the pack armbot wrote"
is "$(git -C "$REPO" count-objects -v | sed -n "s/^count: //p")" 1 "only the commit is a loose object"

# the same version again: nothing to do
"$ARMBOT" --data-dir "$D" tree import --tarball "$TMP/pkg-1.0.tar.xz" --version 1.0 > "$TMP/out"
grep -q '^distro-6.1 1.0: already imported as' "$TMP/out"
ok $? "importing the same version again is a no-op"
is "$(ls "$REPO"/objects/pack/*.pack | wc -l)" 1 "and writes no pack"

# a tar.gz, without a common top directory, with ./ prefixes
make_tree "$TMP/flat"
echo changed > "$TMP/flat/foo.c"
expected2=$(git_tree "$TMP/flat")
tar -C "$TMP/flat" -czf "$TMP/flat.tar.gz" .
"$ARMBOT" --data-dir "$D" tree import --tarball "$TMP/flat.tar.gz" --version 1.1 > "$TMP/out"
ok $? "a new version imports (tar.gz, ./ paths)"
is "$(git -C "$REPO" rev-parse 'distro^{tree}')" "$expected2" "its tree equals git's"
is "$(git -C "$REPO" rev-parse distro^)" "$(git -C "$REPO" rev-parse debian/1.0)" \
	"the new head's parent is the previous import"
is "$(git -C "$REPO" rev-parse 'debian/1.0^{tree}')" "$expected" "the previous version stays reachable"
is "$(git -C "$REPO" diff --name-only debian/1.0 debian/1.1)" "foo.c" "the two imports differ by what changed"
is "$(git -C "$REPO" count-objects -v | sed -n "s/^count: //p")" 2 "again only the commit is loose"
git -C "$REPO" fsck --full --strict 2> "$TMP/fsck"
ok $? "git fsck accepts the repository after the second import" || sed 's/^/# /' "$TMP/fsck"
"$ARMBOT" --data-dir "$D" tree list > "$TMP/list"
is "$(cut -f1,2,3,5 "$TMP/list")" "$(printf 'distro-6.1\tdistro\tdistro\t1.1')" "tree list shows the distro tree and its version"

# every import reaches the hook of bot/daemon/treeupdate.c, old head to new, and
# is recorded
old=$(git -C "$REPO" rev-parse --short=12 distro)
G_MESSAGES_DEBUG=armbot "$ARMBOT" --data-dir "$D" tree import \
	--tarball "$TMP/flat.tar.gz" --version 1.2 > "$TMP/out" 2>&1
ok $? "a third version imports (the same files)"
grep -q "on_tree_updated: distro-6.1: distro $old\.\.$(git -C "$REPO" rev-parse --short=12 distro)\$" "$TMP/out"
ok $? "and the hook hears the distro branch move" || sed 's/^/# /' "$TMP/out"

# first use: a command needing the default tree imports it, the version
# coming from dpkg's status file
cat > "$TMP/status" <<EOS
Package: linux-source-6.1
Status: install ok installed
Version: 9.9-1

Package: other
Status: install ok installed
Version: 1
EOS
ARMBOT_DPKG_STATUS="$TMP/status" ARMBOT_DISTRO_TARBALL="$TMP/pkg-1.0.tar.xz" \
	"$ARMBOT" --data-dir "$TMP/fresh" tree show > "$TMP/show" 2>&1
ok $? "tree show on an empty data dir imports the default tree"
grep -q "^root $expected\$" "$TMP/show"
ok $? "with the tree id of the tarball"
grep -q '^version 9.9-1$' "$TMP/show"
ok $? "named after the installed package version"
sed -i 's/^Version: 9.9-1/Version: 9.9-2/' "$TMP/status"
ARMBOT_DPKG_STATUS="$TMP/status" ARMBOT_DISTRO_TARBALL="$TMP/flat.tar.gz" \
	"$ARMBOT" --data-dir "$TMP/fresh" tree show > "$TMP/show" 2>&1
grep -q "^root $expected2\$" "$TMP/show"
ok $? "a newer installed package becomes the new head on next use"
git -C "$TMP/fresh/trees/distro-6.1/repo.git" rev-parse -q --verify debian/9.9-1 > /dev/null
ok $? "the old import keeps its tag"

# two processes importing at once: one imports, the other waits for it
"$ARMBOT" --data-dir "$TMP/race" tree import --tarball "$TMP/pkg-1.0.tar.xz" --version 1 > "$TMP/race1" &
"$ARMBOT" --data-dir "$TMP/race" tree import --tarball "$TMP/pkg-1.0.tar.xz" --version 1 > "$TMP/race2"
r2=$?
wait $!
r1=$?
is "$r1$r2" 00 "two concurrent imports both succeed"
is "$(cat "$TMP/race1" "$TMP/race2" | grep -c 'already imported')" 1 "one of them finds the other's import"
is "$(ls "$TMP/race/trees/distro-6.1/repo.git/objects/pack/"*.pack | wc -l)" 1 "one pack is written"

# errors
"$ARMBOT" --data-dir "$D" tree import --tarball "$TMP/nope.tar" --version 2 2> "$TMP/err"
is "$?" 1 "a missing tarball fails"
grep -q "^error: cannot import '.*nope.tar'" "$TMP/err"
ok $? "and says which" || sed 's/^/# /' "$TMP/err"
head -c $(($(stat -c %s "$TMP/pkg-1.0.tar.xz") - 20)) "$TMP/pkg-1.0.tar.xz" > "$TMP/cut.tar.xz"
"$ARMBOT" --data-dir "$D" tree import --tarball "$TMP/cut.tar.xz" --version 2 2> "$TMP/err"
is "$?" 1 "a truncated tar.xz fails"
grep -q "^error: cannot import '.*cut.tar.xz'" "$TMP/err"
ok $? "and says which" || sed 's/^/# /' "$TMP/err"
ls "$REPO"/objects/pack/ | grep -q tmp_
is "$?" 1 "no temporary pack is left behind"
mkdir -p "$TMP/evil/x"
echo bad > "$TMP/evil/x/f"
tar -C "$TMP/evil" -cf "$TMP/evil.tar" --transform 's,x/f,x/../../f,' x/f 2>/dev/null
"$ARMBOT" --data-dir "$D" tree import --tarball "$TMP/evil.tar" --version 3 2> "$TMP/err"
is "$?" 1 "a tarball with a '..' path is refused"
is "$(git -C "$REPO" rev-parse 'distro^{tree}')" "$expected2" "and the tree is unchanged"
done_testing
