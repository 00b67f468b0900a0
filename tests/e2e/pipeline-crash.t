#!/bin/sh
# Crash safety: while 5 series are processed (apply, sparse, build, boot
# and the runtime-PM suite, replies through a real Postfix), armbot run is
# killed with SIGKILL at 10 points: after a batch of mail is stored, when
# applying, in sparse, at boot, when the reply is made, and between the
# SMTP server's acceptance of a reply and the commit that records it.  It
# is restarted each time.  In the end every series has exactly one reply
# on the list and every message is in the store.
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61
. "$(dirname "$0")/pipeline-lib.sh"

pipeline_setup "apply;dirstat;sparse;boot;rpm" || skip_all "cannot start postfix"
post c1 "$ARM61/imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch"
post c2 "$ARM61/mvebu-6.1/20-pcie-bridge-emul.patch"
post c3 "$ARM61/imx6-6.1/0007-ARM-dts-imx6q-evi-Fix-onboard-hub-reset-line.patch"
post c4 "$ARM61/bcm2711-6.1/0001-Make-proc-cpuinfo-consistent-on-arm64-and-arm.patch"
post c5 "$ARM61/mvebu-6.1/412-ARM-dts-armada388-clearfog-emmc-on-clearfog-base.patch"

# each point is NAME:N, the Nth arrival at NAME in that process; the
# order makes every point reachable: series 1 is killed in apply, sparse
# and boot, its reply between DATA and the commit, series 3 in apply,
# series 4 when its reply is made, and so on.  A series the bot died on
# 3 times is normally given up: not here.
RUN_OPTIONS="--max-attempts 20"
for point in ingest:1 apply:1 sparse:1 boot:1 sent:1 apply:2 report:2 \
	sent:1 boot:1 sent:1; do
	start_bot ARMBOT_CRASHPOINT=$point
	if wait_bot_exit 300; then
		grep -q "crashpoint $point: killing armbot" "$TMP/run.log"
		ok $? "killed at $point"
	else
		# nothing left to do that reaches this point
		stop_bot
		ok 1 "killed at $point (not reached: the work was done)"
	fi
done

start_bot
for i in 1 2 3 4 5; do
	wait_replies "c$i.1@example.org" 1 600
done
# the last reply in doubt is settled by its echo from the list
i=0
while [ $i -lt 60 ] && ! "$ARMBOT" --data-dir "$PDATA" status |
	grep -q "^  sent  *5$"; do
	sleep 0.5
	i=$((i + 1))
done
stop_bot
for i in 1 2 3 4 5; do
	is "$(count_replies_to c$i.1@example.org)" 1 "series c$i: exactly one reply"
done
"$ARMBOT" --data-dir "$PDATA" series --json > "$TMP/series.json"
for i in 1 2 3 4 5; do
	grep -q "\"c$i.1@example.org\"" "$TMP/series.json"
	ok $? "series c$i is in the store"
done
"$ARMBOT" --data-dir "$PDATA" status > "$TMP/status"
sed 's/^/# /' "$TMP/status"
grep -q "^  sent  *5$" "$TMP/status"; ok $? "five replies sent, none in doubt"
grep -q "^  done  *5$" "$TMP/status"; ok $? "five jobs done"
grep -c "crashpoint" "$TMP/run.log" | sed 's/^/# crashes: /'
done_testing
