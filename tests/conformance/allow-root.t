#!/bin/sh
# The daemons do not run as root unless told: `armbot run` and `armbot
# serve` as root exit 1 with why and how to override, before anything is
# made in the data dir; with --allow-root they go on (a warning first);
# another user is not asked for anything.  Run as root (CI), or as root of
# a user namespace (unshare -r) otherwise.
. "$(dirname "$0")/../lib/tap.sh"

if [ "$(id -u)" = 0 ]; then
	AS_ROOT=
elif unshare -r true 2>/dev/null; then
	AS_ROOT="unshare -r"
else
	skip_all "not root, and no user namespace to be root in (unshare -r)"
fi
unset ARMBOT_CONFIG
export XDG_CONFIG_HOME="$TMP/xdg"
SERVE=
trap '[ -n "$SERVE" ] && kill $SERVE 2>/dev/null; rm -rf "$TMP"' EXIT

for cmd in run serve; do
	case $cmd in
	run) why="it reads mail from anyone and builds the patches in it" ;;
	serve) why="it answers HTTP from anyone" ;;
	esac
	$AS_ROOT "$ARMBOT" --data-dir "$TMP/data" $cmd > "$TMP/out" 2> "$TMP/err"
	is "$?" 1 "armbot $cmd as root exits 1"
	cat > "$TMP/want" <<EOF
error: armbot $cmd refuses to run as root: $why, and the files it makes in the data dir would belong to root
hint: run it as a service user, e.g. 'sudo -u armbot armbot $cmd' (README: Running as a service user), or pass --allow-root to run it as root anyway
EOF
	is_file "$TMP/want" "$TMP/err" "armbot $cmd as root: why, and how to override"
	[ ! -e "$TMP/data" ]
	ok $? "armbot $cmd as root: no data dir made"
	"$ARMBOT" help $cmd > "$TMP/help" 2>&1
	grep -q -- "--allow-root" "$TMP/help"
	ok $? "armbot help $cmd shows --allow-root"
done

# --allow-root: run goes on to its configuration (invalid here, so that
# it stops there), serve serves
mkdir -p "$TMP/conf"
printf '[bot]\nnmae = x\n' > "$TMP/conf/armbot.conf"
$AS_ROOT "$ARMBOT" --data-dir "$TMP/data" run --allow-root \
	--config "$TMP/conf/armbot.conf" > "$TMP/out" 2> "$TMP/err"
is "$?" 1 "run --allow-root with an invalid configuration: exits 1"
is "$(head -1 "$TMP/err")" "warning: armbot run running as root (--allow-root)" \
	"run --allow-root: a warning"
grep -q "unknown key 'nmae' in \[bot\]" "$TMP/err"
ok $? "run --allow-root: it went on to check the configuration"
$AS_ROOT "$ARMBOT" --data-dir "$TMP/data" serve --allow-root \
	--listen 127.0.0.1:0 > "$TMP/serve.out" 2> "$TMP/serve.err" &
SERVE=$!
for _i in $(seq 100); do
	grep -q "^serving http://127.0.0.1:" "$TMP/serve.out" && break
	sleep 0.1
done
grep -q "^serving http://127.0.0.1:" "$TMP/serve.out"
ok $? "serve --allow-root serves ($(cat "$TMP/serve.out"))"
kill -TERM $SERVE
wait $SERVE
is "$?" 0 "and stops on SIGTERM"
SERVE=

# another user is not refused: run stops at the configuration, not at
# the root check
if [ "$(id -u)" = 0 ]; then
	chmod 711 "$TMP"
	chmod 755 "$TMP/conf"
	chmod 644 "$TMP/conf/armbot.conf"
	AS_USER="setpriv --reuid=nobody --regid=nogroup --clear-groups"
else
	AS_USER=
fi
if $AS_USER test -x "$ARMBOT"; then
	$AS_USER env HOME=/nonexistent "$ARMBOT" --data-dir "$TMP/nobody" run \
		--config "$TMP/conf/armbot.conf" > "$TMP/out" 2> "$TMP/err"
	is "$?" 1 "run as another user, an invalid configuration: exits 1"
	grep -q "refuses to run as root" "$TMP/err"
	is "$?" 1 "not refused as root"
	grep -q "unknown key 'nmae' in \[bot\]" "$TMP/err"
	ok $? "it checked the configuration"
else
	skip "$ARMBOT is not executable by nobody"
fi
done_testing
