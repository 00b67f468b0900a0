#!/bin/sh
# The front program: `armbot` links GLib, zlib and libdeflate only (the start-up cost
# of the daemon's libraries is what made one `armbot dirstat` slower than
# one `git diff --dirstat`), runs dirstat itself and hands every other
# command line (and dirstat's --mbox and --json) to armbot-core beside
# it, unchanged.
. "$(dirname "$0")/../lib/tap.sh"

export GIT_CONFIG_NOSYSTEM=1 HOME="$TMP" GIT_AUTHOR_NAME=t \
	GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@example.org

# what the dynamic linker loads for armbot (sanitizer runtimes aside)
needed=$(readelf -d "$ARMBOT" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
	grep -v -e '^libasan' -e '^libubsan' | sort | tr '\n' ' ')
is "$needed" "libc.so.6 libdeflate.so.0 libglib-2.0.so.0 libz.so.1 " \
	"armbot links libc, GLib, zlib and libdeflate only"
core="$(dirname "$ARMBOT")/armbot-core"
[ -x "$core" ]
ok $? "armbot-core is beside armbot"
readelf -d "$core" | grep -q 'NEEDED.*libgit2'
ok $? "armbot-core links the daemon's libraries"

# commands go through to armbot-core with their arguments and status
"$ARMBOT" --version > "$TMP/v" 2>&1
ok $? "armbot --version"
grep -q '^armbot version ' "$TMP/v"
ok $? "armbot --version prints the version"
"$ARMBOT" help > "$TMP/help"
grep -q '^   dirstat ' "$TMP/help" && grep -q '^   run ' "$TMP/help"
ok $? "armbot help lists every command"
"$ARMBOT" --data-dir "$TMP/data" status > "$TMP/status" 2>&1
ok $? "a global --data-dir reaches armbot-core"
"$ARMBOT" no-such-command > /dev/null 2>&1
is $? 1 "an unknown command fails as before"
"$ARMBOT" dirstat --no-such-option > /dev/null 2>&1
is $? 129 "a usage error in dirstat exits 129"

# dirstat itself, here and with --data-dir in front
git init -q "$TMP/repo"
mkdir -p "$TMP/repo/a/b" "$TMP/repo/c"
seq 1 100 > "$TMP/repo/a/b/one"
seq 1 50 > "$TMP/repo/c/two"
git -C "$TMP/repo" add . && git -C "$TMP/repo" commit -qm one
seq 1 2 100 > "$TMP/repo/a/b/one"
seq 1 70 > "$TMP/repo/c/two"
git -C "$TMP/repo" commit -qam two
git -C "$TMP/repo" diff --dirstat=lines HEAD~ HEAD > "$TMP/want"
"$ARMBOT" dirstat -C "$TMP/repo" --dirstat=lines HEAD~ HEAD > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "armbot dirstat prints what git prints"
"$ARMBOT" --data-dir="$TMP/data" dirstat -C "$TMP/repo" --dirstat=lines \
	HEAD~..HEAD > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "... after a global --data-dir"

# --mbox reads mail, which armbot-core does
git -C "$TMP/repo" format-patch -q --stdout HEAD~ > "$TMP/series.mbox"
"$ARMBOT" dirstat --dirstat=lines --mbox "$TMP/series.mbox" > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "armbot dirstat --mbox goes through armbot-core"
"$ARMBOT" dirstat --dirstat=lines --mbox="$TMP/series.mbox" > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "... also spelt --mbox=FILE"

# --json is written by json-glib, which armbot-core links and armbot not
"$ARMBOT" dirstat -C "$TMP/repo" --dirstat=lines --json HEAD~ HEAD > "$TMP/got"
grep -q '^{"mode":"lines","signed":false,.*"directories":\[{"path":"a/b/",' "$TMP/got"
ok $? "armbot dirstat --json goes through armbot-core"

# without armbot-core beside it, a clear error
mkdir "$TMP/alone"
cp "$ARMBOT" "$TMP/alone/armbot"
"$TMP/alone/armbot" status > "$TMP/out" 2>&1
is $? 126 "no armbot-core: exit 126"
grep -q "^error: cannot run '$TMP/alone/armbot-core': No such file or directory" "$TMP/out"
ok $? "... and the error names the program it looked for"
"$TMP/alone/armbot" dirstat -C "$TMP/repo" --dirstat=lines HEAD~ HEAD > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "... while dirstat still works"
"$TMP/alone/armbot" dirstat -C "$TMP/repo" --json HEAD~ HEAD > /dev/null 2>&1
is $? 126 "... but not dirstat --json, which needs armbot-core"

done_testing
