#!/bin/sh
# Boots on LAVA (qemu/runner.h): a real LAVA 2023.01 instance from the
# Debian packages on loopback, armbot run checks a real ARM series with the
# distro tree's boot-runner = lava, and the runtime-PM results equal those
# of the local runner (armbot check) on the same series.  Then the server
# cancels a third series' job: the reply says so and does not blame the
# kernel.  Then the server is stopped while a second series' job runs:
# that series falls back to the local runner (lava-fallback = local) and
# is replied to exactly once, its boot never reported as the kernel's
# failure.
#
# The LAVA recipe (what it took here, in a container without systemd):
# - apt-get install lava-server lava-dispatcher: the postinst creates the
#   lavaserver user and a secret key, and policy-rc.d (exit 101) keeps it
#   from starting services; it needs no running PostgreSQL (its database
#   step is skipped without /etc/lava-server/instance.conf).
# - PostgreSQL 15 in a temporary cluster as lavaserver (initdb -A trust),
#   listening on a Unix socket in $TMP only (listen_addresses='').
# - lava-server's settings (lava_server/settings/prod.py) read
#   /etc/lava-server/settings.{conf,yaml}, settings.d/*.yaml and then the
#   environment: LAVA_YAML_SETTINGS_<NAME> (YAML values) overrides any
#   setting, so DATABASES, DEVICES_PATH, HEALTH_CHECKS_PATH and MEDIA_ROOT
#   point into $TMP and nothing under /etc is written.
# - lava-server manage migrate; users add; tokens add (the API token);
#   workers add (the worker's token is read back with manage shell);
#   device-types add qemu; devices add; the device dictionary
#   ($TMP/devices/qemu-01.jinja2) extends qemu.jinja2; devices update
#   --health GOOD.
# - the server: lava-server manage runserver 127.0.0.1:PORT (Django's, no
#   apache), lava-server manage lava-scheduler, and lava-worker --url
#   http://127.0.0.1:PORT/ --token ... (as root, as its unit runs it).
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61

[ "$(id -u)" = 0 ] || skip_all "needs root (lava-worker runs qemu as root, runuser for PostgreSQL)"
for tool in lava-server lava-worker runuser; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] || skip_all "postgresql not installed"
id lavaserver >/dev/null 2>&1 || skip_all "no lavaserver user (lava-server's postinst did not run)"

. "$(dirname "$0")/pipeline-lib.sh"
PYTHON3=/usr/bin/python3
free_port() {
	"$PYTHON3" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pipeline_setup "apply;dirstat;boot;rpm" || skip_all "cannot start postfix"
L=$TMP/lava
LAVA_PIDS=
# each daemon was started in a session of its own (setsid): the session is
# what is killed, with lava-worker's lava-run and qemu children
lava_cleanup() {
	for p in $LAVA_PIDS; do
		pkill -TERM -s "$p" 2>/dev/null
	done
	sleep 1
	for p in $LAVA_PIDS; do
		pkill -KILL -s "$p" 2>/dev/null
	done
	[ -d "$L/pg" ] && runuser -u lavaserver -- "$PGBIN/pg_ctl" -D "$L/pg" -m immediate stop >/dev/null 2>&1
}
trap 'lava_cleanup; pipeline_cleanup; smtp_server_cleanup; rm -rf "$TMP"' EXIT

# --- LAVA on loopback ---
mkdir -p "$L/pg" "$L/sock" "$L/devices" "$L/hc" "$L/media" "$L/worker" "$L/logs"
chown lavaserver "$L/pg" "$L/sock" "$L/logs"
chmod 755 "$TMP" "$L"
runuser -u lavaserver -- "$PGBIN/initdb" -D "$L/pg" -A trust -U lava > "$L/logs/initdb.log" 2>&1 &&
	runuser -u lavaserver -- "$PGBIN/pg_ctl" -D "$L/pg" -l "$L/logs/pg.log" \
		-o "-k $L/sock -c listen_addresses=''" -w start > /dev/null &&
	"$PGBIN/createdb" -h "$L/sock" -U lava lavaserver
ok $? "PostgreSQL in a temporary cluster on a Unix socket" || {
	sed 's/^/# /' "$L/logs/initdb.log" "$L/logs/pg.log"; done_testing; exit; }

export LAVA_YAML_SETTINGS_DATABASES="{default: {ENGINE: django.db.backends.postgresql, NAME: lavaserver, USER: lava, HOST: \"$L/sock\", PORT: \"\"}}"
export INSTANCE_NAME=armbot-test SECRET_KEY=armbot-test-secret-key
export ALLOWED_HOSTS=127.0.0.1,localhost
export LAVA_YAML_SETTINGS_DEVICES_PATH="\"$L/devices\""
export LAVA_YAML_SETTINGS_HEALTH_CHECKS_PATH="\"$L/hc\""
export LAVA_YAML_SETTINGS_MEDIA_ROOT="\"$L/media/\""
M="lava-server manage"
$M migrate > "$L/logs/migrate.log" 2>&1
ok $? "lava-server manage migrate" || { tail -20 "$L/logs/migrate.log" | sed 's/^/# /'; done_testing; exit; }
$M users add admin --superuser --staff --passwd "$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')" > /dev/null 2>&1 &&
	$M tokens add --user admin 2> /dev/null | tail -1 > "$L/token" &&
	$M workers add w1 > /dev/null 2>&1 &&
	$M device-types add qemu > /dev/null 2>&1 &&
	$M devices add --device-type qemu --worker w1 qemu-01 > /dev/null 2>&1 &&
	printf "{%% extends 'qemu.jinja2' %%}\n" > "$L/devices/qemu-01.jinja2" &&
	$M devices update --health GOOD qemu-01 > /dev/null 2>&1
ok $? "an admin and its token, a worker, a qemu device"
chmod 600 "$L/token"
[ "$(wc -c < "$L/token")" -gt 20 ]; ok $? "the API token was made"
WTOKEN=$($M shell -c "from lava_scheduler_app.models import Worker; print(Worker.objects.get(hostname='w1').token)" 2> /dev/null | tail -1)

PORT=$(free_port)
start_lava_server() {
	setsid $M runserver --noreload "127.0.0.1:$PORT" >> "$L/logs/server.log" 2>&1 &
	SERVER_PID=$!
	LAVA_PIDS="$LAVA_PIDS $SERVER_PID"
	_i=0
	until curl -s -f -o /dev/null "http://127.0.0.1:$PORT/api/v0.2/"; do
		[ $_i -lt 120 ] || return 1
		sleep 0.5
		_i=$((_i + 1))
	done
}
start_lava_server
ok $? "lava-server runs on 127.0.0.1:$PORT"
setsid $M lava-scheduler --log-file "$L/logs/scheduler.log" > /dev/null 2>&1 &
LAVA_PIDS="$LAVA_PIDS $!"
setsid lava-worker --name w1 --url "http://127.0.0.1:$PORT/" --token "$WTOKEN" \
	--worker-dir "$L/worker" --log-file "$L/logs/worker.log" > /dev/null 2>&1 &
LAVA_PIDS="$LAVA_PIDS $!"
api() {
	curl -s -f -H "Authorization: Token $(cat "$L/token")" "http://127.0.0.1:$PORT/api/v0.2/$1"
}
i=0
until api devices/qemu-01/ | grep -q '"state":"Idle"' &&
	api workers/w1/ | grep -q '"state":"Online"'; do
	[ $i -lt 120 ] || break
	sleep 0.5
	i=$((i + 1))
done
api workers/w1/ | grep -q '"state":"Online"'
ok $? "the worker is online, the device idle"

# --- armbot boots a series on LAVA ---
mkdir -p "$TMP/trees.d"
cat > "$TMP/trees.d/distro-6.1.conf" <<CONF
[tree]
boot-runner = lava
lava-url = http://127.0.0.1:$PORT/
lava-token-file = $L/token
lava-fallback = local
lava-retries = 0
CONF
echo "trees-dir = $TMP/trees.d" > "$TMP/bot-extra"
sed -i "/^\[bot\]\$/r $TMP/bot-extra" "$TMP/armbot.conf"
"$ARMBOT" --data-dir "$PDATA" config check --config "$TMP/armbot.conf" > "$TMP/check.out" 2>&1
ok $? "config check accepts the boot-runner keys" || sed 's/^/# /' "$TMP/check.out"

P1=$ARM61/imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch
P2=$ARM61/imx6-6.1/0007-ARM-dts-imx6q-evi-Fix-onboard-hub-reset-line.patch
start_bot
post l1 "$P1"
# armbot is killed while its first job runs (after the job downloaded the
# files: the token URLs die with the process) and restarted: it follows
# the job whose id it stored instead of submitting it again
i=0
until api jobs/1/logs/ 2>/dev/null | grep -q '"end: 1 deployimages'; do
	[ $i -lt 1200 ] || break
	sleep 0.25
	i=$((i + 1))
done
kill -KILL "$BOT_PID"; wait "$BOT_PID" 2>/dev/null; BOT_PID=
api jobs/1/ | grep -q '"state":"\(Running\|Finished\)"'
ok $? "armbot killed while LAVA job 1 runs"
sqlite3 "$PDATA/store.sqlite" "SELECT key, job_id FROM boot_jobs" > "$TMP/jobs.db" 2>&1
grep -q '^distro-6.1:[0-9a-f]*|1$' "$TMP/jobs.db"; ok $? "the job's id is in the store"
sed 's/^/# store: /' "$TMP/jobs.db"
start_bot
wait_replies l1.1@example.org 1 900
ok $? "a reply to the series booted on LAVA"
reply=$(replies_to l1.1@example.org | head -1)
[ -n "$reply" ] && sed -n '/^$/,$p' "$reply" > "$TMP/body1"
sed 's/^/# /' "$TMP/body1"
grep -q "^  boot  *ok .*(booted on LAVA job [0-9]*, device qemu-01)" "$TMP/body1"
ok $? "the reply says it booted on LAVA, with the job and the device"
grep -q "^  runtime-PM  *ok " "$TMP/body1"; ok $? "runtime-PM: ok"
api jobs/ > "$TMP/jobs.json"
n_jobs=$(grep -o '"health":"Complete"' "$TMP/jobs.json" | wc -l)
is "$n_jobs" 2 "LAVA ran the base's and the series' boots, each once"
is "$(count_replies_to l1.1@example.org)" 1 "one reply"
sqlite3 "$PDATA/store.sqlite" "SELECT count(*) FROM boot_jobs" > "$TMP/jobs.db" 2>&1
is "$(cat "$TMP/jobs.db")" 0 "the jobs read are forgotten by the store"

# the same series on the local runner
stop_bot
CDATA=$TMP/cdata
mkdir -p "$CDATA"
for d in trees worktrees kbuild boot; do ln -s "$DATA/$d" "$CDATA/$d"; done
"$ARMBOT" --data-dir "$CDATA" check --no-sparse --jobs 2 --body "$P1" > "$TMP/body-local" 2> "$TMP/err-local"
grep -q "^  boot  *ok " "$TMP/body-local" && ! grep -q "LAVA" "$TMP/body-local"
ok $? "armbot check boots the same series here"
rpm_line() { sed -n 's/^  runtime-PM  *//p' "$1" | tr -s ' '; }
is "$(rpm_line "$TMP/body1")" "$(rpm_line "$TMP/body-local")" \
	"the runtime-PM results on LAVA equal the local runner's"
# (the local console has the serial line's CRLF, LAVA's lines do not)
ktap_lines() {
	tr -d '\r' < "$1" |
		sed -n 's/^\[ *[0-9.]*\] *//; s/^ *//; /^\(not \)\{0,1\}ok [0-9]* /p' | sort
}
lava_log=$(ls -d "$PDATA"/logs/series-*/distro-6.1/console-series.log 2>/dev/null | head -1)
local_log=$(ls -d "$CDATA"/logs/series-*/distro-6.1/console-series.log 2>/dev/null | head -1)
[ -n "$lava_log" ] && [ -n "$local_log" ] &&
	ktap_lines "$lava_log" > "$TMP/ktap-lava" && ktap_lines "$local_log" > "$TMP/ktap-local" &&
	[ -s "$TMP/ktap-lava" ] && cmp -s "$TMP/ktap-lava" "$TMP/ktap-local"
ok $? "every KTAP result line of the LAVA boot equals the local boot's ($(wc -l < "$TMP/ktap-lava") lines)"

# --- LAVA cancels the series' job: said as such, not as a failure ---
# (the base's job is left to run: its name is job 1's, the distro commit)
start_bot
post l3 "$P2"
base_name=$(api jobs/1/ | "$PYTHON3" -c 'import json, sys; print(json.load(sys.stdin)["description"])')
cancel_id=
i=0
while [ -z "$cancel_id" ] && [ $i -lt 1200 ]; do
	cancel_id=$(api "jobs/?state=Running" 2>/dev/null | BASE="$base_name" "$PYTHON3" -c '
import json, os, sys
for j in json.load(sys.stdin).get("results", []):
    if j["description"] != os.environ["BASE"]:
        print(j["id"]); break' 2>/dev/null)
	[ -n "$cancel_id" ] || sleep 0.5
	i=$((i + 1))
done
[ -n "$cancel_id" ]; ok $? "the series' job runs on LAVA (job ${cancel_id:-none})"
TOKEN=$(cat "$L/token") "$PYTHON3" -c '
import os, sys, xmlrpc.client
s = xmlrpc.client.ServerProxy("http://admin:%s@127.0.0.1:%s/RPC2" % (os.environ["TOKEN"], sys.argv[1]))
s.scheduler.jobs.cancel(int(sys.argv[2]))' "$PORT" "${cancel_id:-0}" 2> "$TMP/cancel.err"
ok $? "LAVA cancels job ${cancel_id:-none} (scheduler.jobs.cancel)" || sed 's/^/# /' "$TMP/cancel.err"
wait_replies l3.1@example.org 1 900
ok $? "the series whose job was canceled is replied to"
reply=$(replies_to l3.1@example.org | head -1)
[ -n "$reply" ] && sed -n '/^$/,$p' "$reply" > "$TMP/body3"
sed 's/^/# /' "$TMP/body3"
grep -q "^  boot  *skipped (LAVA job ${cancel_id:-none} canceled" "$TMP/body3"
ok $? "the reply says LAVA canceled the boot"
grep -q "^  boot  *FAIL\|^  runtime-PM  *FAIL" "$TMP/body3"
is "$?" 1 "a canceled job is not reported as the kernel's failure"
stop_bot

# --- the server stops while a job runs: the series falls back ---
start_bot
post l2 "$P1" "$P2"
i=0
until api jobs/ 2>/dev/null | grep -q '"state":"Running"'; do
	[ $i -lt 1200 ] || break
	sleep 0.5
	i=$((i + 1))
done
api jobs/ | grep -q '"state":"Running"'; ok $? "a job of the second series runs on LAVA"
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null
wait_replies l2.1@example.org 1 900
ok $? "the series is replied to with the server down"
sleep 5
is "$(count_replies_to l2.1@example.org)" 1 "exactly once"
reply=$(replies_to l2.1@example.org | head -1)
[ -n "$reply" ] && sed -n '/^$/,$p' "$reply" > "$TMP/body2"
sed 's/^/# /' "$TMP/body2"
grep -q "^  boot  *ok .*(booted here: \(LAVA job [0-9]* failed in the lab\|the LAVA server failed\))" "$TMP/body2"
ok $? "its boot fell back to the local runner and says so"
grep -q "^  runtime-PM  *ok " "$TMP/body2"; ok $? "not reported as a kernel failure"
grep -q "127.0.0.1:$PORT" "$TMP/body2"; is "$?" 1 "the reply does not name the lab's server"
grep -q "LAVA boot of .*Couldn't connect\|LAVA boot of .*HTTP" "$TMP/run.log"
ok $? "the daemon's log names the infrastructure error"
stop_bot
done_testing
