#!/bin/sh
# The LAVA lab unreachable with lava-fallback = none: a series whose boot
# the lab cannot run is not reported (not as the kernel's failure, not at
# all), is not given up after --max-attempts, and waits, tried again after
# --lab-retry seconds, doubled each time; when the lab is back (here: the
# tree boots locally again) it is replied to exactly once, across a restart
# of armbot.  Nothing listens on the lab's port, as when a lab is down; the
# recovery with a real LAVA instance is tests/e2e/lava.t's.
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61
. "$(dirname "$0")/pipeline-lib.sh"

pipeline_setup "apply;dirstat;boot;rpm" || skip_all "cannot start postfix"
PORT=$(perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen => 1,
	LocalAddr => "127.0.0.1", LocalPort => 0)->sockport, "\n"')
echo "not-a-token-$$" > "$TMP/token"
chmod 600 "$TMP/token"
mkdir -p "$TMP/trees.d"
cat > "$TMP/trees.d/distro-6.1.conf" <<CONF
[tree]
boot-runner = lava
lava-url = http://127.0.0.1:$PORT/
lava-token-file = $TMP/token
lava-fallback = none
lava-retries = 1
CONF
echo "trees-dir = $TMP/trees.d" > "$TMP/bot-extra"
sed -i "/^\[bot\]\$/r $TMP/bot-extra" "$TMP/armbot.conf"

RUN_OPTIONS="--lab-retry 2 --max-attempts 2"
start_bot
post ld1 "$ARM61/imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch"
# each pass builds (warm) and asks the lab twice (lava-retries = 1)
i=0
while [ $i -lt 1800 ] && [ "$(grep -c 'tried again in' "$TMP/run.log")" -lt 3 ]; do
	sleep 0.5
	i=$((i + 1))
done
grep 'tried again in' "$TMP/run.log" | sed 's/^/# /'
[ "$(grep -c 'tried again in' "$TMP/run.log")" -ge 3 ]
ok $? "the series waits for the lab, three times (more than --max-attempts)"
grep 'tried again in' "$TMP/run.log" | sed -n 's/.*tried again in \([0-9]*\) s.*/\1/p' | head -3 | tr '\n' ' ' > "$TMP/delays"
is "$(cat "$TMP/delays")" "2 4 8 " "the waits double: 2, 4, 8 s"
grep -q "infrastructure\|LAVA\|Couldn't connect" "$TMP/run.log"
ok $? "the daemon's log says the lab failed"
grep -q "giving up" "$TMP/run.log"; is "$?" 1 "never given up"
is "$(count_replies_to ld1.1@example.org)" 0 "no reply while the lab is down"
sqlite3 "$PDATA/store.sqlite" "SELECT state, attempts, deferrals FROM jobs" > "$TMP/job" 2>&1
sed 's/^/# job: /' "$TMP/job"
grep -q '^\(queued\|running\)|[01]|[3-9]' "$TMP/job"
ok $? "the job is queued, its attempts not counted"
is "$(sqlite3 "$PDATA/store.sqlite" "SELECT state FROM series" 2>&1)" checking \
	"the series is still being checked, not failed"
stop_bot

# the lab is back: here the tree boots locally again
cat > "$TMP/trees.d/distro-6.1.conf" <<CONF
[tree]
boot-runner = local
CONF
start_bot
wait_replies ld1.1@example.org 1 600
ok $? "after a restart, with the lab back, the series is replied to"
sleep 3
is "$(count_replies_to ld1.1@example.org)" 1 "exactly once"
reply=$(replies_to ld1.1@example.org | head -1)
[ -n "$reply" ] && sed -n '/^$/,$p' "$reply" > "$TMP/body"
grep -q "^  boot  *ok " "$TMP/body"; ok $? "its boot is ok"
grep -q "LAVA\|127.0.0.1" "$TMP/body"; is "$?" 1 "the reply does not mention the lab's failure"
stop_bot
done_testing
