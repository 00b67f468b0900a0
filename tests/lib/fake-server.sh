# Start and stop the fake servers of tests/lib (fake-server.pl,
# nntp-auth-server.pl) from a shell test; source after tap.sh.

FAKE=

# fake_start SCRIPT ARGS...: `perl tests/lib/SCRIPT $TMP/port ARGS...` in
# the background ($FAKE), once it listens; its port in $FAKE_PORT
fake_start() {
	_script=$1
	shift
	rm -f "$TMP/port"
	perl "$TOP/tests/lib/$_script" "$TMP/port" "$@" &
	FAKE=$!
	for _i in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
	FAKE_PORT=$(cat "$TMP/port")
}

fake_stop() {
	kill $FAKE
	wait $FAKE 2>/dev/null
	FAKE=
}
