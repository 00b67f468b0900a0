#!/bin/sh
# bot/mail/smtp.c and bot/mail/maildir-out.c through `armbot sendmail`, against a
# real Postfix on loopback (tests/lib/smtp-server.sh): plain delivery with
# the message intact, dot-stuffing, STARTTLS (opportunistic, required,
# verified against the server's certificate), smtps://, AUTH with a
# credentials file and the refusal of a readable one, a server that is
# down (temporary, exit 75), 5xx refusals (permanent, exit 69), a 4xx
# (temporary), a server silent after DATA (timeout: temporary), and
# configuration errors (exit 78).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/smtp-server.sh"

smtp_server_available ||
	skip_all "needs root and Postfix (Debian package postfix)"

smtp_server_setup --tls --auth armbot 'pa ss:w0rd;' || {
	smtp_server_log
	exit 1
}
smtp_server_start || exit 1
URL=smtp://127.0.0.1:$SMTP_PORT
# where TLS is not the point: STARTTLS off (opportunistic STARTTLS still
# verifies the certificate, and the test server's is self-signed)
PLAIN="--smtp $URL --starttls=never"
REPORTS=$TOP/tests/unit/data/report

# The message as delivered, without the trace headers Postfix puts on
# top (Return-Path, X-Original-To, Delivered-To, Received and its
# continuation lines).
delivered() {
	awk 'top && /^(Return-Path|X-Original-To|Delivered-To|Received):/ { next }
	     top && /^[ \t]/ { next }
	     { top = 0; print }' top=1 "$1"
}

# The newest message of the maildir.
newest() {
	ls -t "$SMTP_MAILDIR"/new/* | head -1
}

send() {	# send EXPECTED-STATUS DESCRIPTION ARGS... < message
	_want=$1 _what=$2
	shift 2
	"$ARMBOT" sendmail "$@" >"$TMP/out" 2>"$TMP/err"
	_st=$?
	is "$_st" "$_want" "$_what: exit status"
	sed "s/^/# /" "$TMP/err"
}

n=0
expect_delivery() {	# expect_delivery DESCRIPTION
	n=$((n + 1))
	smtp_server_wait $n 20
	ok $? "$1: delivered"
}

# 1. plain SMTP, no TLS: the reply arrives byte for byte
send 0 "plain smtp" --smtp "$URL" --starttls=never list@lists.test \
	< "$REPORTS/shrinking-ok.eml"
expect_delivery "plain smtp"
delivered "$(newest)" > "$TMP/got"
is_file "$REPORTS/shrinking-ok.eml" "$TMP/got" "plain smtp: message intact"
grep -q '^	by smtp.test (Postfix) with ESMTP id' "$(newest)"
ok $? "plain smtp: no TLS, no AUTH"

# recipients from To and Cc: the test domains only
printf 'From: armbot <armbot@example.org>\nTo: list@lists.test\nCc: author@example.org\nSubject: two\nDate: Tue, 01 Jul 2025 12:00:00 +0000\nMessage-ID: <dots@example.org>\n\n.\n..\n.hidden\nend\n' \
	> "$TMP/dots.eml"
send 0 "recipients from To and Cc" $PLAIN < "$TMP/dots.eml"
n=$((n + 1))
expect_delivery "recipients from To and Cc"
delivered "$(newest)" > "$TMP/got"
is_file "$TMP/dots.eml" "$TMP/got" \
	"dot-stuffing: lines '.', '..', '.hidden' arrive intact"
ls -t "$SMTP_MAILDIR"/new/* | head -2 | xargs grep -h '^Delivered-To:' |
	sort | tr '\n' ' ' > "$TMP/to"
is "$(cat "$TMP/to")" "Delivered-To: author@example.org Delivered-To: list@lists.test " \
	"both recipients got it"

# 2. STARTTLS required, certificate verified, and smtps://
send 0 "STARTTLS required" --smtp "$URL" --starttls=required \
	--ca-file "$SMTP_CERT" list@lists.test < "$REPORTS/non-ascii.eml"
expect_delivery "STARTTLS required"
grep -q 'with ESMTPS id' "$(newest)"
ok $? "STARTTLS: the server saw TLS"
delivered "$(newest)" > "$TMP/got"
is_file "$REPORTS/non-ascii.eml" "$TMP/got" "STARTTLS: 8bit UTF-8 message intact"

send 78 "STARTTLS with an unknown certificate" --smtp "$URL" \
	--starttls=required list@lists.test < "$REPORTS/balanced.eml"
grep -q 'configuration error' "$TMP/err"
ok $? "unknown certificate: a configuration error"

send 0 "smtps://" --smtp "smtps://127.0.0.1:$SMTPS_PORT" --insecure \
	list@lists.test < "$REPORTS/balanced.eml"
expect_delivery "smtps://"
grep -q 'with ESMTPS id' "$(newest)"
ok $? "smtps: the server saw TLS"

# 3. AUTH with a credentials file
printf 'armbot\npa ss:w0rd;\n' > "$TMP/creds"
chmod 600 "$TMP/creds"
send 0 "AUTH PLAIN" --smtp "$URL" --starttls=required --insecure \
	--auth-file "$TMP/creds" --auth-mechanism PLAIN list@lists.test \
	< "$REPORTS/skipped.eml"
expect_delivery "AUTH PLAIN"
grep -q 'with ESMTPSA id' "$(newest)"
ok $? "AUTH PLAIN: authenticated (ESMTPSA)"
send 0 "AUTH LOGIN" --smtp "$URL" --insecure \
	--auth-file "$TMP/creds" --auth-mechanism LOGIN list@lists.test \
	< "$REPORTS/skipped.eml"
expect_delivery "AUTH LOGIN"
grep -q 'with ESMTPSA id' "$(newest)"
ok $? "AUTH LOGIN: with an auth file, STARTTLS by default (ESMTPSA)"
grep -q 'sasl_method=LOGIN, sasl_username=armbot' "$SMTP_DIR/maillog"
ok $? "AUTH LOGIN: the server logged the user"

printf 'armbot\nwrong\n' > "$TMP/bad-creds"
chmod 600 "$TMP/bad-creds"
send 78 "wrong password" --smtp "$URL" --insecure \
	--auth-file "$TMP/bad-creds" list@lists.test < "$REPORTS/skipped.eml"
grep -q '535' "$TMP/err"
ok $? "wrong password: the server's 535 is reported"

# never AUTH in clear: refused before connecting with starttls=never, and
# a server that does not offer STARTTLS (smtp-sink, which offers AUTH)
# never sees the AUTH command
send 78 "AUTH with STARTTLS off" --smtp "$URL" --starttls=never \
	--auth-file "$TMP/creds" list@lists.test < "$REPORTS/skipped.eml"
is "$(cat "$TMP/err")" \
	"error: refusing AUTH without TLS to '$URL': use smtps:// or STARTTLS with an auth file" \
	"AUTH with STARTTLS off: refused with a clear error"
NOTLS_PORT=$(_smtp_free_port 5)
smtp-sink -v -u postfix "127.0.0.1:$NOTLS_PORT" 10 2>"$TMP/sink.log" &
sink=$!
_smtp_wait_port "$NOTLS_PORT" up
send 78 "AUTH to a server without STARTTLS" \
	--smtp "smtp://127.0.0.1:$NOTLS_PORT" --auth-file "$TMP/creds" \
	--auth-mechanism PLAIN list@lists.test < "$REPORTS/skipped.eml"
kill "$sink"
wait "$sink" 2>/dev/null
sed "s/^/# sink: /" "$TMP/sink.log" | grep -i 'auth\|ehlo\|quit'
grep -q 'ehlo\|EHLO' "$TMP/sink.log"
ok $? "no STARTTLS offered: the server saw the client"
! grep -qi '^smtp-sink: AUTH' "$TMP/sink.log"
ok $? "no STARTTLS offered: no AUTH command reached the server"

chmod 644 "$TMP/creds"
send 78 "readable credentials file" --smtp "$URL" \
	--auth-file "$TMP/creds" list@lists.test < "$REPORTS/skipped.eml"
is "$(cat "$TMP/err")" \
	"error: credentials file '$TMP/creds' is accessible by group or others (mode 0644): make it mode 600" \
	"readable credentials file: refused with a clear error"
chmod 600 "$TMP/creds"

# 4. refusals: 5xx permanent, 4xx temporary
send 69 "recipient refused with 550" $PLAIN rejected@lists.test \
	< "$REPORTS/skipped.eml"
grep -q 'permanent failure: server said: 550 5.1.1' "$TMP/err"
ok $? "550: a permanent failure with the server's words"
send 75 "recipient deferred with 450" $PLAIN deferred@lists.test \
	< "$REPORTS/skipped.eml"
grep -q 'temporary failure: server said: 450 4.2.0' "$TMP/err"
ok $? "450: a temporary failure"
send 0 "one recipient refused, one accepted" $PLAIN \
	rejected@lists.test list@lists.test < "$REPORTS/skipped.eml"
expect_delivery "one recipient refused"
grep -q 'recipient <rejected@lists.test> refused: 550' "$TMP/err"
ok $? "the refused recipient is warned about"
{ printf 'X-Test-Reject: yes\n'; cat "$REPORTS/skipped.eml"; } > "$TMP/reject.eml"
send 69 "message refused after DATA" $PLAIN list@lists.test \
	< "$TMP/reject.eml"
grep -q 'server said: 5' "$TMP/err"
ok $? "refused after DATA: the server's words"

# 5. the server is down, then back
smtp_server_stop
send 75 "server down" --smtp "$URL" --timeout 10 list@lists.test \
	< "$REPORTS/skipped.eml"
grep -q 'temporary failure' "$TMP/err"
ok $? "server down: a temporary failure"
smtp_server_start
send 0 "server back" $PLAIN list@lists.test < "$REPORTS/boot-fail.eml"
expect_delivery "server back"
is "$(smtp_server_count)" "$n" "nothing delivered twice, nothing lost"

# a server that never answers DATA (Postfix's smtp-sink): the timeout
# ends the transaction as a temporary failure
SINK_PORT=$(_smtp_free_port 4)
smtp-sink -u postfix -w 60 "127.0.0.1:$SINK_PORT" 10 &
sink=$!
_smtp_wait_port "$SINK_PORT" up
send 75 "server silent after DATA, timeout 2 s" \
	--smtp "smtp://127.0.0.1:$SINK_PORT" --timeout 2 list@lists.test \
	< "$REPORTS/skipped.eml"
grep -q 'temporary failure: .*timed out' "$TMP/err"
ok $? "timeout: a temporary failure"
kill "$sink"
wait "$sink" 2>/dev/null

# 6. configuration errors
send 78 "not an SMTP URL" --smtp "http://127.0.0.1:$SMTP_PORT" \
	list@lists.test < "$REPORTS/skipped.eml"
send 78 "missing credentials file" --smtp "$URL" --auth-file "$TMP/none" \
	list@lists.test < "$REPORTS/skipped.eml"

# 7. the maildir outbox
send 0 "maildir" --maildir "$TMP/outbox" < "$REPORTS/sparse-warn.eml"
name=$(cat "$TMP/out")
is_file "$REPORTS/sparse-warn.eml" "$TMP/outbox/$name" \
	"maildir: the message is in new/, intact"
is "$(ls "$TMP/outbox/tmp" | wc -l)" 0 "maildir: nothing left in tmp/"
send 0 "maildir, second" --maildir "$TMP/outbox" < "$REPORTS/sparse-warn.eml"
is "$(ls "$TMP/outbox/new" | wc -l)" 2 "maildir: unique names"

done_testing
