# A real SMTP server for tests: a private Postfix instance on loopback.
#
# Source it after tests/lib/tap.sh, then:
#   smtp_server_setup [--tls] [--auth USER PASSWORD] [--domain D]...
#       writes the instance under $TMP/smtpd: its own config_directory,
#       queue and data directories, listening on 127.0.0.1 only, on free
#       ports: $SMTP_PORT (SMTP, STARTTLS offered with --tls) and with
#       --tls $SMTPS_PORT (implicit TLS); the certificate is self-signed,
#       $SMTP_CERT.  Mail for the test domains (default lists.test and
#       example.org) is delivered into the maildir $SMTP_MAILDIR; any
#       other domain is refused, nothing is relayed, no DNS is asked.
#       Recipients rejected@D get 550 at RCPT, deferred@D get 450, a
#       message with "X-Test-Reject: yes" gets 550 after DATA.  With
#       --auth, AUTH PLAIN and LOGIN are offered for USER (clients on
#       loopback may still send without; the Received header says
#       "ESMTPA" or "ESMTPSA" for an authenticated one, "ESMTPS" for TLS).
#   smtp_server_start      start it; returns when the port accepts
#   smtp_server_stop       stop it (SMTP down); returns when it is down
#   smtp_server_restart
#   smtp_server_wait N [SECONDS]   wait until N messages are in the
#       maildir (default 30 s); non-zero status on timeout
#   smtp_server_count      how many messages the maildir holds
#   smtp_server_log        the server's log, for diag on failure
# The instance is stopped when the test exits.  Needs root (Postfix's
# master runs as root and its daemons as user postfix) and the Debian
# packages postfix and sasl2-bin; smtp_server_available says whether it
# can run here.

SMTP_DIR=
SMTP_PORT=
SMTPS_PORT=
SMTP_MAILDIR=
SMTP_CERT=
_smtp_running=

smtp_server_available() {
	[ "$(id -u)" = 0 ] && [ -x /usr/sbin/postfix ] &&
		[ -x /usr/lib/postfix/sbin/master ] &&
		command -v saslpasswd2 >/dev/null &&
		command -v openssl >/dev/null && [ -r /proc/net/tcp ]
}

# Is TCP port $1 the local port of a socket in state $2 (0A: LISTEN), or
# of any socket, listening or connected, IPv4 or IPv6, without $2?  Read
# from the kernel's tables, so that no tool is needed.
_smtp_port_in() {
	awk -v port="$(printf ':%04X' "$1")" -v state="${2:-}" '
		FNR > 1 && substr($2, length($2) - 4) == port &&
		(state == "" || $4 == state) { found = 1 }
		END { exit !found }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

_smtp_listening() { _smtp_port_in "$1" 0A; }

# A TCP port no socket uses, from a range that differs by process and
# lies below the kernel's ephemeral ports (32768 and up on Debian), so
# that no outgoing connection takes it between this choice and the bind
# (smtp-sink once found its port taken so in CI).
_smtp_free_port() {
	_p=$((10000 + ($$ * 7 + ${1:-0} * 101) % 20000))
	while _smtp_port_in "$_p"; do
		_p=$((_p + 1))
	done
	echo "$_p"
}

smtp_server_setup() {
	_tls=
	_user=
	_pass=
	_domains=
	while [ $# -gt 0 ]; do
		case $1 in
		--tls) _tls=1 ;;
		--auth) _user=$2 _pass=$3; shift 2 ;;
		--domain) _domains="$_domains${_domains:+, }$2"; shift ;;
		*) echo "smtp_server_setup: bad option $1" >&2; return 1 ;;
		esac
		shift
	done
	[ -n "$_domains" ] || _domains="lists.test, example.org"
	SMTP_DIR=$TMP/smtpd
	SMTP_MAILDIR=$SMTP_DIR/mail/Maildir
	# Postfix's daemons run as user postfix and chdir into the queue:
	# every directory above it must be searchable by others.
	chmod o+x "$TMP"
	mkdir -p "$SMTP_DIR/etc" "$SMTP_DIR/queue" "$SMTP_DIR/data" \
		"$SMTP_MAILDIR/new" "$SMTP_MAILDIR/cur" "$SMTP_MAILDIR/tmp"
	chmod 755 "$SMTP_DIR" "$SMTP_DIR/etc"
	chown postfix "$SMTP_DIR/data"
	# virtual(8) delivers as an unprivileged user: postfix
	chown -R postfix "$SMTP_DIR/mail"
	SMTP_PORT=$(_smtp_free_port 1)
	cat >"$SMTP_DIR/etc/main.cf" <<CONF
compatibility_level = 3.6
queue_directory = $SMTP_DIR/queue
data_directory = $SMTP_DIR/data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
meta_directory = /etc/postfix
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
maillog_file = $SMTP_DIR/maillog
maillog_file_prefixes = $SMTP_DIR
myhostname = smtp.test
mydomain = smtp.test
myorigin = smtp.test
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtp_host_lookup = native
disable_dns_lookups = yes
smtpd_peername_lookup = no
relayhost =
relay_domains =
default_transport = error:this test server relays nothing
virtual_mailbox_domains = $_domains
virtual_mailbox_base = $SMTP_DIR/mail
virtual_mailbox_maps = static:Maildir/
virtual_minimum_uid = 1
virtual_uid_maps = static:$(id -u postfix)
virtual_gid_maps = static:$(id -g postfix)
alias_maps =
alias_database =
local_recipient_maps =
header_checks = regexp:$SMTP_DIR/etc/header_checks
smtpd_recipient_restrictions = check_recipient_access regexp:$SMTP_DIR/etc/recipient_access, permit_sasl_authenticated, permit_mynetworks, reject_unauth_destination
smtpd_delay_reject = yes
biff = no
CONF
	printf '/^X-Test-Reject: yes/ REJECT rejected by the test server\n' \
		>"$SMTP_DIR/etc/header_checks"
	printf '/^rejected@/ 550 5.1.1 no such user here\n/^deferred@/ 450 4.2.0 try again later\n' \
		>"$SMTP_DIR/etc/recipient_access"
	if [ -n "$_tls" ]; then
		SMTPS_PORT=$(_smtp_free_port 2)
		[ "$SMTPS_PORT" != "$SMTP_PORT" ] ||
			SMTPS_PORT=$(_smtp_free_port 3)
		SMTP_CERT=$SMTP_DIR/etc/cert.pem
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
			-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
			-keyout "$SMTP_DIR/etc/key.pem" -out "$SMTP_CERT" \
			2>/dev/null || return 1
		chmod 600 "$SMTP_DIR/etc/key.pem"
		cat >>"$SMTP_DIR/etc/main.cf" <<CONF
smtpd_tls_cert_file = $SMTP_CERT
smtpd_tls_key_file = $SMTP_DIR/etc/key.pem
smtpd_tls_security_level = may
smtpd_tls_loglevel = 1
CONF
	fi
	if [ -n "$_user" ]; then
		mkdir -p "$SMTP_DIR/etc/sasl"
		cat >"$SMTP_DIR/etc/sasl/smtpd.conf" <<CONF
pwcheck_method: auxprop
auxprop_plugin: sasldb
mech_list: PLAIN LOGIN
sasldb_path: $SMTP_DIR/etc/sasl/sasldb2
CONF
		printf '%s' "$_pass" | saslpasswd2 -p -c \
			-f "$SMTP_DIR/etc/sasl/sasldb2" -u smtp.test "$_user" ||
			return 1
		chgrp postfix "$SMTP_DIR/etc/sasl/sasldb2"
		chmod 640 "$SMTP_DIR/etc/sasl/sasldb2"
		chmod 755 "$SMTP_DIR/etc/sasl"
		cat >>"$SMTP_DIR/etc/main.cf" <<CONF
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = cyrus
smtpd_sasl_path = smtpd
cyrus_sasl_config_path = $SMTP_DIR/etc/sasl
smtpd_sasl_local_domain = smtp.test
smtpd_tls_auth_only = no
CONF
	fi
	# Debian's master.cf with the public smtp listener replaced by ours
	# and nothing chrooted (the chroot would need copies of /etc)
	sed '/^smtp[ 	]*inet/d' /etc/postfix/master.cf \
		>"$SMTP_DIR/etc/master.cf"
	postconf -c "$SMTP_DIR/etc" -M \
		"127.0.0.1:$SMTP_PORT/inet=127.0.0.1:$SMTP_PORT inet n - n - - smtpd"
	[ -z "$_tls" ] || postconf -c "$SMTP_DIR/etc" -M \
		"127.0.0.1:$SMTPS_PORT/inet=127.0.0.1:$SMTPS_PORT inet n - n - - smtpd -o smtpd_tls_wrappermode=yes"
	postconf -c "$SMTP_DIR/etc" -F '*/*/chroot = n'
	trap 'smtp_server_cleanup; rm -rf "$TMP"' EXIT
	trap 'exit 1' HUP INT TERM
}

smtp_server_log() {
	[ -f "$SMTP_DIR/maillog" ] && cat "$SMTP_DIR/maillog"
}

_smtp_wait_port() {	# _smtp_wait_port PORT up|down
	_i=0
	while [ $_i -lt 100 ]; do
		if _smtp_listening "$1"; then
			[ "$2" = up ] && return 0
		else
			[ "$2" = down ] && return 0
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

smtp_server_start() {
	# `postfix start` waits for master to say it runs; on a loaded
	# machine master has been seen to fail that ("mail system startup
	# failed") right after another test's instance stopped: the half
	# started instance is aborted and the start tried again, twice
	_t=0
	until postfix -c "$SMTP_DIR/etc" start >"$SMTP_DIR/start.log" 2>&1; do
		postfix -c "$SMTP_DIR/etc" abort >/dev/null 2>&1
		_t=$((_t + 1))
		if [ $_t -ge 3 ]; then
			cat "$SMTP_DIR/start.log" >&2
			smtp_server_log >&2
			return 1
		fi
		echo "# postfix did not start (try $_t), again" >&2
		sleep 2
	done
	_smtp_running=1
	_smtp_wait_port "$SMTP_PORT" up || return 1
	[ -z "$SMTPS_PORT" ] || _smtp_wait_port "$SMTPS_PORT" up
}

smtp_server_stop() {
	[ -n "$_smtp_running" ] || return 0
	postfix -c "$SMTP_DIR/etc" stop >/dev/null 2>&1
	_smtp_running=
	_smtp_wait_port "$SMTP_PORT" down
}

smtp_server_restart() {
	smtp_server_stop && smtp_server_start
}

smtp_server_count() {
	ls "$SMTP_MAILDIR/new" | wc -l | tr -d ' '
}

smtp_server_wait() {	# smtp_server_wait N [SECONDS]
	_i=0
	_limit=$((${2:-30} * 10))
	while [ "$(smtp_server_count)" -lt "$1" ]; do
		[ $_i -lt $_limit ] || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
}

smtp_server_cleanup() {
	[ -z "$_smtp_running" ] ||
		postfix -c "$SMTP_DIR/etc" abort >/dev/null 2>&1
	_smtp_running=
}
