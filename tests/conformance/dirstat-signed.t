#!/bin/sh
# The signed dirstat and the verdict on hand-checked changes made with real
# git.  Expected figures are worked out in the comments.
. "$(dirname "$0")/../lib/tap.sh"

git_test_env

new_repo() {
	rm -rf "$TMP/r" && git init -q "$TMP/r" && cd "$TMP/r" || exit 1
}
commit() { git add -A && git commit -q --allow-empty -m "$1"; }
lines() { seq -f "$1 line %g of a file" "$2" "$3"; }
ds() { "$ARMBOT" dirstat -C "$TMP/r" "$@"; }

# 1. The RFC's drivers/md case: 7 files, 103 insertions and 137 deletions,
# next to a new 50-line file.  Per file |net|: 137 + 103 + 50 = 290.
# drivers/md/ nets -34: -34 * 1000 / 290 = -117 permille; the new file
# +50 is 172 permille.  Linus' RFC divided by the net total (16): 212%.
new_repo
mkdir -p drivers/md Documentation/input
lines md 1 200 > drivers/md/a.c
for f in b c d e f g; do lines "$f" 1 20 > drivers/md/$f.c; done
commit base
lines md 1 63 > drivers/md/a.c
for f in b c d e f; do lines "$f" 1 37 > drivers/md/$f.c; done
lines g 1 38 > drivers/md/g.c
lines doc 1 50 > Documentation/input/new.txt
commit change
is "$(git diff --shortstat HEAD~ HEAD -- drivers/md)" \
	" 7 files changed, 103 insertions(+), 137 deletions(-)" \
	"drivers/md: 103 insertions, 137 deletions"
ds --signed --dirstat=lines HEAD~ HEAD > "$TMP/got"
printf '  17.2%% Documentation/input/\n -11.7%% drivers/md/\n' > "$TMP/want"
is_file "$TMP/want" "$TMP/got" "signed lines: drivers/md/ printed negative"
ds --dirstat=lines HEAD~ HEAD > "$TMP/got"
git diff --dirstat=lines HEAD~ HEAD > "$TMP/want"
is_file "$TMP/want" "$TMP/got" "unsigned lines: as git, removal counts as damage"
grep -q '82.7% drivers/md/' "$TMP/got"; ok $? "unsigned: drivers/md/ at 82.7%"
ds --signed --dirstat=files HEAD~ HEAD > "$TMP/got"
# files: a.c -1, b..g +1 each (6), new.txt +1: total 8, md +5 = 625
printf '  12.5%% Documentation/input/\n  62.5%% drivers/md/\n' > "$TMP/want"
is_file "$TMP/want" "$TMP/got" "signed files: sign of each file's net lines"
ds --signed --json --dirstat=lines HEAD~ HEAD > "$TMP/got"
grep -q '"path":"drivers/md/","value":-34,"permille":-117,"percent":"-11.7"' \
	"$TMP/got"; ok $? "json carries the signed value"
grep -q '"total":290' "$TMP/got"; ok $? "json total is the sum of |net|"

# 2. Balanced: every file trades lines of equal length, so every net is
# zero in lines and in changes (bytes) mode: no percentages, no division.
new_repo
mkdir a b
lines aa 1 10 > a/x; lines bb 1 10 > b/y
commit base
lines AA 1 10 > a/x; lines BB 1 10 > b/y
commit swap
want="balanced: in every file the additions and removals cancel out"
is "$(ds --signed --dirstat=lines HEAD~ HEAD)" "$want" "balanced lines: the message"
is "$(ds --signed HEAD~ HEAD)" "$want" "balanced changes: the message"
is "$(ds --dirstat=lines HEAD~ HEAD)" "$(git diff --dirstat=lines HEAD~ HEAD)" \
	"unsigned: git's figures for the same change"
ds --signed --dirstat=lines --json HEAD~ HEAD | grep -q '"balanced":true'
ok $? "json says balanced"
# nets that cancel within a directory only: d/ sums to 0 and is not
# printed, e/ is 5 of 25
new_repo
mkdir d e
lines q 1 10 > d/q
commit base
lines p 1 10 > d/p; rm d/q; lines r 1 5 > e/r
commit cancel
is "$(ds --signed --dirstat=lines,0 --no-renames HEAD~ HEAD)" "  20.0% e/" \
	"a directory whose nets cancel is not printed"

# 3. A pure deletion is -100.0% in every mode.
new_repo
mkdir -p gone keep
lines g 1 30 > gone/a; lines h 1 12 > gone/b; echo keep > keep/k
commit base
git rm -q -r gone
commit remove
for mode in changes lines files; do
	is "$(ds --signed --dirstat=$mode HEAD~ HEAD)" "-100.0% gone/" \
		"pure deletion, $mode: -100.0%"
done
is "$(ds --verdict --path gone HEAD~ HEAD)" \
	"This series shrinks gone by 42 lines (+0 -42)." "verdict of the deletion"

# 4. Nested cumulative sums: mach-a -30, mach-b +10, kernel -20 of a total
# of 60; arch/arm/ is -40 (-66.6%), arch/ adds nothing of its own.
new_repo
mkdir -p arch/arm/mach-a arch/arm/mach-b arch/arm/kernel
lines a 1 40 > arch/arm/mach-a/x.c; lines b 1 5 > arch/arm/mach-b/y.c
lines k 1 30 > arch/arm/kernel/z.c
commit base
lines a 1 10 > arch/arm/mach-a/x.c; lines b 1 15 > arch/arm/mach-b/y.c
lines k 1 10 > arch/arm/kernel/z.c
commit change
printf ' -33.3%% arch/arm/kernel/\n -50.0%% arch/arm/mach-a/\n  16.6%% arch/arm/mach-b/\n -66.6%% arch/arm/\n' > "$TMP/want"
ds --signed --dirstat=lines,cumulative HEAD~ HEAD > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "signed cumulative: parents sum their children"
printf ' -33.3%% arch/arm/kernel/\n -50.0%% arch/arm/mach-a/\n  16.6%% arch/arm/mach-b/\n' > "$TMP/want"
ds --signed --dirstat=lines HEAD~ HEAD > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "signed noncumulative: printed children leave the parent"
ds --verdict HEAD~ HEAD > "$TMP/got"
cat > "$TMP/want" <<'EOT'
This series shrinks arch/arm by 40 lines (+10 -50).
  -30 (+0 -30) arch/arm/mach-a/
  +10 (+10 -0) arch/arm/mach-b/
EOT
is_file "$TMP/want" "$TMP/got" "verdict: mach-* sorted by |net|, kernel/ not listed"
ds --verdict --json HEAD~ HEAD > "$TMP/got"
grep -q '"verdict":"shrinks","files":3,"added":10,"removed":50,"net":-40' "$TMP/got"
ok $? "verdict json"
is "$(ds --verdict --path drivers HEAD~ HEAD)" "This series does not touch drivers." \
	"verdict: untouched path"
is "$(ds --verdict --path arch/arm/mach-b/ HEAD~ HEAD)" \
	"This series grows arch/arm/mach-b by 10 lines (+10 -0)." "verdict: grows"

# 5. The same from the patches as mailed, even when they do not apply.
git format-patch -q -1 HEAD -o "$TMP/mails"
ds --verdict --mbox "$TMP/mails"/0001-*.patch > "$TMP/got"
ds --verdict HEAD~ HEAD > "$TMP/want"
is_file "$TMP/want" "$TMP/got" "verdict from the mail equals the commit's"
git -C "$TMP/r" diff --dirstat=lines,0 HEAD~ HEAD > "$TMP/want"
ds --mbox "$TMP/mails"/0001-*.patch --dirstat=lines,0 > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "lines dirstat from the mail equals git's"
git -C "$TMP/r" reset -q --hard HEAD~
lines other 1 3 > arch/arm/kernel/z.c
commit conflicting
ds --signed --dirstat=lines --mbox "$TMP/mails"/0001-*.patch > "$TMP/got"
printf ' -33.3%% arch/arm/kernel/\n -50.0%% arch/arm/mach-a/\n  16.6%% arch/arm/mach-b/\n' > "$TMP/want"
is_file "$TMP/want" "$TMP/got" "a mail that no longer applies still has its dirstat"
done_testing
