#!/bin/sh
# `armbot patch-id` on a real week of linux-arm-kernel (1,871 messages:
# patches, replies quoting them, pull requests, bots), read as one stream
# the way `git patch-id` reads a mailbox, in every mode; then the same
# mailbox mangled by patchid-mutate.pl.  Byte for byte as git.
. "$(dirname "$0")/../lib/tap.sh"

MBOX=corpora/lakml/lakml-2020-06-14.mbox.xz
need_corpus "$MBOX"
command -v git >/dev/null || skip_all "git not installed"
export HOME="$TMP" GIT_CONFIG_NOSYSTEM=1
MUT="$(dirname "$0")/patchid-mutate.pl"
total=0

compare_stream() {	# compare_stream LABEL FILE
	for _m in --stable --unstable --verbatim; do
		git patch-id $_m < "$2" > "$TMP/want"
		"$ARMBOT" patch-id $_m < "$2" > "$TMP/got" 2> "$TMP/err"
		_n=$(wc -l < "$TMP/want")
		total=$((total + _n))
		is_file "$TMP/want" "$TMP/got" "$1 $_m: $_n ids as git"
	done
}

xz -dc "$SHARED/$MBOX" > "$TMP/week.mbox"
compare_stream "the lakml week" "$TMP/week.mbox"
perl "$MUT" 5 2 < "$TMP/week.mbox" > "$TMP/week.mut"
compare_stream "the lakml week mangled twice over" "$TMP/week.mut"
diag "$total patch-ids compared with git"
done_testing
