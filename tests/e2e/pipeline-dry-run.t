#!/bin/sh
# [bot] dry-run: the series is checked and its reply composed and kept
# (held, shown by status and the pages) but nothing is sent.
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61
. "$(dirname "$0")/pipeline-lib.sh"

pipeline_setup "apply;dirstat" || skip_all "cannot start postfix"
sed -i 's/^\[bot\]$/[bot]\ndry-run = true/' "$TMP/armbot.conf"
start_bot
post r1 "$ARM61/imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch"
i=0
while [ $i -lt 120 ] && ! "$ARMBOT" --data-dir "$PDATA" status |
	grep -q "^  held  *1$"; do
	sleep 0.5
	i=$((i + 1))
done
"$ARMBOT" --data-dir "$PDATA" status > "$TMP/status"
sed 's/^/# /' "$TMP/status"
grep -q "^  held  *1$" "$TMP/status"; ok $? "the reply is held"
grep -q "^  done  *1$" "$TMP/status"; ok $? "the series was checked"
sleep 6
stop_bot
is "$(count_replies_to r1.1@example.org)" 0 "nothing was sent"
done_testing
