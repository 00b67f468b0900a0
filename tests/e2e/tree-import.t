#!/bin/sh
# The real import of Debian's linux-source-6.1 into a data dir under
# $ARMBOT_CACHE_DIR (kept: a second run with the same package version does
# not import again), checked against the tree id git computes for the
# extracted tarball (`git add -A -f && git write-tree`, cached per version).
. "$(dirname "$0")/../lib/tap.sh"

TARBALL=/usr/src/linux-source-6.1.tar.xz
[ -r "$TARBALL" ] || skip_all "$TARBALL not installed (make deps)"
version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
[ -n "$version" ] || skip_all "linux-source-6.1 is not installed"

D="$ARMBOT_CACHE_DIR/e2e-tree/data"
REPO="$D/trees/distro-6.1/repo.git"
ORACLE="$ARMBOT_CACHE_DIR/e2e-tree/linux-source-6.1_$version.tree"
mkdir -p "$ARMBOT_CACHE_DIR/e2e-tree"

# git's answer (tree id, file count), computed once per package version
if [ "$(cat "$ORACLE" 2>/dev/null | wc -l)" != 2 ]; then
	diag "computing git's tree id of the extracted tarball (once per version)"
	mkdir -p "$TMP/x"
	tar -C "$TMP/x" -xJf "$TARBALL" &&
	git init -q --bare "$TMP/oracle.git" &&
	git --git-dir="$TMP/oracle.git" --work-tree="$TMP/x/linux-source-6.1" add -A -f &&
	{ git --git-dir="$TMP/oracle.git" write-tree &&
	  git --git-dir="$TMP/oracle.git" ls-files | wc -l; } > "$ORACLE.tmp" &&
	mv "$ORACLE.tmp" "$ORACLE"
	rm -rf "$TMP/x" "$TMP/oracle.git"
fi
expected=$(sed -n 1p "$ORACLE")
files=$(sed -n 2p "$ORACLE")
is "$(printf %s "$expected" | wc -c)" 40 "git's tree id of the extraction is known"

if git -C "$REPO" rev-parse -q --verify "refs/tags/debian/$version" > /dev/null 2>&1; then
	diag "distro tree $version already imported in $D"
	fresh=0
else
	rm -rf "$D"
	start=$(date +%s.%N)
	"$ARMBOT" --data-dir "$D" tree import > "$TMP/out" 2> "$TMP/err"
	ok $? "armbot tree import of $TARBALL exits 0" || sed 's/^/# /' "$TMP/err"
	diag "$(cat "$TMP/out")"
	diag "import took $(echo "$(date +%s.%N) - $start" | bc) s"
	fresh=1
fi

"$ARMBOT" --data-dir "$D" tree show > "$TMP/show" 2> "$TMP/err"
ok $? "tree show opens the default tree without importing again"
is "$(sed -n 's/^root //p' "$TMP/show")" "$expected" \
	"the imported tree equals git add -A -f && git write-tree of the extraction"
is "$(sed -n 's/^version //p' "$TMP/show")" "$version" "the tree is named after the package version"
is "$(git -C "$REPO" rev-parse "debian/$version^{tree}")" "$expected" "refs/tags/debian/$version names it"
is "$(git -C "$REPO" log -1 --format=%s distro)" "Import linux-source-6.1.tar.xz $version" \
	"the commit message names the package version"
is "$(git -C "$REPO" ls-tree distro scripts/checkpatch.pl | cut -c1-6)" 100755 "executables keep their mode"
git -C "$REPO" cat-file -e distro:.gitignore
ok $? "the top-level .gitignore (ignoring everything) did not hide anything"
is "$(git -C "$REPO" ls-tree -r distro | wc -l)" "$files" "as many files as git indexed from the extraction"
if [ "$fresh" = 1 ]; then
	git -C "$REPO" verify-pack "$REPO"/objects/pack/*.pack > /dev/null 2> "$TMP/err"
	ok $? "git verify-pack accepts the pack" || sed 's/^/# /' "$TMP/err"
else
	skip "the pack was verified when it was imported"
fi

# a persistent worktree of the real tree (kept in the cache, as armbot keeps
# its build trees): the first checkout writes everything and equals git's
# tree; a commit changing one file rewrites that file only
W="$ARMBOT_CACHE_DIR/e2e-tree/work"
head=$(git -C "$REPO" rev-parse distro)
if [ "$(sed -n 's/^commit=//p' "$W/.armbot-checkout" 2>/dev/null)" != "$head" ]; then
	rm -rf "$W"
	"$ARMBOT" --data-dir "$D" tree checkout distro-6.1 distro "$W" > "$TMP/out"
	is "$(cat "$TMP/out")" "$W: $files written, 0 removed, 0 mode changes (full checkout)" \
		"a first checkout writes every file"
	git init -q --bare "$TMP/co.git"
	git --git-dir="$TMP/co.git" --work-tree="$W" add -A -f
	git --git-dir="$TMP/co.git" rm -q --cached .armbot-checkout
	is "$(git --git-dir="$TMP/co.git" write-tree)" "$expected" "the checkout holds exactly the tree"
	rm -rf "$TMP/co.git"
else
	skip "the cached worktree is at the head already"
	skip "it was compared with the tree when it was checked out"
fi
# a commit on a side branch that changes one file, made with git plumbing
export GIT_INDEX_FILE="$TMP/index"
git -C "$REPO" read-tree distro
blob=$( { echo "/* armbot e2e */"; git -C "$REPO" cat-file blob distro:arch/arm/kernel/setup.c; } |
	git -C "$REPO" hash-object -w --stdin)
git -C "$REPO" update-index --cacheinfo "100644,$blob,arch/arm/kernel/setup.c"
change=$(GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t \
	GIT_AUTHOR_DATE=2020-01-01T00:00:00Z GIT_COMMITTER_DATE=2020-01-01T00:00:00Z \
	git -C "$REPO" commit-tree -p distro -m e2e "$(git -C "$REPO" write-tree)")
unset GIT_INDEX_FILE
touch -d '2001-01-01 00:00:00' "$W/Makefile" "$W/arch/arm/kernel/setup.c"
"$ARMBOT" --data-dir "$D" tree checkout distro-6.1 "$change" "$W" > "$TMP/out"
is "$(cat "$TMP/out")" "$W: 1 written, 0 removed, 0 mode changes" "a one-file change rewrites one file"
is "$(head -1 "$W/arch/arm/kernel/setup.c")" "/* armbot e2e */" "with the new content"
is "$(stat -c %Y "$W/Makefile")" "$(date -d '2001-01-01 00:00:00' +%s)" "and leaves the others' mtime alone"
"$ARMBOT" --data-dir "$D" tree checkout distro-6.1 distro "$W" > "$TMP/out"
is "$(cat "$TMP/out")" "$W: 1 written, 0 removed, 0 mode changes" "going back rewrites it again"
is "$(git -C "$REPO" hash-object "$W/arch/arm/kernel/setup.c")" \
	"$(git -C "$REPO" rev-parse distro:arch/arm/kernel/setup.c)" "with the distro content"
done_testing
