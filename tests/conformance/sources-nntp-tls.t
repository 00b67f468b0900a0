#!/bin/sh
# nntps:// and nntp:// with STARTTLS verify the server's certificate before
# anything else is sent, and AUTHINFO never goes in clear:
#  - an openssl s_server with a self-signed certificate for CN=evil.example
#    (nntps) receives no AUTHINFO and no password (s_server prints what it
#    receives), trusted or not;
#  - Debian's public-inbox-nntpd with a certificate for 127.0.0.1, over
#    nntps and STARTTLS: refused without ?ca-file=, the articles ingested
#    with it (the same messages as the mbox it was built from); a server
#    that offers STARTTLS is never read in clear unless ?tls=no;
#  - AUTHINFO against tests/lib/nntp-auth-server.pl, a scripted server
#    that records every line it gets, plain or under TLS (public-inbox has
#    no AUTHINFO; inn2's package does not install on a host without a
#    domain name): a user with a server that offers no STARTTLS is refused
#    before AUTHINFO, STARTTLS with an untrusted certificate too, and with
#    a trusted one the login goes under TLS only; ?tls=no sends it in clear
#    as asked; a STARTTLS answer with data injected before the handshake is
#    refused.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/mails.sh"
. "$TOP/tests/lib/imap-server.sh"
. "$TOP/tests/lib/public-inbox-server.sh"
. "$TOP/tests/lib/tls.sh"
. "$TOP/tests/lib/fake-server.sh"

command -v openssl >/dev/null || skip_all "openssl missing"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing (make deps)"
perl -MIO::Socket::SSL -e 1 2>/dev/null ||
	skip_all "IO::Socket::SSL missing (libio-socket-ssl-perl)"
EVIL=
trap '[ -n "$EVIL" ] && kill $EVIL 2>/dev/null
	[ -n "$FAKE" ] && kill $FAKE 2>/dev/null
	pi_stop; rm -rf "$TMP"' EXIT

tls_cert "$TMP/evil.key" "$TMP/evil.pem" evil.example
tls_cert "$TMP/news.key" "$TMP/news.pem" 127.0.0.1
printf 'hunter2-secret\n' > "$TMP/pw"
chmod 600 "$TMP/pw"
mkdir -p "$TMP/m"
mk_series "$TMP/m" s1 2
mk_mail "$TMP/m/r1" r1 "Re: [PATCH 1/2] part 1 of s1" s1-1
N=$(ls "$TMP/m" | wc -l)

# 1. nntps:// to a self-signed certificate for another name
evil "200 news ready" "$TMP/evil.out"
ingest_fails "$TMP/e" \
	"nntps://armbot:hunter2-secret@127.0.0.1:$EVIL_PORT/test.group" \
	"nntps:// to an untrusted certificate fails" \
	"server certificate not trusted, closing the connection"
grep -q "hunter2" "$TMP/err"
is "$?" 1 "the error does not show the password"
evil_stop
evil "200 news ready" "$TMP/evil2.out"
ingest_fails "$TMP/e" \
	"nntps://armbot@127.0.0.1:$EVIL_PORT/test.group?password-file=$TMP/pw&ca-file=$TMP/evil.pem" \
	"trusted but for another host name: fails" \
	"name in the certificate does not match"
evil_stop
grep -qi 'authinfo\|hunter2' "$TMP/evil.out" "$TMP/evil2.out"
is "$?" 1 "the server received no AUTHINFO and no password"
is "$(sqlite3 "$TMP/e/store.sqlite" 'select count(*) from source_cursors')" \
	0 "nothing recorded"

# 2. public-inbox-nntpd with TLS: nntps and STARTTLS
if pi_available; then
	as_mbox "$TMP"/m/* > "$TMP/all.mbox"
	"$ARMBOT" --data-dir "$TMP/mbox" ingest "$TMP/all.mbox" > /dev/null
	stored "$TMP/mbox" > "$TMP/mbox.msgs"
	if pi_build tls "$TMP/all.mbox" > "$TMP/build.log" 2>&1 &&
		PI_TLS_CERT=$TMP/news.pem PI_TLS_KEY=$TMP/news.key pi_start; then
		NNTPS="nntps://127.0.0.1:$PI_NNTPS_PORT/test.tls"
		NNTP="nntp://127.0.0.1:$PI_NNTP_PORT/test.tls"
		ingest_fails "$TMP/p1" "$NNTPS" \
			"public-inbox over nntps without ca-file: refused" \
			"nntp 127.0.0.1: server certificate not trusted.*issuer is unknown"
		ingest_ok "$TMP/p1" "$NNTPS?ca-file=$TMP/news.pem" \
			"public-inbox over nntps with ca-file: exits 0"
		is "$(head -1 "$TMP/out")" "$N new, 0 duplicate, 0 unparseable" \
			"nntps: all $N articles"
		stored "$TMP/p1" > "$TMP/p1.msgs"
		is_file "$TMP/mbox.msgs" "$TMP/p1.msgs" \
			"nntps: the same stored messages as the mbox"
		ingest_counts "$TMP/p1" "$NNTPS?ca-file=$TMP/news.pem" \
			"0 new, 0 duplicate, 0 unparseable" \
			"nntps: nothing new the second time (cursor)"

		ingest_fails "$TMP/p2" "$NNTP" \
			"nntp:// to a server that offers STARTTLS, untrusted: refused, not read in clear" \
			"server certificate not trusted"
		ingest_ok "$TMP/p2" "$NNTP?ca-file=$TMP/news.pem" \
			"public-inbox over STARTTLS with ca-file: exits 0"
		stored "$TMP/p2" > "$TMP/p2.msgs"
		is_file "$TMP/mbox.msgs" "$TMP/p2.msgs" \
			"STARTTLS: the same stored messages as the mbox"
		grep -q "STARTTLS" "$PI_DIR/nntpd.log"
		ok $? "public-inbox-nntpd logged the STARTTLS"
		ingest_counts "$TMP/p3" "$NNTP?tls=no" \
			"$N new, 0 duplicate, 0 unparseable" \
			"?tls=no: read in clear, as asked"

		# the same inbox over https (bot/sources/http.c): libcurl's
		# verification, with the source's ca-file
		HTTPS="https://127.0.0.1:$PI_HTTPS_PORT/tls/"
		"$ARMBOT" --data-dir "$TMP/h1" ingest "$HTTPS" > "$TMP/out" 2> "$TMP/err"
		is "$?" 1 "public-inbox over https without ca-file: refused"
		grep -qi "certificate" "$TMP/err"
		ok $? "the certificate is not trusted ($(head -1 "$TMP/err"))"
		"$ARMBOT" --data-dir "$TMP/h1" ingest "$HTTPS?ca-file=$TMP/evil.pem" \
			> "$TMP/out" 2> "$TMP/err"
		is "$?" 1 "https with another certificate as ca-file: refused"
		ingest_ok "$TMP/h1" "$HTTPS?ca-file=$TMP/news.pem" \
			"public-inbox over https with ca-file: exits 0"
		stored "$TMP/h1" > "$TMP/h1.msgs"
		is_file "$TMP/mbox.msgs" "$TMP/h1.msgs" \
			"https: the same stored messages as the mbox"
		pi_stop
	else
		sed 's/^/# /' "$TMP/build.log" | tail -5
		skip "public-inbox with TLS does not start here"
	fi
else
	skip "public-inbox missing (make deps)"
fi

# 3. AUTHINFO: a server that records what it gets
fake() {	# fake MODE: tests/lib/nntp-auth-server.pl with the certificate of $CERT
	: > "$TMP/transcript"
	fake_start nntp-auth-server.pl "$TMP/transcript" "$1" \
		"$TMP/$CERT.pem" "$TMP/$CERT.key" hunter2-secret \
		"$TMP/m/s1-0" "$TMP/m/s1-1" "$TMP/m/s1-2"
	URL="nntp://armbot@127.0.0.1:$FAKE_PORT/test.group?password-file=$TMP/pw"
}
CERT=news
fake plain
ingest_fails "$TMP/a1" "$URL" "a user, a server without STARTTLS: refused" \
	"does not offer STARTTLS: not logging in without TLS (?tls=no allows it)"
is "$(cut -d' ' -f2 "$TMP/transcript" | tr -d '\r' | tr '\n' ' ')" \
	"CAPABILITIES " "only CAPABILITIES was sent: no AUTHINFO"
: > "$TMP/transcript"
"$ARMBOT" --data-dir "$TMP/a1" ingest "$URL&tls=no" > "$TMP/out" 2> "$TMP/err"
is "$?" 0 "?tls=no: logs in in clear, as asked"
is "$(head -1 "$TMP/out")" "3 new, 0 duplicate, 0 unparseable" \
	"?tls=no: the three articles"
grep -q "^plain: AUTHINFO PASS hunter2-secret" "$TMP/transcript"
ok $? "?tls=no: the password went in clear"
fake_stop

CERT=evil
fake starttls
ingest_fails "$TMP/a2" "$URL" "STARTTLS with an untrusted certificate: refused" \
	"server certificate not trusted, closing the connection"
grep -qi "authinfo\|hunter2" "$TMP/transcript"
is "$?" 1 "no AUTHINFO, no password"
fake_stop

CERT=news
fake starttls
ingest_ok "$TMP/a3" "$URL&ca-file=$TMP/news.pem" \
	"STARTTLS with a trusted certificate and a user: exits 0"
is "$(head -1 "$TMP/out")" "3 new, 0 duplicate, 0 unparseable" \
	"the three articles, after AUTHINFO"
printf '%s\n' "plain: CAPABILITIES" "plain: STARTTLS" "tls: MODE READER" \
	"tls: AUTHINFO USER armbot" "tls: AUTHINFO PASS hunter2-secret" \
	"tls: GROUP test.group" "tls: ARTICLE 1" "tls: ARTICLE 2" \
	"tls: ARTICLE 3" "tls: QUIT" > "$TMP/want"
tr -d '\r' < "$TMP/transcript" > "$TMP/got"
is_file "$TMP/want" "$TMP/got" "the transcript: AUTHINFO under TLS only"
is "$(sqlite3 "$TMP/a3/store.sqlite" 'select source from source_cursors')" \
	"nntp://armbot@127.0.0.1:$FAKE_PORT/test.group" \
	"the cursor is named without password or options"
printf 'wrong\n' > "$TMP/pw2"
chmod 600 "$TMP/pw2"
ingest_fails "$TMP/a4" \
	"nntp://armbot@127.0.0.1:$FAKE_PORT/test.group?password-file=$TMP/pw2&ca-file=$TMP/news.pem" \
	"a wrong password fails" \
	"nntp AUTHINFO: login refused (authentication failed)"
chmod 644 "$TMP/pw2"
"$ARMBOT" --data-dir "$TMP/a4" ingest \
	"nntp://armbot@127.0.0.1:$FAKE_PORT/test.group?password-file=$TMP/pw2" \
	2> "$TMP/err"
grep -q "nntp password file: .*pw2.* (mode 0644)" "$TMP/err"
ok $? "a password file others can read is refused ($(head -1 "$TMP/err"))"
"$ARMBOT" --data-dir "$TMP/a4" ingest \
	"nntp://armbot@127.0.0.1:$FAKE_PORT/test.group" 2> "$TMP/err"
grep -q "needs a password" "$TMP/err"
ok $? "a user without a password is refused ($(head -1 "$TMP/err"))"
"$ARMBOT" --data-dir "$TMP/a4" ingest \
	"nntp://armbot:a%0D%0AGROUP%20x@127.0.0.1:$FAKE_PORT/test.group" \
	2> "$TMP/err"
grep -q "control character" "$TMP/err"
ok $? "a CR LF in the password is refused ($(head -1 "$TMP/err"))"
fake_stop

fake inject
ingest_fails "$TMP/a5" "$URL&ca-file=$TMP/news.pem" \
	"data injected before the TLS handshake: refused" \
	"data after the STARTTLS answer, before TLS: refused"
grep -qi "authinfo" "$TMP/transcript"
is "$?" 1 "no AUTHINFO"
fake_stop
done_testing
