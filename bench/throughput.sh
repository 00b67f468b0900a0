#!/bin/sh
# Throughput of the whole bot (issue 24): the real week of linux-arm-kernel
# (../shared/corpora/lakml, 1,871 messages of 14-20 June 2020) delivered at
# once into the list maildir that `armbot run` watches, with every check on
# (apply, dirstat, sparse, build, boot, runtime-PM suite), replies held
# (dry run: nothing is sent).  Prints the series checked per hour and the
# p50/p95 reply time (queued to reply composed: the worker's "done in" plus
# its queue wait), over the series the daemon finished within LIMIT seconds
# (default 1800): on 2 cores the whole week does not fit in a bench run, so
# this is a sample, the first series of the week in the order the worker
# takes them.  LIMIT=0 runs until every series is checked.
#
# The tree: the distro tree (Debian's linux-source-6.1).  The week's series
# were written against v5.8-rc1 and its trees: most do not apply to 6.1, and
# a series whose base is unknown and that does not apply is "not tested"
# without sparse, build or boot (bot/daemon/pipeline.c), so the figures mix
# quick not-tested series with fully checked ones; the script prints how
# many of each.  The build dirs, worktrees and sparse base cache are
# bench/e2e.sh's (linked), so run that first for warm figures.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
WEEK=${WEEK:-$TOP/../shared/corpora/lakml/lakml-2020-06-14.mbox.xz}
LIMIT=${LIMIT:-1800}
[ -e "$WEEK" ] || { echo "no corpus $WEEK"; exit 1; }
[ -x "$ARMBOT" ] || { echo "build armbot first (make)"; exit 1; }
CACHE=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
WARM=$CACHE/bench-e2e/data
TMP=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench-throughput.XXXXXX")
BOT_PID=
trap '[ -z "$BOT_PID" ] || { kill -TERM $BOT_PID; wait $BOT_PID; } 2>/dev/null; rm -rf "$TMP"' EXIT

DATA=$TMP/data
mkdir -p "$DATA" "$WARM"
"$ARMBOT" --data-dir "$WARM" tree show > /dev/null
for d in trees worktrees kbuild boot sparse-base; do
	mkdir -p "$WARM/$d"
	ln -s "$WARM/$d" "$DATA/$d"
done
# the week, one message a file, as the list delivered it
LISTDIR=$TMP/list
mkdir -p "$LISTDIR/new" "$LISTDIR/cur" "$LISTDIR/tmp"
xz -dc "$WEEK" | perl -e '
	my ($dir) = @ARGV; my ($n, $fh) = (0);
	while (<STDIN>) {
		if (/^From / && (!$fh || $prev eq "\n")) {
			close $fh if $fh;
			open $fh, ">", sprintf("%s/tmp/%05d", $dir, ++$n) or die;
			$prev = ""; next;
		}
		s/^>(>*From )/$1/;
		print $fh $_; $prev = $_;
	}
	close $fh if $fh;
	rename "$dir/tmp/$_", "$dir/new/$_" for map { sprintf "%05d", $_ } 1 .. $n;
' "$LISTDIR"
n=$(ls "$LISTDIR/new" | wc -l)
cat > "$TMP/armbot.conf" <<CONF
[bot]
address = armbot@example.org
dry-run = true
[sources]
urls = maildir:$LISTDIR
[web]
port = 0
[defaults]
checks = apply;dirstat;sparse;boot;rpm
CONF
start=$(date +%s)
"$ARMBOT" --data-dir "$DATA" run --allow-root --config "$TMP/armbot.conf" \
	> "$TMP/run.log" 2>&1 &
BOT_PID=$!
# until the queue is empty (no job queued or running) or LIMIT
while :; do
	sleep 10
	now=$(date +%s)
	[ "$LIMIT" = 0 ] || [ $((now - start)) -lt "$LIMIT" ] || break
	queued=$(sqlite3 "$DATA/store.sqlite" \
		"SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')" \
		2> /dev/null || echo 1)
	jobs=$(sqlite3 "$DATA/store.sqlite" "SELECT count(*) FROM jobs" \
		2> /dev/null || echo 0)
	[ "$queued" != 0 ] || [ "$jobs" = 0 ] || break
done
elapsed=$(($(date +%s) - start))
kill -TERM $BOT_PID 2>/dev/null
wait $BOT_PID 2>/dev/null || :
BOT_PID=
series=$(sqlite3 "$DATA/store.sqlite" "SELECT count(*) FROM series")
left=$(sqlite3 "$DATA/store.sqlite" \
	"SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')")
tested=$(sqlite3 "$DATA/store.sqlite" "SELECT count(*) FROM jobs j
	JOIN checks c ON c.job_id = j.id AND c.name = 'boot'
	WHERE j.state = 'done' AND c.status != 'skipped'")
# reply time per series: the queue wait plus the checks ("done in")
sed -n 's/.*series [0-9]*: done in \([0-9.]*\) s, .*(queue \([0-9.]*\) s.*/\1 \2/p' \
	"$TMP/run.log" | awk '{ print $1 + $2 }' | sort -n > "$TMP/times"
done=$(wc -l < "$TMP/times")
echo "week: $n messages, $series series; $done checked in $elapsed s, $left still queued"
echo "      $tested of them built and booted, the others not tested (no base in the tree) or not applying"
[ "$done" -gt 0 ] || exit 0
awk -v e="$elapsed" '{ t[NR] = $1 } END {
	p50 = t[int((NR - 1) * 0.50) + 1]; p95 = t[int((NR - 1) * 0.95) + 1]
	printf "series checked per hour: %.0f; reply time p50 %.1f s, p95 %.1f s, max %.1f s\n",
		NR * 3600 / e, p50, p95, t[NR] }' "$TMP/times"
