#!/bin/sh
# imaps:// and imap:// with STARTTLS verify the server's certificate
# before LOGIN: an openssl s_server with a self-signed certificate for
# CN=evil.example receives no LOGIN and no password (s_server prints what
# it receives); a real dovecot with a certificate for 127.0.0.1 works over
# imaps and STARTTLS once ?ca-file= names that certificate, and is refused
# without it.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/mails.sh"
. "$TOP/tests/lib/imap-server.sh"
. "$TOP/tests/lib/tls.sh"

imap_available || skip_all "dovecot missing (make deps)"
command -v openssl >/dev/null || skip_all "openssl missing"
EVIL=
trap '[ -n "$EVIL" ] && kill $EVIL 2>/dev/null; imap_stop; rm -rf "$TMP"' EXIT

tls_cert "$TMP/evil.key" "$TMP/evil.pem" evil.example
tls_cert "$TMP/imap.key" "$TMP/imap.pem" 127.0.0.1
chmod 644 "$TMP/imap.key" "$TMP/imap.pem"

# 1. a TLS server with a self-signed certificate: no LOGIN, no password
evil "* OK IMAP4rev1 ready" "$TMP/evil.out"
ingest_fails "$TMP/e" "imaps://armbot:hunter2-secret@127.0.0.1:$EVIL_PORT/INBOX" \
	"imaps:// to an untrusted certificate fails" \
	"server certificate not trusted, closing the connection"
evil_stop
evil "* OK IMAP4rev1 ready" "$TMP/evil2.out"
ingest_fails "$TMP/e" \
	"imaps://armbot:hunter2-secret@127.0.0.1:$EVIL_PORT/INBOX?ca-file=$TMP/evil.pem" \
	"trusted but for another host name: fails" \
	"name in the certificate does not match"
evil_stop
grep -qi 'login\|hunter2' "$TMP/evil.out" "$TMP/evil2.out"
is "$?" 1 "the server received no LOGIN and no password"

# 2. dovecot with TLS: imaps and STARTTLS with ?ca-file=
IMAP_TLS_CERT=$TMP/imap.pem IMAP_TLS_KEY=$TMP/imap.key
imap_start || skip_all "dovecot does not start here"
mkdir -p "$TMP/m"
mk_series "$TMP/m" s1 2
for i in 0 1 2; do imap_deliver "$TMP/m/s1-$i"; done
PW="password-file=$IMAP_DIR/password"
ingest_fails "$TMP/d" "imaps://armbot@127.0.0.1:$IMAPS_PORT/INBOX?$PW" \
	"dovecot over imaps without ca-file: refused" \
	"server certificate not trusted"
ingest_ok "$TMP/d" \
	"imaps://armbot@127.0.0.1:$IMAPS_PORT/INBOX?$PW&ca-file=$TMP/imap.pem" \
	"dovecot over imaps with ca-file: exits 0"
is "$(head -1 "$TMP/out")" "3 new, 0 duplicate, 0 unparseable" "imaps: 3 messages"
mk_mail "$TMP/m/x1" x1 "one more"
imap_deliver "$TMP/m/x1"
ingest_ok "$TMP/d" \
	"imap://armbot@127.0.0.1:$IMAP_PORT/INBOX?$PW&ca-file=$TMP/imap.pem" \
	"dovecot over STARTTLS with ca-file: exits 0"
is "$(head -1 "$TMP/out")" "1 new, 3 duplicate, 0 unparseable" \
	"STARTTLS: the new message (another source: the rest read again)"
grep -q 'TLS' "$IMAP_DIR/log"
ok $? "dovecot logged TLS sessions"
done_testing
