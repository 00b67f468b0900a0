#!/bin/sh
# The front program: `armbot` links GLib, zlib and libdeflate only (the start-up cost
# of the daemon's libraries is what made one `armbot dirstat` slower than
# one `git diff --dirstat`), runs dirstat itself and hands every other
# command line (and dirstat's --mbox and --json) to armbot-core beside
# it, unchanged.
. "$(dirname "$0")/../lib/tap.sh"

git_test_env

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

# The hop changes no argument's meaning: both programs parse with the same
# code (bot/cli/cmdline.c) and armbot-core gets the command line armbot was
# given.  Each command line runs through armbot and through armbot-core,
# each in a directory of its own holding the same relative paths (R, a
# repository; M.mbox); stdout, stderr, exit status and the files left
# behind must be the same.
for d in front core; do
	mkdir "$TMP/via-$d"
	ln -s "$TMP/repo" "$TMP/via-$d/R"
	cp "$TMP/series.mbox" "$TMP/via-$d/M.mbox"
done
same() {	# same ARG...: armbot and armbot-core agree
	(cd "$TMP/via-front" && ARMBOT_DATA_DIR=default "$ARMBOT" "$@" \
		> ../front.out 2> ../front.err < /dev/null; echo $? > ../front.status)
	(cd "$TMP/via-core" && ARMBOT_DATA_DIR=default "$core" "$@" \
		> ../core.out 2> ../core.err < /dev/null; echo $? > ../core.status)
	(cd "$TMP/via-front" && find . | sort) > "$TMP/front.files"
	(cd "$TMP/via-core" && find . | sort) > "$TMP/core.files"
	_bad=
	for _f in out err status files; do
		cmp -s "$TMP/front.$_f" "$TMP/core.$_f" || _bad="$_bad $_f"
	done
	ok "${_bad:+1}${_bad:-0}" "armbot and armbot-core agree: $* (exit $(cat "$TMP/core.status"))"
	for _f in $_bad; do
		diff "$TMP/core.$_f" "$TMP/front.$_f" | head -6 | sed "s/^/# $_f: /"
	done
}
# the global options before and after the command, in every spelling
same --data-dir D1 status
same --data-dir=D2 status
same status --data-dir D3
same status --data-dir=D4
same --data-dir D5 status --data-dir=D6
same --data-dir Dé status
[ -d "$TMP/via-front/D1" ] && [ -d "$TMP/via-front/D4" ] &&
	[ -d "$TMP/via-front/D6" ] && [ ! -e "$TMP/via-front/D5" ]
ok $? "... and each data dir is the one given (the last one wins)"
same -C R dirstat --dirstat=lines HEAD~ HEAD
same -CR dirstat --dirstat=lines HEAD~ HEAD
same --repo=R dirstat --dirstat=lines HEAD~ HEAD
same --repo R --data-dir=D7 dirstat --dirstat=lines HEAD~ HEAD
same dirstat -CR --dirstat=lines HEAD~ HEAD
same dirstat --dirstat=lines HEAD~ HEAD --repo=R
same -C nowhere dirstat -C R --dirstat=lines HEAD~ HEAD
same dirstat --data-dir D8 -C R --dirstat HEAD~ HEAD
same -C R patch-id HEAD
same patch-id -CR HEAD
same patch-id HEAD --repo R
# "--", and arguments that look like options after it
same dirstat -C R --dirstat=lines HEAD~ HEAD --
same dirstat -C R --dirstat=lines -- HEAD~ HEAD
same dirstat -C R --dirstat=lines HEAD~ HEAD -- --json
same dirstat -C R --dirstat=lines HEAD~ HEAD -- --mbox M.mbox
same -- dirstat -C R HEAD~ HEAD
same -- dirstat HEAD~ HEAD
same dirstat -C R --verdict --path -- HEAD~ HEAD
same dirstat -C R --verdict --path --mbox HEAD~ HEAD
same mailinfo -- -k msg patch
same series -- --all
# --mbox: armbot-core's, wherever it is given
same dirstat --dirstat=lines --mbox M.mbox
same --data-dir=D9 dirstat --mbox=M.mbox --verdict
same dirstat --verdict --mbox M.mbox -C R
# --json: armbot-core's too, and a value '--json' is no --json option
same dirstat -C R --dirstat=lines --json HEAD~ HEAD
same --data-dir D10 dirstat HEAD~ HEAD --verdict --json -C R
same dirstat -C R --verdict --path --json HEAD~ HEAD
# what is not a command
same --version
same --help
same -h
same --help dirstat
same help dirstat
same dirstat --help
same
same --bogus status
same --data-dir
same --version=2
same dirstat --version
same no-such-command
# errors of dirstat's own
same dirstat -C R --dirstat=bogus HEAD~ HEAD
same dirstat -C R --cumulative=3 HEAD~ HEAD
same dirstat -C R --dirstat no-such-rev HEAD
same dirstat -C no-such-repo HEAD~ HEAD

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
"$TMP/alone/armbot" -C"$TMP/repo" --data-dir "$TMP/data" dirstat \
	HEAD~ HEAD --dirstat=lines > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "... with the global options in any form"
"$TMP/alone/armbot" dirstat -C "$TMP/repo" --verdict --path --mbox HEAD~ HEAD \
	> "$TMP/got"
is "$(cat "$TMP/got")" "This series does not touch --mbox." \
	"... and a value '--mbox' is no --mbox option"

done_testing
