#!/bin/sh
# armbot am --tree on the real distro tree: Debian's linux-source-6.1
# imported into the data dir tests/e2e/tree-import.t keeps under
# $ARMBOT_CACHE_DIR (so the import happens once for both), and patches
# applied to it in its own repository.  A patch made with git from a file
# of the tree itself must give back the commit it was made from (tree,
# author, date, message: what git am reproduces of a format-patch); a real
# patch of the arm61 corpus must give what git am gives on the extraction.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/am-oracle.sh"

TARBALL=/usr/src/linux-source-6.1.tar.xz
[ -r "$TARBALL" ] || skip_all "$TARBALL not installed (make deps)"
command -v flock > /dev/null || skip_all "flock not available"

D="$ARMBOT_CACHE_DIR/e2e-tree/data"
REPO="$D/trees/distro-6.1/repo.git"
mkdir -p "$ARMBOT_CACHE_DIR/e2e-tree"
export ARMBOT_COMMITTER="armbot e2e <armbot@example.com>"

# opening the default tree imports it on first use
"$ARMBOT" --data-dir "$D" tree show > "$TMP/show" 2> "$TMP/err"
ok $? "the distro tree is imported or opened" || sed 's/^/# /' "$TMP/err"
head=$(git -C "$REPO" rev-parse distro)
root=$(sed -n 's/^root //p' "$TMP/show")

# a commit changing one file of the tree, made with git plumbing in a
# scratch repository borrowing the tree's objects, and mailed with
# git format-patch
G="$TMP/gen.git"
git init -q --bare "$G"
echo "$REPO/objects" > "$G/objects/info/alternates"
F=arch/arm/kernel/setup.c
export GIT_INDEX_FILE="$TMP/index"
git --git-dir="$G" read-tree "$head"
blob=$(git --git-dir="$G" cat-file blob "$head:$F" |
	sed '100a\
/* armbot e2e: am --tree */' | git --git-dir="$G" hash-object -w --stdin)
git --git-dir="$G" update-index --cacheinfo "100644,$blob,$F"
change=$(GIT_AUTHOR_NAME='Jöran Tëster' GIT_AUTHOR_EMAIL=joran@example.com \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t \
	GIT_AUTHOR_DATE='2023-05-06 07:08:09 +0200' \
	GIT_COMMITTER_DATE='2023-05-06 07:08:09 +0200' \
	git --git-dir="$G" commit-tree -p "$head" \
		-m "ARM: setup: mark the e2e test" \
		-m "A one-line change made from the tree itself." \
		"$(git --git-dir="$G" write-tree)")
unset GIT_INDEX_FILE
git --git-dir="$G" format-patch -q -1 --stdout "$change" > "$TMP/self.mbox"

"$ARMBOT" --data-dir "$D" am --tree distro-6.1 --branch e2e-am-tree \
	"$TMP/self.mbox" > "$TMP/out" 2> "$TMP/err"
ok $? "armbot am --tree distro-6.1 applies the patch" || sed 's/^/# /' "$TMP/err"
commit=$(sed -n 's/^ok \([0-9a-f]*\) .*/\1/p' "$TMP/out")
is "$(git -C "$REPO" rev-parse "$commit^")" "$head" "on top of the tree's head"
am_commit_facts "$G" "$change" > "$TMP/facts.git"
am_commit_facts "$REPO" "$commit" > "$TMP/facts.armbot"
is_file "$TMP/facts.git" "$TMP/facts.armbot" \
	"it gives back the commit's tree, author, date and message"
is "$(git -C "$REPO" rev-parse refs/heads/e2e-am-tree)" "$commit" \
	"--branch points the branch of the tree's repository at it"
is "$(git -C "$REPO" rev-parse distro)" "$head" "the tree's own branch does not move"

"$ARMBOT" --data-dir "$D" am "$TMP/self.mbox" > "$TMP/out2" 2> "$TMP/err"
ok $? "without -C or --tree armbot am applies to the distro tree" ||
	sed 's/^/# /' "$TMP/err"
is "$(git -C "$REPO" rev-parse "$(cut -d' ' -f2 "$TMP/out2")^{tree}")" \
	"$(git --git-dir="$G" rev-parse "$change^{tree}")" "with the same result"
"$ARMBOT" --data-dir "$D" am --tree no-such-tree "$TMP/self.mbox" > /dev/null 2> "$TMP/err"
is "$?:$(grep -c '^error: ' "$TMP/err")" "1:1" "an unknown tree is an error"
"$ARMBOT" --data-dir "$D" am --tree distro-6.1 -C "$G" "$TMP/self.mbox" > /dev/null 2>&1
is $? 129 "--tree and -C are exclusive (a usage error)"

# a real patch of the corpus against git am on the extraction (the oracle
# repository tests/e2e/am-distro.t uses)
P=imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch
if [ -r "$SHARED/corpora/arm61/$P" ]; then
	O=$ARMBOT_CACHE_DIR/distro-git
	if am_distro_git "$O" "$TARBALL"; then
		is "$(git -C "$O" rev-parse distro^{tree})" "$root" \
			"the oracle's extraction has the imported tree"
		rm -rf "$(git -C "$O" rev-parse --absolute-git-dir)/rebase-apply"
		git -C "$O" checkout -q -f --detach distro &&
		git -C "$O" clean -q -f -d -x -e .armbot-complete
		am_oracle "$O" "$SHARED/corpora/arm61/$P" "$TMP/oracle.out"
		git -C "$O" checkout -q -f distro
		is "$(cut -c1-3 "$TMP/oracle.out")" "ok " "git am applies $P"
		"$ARMBOT" --data-dir "$D" am --tree distro-6.1 \
			"$SHARED/corpora/arm61/$P" > "$TMP/out" 2> "$TMP/err"
		ok $? "armbot am --tree applies $P" || sed 's/^/# /' "$TMP/err"
		am_commit_facts "$O" "$(sed -n 's/^ok //p' "$TMP/oracle.out")" > "$TMP/facts.git"
		am_commit_facts "$REPO" "$(cut -d' ' -f2 "$TMP/out")" > "$TMP/facts.armbot"
		is_file "$TMP/facts.git" "$TMP/facts.armbot" \
			"same tree, author, date and message as git am on the extraction"
	else
		fail "the distro oracle repository"
	fi
else
	skip "corpus corpora/arm61 not present (../shared)"
fi
done_testing
