# A dovecot IMAP server for the tests, on 127.0.0.1 only, with its own
# configuration, state and mail under $IMAP_DIR (in $TMP): one user
# "armbot" with the password in $IMAP_DIR/password, whose INBOX is the
# maildir $IMAP_MAILDIR.  Source after tap.sh; imap_start, imap_stop,
# imap_restart, imap_deliver FILE.  With IMAP_TLS_CERT and IMAP_TLS_KEY
# (PEM files) set before imap_setup, TLS: STARTTLS and imaps on $IMAPS_PORT.  The caller's EXIT trap must call
# imap_stop (see tests/conformance/sources-imap.t).

IMAP_DIR=$TMP/dovecot
IMAP_MAILDIR=$IMAP_DIR/home/armbot/Maildir
IMAP_PORT=
IMAP_PID=

# A TCP port free on 127.0.0.1 (bound and released by the kernel's choice).
free_port() {
	perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(Listen => 1,
		LocalAddr => "127.0.0.1", LocalPort => 0)->sockport, "\n"'
}

# wait_port PORT: until something accepts on 127.0.0.1:PORT (10 s at most)
wait_port() {
	for _i in $(seq 1 100); do
		perl -MIO::Socket::INET -e 'exit !IO::Socket::INET->new(
			PeerAddr => "127.0.0.1", PeerPort => $ARGV[0])' "$1" &&
			return 0
		sleep 0.1
	done
	return 1
}

imap_available() {
	[ -x /usr/sbin/dovecot ] && [ -x /usr/lib/dovecot/imap ]
}

imap_setup() {
	IMAP_PORT=$(free_port)
	[ -z "${IMAP_TLS_CERT:-}" ] || IMAPS_PORT=$(free_port)
	mkdir -p "$IMAP_DIR/run" "$IMAP_DIR/state" "$IMAP_MAILDIR/new" \
		"$IMAP_MAILDIR/cur" "$IMAP_MAILDIR/tmp"
	echo "s3cret-$$" > "$IMAP_DIR/password"
	chmod 600 "$IMAP_DIR/password"
	echo "armbot:{PLAIN}s3cret-$$" > "$IMAP_DIR/passwd"
	# dovecot refuses to run mail processes as root: the mail belongs
	# to nobody, who must be able to reach it through $TMP
	chmod 711 "$TMP"
	chown -R nobody:nogroup "$IMAP_DIR/home"
	cat > "$IMAP_DIR/dovecot.conf" <<CONF
base_dir = $IMAP_DIR/run
state_dir = $IMAP_DIR/state
log_path = $IMAP_DIR/log
info_log_path = $IMAP_DIR/log
instance_name = armbot-test-$$
protocols = imap
listen = 127.0.0.1
$(if [ -n "${IMAP_TLS_CERT:-}" ]; then
	echo "ssl = yes"
	echo "ssl_cert = <$IMAP_TLS_CERT"
	echo "ssl_key = <$IMAP_TLS_KEY"
else
	echo "ssl = no"
fi)
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
mailbox_idle_check_interval = 1 secs
default_login_user = dovenull
default_internal_user = dovecot
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $IMAP_DIR/passwd
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=$IMAP_DIR/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${IMAPS_PORT:-0}
  }
}
# the passwd file is in $TMP (mode 0700, root's)
service auth {
  user = root
}
service auth-worker {
  user = root
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
CONF
}

imap_start() {
	[ -f "$IMAP_DIR/dovecot.conf" ] || imap_setup
	/usr/sbin/dovecot -F -c "$IMAP_DIR/dovecot.conf" \
		>> "$IMAP_DIR/stdout" 2>&1 &
	IMAP_PID=$!
	wait_port "$IMAP_PORT" && return 0
	diag "dovecot did not start:"
	sed 's/^/#   /' "$IMAP_DIR/log" "$IMAP_DIR/stdout" 2>/dev/null | tail -20
	return 1
}

imap_stop() {
	[ -n "$IMAP_PID" ] || return 0
	kill "$IMAP_PID" 2>/dev/null
	wait "$IMAP_PID" 2>/dev/null
	IMAP_PID=
}

imap_restart() {
	imap_stop && imap_start
}

# Deliver FILE into the INBOX the way an MDA does (tmp/, then a rename
# into new/); dovecot gives it the next UID.
_imap_n=0
imap_deliver() {
	_imap_n=$((_imap_n + 1))
	_name="$(date +%s).M${_imap_n}P$$.armbot-test"
	cp "$1" "$IMAP_MAILDIR/tmp/$_name" &&
		chown nobody:nogroup "$IMAP_MAILDIR/tmp/$_name" &&
		mv "$IMAP_MAILDIR/tmp/$_name" "$IMAP_MAILDIR/new/$_name"
}

# The URL armbot uses for the INBOX (the password from the file).
imap_url() {
	echo "imap://armbot@127.0.0.1:$IMAP_PORT/INBOX?tls=no&password-file=$IMAP_DIR/password${1:+&$1}"
}
