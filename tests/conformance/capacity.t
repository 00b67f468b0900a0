#!/bin/sh
# The capacity model's simulator core (bench/capacity.py) against
# queueing theory: deterministic arrivals (D/D/1, D/D/2, a burst, where
# each wait is known exactly), M/D/1 waits and queue lengths against the
# Pollaczek-Khinchine formula and Little's law, M/M/2 against Erlang C,
# and a tandem of two stages.  The TAP comes from --self-test.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 "$TOP/bench/capacity.py" --self-test
