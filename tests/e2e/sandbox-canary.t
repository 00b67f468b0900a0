#!/bin/sh
# A series whose Makefile tries to read the bot's secrets (issue 19, item
# 2): drivers/base/power/Makefile gets a $(info) and an $(error) of
# $(shell cat ...) of a canary in the daemon's $HOME, in the data dirs (the
# one of the test's store and the one holding the trees, worktrees and
# build dirs) and a password file.  armbot run checks it as any series:
# the build fails where the Makefile stops it, the reply says so, and the
# canary is in no reply, log, store, daemon log or web page, because the
# sandbox shows the build none of those files (the build log has cat's
# "No such file or directory" for each).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/pipeline-lib.sh"
PYTHON3=/usr/bin/python3

pipeline_setup "apply;dirstat;sparse;boot;rpm" || skip_all "cannot start postfix"
CANARY=armbot-canary-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
# outside /tmp (the sandbox's /tmp is its own): where a sandbox that
# showed the host would let the build read them
SECRETS=$ARMBOT_CACHE_DIR/e2e-canary.$$
HOMEDIR=$SECRETS/home
DATA_CANARY=$DATA/canary.$$
mkdir -p "$HOMEDIR" && chmod 700 "$SECRETS"
echo "$CANARY home" > "$HOMEDIR/canary"
echo "$CANARY data" > "$DATA_CANARY"
echo "$CANARY store" > "$PDATA/canary"
(umask 077 && echo "$CANARY password" > "$SECRETS/password")
trap 'pipeline_cleanup; smtp_server_cleanup; rm -rf "$TMP" "$SECRETS" "$DATA_CANARY"' EXIT
READ="\$(HOME)/canary $HOMEDIR/canary $DATA_CANARY $PDATA/canary $SECRETS/password"

# the patch, as git format-patch writes it (index lines: its base is
# found), on the distro tree's head
F=drivers/base/power/Makefile
G=$TMP/g
git clone -q --shared --no-checkout "$REPO" "$G" &&
	git -C "$G" reset -q "$(git -C "$REPO" rev-parse distro)" &&
	git -C "$G" checkout -q HEAD -- "$F" || fail "clone the distro tree"
cat >> "$G/$F" <<MK
\$(info armbot-test: \$(shell cat $READ 2>&1))
\$(error \$(shell cat $READ))
MK
git -C "$G" -c user.name=Test -c user.email=test@example.org \
	commit -q -m "PM: runtime: read the bot's secrets" -- "$F" &&
	git -C "$G" format-patch -q -1 -o "$TMP/fp" || fail "make the patch"

start_bot HOME="$HOMEDIR"
post cn "$TMP"/fp/*.patch
wait_replies cn.1@example.org 1 900
ok $? "a reply arrives on the list"
reply=$(replies_to cn.1@example.org | head -1)
[ -n "$reply" ] || { sed 's/^/# /' "$TMP/run.log"; done_testing; exit; }
sed -n '/^Hi /,/^To reproduce/p' "$reply" | sed 's/^/# /'
grep -q "^  build  *FAIL" "$reply"; ok $? "build: FAIL"
grep -qx "| $F:[0-9]*: \*\*\* (the Makefile's message is not quoted)" "$reply"
ok $? "the reply says where the series' Makefile stopped the build"

# the Makefile ran and could not read them
log=$(ls "$PDATA"/logs/series-*/distro-6.1/build-series.log 2>/dev/null | head -1)
[ -n "$log" ]; ok $? "the series' build log is kept"
n=$(grep -c "cat: .*: No such file or directory" "${log:-/dev/null}")
[ "$n" -ge 5 ]; ok $? "in it, cat found none of the 5 files ($n lines)"

# the web pages, while the daemon still serves them
url=$(sed -n 's/.* web pages at //p' "$TMP/run.log" | tail -1)
curl -s -f "$url/api/series" > "$TMP/api.json"
ok $? "the daemon serves /api/series"
id=$("$PYTHON3" -c 'import json, sys; print(json.load(open(sys.argv[1]))["series"][0]["id"])' "$TMP/api.json")
mkdir -p "$TMP/web"
for p in / "/series/$id" "/api/series/$id" /feed.atom /metrics; do
	curl -s -f "$url$p" > "$TMP/web/$(echo "$p" | tr / _).out"
	ok $? "the daemon serves $p"
done
sleep 2
stop_bot

# nowhere: replies (the list's maildir), the store, logs, outbox, the
# daemon's log, the pages; only the canary files themselves hold it
where=$(grep -rlF "$CANARY" "$LISTDIR" "$PDATA" "$TMP/run.log" "$TMP/web" "$DATA/logs" 2>/dev/null |
	grep -vx -e "$PDATA/canary")
is "$where" "" "the canary is in no reply, log, store or page"
done_testing
