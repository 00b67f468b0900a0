#!/bin/sh
# armbot boot's command line and what it decides before building anything:
# unknown trees and revisions, a series that does not apply (on a small
# git tree made here).
. "$(dirname "$0")/../lib/tap.sh"

"$ARMBOT" help boot > "$TMP/help"; ok $? "help boot"
grep -q -- '--tree=NAME' "$TMP/help"; ok $? "lists --tree"
grep -q -- '--rev=REV' "$TMP/help"; ok $? "lists --rev"
grep -q -- '--source' "$TMP/help" && fail "still lists --source" || pass "no --source"
"$ARMBOT" --data-dir "$TMP/data" boot a.mbox b.mbox 2> "$TMP/err"
is "$?" 129 "two mailboxes are a usage error"
"$ARMBOT" --data-dir "$TMP/data" boot --tree nosuch > "$TMP/out" 2> "$TMP/err"
is "$?" 2 "an unknown tree is an error (exit 2)"
grep -qx "error: no such tree 'nosuch'" "$TMP/err"; ok $? "naming the tree"

# a tiny tree, fetched from a local repository
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
git init -q -b main "$TMP/up"
echo "int x;" > "$TMP/up/f.c"
git -C "$TMP/up" add f.c && git -C "$TMP/up" commit -qm init
"$ARMBOT" --data-dir "$TMP/data" tree add small "$TMP/up" --branch main > /dev/null
ok $? "tree add small"
"$ARMBOT" --data-dir "$TMP/data" boot --tree small --rev no-such-rev \
	> "$TMP/out" 2> "$TMP/err"
is "$?" 2 "an unknown revision is an error (exit 2)"
grep -q "no-such-rev" "$TMP/err"; ok $? "naming it"

# a series whose patch does not apply: reported, exit 1, nothing built
cat > "$TMP/bad.mbox" <<'END'
From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001
From: Test <test@example.org>
Date: Mon, 1 Jan 2024 00:00:00 +0000
Subject: [PATCH] f: change a line that is not there

---
--- a/f.c
+++ b/f.c
@@ -1 +1 @@
-int y;
+int z;
-- 
2.39.5
END
"$ARMBOT" --data-dir "$TMP/data" boot --tree small "$TMP/bad.mbox" \
	> "$TMP/out" 2> "$TMP/err"
is "$?" 1 "a series that does not apply is a regression (exit 1)"
grep -q '^series does not apply:$' "$TMP/out"; ok $? "reported as such"
grep -q '^| 1/1 f: change a line that is not there: ' "$TMP/out"; ok $? "naming the patch"
[ ! -e "$TMP/data/kbuild/small/rpm-virt/.config" ]; ok $? "nothing was built"
done_testing
