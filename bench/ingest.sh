#!/bin/sh
# Ingest and assemble one real week of linux-arm-kernel (1,871 messages)
# into an empty store: messages per second and the assembly time.  Goal:
# the whole week in under 2 s.
#
# The peer, when installed, is Debian's b4 (apt-get install b4; not in
# DEBIAN_PACKAGES, benchmarks are not part of make check): `b4 am -m MBOX
# MSGID` assembles one thread from a local mbox.  b4 does one thread per
# run, so it is timed on the first $B4_SERIES series armbot found (default
# 20) and its time for the whole week is extrapolated from that.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
WEEK=${WEEK:-$TOP/../shared/corpora/lakml/lakml-2020-06-14.mbox.xz}
B4_SERIES=${B4_SERIES:-20}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

[ -e "$WEEK" ] || { echo "no corpus $WEEK"; exit 0; }
xz -dc "$WEEK" > "$TMP/week.mbox"
n=$(grep -c '^From ' "$TMP/week.mbox")

now() { date +%s.%N; }
t0=$(now)
"$ARMBOT" --data-dir "$TMP/data" ingest "$TMP/week.mbox" > "$TMP/out"
t1=$(now)
# assembly alone: a second run finds every message stored and only
# re-assembles
"$ARMBOT" --data-dir "$TMP/data" ingest "$TMP/week.mbox" > /dev/null
t2=$(now)
"$ARMBOT" --data-dir "$TMP/data" series --all --json > "$TMP/series.json"
nseries=$(grep -c '"id":' "$TMP/series.json")
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$n" -v s="$nseries" 'BEGIN {
	printf "armbot: %d messages, %d series in %.3f s (%.0f messages/s); re-ingest + assembly %.3f s\n",
		n, s, b - a, n / (b - a), c - b }'
armbot_total=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

if ! command -v b4 > /dev/null; then
	echo "b4: not installed (apt-get install b4) - no peer time"
	exit 0
fi
perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>);
	print(($_->{cover} // $_->{patches}[0]), "\n") for @$j' \
	< "$TMP/series.json" | head -n "$B4_SERIES" > "$TMP/ids"
k=$(wc -l < "$TMP/ids")
t3=$(now)
while read -r id; do
	b4 -q am -m "$TMP/week.mbox" -o "$TMP/b4" "$id" > /dev/null 2>&1 || true
done < "$TMP/ids"
t4=$(now)
awk -v a="$t3" -v b="$t4" -v k="$k" -v s="$nseries" -v ours="$armbot_total" 'BEGIN {
	per = (b - a) / k
	printf "b4 am -m: %d series in %.3f s (%.3f s each); whole week ~%.1f s\n", k, b - a, per, per * s
	printf "ratio (b4 week estimate / armbot week): %.0fx\n", per * s / ours }'
