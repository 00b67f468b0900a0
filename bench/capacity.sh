#!/bin/sh
# bench/capacity.sh: the capacity model (bench/capacity.py) of armbot
# spread over build nodes and LAVA devices, on the real week of
# linux-arm-kernel traffic and on a generated 20-list, 2,000-series-a-day
# load, with the service times of bench/capacity-times (each with its
# source).  CAPACITY_MEASURE=1 first runs bench/am.sh and bench/sparse.sh
# and uses what they measure for apply_patch and sparse_warm.
# The peer it compares with: one machine as today (1 node, 1 device) on
# each load; a measured run of a week of traffic is not feasible here, so
# the output says what the model's numbers mean instead.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
MBOX=${CAPACITY_MBOX:-/work/shared/corpora/lakml/lakml-2020-06-14.mbox.xz}
[ -f "$MBOX" ] || MBOX=$TOP/../shared/corpora/lakml/lakml-2020-06-14.mbox.xz
[ -f "$MBOX" ] || { echo "capacity: no lakml corpus (CAPACITY_MBOX)"; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench-capacity.XXXXXX")
trap 'rm -rf "$W"' EXIT
cp "$TOP/bench/capacity-times" "$W/times"

if [ "${CAPACITY_MEASURE:-0}" = 1 ]; then
	sh "$TOP/bench/am.sh" > "$W/am.out"
	# "armbot am:  0.248 s" of "am: 33 patches ..."
	n=$(sed -n 's/^am: \([0-9]*\) patches.*/\1/p' "$W/am.out")
	t=$(sed -n 's/^ *armbot am: *\([0-9.]*\) s.*/\1/p' "$W/am.out")
	echo "apply_patch = $(echo "$t / $n" | bc -l)	# bench/am.sh now: $n patches in $t s" >> "$W/times"
	sh "$TOP/bench/sparse.sh" > "$W/sparse.out"
	t=$(sed -n 's/^armbot sparse: *\([0-9.]*\) s.*/\1/p' "$W/sparse.out")
	echo "sparse_warm = $t	# bench/sparse.sh now: armbot sparse of a 5-file series, warm" >> "$W/times"
fi

python3 "$TOP/bench/capacity.py" --times "$W/times" --mbox "$MBOX"
cat <<'END'

What the numbers mean: each row is a simulated week.  "build q" is the
time-average number of series waiting for a build node (apply, sparse,
build), "build max" the most at once; "boot q"/"boot max" the same for
LAVA devices (boot and KUnit).  p50/p95: time from a series' last patch
to its reply.  "one machine" is today: one host builds and boots each
series in a row; the ratio printed is its p95 against the smallest grid
point whose p95 stays near the no-queue p95.  The model is not checked
against a measured week-long run (not feasible on this machine); its
core is checked against queueing theory by tests/conformance/capacity.t.
END
