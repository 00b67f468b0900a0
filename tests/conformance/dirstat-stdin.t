#!/bin/sh
# armbot dirstat --stdin against git diff-tree --stdin: many ranges in one
# process, the same output (each first revision on a line, then its dirstat).
. "$(dirname "$0")/../lib/tap.sh"
git_test_env

repo="$TMP/repo"
git init -q "$repo"
cd "$repo"
mkdir -p arch/arm/mach-a arch/arm/mach-b drivers/x
seq 1 200 > arch/arm/mach-a/board.c
seq 1 50 > arch/arm/mach-b/board.c
seq 1 80 > drivers/x/x.c
git add -A && git commit -q -m one
seq 1 120 > arch/arm/mach-a/board.c
seq 1 90 > drivers/x/x.c
git add -A && git commit -q -m two
git rm -q -r arch/arm/mach-b
git mv drivers/x/x.c drivers/x/y.c
git commit -q -m three
c1=$(git rev-parse HEAD~2) c2=$(git rev-parse HEAD~1) c3=$(git rev-parse HEAD)
printf '%s %s\n%s %s\n%s %s\n%s %s\n' "$c1" "$c2" "$c2" "$c3" "$c1" "$c3" \
	"$c3" "$c1" > "$TMP/pairs"

for params in changes lines files lines,cumulative,0 changes,10; do
	# diff-tree, unlike diff, needs -M for git diff's default renames
	git diff-tree -M --stdin --dirstat=$params < "$TMP/pairs" > "$TMP/git.out"
	"$ARMBOT" dirstat -C "$repo" --stdin --dirstat=$params < "$TMP/pairs" \
		> "$TMP/armbot.out"
	is_file "$TMP/git.out" "$TMP/armbot.out" "--stdin --dirstat=$params as git diff-tree --stdin"
done
git diff-tree --stdin --no-renames --dirstat=lines < "$TMP/pairs" > "$TMP/git.out"
"$ARMBOT" dirstat -C "$repo" --stdin --no-renames --dirstat=lines < "$TMP/pairs" > "$TMP/armbot.out"
is_file "$TMP/git.out" "$TMP/armbot.out" "--stdin --no-renames as git"

# armbot, as git, reads a stat-clean work tree file instead of its blob:
# an edited one (here of the same size, and then with its old mtime back)
# must not be taken for the blob the index records
mtime=$(stat -c %Y arch/arm/mach-a/board.c)
sed 's/1/9/' arch/arm/mach-a/board.c > "$TMP/edited"
cat "$TMP/edited" > arch/arm/mach-a/board.c
touch -d "@$mtime" arch/arm/mach-a/board.c
for params in changes lines; do
	git diff-tree -M --stdin --dirstat=$params < "$TMP/pairs" > "$TMP/git.out"
	"$ARMBOT" dirstat -C "$repo" --stdin --dirstat=$params < "$TMP/pairs" \
		> "$TMP/armbot.out"
	is_file "$TMP/git.out" "$TMP/armbot.out" "--dirstat=$params with an edited work tree as git"
done
git checkout -q -- arch/arm/mach-a/board.c

echo "$c1" | "$ARMBOT" dirstat -C "$repo" --stdin > /dev/null 2> "$TMP/err"
is "$?" 1 "a line with one revision is an error"
grep -q 'two revisions a line' "$TMP/err"; ok $? "and says so"
"$ARMBOT" dirstat -C "$repo" --stdin "$c1" "$c2" < /dev/null 2> /dev/null
is "$?" 129 "--stdin with revisions is a usage error"
done_testing
