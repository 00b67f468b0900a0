# Shared by the web tests: a store made from real git format-patch mail
# (subjects and names as a stranger could write them), the pipeline rows
# for it, and `armbot serve` on a free loopback port.
#
#   web_make_store DIR      DIR/data holds the store; with $WEB_LIST_ID
#                           set, each mail comes with List-Id <$WEB_LIST_ID>;
#                           $WEB_DAY0 (a Sunday, default 2020-06-14) dates
#                           the base, the series follow on Monday to
#                           Wednesday
#   web_start DATA_DIR [SERVE-OPTION...]   sets WEB_URL and WEB_PID
#   web_stop                SIGTERM, waits; sets WEB_STATUS

WEB_SCRIPT='<script>alert(1)</script> ARM: foo: remove dead board code'
WEB_IMG='"><img src=x onerror=alert(2)> ARM: bar: grow plat-bar'
WEB_AUTHOR='Eve "quoted" O'"'"'Neil & Co'
PYTHON=/usr/bin/python3

_web_lines() {	# _web_lines FILE FROM TO: lines FROM..TO, numbered
	seq "$2" "$3" | sed 's/^/int line_/; s/$/;/' > "$1"
}

# Commits on top of the base, dated $1: the "<script>" one shrinks
# arch/arm/mach-foo by $2 lines, the next grows arch/arm/plat-bar.
_web_series_commits() {
	_web_lines arch/arm/mach-foo/board.c 1 $((200 - $2))
	git add -A && GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" \
		git commit -qm "$WEB_SCRIPT"
	_web_lines arch/arm/plat-bar/irq.c 1 80
	git add -A && GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" \
		git commit -qm "ARM: bar: more irq lines"
}

_web_day() {	# _web_day N: $WEB_DAY0 + N days, at 09:00 UTC
	date -u -d "${WEB_DAY0:-2020-06-14} + $1 day" +%Y-%m-%dT09:00:00Z
}

web_make_store() {
	_dir=$1
	mkdir -p "$_dir/repo" "$_dir/mail" "$_dir/data"
	(
		cd "$_dir/repo" || exit 1
		git init -q -b master .
		git config user.name "$WEB_AUTHOR"
		git config user.email eve@example.org
		mkdir -p arch/arm/mach-foo arch/arm/plat-bar drivers
		_web_lines arch/arm/mach-foo/board.c 1 200
		_web_lines arch/arm/plat-bar/irq.c 1 40
		_web_lines drivers/x.c 1 10
		git add -A && GIT_AUTHOR_DATE=$(_web_day 0) \
			GIT_COMMITTER_DATE=$(_web_day 0) \
			git commit -qm base
		git tag base
		git checkout -q -b v1 base
		_web_series_commits $(_web_day 1) 60
		git format-patch -q -o ../mail/v1 base..v1
		git checkout -q -b v2 base
		_web_series_commits $(_web_day 2) 70
		git format-patch -q -v2 -o ../mail/v2 base..v2
		git checkout -q -b img base
		_web_lines arch/arm/plat-bar/irq.c 1 52
		git add -A && GIT_AUTHOR_DATE=$(_web_day 3) \
			GIT_COMMITTER_DATE=$(_web_day 3) \
			git commit -qm "$WEB_IMG"
		git format-patch -q -o ../mail/img base..img
	) || return 1
	if [ -n "${WEB_LIST_ID:-}" ]; then
		sed -i "0,/^Subject:/s//List-Id: A list <$WEB_LIST_ID>\n&/" \
			"$_dir"/mail/*/* || return 1
	fi
	"$ARMBOT" --data-dir "$_dir/data" ingest "$_dir"/mail/v1/* \
		"$_dir"/mail/v2/* "$_dir"/mail/img/* > /dev/null &&
	"$PYTHON" "$TOP/tests/lib/web-fill.py" "$ARMBOT" "$_dir/data" > /dev/null
}

web_start() {
	_data=$1
	shift
	: > "$TMP/serve.out"
	"$ARMBOT" --data-dir "$_data" serve --allow-root --listen 127.0.0.1:0 \
		"$@" > "$TMP/serve.out" 2> "$TMP/serve.err" &
	WEB_PID=$!
	WEB_URL=
	for _i in $(seq 100); do
		WEB_URL=$(sed -n 's/^serving //p' "$TMP/serve.out")
		[ -n "$WEB_URL" ] && return 0
		kill -0 $WEB_PID 2>/dev/null || break
		sleep 0.1
	done
	cat "$TMP/serve.err" | sed 's/^/# /'
	return 1
}

web_stop() {
	kill -TERM "$WEB_PID" 2>/dev/null
	wait "$WEB_PID"
	WEB_STATUS=$?
}

# web_stop_clean: web_stop, and two tests: the server exited 0 on SIGTERM
# and wrote nothing to standard error (but the --allow-root warning)
web_stop_clean() {
	web_stop
	is "$WEB_STATUS" 0 "SIGTERM stops the server cleanly"
	! grep -v -x "warning: armbot serve running as root (--allow-root)" \
		"$TMP/serve.err" > /dev/null
	ok $? "nothing on standard error (but the --allow-root warning as root)"
	sed 's/^/# /' "$TMP/serve.err" | head -20
}
