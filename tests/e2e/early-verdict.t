#!/bin/sh
# A list's early-verdict (issue 24): the arch/arm verdict of a series is on
# its page and in /api/series/ID, marked provisional, as soon as the series
# applied and its dirstat is known, while the build and boot still run; the
# reply waits for every check and is sent once, after which the verdict is
# no longer provisional.  The boot is held back by the worktree's lock,
# which the test takes as another `armbot boot` of the tree would.  A second
# series posted meanwhile waits in the queue behind the first, and its
# verdict is on the web while it waits (bot/daemon/ahead.h).
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61
. "$(dirname "$0")/pipeline-lib.sh"
PYTHON3=/usr/bin/python3
command -v flock > /dev/null 2>&1 || skip_all "needs flock (util-linux)"
command -v curl > /dev/null 2>&1 || skip_all "needs curl"

pipeline_setup "apply;dirstat;boot;rpm" || skip_all "cannot start postfix"
cat >> "$TMP/armbot.conf" <<CONF
[list $LIST]
early-verdict = true
CONF
LOCK=$PDATA/worktrees/distro-6.1.lock
flock "$LOCK" sh -c "touch '$TMP/held'; while [ ! -e '$TMP/release' ]; do sleep 0.2; done" &
holder=$!
i=0
while [ ! -e "$TMP/held" ] && [ $i -lt 600 ]; do
	sleep 0.5
	i=$((i + 1))
done
release() {
	touch "$TMP/release"
	wait $holder 2> /dev/null
}
trap 'release; pipeline_cleanup; smtp_server_cleanup; rm -rf "$TMP"' EXIT
[ -e "$TMP/held" ] || skip_all "cannot take the worktree's lock"

start_bot
i=0
while [ $i -lt 100 ] && ! grep -q " web pages at " "$TMP/run.log" 2> /dev/null; do
	sleep 0.1
	i=$((i + 1))
done
url=$(sed -n 's/.* web pages at //p' "$TMP/run.log" | tail -1)
post e1 --cover 'ARM: dts: imx6qdl: enable the usb node children' \
	"$ARM61/imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch"

# job FIELD [SERIES]: the field of the series' job in /api/series/SERIES
# (1 by default; "" if none)
job() {
	curl -s -f -m 10 "$url/api/series/${2:-1}" 2> /dev/null |
		"$PYTHON3" -c '
import json, sys
try:
    jobs = json.load(sys.stdin)["jobs"]
except Exception:
    sys.exit(0)
v = jobs[0].get(sys.argv[1]) if jobs else None
print("" if v is None else json.dumps(v) if isinstance(v, bool) else v)
' "$1"
}

# wait_verdict SERIES: until its job has a verdict (5 minutes at most)
wait_verdict() {
	i=0
	while [ -z "$(job verdict "$1")" ] && [ $i -lt 600 ]; do
		sleep 0.5
		i=$((i + 1))
	done
}
# wait_done SERIES: until its job is done (30 s at most)
wait_done() {
	i=0
	while [ "$(job state "$1")" != done ] && [ $i -lt 60 ]; do
		sleep 0.5
		i=$((i + 1))
	done
}

wait_verdict 1
early=$(job verdict)
ok "$([ -n "$early" ] && echo 0 || echo 1)" "the verdict is in /api/series/1 while the boot waits"
diag "early verdict: $early"
is "$(job state)" running "the job is still running"
is "$(job verdict_provisional)" true "the verdict is marked provisional"
grep -q "series 1: done in" "$TMP/run.log"
ok $((!$?)) "the checks have not ended (the boot waits for the worktree)"
curl -s -f -m 10 "$url/series/1" > "$TMP/page.html"
grep -q "provisional: checks running" "$TMP/page.html"
ok $? "the series page says the verdict is provisional"
grep -q -F "$early" "$TMP/page.html"
ok $? "the series page shows the verdict"
is "$(count_replies_to e1.0@example.org)" 0 "no reply before the checks end"

# the second series waits behind the first: its verdict comes ahead
post e2 --cover 'ARM: dts: imx6q-evi: fix the onboard hub reset line' \
	"$ARM61/imx6-6.1/0007-ARM-dts-imx6q-evi-Fix-onboard-hub-reset-line.patch"
wait_verdict 2
early2=$(job verdict 2)
ok "$([ -n "$early2" ] && echo 0 || echo 1)" "the queued series' verdict is in /api/series/2"
diag "early verdict of the queued series: $early2"
is "$(job state 2)" queued "its job still waits in the queue"
is "$(job state)" running "the first series' job still runs"
is "$(job verdict_provisional 2)" true "the queued series' verdict is provisional"
ok "$([ -n "$(job head_commit 2)" ] && echo 0 || echo 1)" "its head commit is known"
curl -s -f -m 10 "$url/series/2" > "$TMP/page2.html"
grep -q "provisional: checks queued" "$TMP/page2.html"
ok $? "its page says the checks are queued"
grep -q "series 2: verdict on the web, checks queued" "$TMP/run.log"
ok $? "the log says the verdict came ahead of the checks"

release
wait_replies e1.0@example.org 1 900
ok $? "the reply arrives once the boot ran"
wait_done 1
is "$(job state)" done "the job is done"
is "$(job verdict_provisional)" false "the verdict is no longer provisional"
is "$(job verdict)" "$early" "the final verdict is the early one"
curl -s -f -m 10 "$url/series/1" > "$TMP/page.html"
grep -q "provisional: checks running" "$TMP/page.html"
ok $((!$?)) "the page no longer says provisional"
sleep 5
is "$(count_replies_to e1.0@example.org)" 1 "the reply is sent once"
is "$(grep -c 'series 1: verdict on the web, checks running' "$TMP/run.log")" 1 \
	"the early verdict is written once"
wait_replies e2.0@example.org 1 900
ok $? "the queued series is replied to once its checks ran"
wait_done 2
is "$(job verdict_provisional 2)" false "its verdict is final"
is "$(job verdict 2)" "$early2" "the final verdict is the one taken ahead"
is "$(grep -c 'series 2: verdict on the web, checks queued' "$TMP/run.log")" 1 \
	"the verdict ahead is taken once"
is "$(grep -c 'series 2: verdict on the web, checks running' "$TMP/run.log")" 1 \
	"and again, as the first, when its own checks apply it"
sleep 2
is "$(count_replies_to e2.0@example.org)" 1 "the queued series' reply is sent once"
# both series are on the distro tree's commit: the second does not build
# and boot that base again (qemu/bootcache.h).  The first may have read it
# back too: DATA/boot is the tests' shared one (boot-lib.sh), kept across
# tests and runs
log1=$PDATA/logs/series-1/distro-6.1
log2=$PDATA/logs/series-2/distro-6.1
grep -q "nothing was built now" "$log1/build-base.log" &&
	diag "the first series read its base's boot back too (kept by an earlier test)"
grep -q "nothing was built now" "$log2/build-base.log"
ok $? "the second series read its base's boot back, nothing built" ||
	sed 's/^/# /' "$log2/build-base.log"
grep -q "armbot-init: done" "$log2/console-base.log"
ok $? "the base's console it reports is the kept one"
reply2=$(replies_to e2.0@example.org | head -1)
grep -q "^  runtime-PM  *ok .*passed" "$reply2"
ok $? "its runtime-PM line compares with the kept base"
stop_bot
done_testing
