# TLS for the sources' certificate tests (after imap-server.sh, for
# free_port and wait_port):
# tls_cert KEY PEM CN writes a self-signed certificate for CN (an address
# is also its subjectAltName), 2 days;
# evil GREETING OUTPUT starts an openssl s_server with $TMP/evil.pem (made
# by tls_cert for CN=evil.example) on $EVIL_PORT, pid $EVIL: it sends
# GREETING, takes wait_port's probe and one session, and writes what it
# receives to OUTPUT; evil_stop ends it.

tls_cert() {
	_tls_san=
	case $3 in
	[0-9]*) _tls_san=subjectAltName=IP:$3 ;;
	esac
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$3" \
		${_tls_san:+-addext "$_tls_san"} \
		-keyout "$1" -out "$2" 2>/dev/null
}

evil() {
	EVIL_PORT=$(free_port)
	{ printf '%s\r\n' "$1"; sleep 15; } |
		openssl s_server -accept "127.0.0.1:$EVIL_PORT" \
			-cert "$TMP/evil.pem" -key "$TMP/evil.key" \
			-naccept 2 > "$2" 2>&1 &
	EVIL=$!
	wait_port "$EVIL_PORT"
}

evil_stop() {
	sleep 0.5
	kill $EVIL 2>/dev/null
	wait $EVIL 2>/dev/null
	EVIL=
}
