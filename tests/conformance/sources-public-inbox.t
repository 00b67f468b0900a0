#!/bin/sh
# public-inbox over HTTP and NNTP, served by Debian's public-inbox-httpd
# and public-inbox-nntpd on 127.0.0.1 from an inbox made here: each gives
# the same stored messages and series as the mbox file; cursors (only new
# messages next time); a message seen through several sources is stored
# once; an incomplete series gets its missing parts from t.mbox.gz;
# malformed responses give clear errors and store nothing.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/mails.sh"
. "$TOP/tests/lib/imap-server.sh"
. "$TOP/tests/lib/public-inbox-server.sh"
. "$TOP/tests/lib/fake-server.sh"

pi_available || skip_all "public-inbox missing (make deps)"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing (make deps)"
trap '[ -n "$FAKE" ] && kill $FAKE 2>/dev/null; pi_stop; rm -rf "$TMP"' EXIT

mkdir -p "$TMP/m"
mk_series "$TMP/m" a 3
mk_series "$TMP/m" b 2
mk_mail "$TMP/m/r1" r1 "Re: [PATCH 1/3] part 1 of a" a-1
mk_mail "$TMP/m/r2" r2 "Re: [PATCH 0/2] series b" b-0
i=0
while [ $i -lt 30 ]; do mk_mail "$TMP/m/n$i" n$i "note $i"; i=$((i + 1)); done
# the third series: its first half a day before the rest
MAIL_DATE="Sun, 14 Jun 2020 10:00:00" mk_mail "$TMP/m/c-0" c-0 "[PATCH 0/3] series c"
MAIL_DATE="Sun, 14 Jun 2020 10:00:00" mk_mail "$TMP/m/c-1" c-1 "[PATCH 1/3] part 1 of c" c-0
mk_mail "$TMP/m/c-2" c-2 "[PATCH 2/3] part 2 of c" c-0
mk_mail "$TMP/m/c-3" c-3 "[PATCH 3/3] part 3 of c" c-0
as_mbox "$TMP"/m/* > "$TMP/all.mbox"
N=$(ls "$TMP/m" | wc -l)

pi_build small "$TMP/all.mbox" > "$TMP/build.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/build.log"; skip_all "cannot build a public-inbox inbox"; }
pi_start || skip_all "public-inbox servers do not start"

"$ARMBOT" --data-dir "$TMP/mbox" ingest "$TMP/all.mbox" > /dev/null
stored "$TMP/mbox" > "$TMP/mbox.msgs"
stored_series "$TMP/mbox" > "$TMP/mbox.series"
is "$(wc -l < "$TMP/mbox.msgs")" "$N" "the mbox: $N messages"

"$ARMBOT" --data-dir "$TMP/http" ingest "$(pi_http_url)" > "$TMP/out" 2> "$TMP/err"
is "$?" 0 "ingest over HTTP exits 0"
is "$(head -1 "$TMP/out" | cut -d, -f1)" "$N new" "all $N messages new"
stored "$TMP/http" > "$TMP/http.msgs"
is_file "$TMP/mbox.msgs" "$TMP/http.msgs" "HTTP: the same stored messages as the mbox"
stored_series "$TMP/http" > "$TMP/http.series"
is_file "$TMP/mbox.series" "$TMP/http.series" "HTTP: the same series"

"$ARMBOT" --data-dir "$TMP/nntp" ingest "$(pi_nntp_url)" > "$TMP/out" 2> "$TMP/err"
is "$?" 0 "ingest over NNTP exits 0"
stored "$TMP/nntp" > "$TMP/nntp.msgs"
is_file "$TMP/mbox.msgs" "$TMP/nntp.msgs" "NNTP: the same stored messages as the mbox"
stored_series "$TMP/nntp" > "$TMP/nntp.series"
is_file "$TMP/mbox.series" "$TMP/nntp.series" "NNTP: the same series"

for u in "$(pi_http_url)" "$(pi_nntp_url)"; do
	d=$TMP/http; case "$u" in nntp*) d=$TMP/nntp ;; esac
	ingest_counts "$d" "$u" "0 new, 0 duplicate, 0 unparseable" \
		"${u%%:*}: nothing new the second time (cursor)"
done

# new mail in the inbox (received later): only it is read
MAIL_DATE="Tue, 16 Jun 2020 10:00:00" mk_mail "$TMP/late1" late1 "late one"
MAIL_DATE="Tue, 16 Jun 2020 10:00:00" mk_mail "$TMP/late2" late2 "Re: late one" late1
as_mbox "$TMP/late1" "$TMP/late2" > "$TMP/late.mbox"
HOME=$PI_DIR _pi_import small "$TMP/late.mbox" && \
	HOME=$PI_DIR public-inbox-index "$PI_INBOX" > /dev/null 2>&1
ingest_counts "$TMP/http" "$(pi_http_url)" \
	"2 new, 0 duplicate, 0 unparseable" "HTTP: only the two new messages"
ingest_counts "$TMP/nntp" "$(pi_nntp_url)" \
	"2 new, 0 duplicate, 0 unparseable" "NNTP: only the two new messages"

# one store, several sources: each message once
"$ARMBOT" --data-dir "$TMP/all" ingest "$TMP/all.mbox" > /dev/null
ingest_counts "$TMP/all" "$(pi_nntp_url)" \
	"2 new, $N duplicate, 0 unparseable" \
	"NNTP after the mbox: only the late two are new"
ingest_counts "$TMP/all" "$(pi_http_url)" "0 new, 0 duplicate, 0 unparseable" \
	"HTTP after both: nothing fetched, nothing new"
is "$(sqlite3 "$TMP/all/store.sqlite" 'select count(*) from messages')" \
	$((N + 2)) "each message stored once"

# since=: series c's first half is older; t.mbox.gz brings it
"$ARMBOT" --data-dir "$TMP/since" ingest "$(pi_http_url)?since=20200615" \
	> "$TMP/out"
is "$(sqlite3 "$TMP/since/store.sqlite" "select state, received from series
	where subject = 'series c'")" "ready|3" \
	"an incomplete series completed from its thread (t.mbox.gz)"
is "$(sqlite3 "$TMP/since/store.sqlite" "select count(*) from messages
	where message_id like 'c-%'")" 4 "with all four messages of it"

# errors
ingest_fails "$TMP/e" "http://127.0.0.1:$PI_HTTP_PORT/nope/" \
	"an unknown inbox fails" "HTTP status 404: not a public-inbox inbox"
"$ARMBOT" --data-dir "$TMP/e" ingest "nntp://127.0.0.1:$PI_NNTP_PORT/no.such" \
	2> "$TMP/err"
grep -q "no such group" "$TMP/err"
ok $? "an unknown group: no such group"
"$ARMBOT" --data-dir "$TMP/e" ingest "nntp://127.0.0.1:$PI_NNTP_PORT/" \
	2> "$TMP/err"
grep -q "needs one group" "$TMP/err"
ok $? "an NNTP URL without a group is refused"
port=$(free_port)
"$ARMBOT" --data-dir "$TMP/e" ingest "http://127.0.0.1:$port/x/" 2> "$TMP/err"
is "$?" 1 "nothing listening: fails"
for mode in http-garbage nntp-garbage; do
	fake_start fake-server.pl $mode
	case $mode in
	http*) url="http://127.0.0.1:$FAKE_PORT/inbox/"
		want="malformed atom feed" ;;
	nntp*) url="nntp://127.0.0.1:$FAKE_PORT/some.group"
		want="malformed server response" ;;
	esac
	ingest_fails "$TMP/f" "$url" "$mode: ingest fails" "$want"
	is "$(sqlite3 "$TMP/f/store.sqlite" 'select count(*) from messages; select count(*) from source_cursors' | tr '\n' ' ')" \
		"0 0 " "$mode: nothing stored, no cursor"
	fake_stop
done
done_testing
