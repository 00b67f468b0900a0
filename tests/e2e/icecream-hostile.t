#!/bin/bash
# A hostile build against the host's iceccd (issue 20, security): kbuild
# runs patches' Makefiles, which can set any ICECC_* variable for the
# icecc client they run.  The client reads ICECC_VERSION itself (inside
# the sandbox, with the build's uid), but with ICECC_VERSION unset it asks
# iceccd for a "native" environment and sends ICECC_EXTRAFILES, host
# paths, which iceccd (user icecc, outside the sandbox) packs with
# icecc-create-env into a tarball in its environment directory, the one it
# ships to the nodes that compile.  Files only root can read stay out (the
# create-env child runs as icecc); files user icecc can read do not.
# This is iceccd's own behaviour (no option refuses native environments),
# so armbot never gives a series' make this socket: only the base's
# trusted builds get it, a series' make (icecc-series-netns) gets the
# socket of armbot's proxy, which refuses GET_NATIVE_ENV
# (kernel/build/icecc-proxy.c; tests/e2e/icecream-cluster.t checks it
# end to end).  The leak stays a TODO test here: iceccd's own behaviour,
# the evidence for that rule.

. "$(dirname "$0")/../lib/icecc-netns.sh"
icecc_netns_enter runuser gcc

. "$(dirname "$0")/../lib/tap.sh"

ip link set lo up || fail "loopback up in the namespace"

W=$TMP/icecc
mkdir -p "$W/env" "$W/run" "$W/build" "$W/hidden" &&
	chmod 755 "$TMP" "$W" "$W/hidden" && chmod 777 "$W/build" &&
	touch "$W/scheduler.log" &&
	chown icecc "$W/env" "$W/run" "$W/scheduler.log" ||
	fail "icecc's directories"
echo ROOT-ONLY-SECRET-4711 >"$W/hidden/root-secret" &&
	chmod 600 "$W/hidden/root-secret"
echo READABLE-SECRET-0815 >"$W/hidden/readable-secret" &&
	chmod 644 "$W/hidden/readable-secret"
SOCK=$W/run/iceccd.socket
icecc-scheduler -p 8765 -l "$W/scheduler.log" &
SCHED=$!
ICECC_TEST_SOCKET=$SOCK iceccd -s 127.0.0.1 -b "$W/env" -N armbot-local -m 2 &
DAEMON=$!
trap 'kill $DAEMON $SCHED 2>/dev/null; wait; rm -rf "$TMP"' EXIT
for _ in $(seq 40); do [ -S "$SOCK" ] && break; sleep 0.25; done
[ -S "$SOCK" ] && pass "iceccd's socket" || fail "iceccd's socket"
sleep 3	# the daemon logs in to the scheduler

# the hostile Makefile: its compile rule runs icecc with the variables
# it likes, as the build's unprivileged uid
cat >"$W/build/Makefile" <<MK
unexport ICECC_VERSION
a.o: a.c
	ICECC_TEST_SOCKET=$SOCK ICECC_VERSION=x86_64:\$(SECRET) icecc gcc -c a.c -o v.o
	ICECC_TEST_SOCKET=$SOCK ICECC_EXTRAFILES=\$(SECRET) icecc gcc -c a.c -o a.o
MK
echo 'int f(int x) { return x * 3; }' >"$W/build/a.c"

leaked() {	# leaked WORD: WORD is in a tarball of iceccd's env directory
	local t
	for t in $(find "$W/env" -name '*.tar*'); do
		tar xOf "$t" 2>/dev/null | grep -aq "$1" && return 0
	done
	return 1
}

runuser -u nobody -- make -s -C "$W/build" SECRET="$W/hidden/root-secret" \
	>"$W/root.log" 2>&1
ok $? "the hostile build compiles (root-only secret)"
leaked ROOT-ONLY-SECRET && fail "a root-only file named by the build reached iceccd's tarballs" ||
	pass "a root-only file named by the build is not in iceccd's tarballs"

rm -f "$W/build/"*.o
runuser -u nobody -- make -s -C "$W/build" SECRET="$W/hidden/readable-secret" \
	>"$W/readable.log" 2>&1
ok $? "the hostile build compiles (a file user icecc can read)"
_tap_n=$((_tap_n + 1))
if leaked READABLE-SECRET; then
	echo "not ok $_tap_n - ICECC_EXTRAFILES names a host file: iceccd packs it for the nodes # TODO iceccd confined to armbot's tarballs"
else
	echo "ok $_tap_n - ICECC_EXTRAFILES names a host file: not in iceccd's tarballs # TODO iceccd confined to armbot's tarballs"
fi

done_testing
