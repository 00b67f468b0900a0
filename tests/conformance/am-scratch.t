#!/bin/sh
# armbot am against real git am on scratch repositories: renames, copies,
# mode changes, binary patches (literal and delta), deletions, new and
# empty files, CRLF content, missing newlines at the end, quoted names,
# hunks at an offset, the 3-way fallback, and the safety refusals.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/am-oracle.sh"

export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.com
export GIT_AUTHOR_DATE="2023-01-02 03:04:05 +0100"
export GIT_COMMITTER_DATE="2023-01-02 03:04:05 +0100"

S=$TMP/scen
git init -q -b main "$S"
(
	cd "$S"
	seq 1 100 > numbers.txt
	printf 'line one\r\nline two\r\nline three\r\n' > crlf.txt
	printf 'no newline at end' > nonl.txt
	printf 'keep me\n' > tobedeleted.txt
	seq 1 50 | sed 's/^/rename me /' > old-name.txt
	seq 1 50 | sed 's/^/copy me /' > source.txt
	printf '#!/bin/sh\necho hi\n' > script.sh
	awk 'BEGIN { srand(1); for (i = 0; i < 3000; i++) printf "%c", int(rand() * 256) }' > blob.bin
	mkdir -p dir/sub; echo nested > dir/sub/file.c
	mkdir -p real; echo inside > real/file.txt; ln -s real linkdir
	git add -A; git commit -qm base
	git checkout -q -b work
	sed -i 's/^50$/fifty/' numbers.txt; git commit -qam "modify middle"
	sed -i '1i zero' numbers.txt; echo 101 >> numbers.txt; git commit -qam "modify at both ends"
	printf 'line one\r\nline 2\r\nline three\r\n' > crlf.txt; git commit -qam "crlf content"
	printf 'no newline at end, changed' > nonl.txt; git commit -qam "no newline changed"
	printf 'no newline at end, changed\nnow with newline\n' > nonl.txt; git commit -qam "newline added"
	printf 'new file\n' > added.txt; git add added.txt; git commit -qm "new file"
	: > empty.txt; git add empty.txt; git commit -qm "new empty file"
	git rm -q tobedeleted.txt; git commit -qm "deletion"
	git mv old-name.txt new-name.txt; sed -i 's/rename me 25/renamed 25/' new-name.txt; git add -A; git commit -qm "rename with edit"
	git mv dir/sub/file.c dir/moved.c; git commit -qm "pure rename"
	cp source.txt copy.txt; sed -i 's/copy me 1$/copied 1/' copy.txt; git add -A; git commit -qm "copy with edit"
	chmod +x script.sh; git commit -qam "mode change"
	chmod -x script.sh; echo 'echo bye' >> script.sh; git commit -qam "mode change with edit"
	awk 'BEGIN { srand(2); for (i = 0; i < 2000; i++) printf "%c", int(rand() * 256) }' > new.bin; git add new.bin; git commit -qm "new binary"
	{ head -c 1000 blob.bin; printf 'X'; tail -c 1999 blob.bin; } > b2 && mv b2 blob.bin; git commit -qam "binary delta"
	awk 'BEGIN { srand(3); for (i = 0; i < 3000; i++) printf "%c", int(rand() * 256) }' > blob.bin; git commit -qam "binary literal"
	git rm -q new.bin; git commit -qm "binary deletion"
	ln -s numbers.txt link; git add link; git commit -qm "symlink inside"
	printf 'a\nb\n' > "name with space.txt"; git add -A; git commit -qm "name with space"
	printf 'x\n' > "uni-é.txt"; git add -A; git commit -qm "quoted name"
	sed -i 's/^10$/ten/; s/^90$/ninety/' numbers.txt; git commit -qam "two hunks"
	git rm -q empty.txt; git commit -qm "delete empty file"
	git format-patch -q --stdout -M -C main..work > "$TMP/series.mbox"
)

# a clone without the series' objects, so binary deltas are really applied
R=$TMP/repo
git clone -q --single-branch -b main "$S" "$R"
git -C "$R" branch offset main
git -C "$R" worktree add -q --detach "$TMP/wt" main

run_case() {	# run_case LABEL BASE MBOX [options]
	_label=$1 _base=$2 _mbox=$3
	shift 3
	git -C "$TMP/wt" checkout -q --detach "$_base"
	am_oracle "$TMP/wt" "$_mbox" "$TMP/oracle.out" "$@"
	"$ARMBOT" am -C "$R" --base "$_base" "$@" "$_mbox" > "$TMP/armbot.out" 2> "$TMP/armbot.err"
	am_compare "$R" "$TMP/oracle.out" "$TMP/armbot.out" "$_label"
}

run_case series main "$TMP/series.mbox"
run_case keep-cr main "$TMP/series.mbox" --keep-cr

# the base moved: three lines inserted at the top, hunks apply at an offset
(
	cd "$TMP/wt" && git checkout -q offset &&
	{ seq 1 3 | sed 's/^/prepended /'; cat numbers.txt; } > n2 && mv n2 numbers.txt &&
	git commit -qam "move base" && git checkout -q --detach
)
run_case offset offset "$TMP/series.mbox"
grep -q '^ok ' "$TMP/armbot.out"; ok $? "offset: patches apply at an offset"

# 3-way: a context line of the first patch changed on the base
git -C "$S" format-patch -q --stdout -1 work~21 > "$TMP/first.mbox"
(
	cd "$TMP/wt" && git checkout -q -b conflict main &&
	sed -i 's/^48$/forty-eight/' numbers.txt && git commit -qam "change context" &&
	git checkout -q --detach
)
run_case plain-fails conflict "$TMP/first.mbox"
run_case 3way conflict "$TMP/first.mbox" --3way
grep -q '^ok ' "$TMP/armbot.out"; ok $? "3way: merged where plain apply fails"

# safety: what git refuses, armbot refuses and names the file
mail() {	# mail SUBJECT: a mail header for a hand-written patch
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: Eve <eve@example.com>\nDate: Mon, 2 Jan 2023 10:00:00 +0000\n'
	printf 'Subject: [PATCH] %s\n\n%s\n---\n' "$1" "$1"
}
{ mail "touch .git"; printf 'diff --git a/.git/hooks/post-commit b/.git/hooks/post-commit\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/post-commit\n@@ -0,0 +1 @@\n+echo owned\n'; } > "$TMP/dotgit.mbox"
{ mail "dot dot"; printf 'diff --git a/../evil b/../evil\nnew file mode 100644\n--- /dev/null\n+++ b/../evil\n@@ -0,0 +1 @@\n+evil\n'; } > "$TMP/dotdot.mbox"
{ mail "absolute"; printf 'diff --git a//tmp/evil b//tmp/evil\nnew file mode 100644\n--- /dev/null\n+++ b//tmp/evil\n@@ -0,0 +1 @@\n+evil\n'; } > "$TMP/absolute.mbox"
{ mail "beyond symlink"; printf 'diff --git a/linkdir/file.txt b/linkdir/file.txt\n--- a/linkdir/file.txt\n+++ b/linkdir/file.txt\n@@ -1 +1 @@\n-inside\n+changed\n'; } > "$TMP/beyond.mbox"
for c in dotgit dotdot absolute beyond; do
	run_case "$c" main "$TMP/$c.mbox"
	grep -q '^fail 1/1' "$TMP/armbot.out"; ok $? "$c: refused"
done

# two links, each harmless read alone, that escape together: L leads to
# the top of the tree, B through L above it (an audit's reproduction;
# before, both were accepted and a checkout's B read /etc/passwd)
H=a/b/c/d/e/f/g/h
link_diff() {	# link_diff PATH TARGET
	printf 'diff --git a/%s b/%s\nnew file mode 120000\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+%s\n\\ No newline at end of file\n' "$1" "$1" "$1" "$2"
}
{ mail "link chain"; link_diff $H/L ../../../../../../../..; link_diff $H/B L/../../../etc/passwd; echo; } > "$TMP/chain.mbox"
"$ARMBOT" am -C "$R" --base main "$TMP/chain.mbox" > "$TMP/out" 2>&1
is "$(cat "$TMP/out")" "fail 1/1 link chain: $H/B: symbolic link '$H/B' leads outside the tree" "a symlink escaping through another in the same patch is refused"
{ mail "link chain reversed"; link_diff $H/B L/../../../etc/passwd; link_diff $H/L ../../../../../../../..; echo; } > "$TMP/chain2.mbox"
"$ARMBOT" am -C "$R" --base main "$TMP/chain2.mbox" > "$TMP/out" 2>&1
is "$(cat "$TMP/out")" "fail 1/1 link chain reversed: $H/B: symbolic link '$H/B' leads outside the tree" "also when the link it goes through comes later"
{
	mail "first link" | sed 's/\[PATCH\]/[PATCH 1\/2]/'; link_diff $H/L ../../../../../../../..; echo
	mail "second link" | sed 's/\[PATCH\]/[PATCH 2\/2]/'; link_diff $H/B L/../../../etc/passwd; echo
} > "$TMP/chain3.mbox"
"$ARMBOT" am -C "$R" --base main "$TMP/chain3.mbox" > "$TMP/out" 2>&1
is "$(sed -n 2p "$TMP/out")" "fail 2/2 second link: $H/B: symbolic link '$H/B' leads outside the tree" "and when it is in the tree of the patch before"
{ mail "link loop"; link_diff $H/L B; link_diff $H/B L; echo; } > "$TMP/loop.mbox"
"$ARMBOT" am -C "$R" --base main "$TMP/loop.mbox" > "$TMP/out" 2>&1
is "$(cat "$TMP/out")" "fail 1/1 link loop: $H/B: symbolic link '$H/B' leads outside the tree" "a symlink loop is refused"

# a refused path fails its patch only; before, ".git " (libgit2 refuses
# it as NTFS's ".git") aborted the whole am with "cannot write tree"
{
	mail "dotgit with a space" | sed 's/\[PATCH\]/[PATCH 1\/2]/'
	printf 'diff --git a/.git /x b/.git /x\nnew file mode 100644\n--- /dev/null\n+++ b/.git /x\n@@ -0,0 +1 @@\n+evil\n\n'
	mail "after it" | sed 's/\[PATCH\]/[PATCH 2\/2]/'
	printf 'diff --git a/after.txt b/after.txt\nnew file mode 100644\n--- /dev/null\n+++ b/after.txt\n@@ -0,0 +1 @@\n+after\n\n'
} > "$TMP/dotgit-space.mbox"
"$ARMBOT" am -C "$R" --base main "$TMP/dotgit-space.mbox" > "$TMP/out" 2> "$TMP/err"
is "$(sed -n 1p "$TMP/out")" "fail 1/2 dotgit with a space: .git /x: unsafe path '.git /x' (absolute, '..', '.git' or empty component)" "refused path fails that patch"
grep -q '^ok [0-9a-f]* after it$' "$TMP/out"; ok $? "the series goes on after a refused path"

# armbot is stricter than git here: symlinks that lead outside the tree
# and submodule entries are refused
(
	cd "$TMP/wt" && git checkout -q -b unsafe main &&
	ln -s ../../../etc/passwd escape && git add escape && git commit -qm "escaping symlink" &&
	git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub && git commit -qm "submodule" &&
	git format-patch -q -o "$TMP/unsafe" main..unsafe && git checkout -q --detach main
)
"$ARMBOT" am -C "$R" --base main "$TMP/unsafe/0001-escaping-symlink.patch" > "$TMP/out" 2>&1
is "$(cat "$TMP/out")" "fail 1/1 escaping symlink: escape: symbolic link 'escape' leads outside the tree" "symlink out of the tree refused"
"$ARMBOT" am -C "$R" --base unsafe~1 "$TMP/unsafe/0002-submodule.patch" > "$TMP/out" 2>&1
is "$(cat "$TMP/out")" "fail 1/1 submodule: sub: patch touches a submodule (gitlink) entry" "submodule entry refused"

# no ref moves without --branch; --branch points a branch at the result
before=$(git -C "$R" for-each-ref | git hash-object --stdin)
"$ARMBOT" am -C "$R" --base main "$TMP/first.mbox" > "$TMP/out"
is "$(git -C "$R" for-each-ref | git hash-object --stdin)" "$before" "no ref moves without --branch"
"$ARMBOT" am -C "$R" --base main --branch applied "$TMP/first.mbox" > "$TMP/out"
is "$(git -C "$R" rev-parse applied)" "$(cut -d' ' -f2 "$TMP/out")" "--branch points at the last commit"
is "$(git -C "$R" log -1 --format='%cn <%ce>' applied)" "armbot <armbot@localhost>" "committer is armbot's identity"
ARMBOT_COMMITTER="Bot <bot@example.org>" "$ARMBOT" am -C "$R" --base main --branch applied2 "$TMP/first.mbox" > /dev/null
is "$(git -C "$R" log -1 --format='%cn <%ce>' applied2)" "Bot <bot@example.org>" "committer from \$ARMBOT_COMMITTER"

# base-commit: used when known, reported with the fallback when not
git -C "$S" format-patch -q --stdout --base=main -1 work~21 > "$TMP/based.mbox"
"$ARMBOT" am -C "$R" "$TMP/based.mbox" > "$TMP/out" 2> "$TMP/err"
is "$(git -C "$R" rev-parse "$(cut -d' ' -f2 "$TMP/out")^")" "$(git -C "$R" rev-parse main)" "base-commit chosen"
sed 's/^base-commit: .*/base-commit: 1234567890123456789012345678901234567890/' "$TMP/based.mbox" > "$TMP/unknown.mbox"
"$ARMBOT" am -C "$R" "$TMP/unknown.mbox" > "$TMP/out" 2> "$TMP/err"
grep -q "base-commit 1234567890123456789012345678901234567890 is not in the tree; applying to HEAD" "$TMP/err"
ok $? "unknown base-commit reported with the fallback"

diag "accepted=$AM_ACCEPTED identical=$AM_IDENTICAL rejected=$AM_REJECTED mismatch=$AM_MISMATCH"
done_testing
