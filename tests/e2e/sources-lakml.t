#!/bin/sh
# The lakml week (1,871 messages) in a public-inbox inbox served by
# public-inbox-httpd and public-inbox-nntpd on 127.0.0.1: ingested over
# HTTP and, separately, over NNTP, each store holds the same messages and
# series as ingesting the mbox file.  The inbox is built once and kept
# under $ARMBOT_CACHE_DIR/public-inbox/, keyed on the corpus' checksum.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/mails.sh"
. "$TOP/tests/lib/imap-server.sh"
. "$TOP/tests/lib/public-inbox-server.sh"

need_corpus corpora/lakml/lakml-2020-06-14.mbox.xz
pi_available || skip_all "public-inbox missing (make deps)"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing (make deps)"
trap 'pi_stop; rm -rf "$TMP"' EXIT

XZ=$SHARED/corpora/lakml/lakml-2020-06-14.mbox.xz
xz -dc "$XZ" > "$TMP/lakml.mbox"
KEY=$(sha256sum "$XZ" | cut -c1-16)
now() { date +%s.%N; }
t0=$(now)
pi_build lakml "$TMP/lakml.mbox" "$KEY" > "$TMP/build.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/build.log"; skip_all "cannot build the inbox"; }
t1=$(now)
diag "inbox ready in $(echo "$t1 - $t0" | bc) s ($PI_INBOX)"
pi_start || skip_all "public-inbox servers do not start"

run() {	# run NAME SOURCE: ingest into $TMP/NAME, print the seconds
	_s=$(now)
	"$ARMBOT" --data-dir "$TMP/$1" ingest "$2" > "$TMP/$1.out" 2> "$TMP/$1.err"
	_rc=$?
	echo "$(now) - $_s" | bc
	return $_rc
}
tm=$(run mbox "$TMP/lakml.mbox")
th=$(run http "$(pi_http_url)")
is "$?" 0 "HTTP ingest exits 0"
tn=$(run nntp "$(pi_nntp_url)")
is "$?" 0 "NNTP ingest exits 0"
diag "mbox ${tm} s, HTTP ${th} s, NNTP ${tn} s for 1871 messages"
diag "messages/s: mbox $(echo "1871 / $tm" | bc), HTTP $(echo "1871 / $th" | bc), NNTP $(echo "1871 / $tn" | bc)"

for s in mbox http nntp; do
	is "$(head -1 "$TMP/$s.out" | cut -d, -f1,3)" "1871 new, 0 unparseable" \
		"$s: 1871 new messages"
	stored "$TMP/$s" > "$TMP/$s.msgs"
	stored_series "$TMP/$s" > "$TMP/$s.series"
done
is_file "$TMP/mbox.msgs" "$TMP/http.msgs" "HTTP: the same stored messages as the mbox"
is_file "$TMP/mbox.series" "$TMP/http.series" "HTTP: the same series"
is_file "$TMP/mbox.msgs" "$TMP/nntp.msgs" "NNTP: the same stored messages as the mbox"
is_file "$TMP/mbox.series" "$TMP/nntp.series" "NNTP: the same series"
run http "$(pi_http_url)" > /dev/null
is "$(head -1 "$TMP/http.out")" "0 new, 0 duplicate, 0 unparseable" \
	"HTTP again: nothing new"
run nntp "$(pi_nntp_url)" > /dev/null
is "$(head -1 "$TMP/nntp.out")" "0 new, 0 duplicate, 0 unparseable" \
	"NNTP again: nothing new"
done_testing
