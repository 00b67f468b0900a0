# TAP helpers for armbot's shell tests (conformance and end-to-end).
# Source it, then call plan/ok/is/skip..., and done_testing at the end.
#
# $ARMBOT is the binary under test (set by `make check`; defaults to the
# release build in the project root).  $SHARED is ../shared, absent in a
# fresh clone elsewhere: tests needing a corpus call need_corpus first.

set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
SHARED=${SHARED:-$TOP/../shared}
ARMBOT_CACHE_DIR=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
export ARMBOT_CACHE_DIR
_tap_n=0
_tap_failed=0
_tap_planned=

# A scratch directory removed at exit; tests keep their files in it.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/armbot-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

plan() { _tap_planned=$1; echo "1..$1"; }

# skip_all REASON: the whole file is skipped (a missing corpus, say).
skip_all() { echo "1..0 # SKIP $*"; exit 0; }

ok() {	# ok STATUS DESCRIPTION: STATUS 0 passes
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		_tap_failed=$((_tap_failed + 1))
		echo "not ok $_tap_n - $2"
	fi
}

pass() { ok 0 "$1"; }
fail() { ok 1 "$1"; }

# is_file EXPECTED ACTUAL DESCRIPTION: byte-for-byte, a diff on failure
is_file() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$1" "$2" 2>&1 | head -40 | sed 's/^/# /'
	fi
}

# is GOT EXPECTED DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "#   got:      '$1'"
		echo "#   expected: '$2'"
	fi
}

skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $*"; }

diag() { echo "# $*"; }

# git_test_env [DATE]: the git a test runs reads no configuration but the
# test's own (HOME is $TMP) and commits as t <t@example.org>, authored and
# committed at DATE when given ('2023-01-01 00:00').
git_test_env() {
	export GIT_CONFIG_NOSYSTEM=1 HOME="$TMP" GIT_AUTHOR_NAME=t \
		GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
		GIT_COMMITTER_EMAIL=t@example.org
	if [ $# -gt 0 ]; then
		export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"
	fi
}

need_corpus() {	# need_corpus PATH-UNDER-SHARED
	[ -e "$SHARED/$1" ] || skip_all "corpus $1 not present (../shared)"
}

done_testing() {
	[ -n "$_tap_planned" ] || echo "1..$_tap_n"
	[ "$_tap_failed" -eq 0 ]
}
