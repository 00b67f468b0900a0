#!/bin/sh
# A known base that the series no longer applies to is the series' own
# problem: a real patch (the arm61 corpus' dwc2 remote wakeup, which does
# not apply to 6.1's f_hid.c) mailed with a base-commit: that the distro
# tree has gets exactly one reply on the list, with the failing hunk,
# tested at that base-commit; the same patch without base-commit: (its
# blob ids are not in the tree either) is not tested and not mailed.
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61
. "$(dirname "$0")/pipeline-lib.sh"

pipeline_setup "apply;dirstat" || skip_all "cannot start postfix"
BASE=$("$ARMBOT" --data-dir "$DATA" tree show | sed -n 's/^commit //p')
PATCH=$ARM61/bcm2711-6.1/1003-remote-wakeup.patch
# the corpus file is a bare diff: give it the head of a mail
mail_of() {	# mail_of SUBJECT [BASE]
	printf 'Subject: [PATCH] %s\n\nAdd remote wakeup to the dwc2 gadget.\n\nSigned-off-by: Jane Doe <jane@example.org>\n---\n' "$1"
	cat "$PATCH"
	[ -z "${2:-}" ] || printf -- '\nbase-commit: %s\n' "$2"
}
mail_of "usb: dwc2: remote wakeup" "$BASE" > "$TMP/with-base.patch"
mail_of "usb: dwc2: add remote wakeup" > "$TMP/without-base.patch"
start_bot
post kb "$TMP/with-base.patch"
post ub "$TMP/without-base.patch"
wait_replies kb.1@example.org 1 180
ok $? "a reply to the series with a known base"
wait_log "series 2: done" 60
grep -q "series 2: done.*no reply" "$TMP/run.log"
ok $? "the series with an unknown base is done without a reply"
grep -q "series 2: done.*no reply" "$TMP/run.log" || sed 's/^/# /' "$TMP/run.log"
sleep 5
stop_bot
is "$(count_replies_to kb.1@example.org)" 1 "exactly one reply"
is "$(count_replies_to ub.1@example.org)" 0 "no reply when the base is unknown"
r=$(replies_to kb.1@example.org | head -1)
[ -n "$r" ] && tr '\n' ' ' < "$r" | grep -q "at $(echo "$BASE" | cut -c1-12), the series' base-commit"
ok $? "tested at the series' base-commit"
grep -q "^  apply  *FAIL" "$r"; ok $? "apply FAIL"
grep -q "^| @@ -" "$r"; ok $? "the failing hunk is quoted"
grep -q "drivers/usb/gadget/function/f_hid.c" "$r"; ok $? "the file that fails is named"
grep -q "drivers/usb/gadget/function/f_hid.c" "$r" || sed -n '/^Hi/,$p' "$r" | sed 's/^/# /' | head -60
"$ARMBOT" --data-dir "$PDATA" series --json > "$TMP/series.json"
python3 -c '
import json, sys
for s in json.load(open(sys.argv[1])):
	print(s["state"])' "$TMP/series.json" | sort > "$TMP/states"
is "$(tr '\n' ' ' < "$TMP/states")" "not-tested reported " "states: one reported, one not tested"
done_testing
