#!/bin/sh
# The command line: subcommands, help, version, the data dir option.
. "$(dirname "$0")/../lib/tap.sh"

"$ARMBOT" --version | grep -q '^armbot version ' ; ok $? "--version prints the version"
"$ARMBOT" help > "$TMP/help" ; ok $? "help exits 0"
grep -q '^usage: armbot' "$TMP/help" ; ok $? "help prints the usage"
"$ARMBOT" no-such-command 2> "$TMP/err" ; is "$?" 1 "an unknown command exits 1"
grep -q "'no-such-command' is not an armbot command" "$TMP/err" ; ok $? "and says so"
"$ARMBOT" --bogus 2>/dev/null ; is "$?" 129 "an unknown global option is a usage error"
done_testing
