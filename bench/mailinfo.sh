#!/bin/sh
# Throughput of armbot mailinfo against git mailinfo on one real week of
# linux-arm-kernel (1,871 mails).  git the way git am uses it: git mailsplit
# once, then one git mailinfo process per mail.  armbot: one process for the
# whole mbox (--each), reading, splitting and parsing every mail and
# writing the same files.  Prints mails per second for both and the ratio.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
MBOX=${MBOX:-$TOP/../shared/corpora/lakml/lakml-2020-06-14.mbox.xz}
[ -e "$MBOX" ] || { echo "bench/mailinfo.sh: $MBOX not present, skipped"; exit 0; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

xz -dc "$MBOX" > "$TMP/week.mbox"
now() { date +%s.%N; }

# git: split once, then mailinfo per mail
t0=$(now)
mkdir "$TMP/split"
n=$(git mailsplit --mboxrd -o"$TMP/split" "$TMP/week.mbox")
for f in "$TMP"/split/*; do
	d="$TMP/git/${f##*/}"; mkdir -p "$d"
	git -C "$d" mailinfo msg patch < "$f" > "$d/info" 2> /dev/null
done
t1=$(now)

# armbot: the mbox in one process
"$ARMBOT" mailinfo --each --mboxrd "$TMP/week.mbox" "$TMP/armbot" > /dev/null
t2=$(now)
# and the parser alone, writing nothing
"$ARMBOT" mailinfo --each --mboxrd "$TMP/week.mbox" - > /dev/null
t3=$(now)
cmp -s "$TMP/git/0001/msg" "$TMP/armbot/0001/msg" ||
	echo "warning: outputs differ on the first mail" >&2

awk -v n="$n" -v g="$(echo "$t1 - $t0" | bc)" -v a="$(echo "$t2 - $t1" | bc)" \
	-v p="$(echo "$t3 - $t2" | bc)" 'BEGIN {
	printf "mails: %d\n", n
	printf "git mailsplit + git mailinfo per mail: %7.3f s %8.0f mails/s\n", g, n / g
	printf "armbot mailinfo --each, files written: %7.3f s %8.0f mails/s\n", a, n / a
	printf "armbot mailinfo --each, parse only:    %7.3f s %8.0f mails/s\n", p, n / p
	printf "ratio armbot/git (files written): %.1fx\n", g / a
	printf "ratio armbot/git (parse only):    %.1fx\n", g / p
}'
