# public-inbox for the tests: an inbox built from an mbox with Debian's
# public-inbox (its own importer, PublicInbox::InboxWritable, then
# public-inbox-index), served by public-inbox-httpd and public-inbox-nntpd
# on 127.0.0.1 only.  Source after tap.sh and imap-server.sh (free_port,
# wait_port).  pi_build NAME MBOX [CACHE-KEY], pi_start, pi_stop; the
# caller's EXIT trap must call pi_stop.  With a CACHE-KEY the inbox is
# kept under $ARMBOT_CACHE_DIR/public-inbox/ and built once.  With
# PI_TLS_CERT and PI_TLS_KEY (PEM files) set before pi_start, TLS: the
# NNTP listener offers STARTTLS, nntps is on $PI_NNTPS_PORT and https on
# $PI_HTTPS_PORT.

PI_DIR=$TMP/public-inbox
PI_INBOX=
PI_NAME=
PI_HTTP_PORT=
PI_NNTP_PORT=
PI_NNTPS_PORT=
PI_HTTPS_PORT=
PI_PIDS=

pi_available() {
	command -v public-inbox-httpd >/dev/null &&
		command -v public-inbox-nntpd >/dev/null &&
		command -v public-inbox-init >/dev/null
}

# _pi_config NAME INBOXDIR: the configuration the servers read
_pi_config() {
	mkdir -p "$PI_DIR"
	export PI_CONFIG="$PI_DIR/config"
	cat > "$PI_CONFIG" <<CONF
[publicinbox "$1"]
	address = $1@example.org
	url = http://127.0.0.1/$1
	inboxdir = $2
	indexlevel = basic
	newsgroup = test.$1
CONF
}

# _pi_import NAME MBOX: into the inbox of $PI_CONFIG, as public-inbox's own
# scripts import an mbox (PublicInbox::MboxReader, mboxrd)
_pi_import() {
	perl -e '
use strict; use warnings;
use PublicInbox::Config; use PublicInbox::InboxWritable;
use PublicInbox::MboxReader;
my ($name, $mbox) = @ARGV;
my $ibx = PublicInbox::Config->new->lookup_name($name) or die "no $name\n";
my $im = PublicInbox::InboxWritable->new($ibx)->importer(0);
open my $fh, "<", $mbox or die "$mbox: $!\n";
PublicInbox::MboxReader->mboxrd($fh, sub { $im->add($_[0]) });
$im->done;' "$1" "$2"
}

pi_build() {
	PI_NAME=$1
	if [ -n "${3:-}" ]; then
		PI_INBOX=$ARMBOT_CACHE_DIR/public-inbox/$1-$3
	else
		PI_INBOX=$PI_DIR/$1
	fi
	if [ ! -f "$PI_INBOX/.complete" ]; then
		# built where it stays: a v2 inbox's git alternates name it
		rm -rf "$PI_INBOX"
		mkdir -p "$(dirname "$PI_INBOX")" "$PI_DIR"
		export PI_CONFIG="$PI_DIR/init-config"
		HOME=$PI_DIR public-inbox-init -V2 -L basic "$1" "$PI_INBOX" \
			"http://127.0.0.1/$1" "$1@example.org" &&
			HOME=$PI_DIR _pi_import "$1" "$2" &&
			HOME=$PI_DIR public-inbox-index "$PI_INBOX" &&
			touch "$PI_INBOX/.complete" || return 1
	fi
	_pi_config "$1" "$PI_INBOX"
}

# _pi_daemon NAME URL...: public-inbox-NAME listening on each URL in the
# background, its output in $PI_DIR/NAME.log, its pid added to PI_PIDS
_pi_daemon() {
	_pi_d=$1
	shift
	for _pi_l; do
		set -- "$@" -l "$_pi_l"
		shift
	done
	HOME=$PI_DIR "public-inbox-$_pi_d" -W0 "$@" > "$PI_DIR/$_pi_d.log" 2>&1 &
	PI_PIDS="${PI_PIDS:+$PI_PIDS }$!"
}

pi_start() {
	PI_HTTP_PORT=$(free_port)
	PI_NNTP_PORT=$(free_port)
	PI_PIDS=
	_tls=
	if [ -n "${PI_TLS_CERT:-}" ]; then
		PI_HTTPS_PORT=$(free_port)
		PI_NNTPS_PORT=$(free_port)
		_tls="/?cert=$PI_TLS_CERT,key=$PI_TLS_KEY"
	fi
	# with a certificate, https and nntps beside; nntp offers STARTTLS
	_pi_daemon httpd "http://127.0.0.1:$PI_HTTP_PORT" \
		${_tls:+"https://127.0.0.1:$PI_HTTPS_PORT$_tls"}
	_pi_daemon nntpd "nntp://127.0.0.1:$PI_NNTP_PORT$_tls" \
		${_tls:+"nntps://127.0.0.1:$PI_NNTPS_PORT$_tls"}
	wait_port "$PI_HTTP_PORT" && wait_port "$PI_NNTP_PORT" &&
		{ [ -z "$PI_NNTPS_PORT" ] || wait_port "$PI_NNTPS_PORT"; } &&
		{ [ -z "$PI_HTTPS_PORT" ] || wait_port "$PI_HTTPS_PORT"; } &&
		return 0
	diag "public-inbox did not start:"
	sed 's/^/#   /' "$PI_DIR/httpd.log" "$PI_DIR/nntpd.log" | tail -20
	return 1
}

pi_stop() {
	for _p in $PI_PIDS; do
		kill "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	PI_PIDS=
}

pi_http_url() { echo "http://127.0.0.1:$PI_HTTP_PORT/$PI_NAME/"; }
pi_nntp_url() { echo "nntp://127.0.0.1:$PI_NNTP_PORT/test.$PI_NAME"; }
