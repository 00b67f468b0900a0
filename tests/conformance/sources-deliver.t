#!/bin/sh
# armbot deliver, as an MTA pipe runs it: sysexits(3) exit codes.  0 once
# stored (also for a message that cannot be parsed: it is kept aside, not
# bounced), 75 (EX_TEMPFAIL) when the store cannot take it now, so that
# the MTA keeps the message and retries; the same message twice is stored
# once.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/mails.sh"

command -v sqlite3 >/dev/null || skip_all "sqlite3 missing (make deps)"
mk_series "$TMP" s 2

"$ARMBOT" --data-dir "$TMP/d" deliver < "$TMP/s-1"
is "$?" 0 "a message: exit 0"
{ echo "From tester@armbot.test Mon Jun 15 10:00:00 2020"; cat "$TMP/s-2"; } |
	"$ARMBOT" --data-dir "$TMP/d" deliver
is "$?" 0 "a message after an mbox From_ line (postfix pipe flag F): exit 0"
sed 's/$/\r/' "$TMP/s-0" | "$ARMBOT" --data-dir "$TMP/d" deliver
is "$?" 0 "a message with CRLF line endings: exit 0"
is "$(stored_series "$TMP/d" | cut -d'|' -f1-3)" "ready|2|2" \
	"the three make a ready series"
"$ARMBOT" --data-dir "$TMP/d" deliver < "$TMP/s-1"
is "$?" 0 "the same message again: exit 0"
is "$(sqlite3 "$TMP/d/store.sqlite" 'select count(*) from messages')" 3 \
	"stored once"
sqlite3 "$TMP/d/store.sqlite" "select hex(raw) from messages where message_id = 's-0@armbot.test'" |
	grep -q 0D
is "$?" 1 "CRLF stored as LF, as ingest FILE does"

printf 'not a mail at all\n' | "$ARMBOT" --data-dir "$TMP/d" deliver 2> "$TMP/err"
is "$?" 0 "an unparseable message: exit 0, not a bounce"
is "$(sqlite3 "$TMP/d/store.sqlite" 'select count(*) from rejects')" 1 \
	"it is kept aside"
"$ARMBOT" --data-dir "$TMP/d" deliver < /dev/null 2> "$TMP/err"
is "$?" 0 "empty input: exit 0, kept aside too"

touch "$TMP/file"
"$ARMBOT" --data-dir "$TMP/file/sub" deliver < "$TMP/s-1" 2> "$TMP/err"
is "$?" 75 "data dir cannot be made: EX_TEMPFAIL (75)"
mkdir -p "$TMP/bad/store.sqlite"
"$ARMBOT" --data-dir "$TMP/bad" deliver < "$TMP/s-1" 2> "$TMP/err"
is "$?" 75 "store cannot be opened: EX_TEMPFAIL (75)"
grep -q "^error: " "$TMP/err"
ok $? "with the reason on stderr"

# the store locked by another writer past the busy timeout (10 s): slow,
# so not repeated under ASan
if [ -z "${ARMBOT_ASAN:-}" ]; then
	sqlite3 "$TMP/d/store.sqlite" "BEGIN IMMEDIATE; SELECT 1;" \
		".shell sleep 13" "COMMIT;" > /dev/null &
	lock=$!
	sleep 1
	mk_mail "$TMP/late" late "late"
	"$ARMBOT" --data-dir "$TMP/d" deliver < "$TMP/late" 2> "$TMP/err"
	is "$?" 75 "store locked: EX_TEMPFAIL (75)"
	wait $lock
	"$ARMBOT" --data-dir "$TMP/d" deliver < "$TMP/late"
	is "$?" 0 "retried once unlocked: exit 0"
	wait_stored "$TMP/d" late@armbot.test 1
	ok $? "and stored"
else
	skip "store locked (not under ASan: it waits 10 s)"
	skip "retried"
	skip "stored"
fi
"$ARMBOT" deliver extra 2> /dev/null
is "$?" 129 "an argument: usage error"
done_testing
