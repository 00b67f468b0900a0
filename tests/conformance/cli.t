#!/bin/sh
# The command line: subcommands, help, version, the data dir option.
. "$(dirname "$0")/../lib/tap.sh"

"$ARMBOT" --version | grep -q '^armbot version ' ; ok $? "--version prints the version"
"$ARMBOT" help > "$TMP/help" ; ok $? "help exits 0"
grep -q '^usage: armbot' "$TMP/help" ; ok $? "help prints the usage"
"$ARMBOT" no-such-command 2> "$TMP/err" ; is "$?" 1 "an unknown command exits 1"
grep -q "'no-such-command' is not an armbot command" "$TMP/err" ; ok $? "and says so"
"$ARMBOT" --bogus 2>/dev/null ; is "$?" 129 "an unknown global option is a usage error"

# The global options (bot/cli/cmdline.c): -C and --data-dir before or after
# the command, in git's spellings; --version and --help before it only.
"$ARMBOT" --data-dir 2>/dev/null ; is "$?" 129 "--data-dir without its value is a usage error"
"$ARMBOT" --version=2 2>/dev/null ; is "$?" 129 "--version takes no value"
"$ARMBOT" -- status 2>/dev/null ; is "$?" 129 "'--' before the command is a usage error, as in git"
"$ARMBOT" dirstat --version 2>/dev/null ; is "$?" 129 "--version after the command is a usage error"
"$ARMBOT" --help dirstat > "$TMP/out" ; ok $? "--help COMMAND exits 0"
"$ARMBOT" help dirstat > "$TMP/want"
is_file "$TMP/want" "$TMP/out" "--help COMMAND is help COMMAND"
grep -q -- '-X, --dirstat=PARAMS' "$TMP/out" ; ok $? "... the command's help"
cd "$TMP" || exit 1
"$ARMBOT" --data-dir a status > /dev/null && "$ARMBOT" status --data-dir=b > /dev/null &&
	"$ARMBOT" --data-dir=c status --data-dir d > /dev/null
ok $? "status with --data-dir before and after the command"
[ -d a ] && [ -d b ] && [ -d d ] && [ ! -e c ]
ok $? "... uses the data dir given, the last one if two"
git_test_env
git init -q r && seq 1 10 > r/f && git -C r add f && git -C r commit -qm one &&
	seq 2 12 > r/f && git -C r commit -qam two
git -C r show HEAD | git patch-id --stable > want
for form in "-C r patch-id HEAD" "-Cr patch-id HEAD" "--repo=r patch-id HEAD" \
	"--repo r patch-id HEAD" "patch-id -C r HEAD" "patch-id HEAD -Cr" \
	"patch-id --repo=r HEAD" "-C nowhere patch-id -C r HEAD"; do
	# shellcheck disable=SC2086
	"$ARMBOT" $form > got 2>&1
	is_file want got "armbot $form: the repository is r"
done
done_testing
