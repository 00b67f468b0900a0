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
. "$(dirname "$0")/../lib/patchid-compare.sh"

xz -dc "$SHARED/$MBOX" > "$TMP/week.mbox"
patchid_compare_stream "the lakml week" "$TMP/week.mbox"
perl "$MUT" 5 2 < "$TMP/week.mbox" > "$TMP/week.mut"
patchid_compare_stream "the lakml week mangled twice over" "$TMP/week.mut"
diag "$patchid_total patch-ids compared with git"
done_testing
