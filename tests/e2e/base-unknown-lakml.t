#!/bin/sh
# A list operator's first day: `armbot run` follows a real week of
# linux-arm-kernel (June 2020) in a public-inbox served by
# public-inbox-httpd on 127.0.0.1 and replies through a real Postfix whose
# maildir stands for the list.  The only followed tree is the distro tree
# (6.1), where almost none of the week's series has its base.  A series
# whose base is unknown and that does not apply at the head is not tested:
# nothing is mailed for it (unknown-base = silent, the default), and the
# web page and /api say why.  Only series whose base was found (blob ids
# of the patches in the tree) are tested and answered.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/imap-server.sh"
. "$TOP/tests/lib/public-inbox-server.sh"
need_corpus corpora/lakml/lakml-2020-06-14.mbox.xz
. "$(dirname "$0")/boot-lib.sh"
. "$TOP/tests/lib/smtp-server.sh"

pi_available || skip_all "public-inbox missing (make deps)"
smtp_server_available || skip_all "needs root and postfix for a real SMTP server"
command -v curl > /dev/null || skip_all "curl missing (make deps)"

XZ=$SHARED/corpora/lakml/lakml-2020-06-14.mbox.xz
xz -dc "$XZ" > "$TMP/lakml.mbox"
pi_build lakml "$TMP/lakml.mbox" "$(sha256sum "$XZ" | cut -c1-16)" \
	> "$TMP/build.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/build.log"; skip_all "cannot build the inbox"; }
pi_start || skip_all "public-inbox servers do not start"
# the SMTP server takes mail for every domain of the week's senders and
# for the list's host, so that a reply to the author, Cc the list, is
# delivered (and counted) as it would be
set --
for d in $(grep -i '^From:.*@' "$TMP/lakml.mbox" |
	sed -n 's/.*@\([A-Za-z0-9.-]*[A-Za-z0-9]\).*/\1/p' |
	tr 'A-Z' 'a-z' | sort -u) lists.infradead.org; do
	set -- "$@" --domain "$d"
done
smtp_server_setup "$@" && smtp_server_start || skip_all "cannot start postfix"
BOT_PID=
trap 'kill -TERM $BOT_PID 2>/dev/null; wait $BOT_PID 2>/dev/null; pi_stop; smtp_server_cleanup; rm -rf "$TMP"' EXIT

# a fresh store; the distro tree (imported once) linked in
PDATA=$TMP/data
mkdir -p "$PDATA"
ln -s "$DATA/trees" "$PDATA/trees"
cat > "$TMP/armbot.conf" <<CONF
[bot]
name = armbot
address = armbot@example.org
[sources]
urls = $(pi_http_url)?since=20200601
[web]
port = 0
[smtp]
url = smtp://127.0.0.1:$SMTP_PORT
starttls = never
[defaults]
checks = apply;dirstat
list-cap = 0
CONF
"$ARMBOT" --data-dir "$PDATA" run --allow-root --config "$TMP/armbot.conf" \
	> "$TMP/run.log" 2>&1 &
BOT_PID=$!

# until every ready series has a finished job
ready=0
i=0
while [ $i -lt 600 ]; do
	sleep 1
	i=$((i + 1))
	"$ARMBOT" --data-dir "$PDATA" status > "$TMP/status" 2>/dev/null || continue
	grep -q "^  \(queued\|running\) " "$TMP/status" && continue
	done=$(sed -n '/^jobs/,/^[a-z]/s/^  done  *\([0-9]*\)$/\1/p' "$TMP/status")
	[ -n "$done" ] && [ "$done" -gt 100 ] && break
done
sleep 3
sed 's/^/# /' "$TMP/status"
URL=$(sed -n 's/.*web pages at \(http[^ ]*\).*/\1/p' "$TMP/run.log" | head -1)
URL=${URL%/}
[ -n "$URL" ]; ok $? "the web server is up ($URL)"

"$ARMBOT" --data-dir "$PDATA" series --json > "$TMP/series.json"
curl -s "$URL/api/series?per_page=200&page=1" > "$TMP/api1.json"
curl -s "$URL/api/series?per_page=200&page=2" > "$TMP/api2.json"
python3 - "$TMP" > "$TMP/facts" <<'PY'
import json, sys
tmp = sys.argv[1]
ready = [s["id"] for s in json.load(open(tmp + "/series.json"))
	 if s["state"] not in ("incomplete", "superseded")]
api = {}
for f in ("api1.json", "api2.json"):
	d = json.load(open(tmp + "/" + f))
	for s in d["series"]:
		api[s["id"]] = s
not_tested = [i for i in ready if api.get(i, {}).get("state") == "not-tested"]
reasons = [j.get("not_tested") or "" for i in not_tested
	   for j in api[i]["jobs"]]
tested = [i for i in ready if api.get(i, {}).get("state") == "reported"]
print("ready", len(ready))
print("listed", sum(1 for i in ready if i in api))
print("not_tested", len(not_tested))
print("tested", len(tested))
print("reasons_ok", sum(1 for r in reasons if "base is unknown" in r))
print("reasons", len(reasons))
print("example", not_tested[0] if not_tested else 0)
PY
sed 's/^/# /' "$TMP/facts"
fact() { sed -n "s/^$1 //p" "$TMP/facts"; }
ready=$(fact ready)
[ "$ready" -gt 100 ]; ok $? "the week's complete series were assembled ($ready)"
is "$(fact listed)" "$ready" "every complete series is on /api/series"
is "$(( $(fact not_tested) + $(fact tested) ))" "$ready" \
	"every complete series is either tested or not tested"
[ "$(fact not_tested)" -gt 100 ]; ok $? "most are not tested: their base is not in the tree ($(fact not_tested))"
is "$(fact reasons_ok)" "$(fact reasons)" "each says why: its base is unknown"

# /api/series/ID says which blobs were not found; the page says it too
ex=$(fact example)
curl -s "$URL/api/series/$ex" > "$TMP/one.json"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(j["not_tested"]); print(j["base_reason"])' "$TMP/one.json" > "$TMP/one.txt"
grep -q "pre-image blobs" "$TMP/one.txt"; ok $? "/api/series/$ex: the base reason names the blobs not found"
sed 's/^/# /' "$TMP/one.txt"
curl -s "$URL/series/$ex" | grep -q "not-tested"
ok $? "/series/$ex shows why it was not tested"

# the list got a reply for each tested series and for nothing else
sleep 5
bot_mails=$(grep -l -i "^From: armbot <armbot@example.org>" "$SMTP_MAILDIR"/new/* "$SMTP_MAILDIR"/cur/* 2>/dev/null | wc -l)
replies=$(grep -l -i "^From: armbot <armbot@example.org>" "$SMTP_MAILDIR"/new/* "$SMTP_MAILDIR"/cur/* 2>/dev/null |
	xargs -r grep -h -i "^Message-ID:" | sort -u | wc -l)
diag "$bot_mails copies of $replies replies delivered for $(fact tested) tested series"
is "$replies" "$(fact tested)" "one reply per tested series, none for the untested"
grep -l -i "^From: armbot <armbot@example.org>" "$SMTP_MAILDIR"/new/* "$SMTP_MAILDIR"/cur/* 2>/dev/null |
	xargs -r grep -l "^  apply  *FAIL" > "$TMP/fail-mails"
is "$(wc -l < "$TMP/fail-mails")" 0 "no apply FAIL is mailed for a series whose base was not found"
done_testing
