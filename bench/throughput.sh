#!/bin/sh
# Throughput of the whole bot (issue 24): a week of linux-arm-kernel
# through `armbot run` with every check on (apply, dirstat, sparse, build,
# boot, runtime-PM suite) on the distro tree (Debian's linux-source-6.1),
# replies held (dry run: nothing is sent).  Two modes:
#
# MODE=replay (the default): the real week's arrival pattern with series
#   that apply.  bench/throughput-replay.py takes each series of the week
#   in ../shared/corpora/lakml (its last patch's time and its patch count,
#   grouped as bench/capacity.py does; all on linux-arm-kernel), and mails
#   it with that many real ARM patches for 6.1 from ../shared/corpora/arm61
#   that apply to the tree (patches of one series touch disjoint files),
#   at its time in the week compressed into SPAN seconds (default LIMIT;
#   the factor is printed).  Every replayed series applies, and is built,
#   sparse-checked and booted.  Prints the series checked per hour, the
#   p50/p95 reply time from the series' last mail (delivered into the
#   list's maildir) to its check done (jobs.finished), the queue wait and
#   check time in it, the mean time of each stage (stage_times) and how
#   many applied, built, booted and passed the suite.
# MODE=week: the week's 1,871 messages as they are, delivered at once.
#   The week's series were written against v5.8-rc1: only 2 of 178 apply
#   to 6.1, the rest are "not tested" without sparse, build or boot
#   (bot/daemon/pipeline.c): this measures the bot on real traffic
#   (parsing, series assembly, apply), not full checks.  Reply time there
#   is queue wait plus the worker's "done in".
#
# Both stop after LIMIT seconds (default 1800; 0: until all is checked,
# which on 2 cores takes hours in replay mode) and report over the series
# finished by then; the 1-minute load average is sampled every 10 s.  The
# build dirs, worktrees and sparse base cache are bench/e2e.sh's (linked),
# so run that first for warm figures.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
SHARED=${SHARED:-$TOP/../shared}
WEEK=${WEEK:-$SHARED/corpora/lakml/lakml-2020-06-14.mbox.xz}
POOL=${POOL:-$SHARED/corpora/arm61}
MODE=${MODE:-replay}
LIMIT=${LIMIT:-1800}
SPAN=${SPAN:-$LIMIT}
LIST=linux-arm-kernel@lists.infradead.org
[ -e "$WEEK" ] || { echo "no corpus $WEEK"; exit 1; }
[ "$MODE" = week ] || [ -d "$POOL" ] || { echo "no corpus $POOL"; exit 1; }
[ "$MODE" = week ] || [ "$MODE" = replay ] || { echo "MODE is replay or week"; exit 1; }
[ "$MODE" = week ] || [ "$SPAN" -gt 0 ] || { echo "replay needs SPAN > 0"; exit 1; }
[ -x "$ARMBOT" ] || { echo "build armbot first (make)"; exit 1; }
CACHE=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
WARM=$CACHE/bench-e2e/data
TMP=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench-throughput.XXXXXX")
BOT_PID=
FEED_PID=
trap '[ -z "$FEED_PID" ] || kill -TERM $FEED_PID 2>/dev/null
[ -z "$BOT_PID" ] || { kill -TERM $BOT_PID; wait $BOT_PID; } 2>/dev/null
rm -rf "$TMP"' EXIT

DATA=$TMP/data
mkdir -p "$DATA" "$WARM"
"$ARMBOT" --data-dir "$WARM" tree show > /dev/null
for d in trees worktrees kbuild boot sparse-base; do
	mkdir -p "$WARM/$d"
	ln -s "$WARM/$d" "$DATA/$d"
done
LISTDIR=$TMP/list
mkdir -p "$LISTDIR/new" "$LISTDIR/cur" "$LISTDIR/tmp"
if [ "$MODE" = week ]; then
	# the week, one message a file, as the list delivered it
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
else
	python3 "$TOP/bench/throughput-replay.py" plan --week "$WEEK" \
		--pool "$POOL" --git-dir "$WARM/trees/distro-6.1/repo.git" \
		--span "$SPAN" > "$TMP/plan"
	n=$(wc -l < "$TMP/plan")
fi
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
if [ "$MODE" = replay ]; then
	python3 "$TOP/bench/throughput-replay.py" deliver --plan "$TMP/plan" \
		--maildir "$LISTDIR" --list "$LIST" \
		--make-series "$TOP/tests/lib/make-series.pl" \
		> "$TMP/delivered" 2> "$TMP/deliver.log" &
	FEED_PID=$!
fi
# until everything is delivered and the queue is empty, or LIMIT
: > "$TMP/load"
while :; do
	sleep 10
	cut -d' ' -f1 /proc/loadavg >> "$TMP/load"
	now=$(date +%s)
	[ "$LIMIT" = 0 ] || [ $((now - start)) -lt "$LIMIT" ] || break
	[ -z "$FEED_PID" ] || ! kill -0 $FEED_PID 2>/dev/null || continue
	queued=$(sqlite3 "$DATA/store.sqlite" \
		"SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')" \
		2> /dev/null || echo 1)
	jobs=$(sqlite3 "$DATA/store.sqlite" "SELECT count(*) FROM jobs" \
		2> /dev/null || echo 0)
	[ "$queued" != 0 ] || [ "$jobs" = 0 ] || break
done
elapsed=$(($(date +%s) - start))
[ -z "$FEED_PID" ] || kill -TERM $FEED_PID 2>/dev/null || :
FEED_PID=
kill -TERM $BOT_PID 2>/dev/null
wait $BOT_PID 2>/dev/null || :
BOT_PID=
q() { sqlite3 -separator ' ' "$DATA/store.sqlite" "$@"; }
series=$(q "SELECT count(*) FROM series")
left=$(q "SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')")
awk '{ s += $1; if ($1 > m) m = $1 } END {
	printf "load average (1 min, every 10 s): mean %.1f, max %.1f\n", s / NR, m }' \
	"$TMP/load"
if [ "$MODE" = week ]; then
	tested=$(q "SELECT count(*) FROM jobs j
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
	exit 0
fi
[ ! -s "$TMP/deliver.log" ] || sed 's/^/deliver: /' "$TMP/deliver.log"
delivered=$(wc -l < "$TMP/delivered")
# per series checked: its tag (from its mails' Message-IDs), when its
# check was done, its queue wait
q "SELECT (SELECT substr(min(m.message_id), 1, 4) FROM series_members m
		WHERE m.series_id = j.series_id),
	j.finished, coalesce((SELECT t.seconds FROM stage_times t
		WHERE t.job_id = j.id AND t.stage = 'queue'), 0)
	FROM jobs j WHERE j.state = 'done'" | sort > "$TMP/finished"
sort "$TMP/delivered" | join - "$TMP/finished" |
	awk '{ print $4 - $2, $5, $4 - $2 - $5 }' | sort -n > "$TMP/times"
done=$(wc -l < "$TMP/times")
echo "replay: $n series planned, $delivered delivered in $elapsed s; $series assembled, $done checked, $left still queued"
for c in apply build boot runtime-PM sparse; do
	q "SELECT '$c', count(*), sum(status = 'ok'), sum(status = 'warn'),
		sum(status NOT IN ('ok', 'warn'))
		FROM checks c JOIN jobs j ON j.id = c.job_id
		WHERE j.state = 'done' AND c.name = '$c'"
done | awk '{ printf "  %-10s %s of them: %s ok, %s warn, %s other\n", $1, $2, $3, $4, $5 }'
q "SELECT c.name, c.status, c.summary FROM checks c JOIN jobs j ON j.id = c.job_id
	WHERE j.state = 'done' AND c.status NOT IN ('ok', 'warn')
	AND c.name IN ('apply', 'build', 'boot', 'runtime-PM', 'sparse')" |
	sed 's/[0-9][0-9]*/N/g' | sort | uniq -c | sed 's/^/    not ok: /'
[ "$done" -gt 0 ] || exit 0
# pct COLUMN P: the P-th percentile of a column of $TMP/times
pct() {
	cut -d' ' -f"$1" "$TMP/times" | sort -n |
		awk -v p="$2" '{ t[NR] = $1 } END { printf "%.0f", t[int((NR - 1) * p) + 1] }'
}
printf 'series checked per hour: %.0f; reply time (last mail to check done) p50 %s s, p95 %s s, max %s s\n' \
	"$(echo "$done * 3600 / $elapsed" | bc -l)" "$(pct 1 0.5)" "$(pct 1 0.95)" "$(pct 1 1)"
printf '  of it queue wait p50 %s s, p95 %s s; checks p50 %s s, p95 %s s\n' \
	"$(pct 2 0.5)" "$(pct 2 0.95)" "$(pct 3 0.5)" "$(pct 3 0.95)"
echo "mean time per stage (s), over the series checked:"
q "SELECT t.stage, count(*), avg(t.seconds) FROM stage_times t
	JOIN jobs j ON j.id = t.job_id WHERE j.state = 'done'
	GROUP BY t.stage ORDER BY min(t.position)" |
	awk '{ printf "  %-12s %6.1f  (%d series)\n", $1, $3, $2 }'
q "SELECT avg(j.finished - j.started) FROM jobs j WHERE j.state = 'done'" |
	awk '{ printf "  %-12s %6.1f  (started to done, stages beside each other)\n", "check", $1 }'
