#!/bin/sh
# imap:// against a real dovecot on 127.0.0.1: new mail by UID, the cursor
# (UIDVALIDITY, last UID) in the store, \Seen only once stored, IDLE
# (stored within 2 s), a server restart in the middle of a session (armbot
# reconnects and misses nothing), a new UIDVALIDITY (read again, stored
# once), a refused login and malformed responses (clear errors, nothing
# lost).
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/mails.sh"
. "$TOP/tests/lib/imap-server.sh"
. "$TOP/tests/lib/fake-server.sh"

imap_available || skip_all "dovecot missing (make deps)"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing (make deps)"
WATCH=
trap '[ -n "$WATCH" ] && kill $WATCH 2>/dev/null; [ -n "$FAKE" ] && kill $FAKE 2>/dev/null; imap_stop; rm -rf "$TMP"' EXIT
imap_start || skip_all "dovecot does not start here"
mkdir -p "$TMP/m"
mk_series "$TMP/m" s1 2
for i in 0 1 2; do imap_deliver "$TMP/m/s1-$i"; done
URL=$(imap_url)
KEY="imap://armbot@127.0.0.1:$IMAP_PORT/INBOX"
deliver() {	# deliver ID SUBJECT: a new mail ID into the INBOX
	mk_mail "$TMP/m/$1" "$1" "$2"
	imap_deliver "$TMP/m/$1"
}
delivered_within() {	# delivered_within ID SUBJECT SECONDS WHAT: the test
	# WHAT that the mail ID delivered now is stored within SECONDS
	deliver "$1" "$2"
	wait_stored "$TMP/d" "$1@armbot.test" "$3"
	ok $? "$4"
}
cursor() {
	sqlite3 "$TMP/d/store.sqlite" "select value from source_cursors
		where source = '$KEY' and key = '$1'"
}

ingest_ok "$TMP/d" "$URL" "ingest imap://: exits 0"
is "$(head -1 "$TMP/out")" "3 new, 0 duplicate, 0 unparseable" "3 messages"
is "$(stored_series "$TMP/d" | cut -d'|' -f1-3)" "ready|2|2" \
	"the series assembled"
is "$(cursor last-uid)" 3 "the last UID is the cursor"
ok "$([ -n "$(cursor uidvalidity)" ]; echo $?)" "with the UIDVALIDITY"
is "$(ls "$IMAP_MAILDIR/cur" | grep -c 'S$')" 0 \
	"without seen=1 no message is marked \\Seen"
grep -q password "$TMP/out" "$TMP/err"
is "$?" 1 "the password is not printed"

deliver x1 "one more"
ingest_counts "$TMP/d" "$(imap_url seen=1)" \
	"1 new, 0 duplicate, 0 unparseable" \
	"the next ingest takes only the new one"
is "$(cursor last-uid)" 4 "the cursor moves on"
is "$(ls "$IMAP_MAILDIR/cur" | grep 'S$' | wc -l)" 1 \
	"seen=1: the new message is \\Seen once stored"

# IDLE: stored within 2 s; then dovecot restarted under the session,
# with mail delivered while it is down
"$ARMBOT" --data-dir "$TMP/d" ingest --watch "$URL" > "$TMP/watch" \
	2> "$TMP/watch.err" &
WATCH=$!
sleep 1
delivered_within live1 "live one" 2 \
	"IDLE: a message delivered while armbot idles is stored within 2 s"
imap_stop
deliver down1 "while down"
imap_start
deliver up1 "after the restart"
wait_stored "$TMP/d" down1@armbot.test 10
ok $? "dovecot restarted: the message delivered while it was down is stored"
wait_stored "$TMP/d" up1@armbot.test 5
ok $? "and the one delivered after"
delivered_within live2 "live two" 2 \
	"IDLE again after the reconnect: stored within 2 s"
kill -TERM $WATCH
wait $WATCH
is "$?" 0 "--watch stops cleanly"
WATCH=
is "$(sqlite3 "$TMP/d/store.sqlite" 'select count(*) from messages')" 8 \
	"8 messages, none missed, none twice"

# polling when IDLE is not wanted
"$ARMBOT" --data-dir "$TMP/d" ingest --watch --interval 1 \
	"$(imap_url idle=0)" > "$TMP/watch" 2>&1 &
WATCH=$!
sleep 0.5
delivered_within poll1 "polled" 3 "idle=0: polling finds the new message"
kill -TERM $WATCH
wait $WATCH
WATCH=

# a new UIDVALIDITY (the folder rebuilt): read again, stored once
imap_stop
rm -f "$IMAP_MAILDIR"/dovecot*
imap_start
ingest_counts "$TMP/d" "$URL" "0 new, 9 duplicate, 0 unparseable" \
	"a new UIDVALIDITY: the folder read again, nothing stored twice"

ingest_fails "$TMP/d" "imap://armbot:wrong@127.0.0.1:$IMAP_PORT/INBOX?tls=no" \
	"a wrong password fails" "login refused"
ingest_fails "$TMP/d" "$(imap_url | sed 's,/INBOX,/Nope,')" \
	"a missing folder fails" "folder 'Nope'"
"$ARMBOT" --data-dir "$TMP/d" ingest "imap://127.0.0.1:$IMAP_PORT/" \
	2> "$TMP/err"
grep -q "needs a user and a password" "$TMP/err"
ok $? "no credentials: a usage error"

# a password file readable by others: refused, as the SMTP auth file
cp "$IMAP_DIR/password" "$TMP/pw644"
chmod 644 "$TMP/pw644"
ingest_fails "$TMP/d" \
	"imap://armbot@127.0.0.1:$IMAP_PORT/INBOX?tls=no&password-file=$TMP/pw644" \
	"a password file readable by others fails" \
	"credentials file '$TMP/pw644' is accessible by group or others (mode 0644): make it mode 600"

# imap:// with a password: STARTTLS is required (this dovecot has no TLS)
ingest_fails "$TMP/d" \
	"imap://armbot@127.0.0.1:$IMAP_PORT/INBOX?password-file=$IMAP_DIR/password" \
	"imap:// without STARTTLS on the server fails" \
	"not logging in without TLS"
grep -q "$(cat "$IMAP_DIR/password")" "$IMAP_DIR/log"
is "$?" 1 "the password never reached the server's log"

# malformed responses: a clear error, nothing stored, the cursor kept
for mode in imap-garbage imap-truncated; do
	fake_start fake-server.pl $mode
	ingest_fails "$TMP/f" "imap://u:p@127.0.0.1:$FAKE_PORT/INBOX?tls=no" \
		"$mode: ingest fails" "malformed server response\|connection lost"
	is "$(sqlite3 "$TMP/f/store.sqlite" 'select count(*) from messages; select count(*) from source_cursors where key = "last-uid"' | tr '\n' ' ')" \
		"0 0 " "$mode: nothing stored, no cursor"
	fake_stop
done
done_testing
