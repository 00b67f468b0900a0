# Shared by the pipeline-*.t end-to-end tests (sourced after tests/lib/tap.sh):
# a real Postfix on loopback (tests/lib/smtp-server.sh) whose maildir stands
# for the list: series are delivered into it, armbot run reads it as its
# maildir source and sends its replies through Postfix, which delivers them
# into the same maildir, as a list echoes its posts to its subscribers.
# The distro tree, worktree, build dirs and ccache are boot-lib.sh's (warm
# after the first run), linked into a data dir of the test's own, so that
# its store is fresh and no other test's.

. "$(dirname "$0")/boot-lib.sh"
. "$(dirname "$0")/../lib/smtp-server.sh"

smtp_server_available || skip_all "needs root and postfix for a real SMTP server"

LIST=arm@lists.test
AUTHOR='Jane Doe <jane@example.org>'
BOT=armbot@example.org
ARM61=$SHARED/corpora/arm61
BOT_PID=

# pipeline_setup CHECKS: a fresh store, the SMTP server up, the config
pipeline_setup() {
	PDATA=$TMP/data
	own_data_dir "$PDATA" || return 1
	smtp_server_setup || return 1
	smtp_server_start || return 1
	trap 'pipeline_cleanup; smtp_server_cleanup; rm -rf "$TMP"' EXIT
	LISTDIR=$SMTP_MAILDIR
	mkdir -p "$LISTDIR/new" "$LISTDIR/cur" "$LISTDIR/tmp"
	cat > "$TMP/armbot.conf" <<CONF
[bot]
name = armbot
address = $BOT
[sources]
urls = maildir:$LISTDIR
[web]
port = 0
[smtp]
url = smtp://127.0.0.1:$SMTP_PORT
starttls = never
[defaults]
checks = $1
CONF
}

# start_bot [ENV=VALUE...]: armbot run in the background, log in $TMP/run.log
# ($RUN_OPTIONS: more options of armbot run; --allow-root: CI runs as root)
start_bot() {
	env "$@" "$ARMBOT" --data-dir "$PDATA" run --allow-root \
		--config "$TMP/armbot.conf" ${RUN_OPTIONS:-} \
		>> "$TMP/run.log" 2>&1 &
	BOT_PID=$!
}

stop_bot() {
	[ -n "$BOT_PID" ] || return 0
	kill -TERM "$BOT_PID" 2>/dev/null
	wait "$BOT_PID" 2>/dev/null
	BOT_PID=
}

# wait_bot_exit SECONDS: wait for a bot that kills itself (crashpoints)
wait_bot_exit() {
	_i=0
	while kill -0 "$BOT_PID" 2>/dev/null; do
		[ $_i -lt $(($1 * 10)) ] || return 1
		sleep 0.1
		_i=$((_i + 1))
	done
	wait "$BOT_PID" 2>/dev/null
	BOT_PID=
}

# The list's copies of armbot's replies to Message-ID $1 (files; the
# author's copy lands in the same maildir, with its own Delivered-To).
replies_to() {
	grep -l -x -F "In-Reply-To: <$1>" "$LISTDIR"/new/* "$LISTDIR"/cur/* \
		2>/dev/null | xargs -r grep -l -i "^From: armbot <$BOT>" 2>/dev/null |
		xargs -r grep -l -i -x "Delivered-To: $LIST" 2>/dev/null
}

count_replies_to() {
	replies_to "$1" | wc -l | tr -d ' '
}

# wait_replies ID N SECONDS
wait_replies() {
	_i=0
	while [ "$(count_replies_to "$1")" -lt "$2" ]; do
		[ $_i -lt $(($3 * 2)) ] || return 1
		sleep 0.5
		_i=$((_i + 1))
	done
}

# wait_log PATTERN SECONDS: wait until $TMP/run.log has a line matching
# PATTERN (grep's); 1 if it has none by then
wait_log() {
	_i=0
	while ! grep -q "$1" "$TMP/run.log"; do
		[ $_i -lt $(($2 * 2)) ] || return 1
		sleep 0.5
		_i=$((_i + 1))
	done
}

# post ID [make-series.pl options] PATCH...: the list distributes a series
post() {
	_id=$1
	shift
	perl "$(dirname "$0")/../lib/make-series.pl" --id "$_id" \
		--from "$AUTHOR" --list "$LIST" --maildir "$LISTDIR" "$@"
}

pipeline_cleanup() {
	if [ -n "$BOT_PID" ]; then
		kill -KILL "$BOT_PID" 2>/dev/null
		wait "$BOT_PID" 2>/dev/null
	fi
}
