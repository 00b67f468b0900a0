#!/bin/sh
# Results where the community reads them (issue 23).  armbot run checks a
# real 2-patch ARM series (arm61 corpus) on the distro tree (apply, build,
# boot, the runtime-PM KUnit suite; sparse is off to keep it short) with
# [kcidb] export and patchwork-url in the [list arm@lists.test] group:
#  - the KCIDB document it writes validates with python3-jsonschema against
#    tests/data/kcidb/kcidb-v4.5.schema.json (written from kcidb-io's
#    documentation) and says what the reply says; a broken copy does not
#    validate, so the validation can fail;
#  - a small server of patchwork's REST API (tests/lib/patchwork-server.py,
#    refusing what patchwork refuses) gets one check per patch and armbot
#    check, with the right state, context, target URL and token; a patch
#    patchwork learns of only later gets its checks on a later attempt;
#    git-pw
#    (Debian's 2.0.0, which has no command for checks) reads the patches
#    back from it.
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61
. "$(dirname "$0")/pipeline-lib.sh"
PYTHON3=/usr/bin/python3
SCHEMA=$TOP/tests/data/kcidb/kcidb-v4.5.schema.json
VALIDATE="$PYTHON3 $TOP/tests/lib/kcidb-validate.py"
$PYTHON3 -c 'import jsonschema' 2>/dev/null || skip_all "python3-jsonschema not installed"

pipeline_setup "apply;dirstat;boot;rpm" || skip_all "cannot start postfix"
TOKEN=0123456789abcdef0123456789abcdef01234567
printf '%s\n' "$TOKEN" > "$TMP/pw-token"
chmod 600 "$TMP/pw-token"
"$PYTHON3" "$TOP/tests/lib/patchwork-server.py" "$TMP/pw-port" "$TOKEN" \
	"s7.1@example.org=11" "@$TMP/pw-later" 2> "$TMP/pw.log" &
PW_PID=$!
i=0
while [ ! -s "$TMP/pw-port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
PW=http://127.0.0.1:$(cat "$TMP/pw-port")
trap 'kill $PW_PID 2>/dev/null; pipeline_cleanup; smtp_server_cleanup; rm -rf "$TMP"' EXIT

# the test server refuses what patchwork refuses
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
CHECK='{"state":"success","context":"armbot-apply","description":"x"}'
is "$(code -X POST -H 'Content-Type: application/json' -d "$CHECK" "$PW/api/1.2/patches/11/checks/")" 403 "patchwork server: no token, 403"
is "$(code -X POST -H "Authorization: Token x$TOKEN" -d "$CHECK" "$PW/api/1.2/patches/11/checks/")" 401 "patchwork server: a wrong token, 401"
is "$(code -X POST -H "Authorization: Token $TOKEN" -d "$CHECK" "$PW/api/1.2/patches/99/checks/")" 404 "patchwork server: an unknown patch, 404"
is "$(code -X POST -H "Authorization: Token $TOKEN" -d '{"state":"ok","context":"armbot-apply"}' "$PW/api/1.2/patches/11/checks/")" 400 "patchwork server: an unknown state, 400"
is "$(code -X POST -H "Authorization: Token $TOKEN" -d '{"state":"success","context":"armbot/apply"}' "$PW/api/1.2/patches/11/checks/")" 400 "patchwork server: a context that is not a slug, 400"
is "$(curl -s "$PW/api/1.2/patches/11/checks/")" "[]" "patchwork server: none of them was stored"

PUBLIC=http://127.0.0.1:$("$PYTHON3" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -i "s|^port = 0\$|port = ${PUBLIC##*:}\nbase-url = $PUBLIC|" "$TMP/armbot.conf"
cat >> "$TMP/armbot.conf" <<CONF
[kcidb]
export = yes
[list $LIST]
patchwork-url = $PW/
patchwork-token-file = $TMP/pw-token
CONF
"$ARMBOT" config check --config "$TMP/armbot.conf" > "$TMP/check.out" 2>&1
ok $? "armbot config check accepts [kcidb] and [list LIST] patchwork-url"
sed 's/^/# /' "$TMP/check.out"

start_bot
post s7 "$ARM61/meson-6.1/onecloud-0001-add-dts.patch" \
	"$ARM61/meson-6.1/onecloud-0002-dts-Support-HDMI.patch"
start=$(date +%s)
wait_replies s7.1@example.org 1 900
ok $? "a reply arrives on the list"
diag "reply after $(( $(date +%s) - start )) s"
reply=$(replies_to s7.1@example.org | head -1)
[ -n "$reply" ] || { sed 's/^/# /' "$TMP/run.log"; done_testing; exit; }

# KCIDB
doc=$(ls "$PDATA"/logs/series-*/distro-6.1/kcidb.json 2>/dev/null | head -1)
[ -n "$doc" ]; ok $? "a KCIDB document beside the series' logs"
id=$(echo "$doc" | sed 's#.*/series-\([0-9]*\)/.*#\1#')
$VALIDATE "$SCHEMA" "$doc" > "$TMP/valid.out" 2>&1
ok $? "it validates against the KCIDB v4.5 schema"
sed 's/^/# /' "$TMP/valid.out"
"$PYTHON3" - "$doc" "$id" "$PUBLIC" > "$TMP/facts" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sid, pub = sys.argv[2], sys.argv[3]
c = d["checkouts"][0]
print("version", d["version"]["major"], d["version"]["minor"])
print("checkout", c["id"], c["origin"], c["tree_name"], c.get("valid"))
print("hash", len(c.get("git_commit_hash", "")), len(c.get("patchset_hash", "")))
print("mbox", c["patchset_files"][0]["url"] == pub + "/series/" + sid + "/mbox")
print("msgid", c.get("message_id"))
for b in d["builds"]:
    print("build", b["id"], b["architecture"], b["config_name"], b.get("valid"), "compiler" in b)
tests = {t["path"]: t["status"] for t in d["tests"]}
print("boot", tests.get("boot"))
print("kunit", tests.get("kunit"))
k = [p for p in tests if p.startswith("kunit.")]
print("cases", len(k), sorted(set(tests[p] for p in k)))
print("ids", all(x["id"].startswith("armbot:") for x in d["builds"] + d["tests"]))
PY
sed 's/^/# /' "$TMP/facts"
grep -qx "version 4 5" "$TMP/facts"; ok $? "KCIDB: schema version 4.5"
grep -qx "checkout armbot:s$id-distro-6.1 armbot distro-6.1 True" "$TMP/facts"; ok $? "KCIDB: one checkout, origin armbot, the series applied"
grep -qx "hash 40 64" "$TMP/facts"; ok $? "KCIDB: base commit and patchset hash"
grep -qx "mbox True" "$TMP/facts"; ok $? "KCIDB: the patchset file is the series' mbox URL"
grep -qx "msgid s7.1@example.org" "$TMP/facts"; ok $? "KCIDB: the Message-ID of the series"
grep -q "^build armbot:s$id-distro-6.1-rpm-virt arm rpm-virt True True$" "$TMP/facts"; ok $? "KCIDB: the rpm-virt build, valid, with its compiler"
grep -qx "boot PASS" "$TMP/facts"; ok $? "KCIDB: boot PASS"
grep -qx "kunit PASS" "$TMP/facts"; ok $? "KCIDB: the runtime-PM suite PASS"
grep -q "^cases [1-9][0-9]* \['PASS'\]$" "$TMP/facts"; ok $? "KCIDB: one test per KUnit case, each PASS"
grep -qx "ids True" "$TMP/facts"; ok $? "KCIDB: every id is armbot:..."
# negative: what breaks the schema is caught
"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["tests"][0]["status"] = "OK"
del d["builds"][0]["origin"]
d["checkouts"][0]["git_commit_hash"] = "xyz"
json.dump(d, open(sys.argv[2], "w"))' "$doc" "$TMP/broken.json"
$VALIDATE "$SCHEMA" "$TMP/broken.json" > "$TMP/broken.out" 2>&1
[ $? -eq 1 ]; ok $? "a broken document does not validate"
is "$(wc -l < "$TMP/broken.out" | tr -d ' ')" 3 "its three errors are named"
sed 's/^/# /' "$TMP/broken.out"
curl -s -f "$PUBLIC/api/series/$id/kcidb" > "$TMP/served.json" && cmp -s "$TMP/served.json" "$doc"
ok $? "the daemon serves it at /api/series/$id/kcidb"

# patchwork: patch 12 is unknown to it at first
i=0
while [ $i -lt 60 ]; do
	grep -q "patchwork: series $id <s7.2@example.org> armbot-[a-zA-Z-]*: patchwork has no patch <s7.2@example.org> (yet) (will retry)" "$TMP/run.log" && break
	sleep 0.5
	i=$((i + 1))
done
grep -q "patchwork: series $id <s7.2@example.org> armbot-[a-zA-Z-]*: patchwork has no patch <s7.2@example.org> (yet) (will retry)" "$TMP/run.log"
ok $? "patchwork: a patch it has not seen yet is retried later"
is "$(curl -s -o /dev/null -w '%{http_code}' "$PW/api/1.2/patches/12/checks/")" 404 "patchwork: patch 12 is not known yet, nor has a check"
echo "s7.2@example.org=12" > "$TMP/pw-later"
i=0
while [ $i -lt 300 ]; do
	n=$(curl -s "$PW/api/1.2/patches/12/checks/" | "$PYTHON3" -c 'import json,sys; print(len(json.load(sys.stdin)))')
	[ "$n" -ge 4 ] && break
	sleep 0.5
	i=$((i + 1))
done
for p in 11 12; do
	curl -s "$PW/api/1.2/patches/$p/checks/" | "$PYTHON3" -c '
import json, sys
for c in json.load(sys.stdin):
    print(c["context"], c["state"], c["target_url"])' > "$TMP/checks-$p"
	sed 's/^/# /' "$TMP/checks-$p"
	is "$(wc -l < "$TMP/checks-$p" | tr -d ' ')" 4 "patchwork: patch $p has 4 checks (sparse did not run)"
	for c in apply build boot runtime-PM; do
		grep -qx "armbot-$c success $PUBLIC/series/$id" "$TMP/checks-$p"
		ok $? "patchwork: patch $p armbot-$c success, target the series page"
	done
done
is "$(grep -c 'POST /api/1.2/patches/1[12]/checks/ HTTP/1.1" 201' "$TMP/pw.log")" 8 "patchwork: armbot's 8 posts were accepted (201)"
is "$(grep -c '"POST [^"]*" 40[0-9] ' "$TMP/pw.log")" 5 "patchwork: no post refused but the 5 bad ones above"
(cd "$TMP" && git-pw --server "$PW/api/1.2" --token "$TOKEN" --project arm patch show 12) > "$TMP/gitpw" 2>&1
ok $? "git-pw patch show reads the patch from the server"
grep -q "s7.2@example.org" "$TMP/gitpw"; ok $? "git-pw: it is <s7.2@example.org>"
sed 's/^/# /' "$TMP/gitpw"
stop_bot
done_testing
