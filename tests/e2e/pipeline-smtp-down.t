#!/bin/sh
# SMTP down for a while: the reply to a series checked while Postfix is
# stopped waits in the outbox (pending, with the error) and is delivered
# exactly once after Postfix is back; and the per-list cap (1 reply per
# hour here) holds a second series' reply back.
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61
. "$(dirname "$0")/pipeline-lib.sh"

pipeline_setup "apply;dirstat" || skip_all "cannot start postfix"
echo "list-cap = 1" >> "$TMP/armbot.conf"
smtp_server_stop
start_bot
post d1 "$ARM61/imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch"
wait_log "again in" 60
grep -q "outbox: <armbot-.*>: .*; again in 30 s" "$TMP/run.log"
ok $? "with the server down the reply waits, to be tried again in 30 s"
"$ARMBOT" --data-dir "$PDATA" status > "$TMP/status"
grep -q "^  pending  *1$" "$TMP/status"; ok $? "status: one reply pending"
grep -q "^recent errors:" "$TMP/status"; ok $? "status shows the error"
sed 's/^/# /' "$TMP/status"
is "$(count_replies_to d1.1@example.org)" 0 "nothing delivered yet"

smtp_server_start
wait_replies d1.1@example.org 1 120
ok $? "delivered once the server is back"
sleep 2
is "$(count_replies_to d1.1@example.org)" 1 "exactly once"

# the cap: one reply per list per hour
post d2 "$ARM61/imx6-6.1/0007-ARM-dts-imx6q-evi-Fix-onboard-hub-reset-line.patch"
wait_log "has had its replies for this hour" 60
grep -q "arm@lists.test has had its replies for this hour" "$TMP/run.log"
ok $? "a second reply to the list within the hour waits (list-cap = 1)"
is "$(count_replies_to d2.1@example.org)" 0 "and is not sent"
stop_bot
done_testing
