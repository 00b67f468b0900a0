#!/bin/sh
# Hostile series through the armbot binary: the kernel's own build runs
# them, in the sandbox.  A Makefile that deletes and writes outside the
# build dir, and a kbuild script (scripts/checksyscalls.sh, run by every
# build's prepare) replaced by one that deletes $HOME: the host is left
# unchanged (canaries intact, no process left) and the report says that
# the series does not compile, with make's error for the series' files
# but nothing the build itself printed (kernel/buildlog.h), and no path
# of armbot's machine.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/sparse-lib.sh"

# canaries outside /tmp (the sandbox has a private /tmp): where a sandbox
# that failed open would really write
CANARY=$ARMBOT_CACHE_DIR/e2e-sparse-canary.$$
HOMEDIR=$ARMBOT_CACHE_DIR/e2e-sparse-home.$$
TOKEN=armbot-hostile-$$
mkdir -p "$CANARY" "$HOMEDIR"
echo canary > "$CANARY/file"
echo precious > "$HOMEDIR/file"
trap 'rm -rf "$TMP" "$CANARY" "$HOMEDIR"' EXIT

# host_unchanged LABEL: the canaries and the process table
host_unchanged() {
	is "$(cat "$CANARY/file" 2>&1)" canary "$1: the canary outside the build dir is untouched"
	is "$(cat "$HOMEDIR/file" 2>&1)" precious "$1: \$HOME is untouched"
	pgrep -f "$TOKEN" > /dev/null
	is $? 1 "$1: no process of the hostile build left"
}

export CANARY TOKEN
# a comment in setup.c: the series touches a .c file, so it is built
touch_c() {
	new_patch arch/arm/kernel/setup.c 's/^(#include "atags.h"\n)/$1\/* touched *\/\n/m' \
		"ARM: setup: a comment"
}

# 1. a Makefile rule, run to build setup.o, that deletes and writes
# outside the build dir
new_patch arch/arm/kernel/Makefile \
	's/\z/\n\$(obj)\/setup.o: $ENV{TOKEN}\nPHONY += $ENV{TOKEN}\n$ENV{TOKEN}:\n\trm -rf $ENV{CANARY} && echo owned > $ENV{CANARY}\/file\n/' \
	"ARM: kernel: a Makefile that writes outside" && touch_c &&
	series_mbox 2 "$TMP/write.mbox" || fail "make the write-outside series"
HOME=$HOMEDIR run_sparse "$TMP/write.mbox"
is "$status" 0 "write outside: exit status 0 (the check ran)"
is "$(sed -n '/^$/{n;p;q}' "$TMP/out")" "the series does not compile:" \
	"write outside: the report says first that the series does not compile"
grep -q '^| make\[[0-9]\]: \*\*\* \[armbot.mk:[0-9]*: armbot-dir/arch/arm/kernel\] Error 2$' "$TMP/out"
ok $? "write outside: make's error for arch/arm/kernel is in the report"
grep -q -e "$TOKEN" -e "$CANARY" -e "$DATA" "$TMP/out"
is $? 1 "write outside: nothing the recipe printed, no path of armbot's"
case $(result_line) in
"fail (the series does not compile): "*) pass "write outside: result fail" ;;
*) fail "write outside: result fail" ;;
esac
host_unchanged "write outside"

# 2. a kbuild script replaced by one that deletes $HOME
new_patch scripts/checksyscalls.sh \
	's/\A(#!\/bin\/sh\n)/$1rm -rf "\$HOME" || { echo $ENV{TOKEN}: cannot delete \\\$HOME; exit 1; }\n/' \
	"scripts: delete \$HOME" && touch_c &&
	series_mbox 2 "$TMP/home.mbox" || fail "make the rm-home series"
HOME=$HOMEDIR run_sparse "$TMP/home.mbox"
is "$status" 0 "rm \$HOME: exit status 0 (the check ran)"
grep -q '^| make: \*\*\* \[Makefile:[0-9]*: __sub-make\] Error 2$' "$TMP/out"
ok $? "rm \$HOME: make's error is in the report"
grep -q -e "$TOKEN" -e "$HOMEDIR" -e "$DATA" "$TMP/out"
is $? 1 "rm \$HOME: nothing the script printed, no path of armbot's"
case $(result_line) in
"fail (the series does not compile): "*) pass "rm \$HOME: result fail" ;;
*) fail "rm \$HOME: result fail" ;;
esac
host_unchanged "rm \$HOME"
done_testing
