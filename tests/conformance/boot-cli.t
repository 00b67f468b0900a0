#!/bin/sh
# armbot boot's command line, without building anything.
. "$(dirname "$0")/../lib/tap.sh"

"$ARMBOT" --data-dir "$TMP/data" boot 2> "$TMP/err"
is "$?" 129 "boot without --source is a usage error"
grep -q '^error: boot needs --source DIR$' "$TMP/err"; ok $? "and says so"
"$ARMBOT" --data-dir "$TMP/data" boot --source "$TMP/no-such-tree" \
	> "$TMP/out" 2> "$TMP/err"
is "$?" 2 "a missing tree is an error (exit 2)"
grep -qx "error: kernel tree '$TMP/no-such-tree' not found" "$TMP/err"
ok $? "naming the tree"
"$ARMBOT" help boot > "$TMP/help"; ok $? "help boot"
grep -q -- '--patch=FILE' "$TMP/help"; ok $? "lists --patch"
done_testing
