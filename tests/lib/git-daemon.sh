# A real `git daemon` on 127.0.0.1 serving the repositories under one
# directory (git://), for tests that follow a tree the way an operator
# does: over the network, with a real git upload-pack on the other side.
# Source after tap.sh; git_daemon_start DIR, then git_daemon_url NAME.
. "$TOP/tests/lib/imap-server.sh" # free_port, wait_port

GIT_DAEMON_PID=
GIT_DAEMON_PORT=

git_daemon_start() {	# git_daemon_start DIR
	GIT_DAEMON_PORT=$(free_port)
	git daemon --reuseaddr --listen=127.0.0.1 --port="$GIT_DAEMON_PORT" \
		--base-path="$1" --export-all --informative-errors "$1" \
		> "$TMP/git-daemon.log" 2>&1 &
	GIT_DAEMON_PID=$!
	wait_port "$GIT_DAEMON_PORT"
}

git_daemon_url() { echo "git://127.0.0.1:$GIT_DAEMON_PORT/$1"; }

git_daemon_stop() {
	[ -n "$GIT_DAEMON_PID" ] || return 0
	kill "$GIT_DAEMON_PID" 2>/dev/null
	wait "$GIT_DAEMON_PID" 2>/dev/null
	GIT_DAEMON_PID=
}
