#!/bin/sh
# armbot serve over a store made from git format-patch mail whose subjects
# and names are hostile: every page escapes them, the JSON matches its
# schema, the Atom feed parses, only GET and HEAD are served, and
# malformed or slow clients and a bounded load do not stop the server.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/web.sh"

command -v curl > /dev/null || skip_all "curl not installed"
"$PYTHON" -c 'import jsonschema' 2> /dev/null ||
	skip_all "python3-jsonschema not installed"

web_make_store "$TMP/w" || { fail "store made from format-patch mail"; done_testing; exit; }
pass "store made from format-patch mail"
web_start "$TMP/w/data" || { fail "armbot serve starts"; done_testing; exit; }
pass "armbot serve starts"
U=$WEB_URL

get() {	# get PATH OUT: prints the status
	curl -s -o "$2" -w '%{http_code}' "$U$1"
}

is "$(get / "$TMP/index.html")" 200 "/ answers"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt; ARM: foo' "$TMP/index.html"
ok $? "the <script> subject is escaped on /"
grep -q '&quot;&gt;&lt;img src=x onerror=alert(2)&gt;' "$TMP/index.html"
ok $? "the \"><img onerror> subject is escaped on /"
! grep -q '<script\|<img' "$TMP/index.html"
ok $? "no script or img element on /"
grep -q 'Eve &quot;quoted&quot; O&#39;Neil &amp; Co' "$TMP/index.html"
ok $? "the author's quotes and ampersand are escaped"

# the ids: v1 superseded by v2, and the img series
"$ARMBOT" --data-dir "$TMP/w/data" series --all > "$TMP/series.txt"
V1=$(awk '$2 == "superseded" { print $1 }' "$TMP/series.txt")
V2=$(awk '$3 == "v2" { print $1 }' "$TMP/series.txt")
IMG=$(grep 'onerror' "$TMP/series.txt" | cut -f1)
is "$(echo $V1 $V2 $IMG | wc -w)" 3 "three series: v1, v2 and the img one"

# the stage times the daemon records (bot/store/timing.h): v2's job
# queued 2 s, applied in 0.3 s, built in 12.5 s; the img one applied in 0.7 s
"$PYTHON" - "$TMP/w/data/store.sqlite" "$IMG" "$V2" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
job = lambda s: db.execute("SELECT id FROM jobs WHERE series_id = ?", (s,)).fetchone()[0]
v1, v2 = job(int(sys.argv[2])), job(int(sys.argv[3]))
for j, stage, pos, secs in ((v2, "build", 5, 12.5), (v2, "queue", 0, 2),
                            (v2, "apply", 1, 0.3), (v1, "apply", 1, 0.7)):
    db.execute("INSERT INTO stage_times (job_id, stage, position, seconds)"
               " VALUES (?, ?, ?, ?)", (j, stage, pos, secs))
# the boards the pipeline booted besides virt (bot/store/boards.h): v2's
# job broke vexpress-a9 (a hostile console line) and selected sabrelite
for pos, board, status, summary, reason, detail, secs in (
        (0, "vexpress-a9", "fail", "no userspace",
         "touches arch/arm/boot/dts/vexpress-v2p-ca9.dts → vexpress-a9",
         "Board vexpress-a9: no userspace\n| <script>alert(3)</script>\n", 41.5),
        (1, "sabrelite", "skipped", "not booted here: not built or booted yet",
         "touches arch/arm/mach-imx/pm-imx6.c → sabrelite", None, 0)):
    db.execute("INSERT INTO job_boards (job_id, position, board, status,"
               " summary, reason, detail, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (v2, pos, board, status, summary, reason, detail, secs))
db.commit()
PY
ok $? "stage times written for v2 and the img series, and v2's boards"

is "$(get /series/$V2 "$TMP/v2.html")" 200 "/series/<v2> answers"
tr -d '\n' < "$TMP/v2.html" | grep -q '<h3>timing</h3><table class="stages" id="stages-[0-9]*"><thead><tr><th>stage</th><th>seconds</th></tr></thead><tbody><tr class="stage"><td>queue</td><td>2.0</td></tr><tr class="stage"><td>apply</td><td>0.3</td></tr><tr class="stage"><td>build</td><td>12.5</td></tr></tbody></table></section>'
ok $? "the series page shows its job's stage times in pipeline order"
tr -d '\n' < "$TMP/v2.html" | grep -q '<h3>boards</h3><table class="boards" id="boards-[0-9]*"><thead><tr><th>board</th><th>result</th><th>summary</th><th>selected because</th><th>seconds</th></tr></thead><tbody><tr class="board"><td>vexpress-a9</td><td class="status fail">fail</td><td>no userspace</td><td>touches arch/arm/boot/dts/vexpress-v2p-ca9.dts → vexpress-a9</td><td>41.5</td></tr><tr><td colspan="5"><details><summary>console</summary><pre class="log">Board vexpress-a9: no userspace| &lt;script&gt;alert(3)&lt;/script&gt;</pre></details></td></tr><tr class="board"><td>sabrelite</td><td class="status skipped">skipped</td><td>not booted here: not built or booted yet</td>'
ok $? "the series page has a board table: vexpress-a9 failed (console escaped), sabrelite not booted"
grep -q "<dd id=\"supersedes\"><a href=\"/series/$V1\">" "$TMP/v2.html"
ok $? "v2 links to the series it supersedes"
get /series/$V1 "$TMP/v1.html" > /dev/null
grep -q "<dd id=\"superseded-by\"><a href=\"/series/$V2\">" "$TMP/v1.html"
ok $? "v1 links to the series that supersedes it"
grep -q '<svg[^>]*id="dirstat-chart-' "$TMP/v2.html"
ok $? "the signed dirstat is drawn as SVG"
grep -q 'This series shrinks arch/arm by 30 lines (+40 -70)' "$TMP/v2.html"
ok $? "the verdict armbot dirstat gave is shown"
grep -q '<pre class="reply">From: armbot' "$TMP/v2.html"
ok $? "the reply as sent is shown"
grep -q '<h1 id="subject">&lt;script&gt;' "$TMP/v2.html"
ok $? "the series page escapes the subject"

# the series as an mbox: what the reply's "To reproduce" pipes into git am
grep -q "<p id=\"mbox\"><a href=\"/series/$V2/mbox\">mbox</a>" "$TMP/v2.html"
ok $? "the series page links to its mbox"
is "$(curl -s -o "$TMP/v2.mbox" -w '%{http_code} %{content_type}' "$U/series/$V2/mbox")" \
	"200 application/mbox" "/series/<v2>/mbox answers with an mbox"
"$ARMBOT" --data-dir "$TMP/w/data" series --mbox "$V2" > "$TMP/v2-cli.mbox"
cmp -s "$TMP/v2.mbox" "$TMP/v2-cli.mbox"
ok $? "it is armbot series --mbox, byte for byte"
git clone -q "$TMP/w/repo" "$TMP/am" && git -C "$TMP/am" checkout -q -b test base &&
	curl -sSf "$U/series/$V2/mbox" |
	git -C "$TMP/am" -c user.name=T -c user.email=t@example.org am -q
ok $? "curl | git am applies it to the base"
is "$(git -C "$TMP/am" rev-parse HEAD^{tree})" "$(git -C "$TMP/w/repo" rev-parse v2^{tree})" \
	"git am of it gives v2's tree"
is "$(git -C "$TMP/am" log --format=%s base..HEAD | tail -1)" "$WEB_SCRIPT" \
	"the hostile subject goes through as written"
is "$(get /series/99999/mbox "$TMP/x")" 404 "the mbox of an unknown series is 404"
is "$(get /series/0/mbox "$TMP/x")" 404 "the mbox of series 0 is 404"
is "$(get /series/$V2/mbox/x "$TMP/x")" 404 "a path below the mbox is 404"
is "$(curl -s -o /dev/null -w '%{http_code}' -I "$U/series/$V2/mbox")" 200 "HEAD of the mbox is served"

is "$(get /arch-arm "$TMP/arch.html")" 200 "/arch-arm answers"
grep -q '<td>arch/arm/mach-foo/</td><td>1</td><td>+0</td><td>-70</td><td class="net">-70</td>' "$TMP/arch.html"
ok $? "mach-foo shrinks by v2's 70 lines (v1 superseded, not counted)"
grep -q '<tr class="week"><td>2020-06-15</td><td>2</td><td>+52</td><td>-70</td><td class="net">-18</td></tr>' "$TMP/arch.html"
ok $? "the week of 15 June: v2 (-30) and the img series (+12)"
grep -q '<td>arch/arm/plat-bar/</td><td>2</td><td>+52</td><td>-0</td><td class="net">+52</td>' "$TMP/arch.html"
ok $? "plat-bar grows by 40 + 12 lines over two series"
xmllint --noout --html "$TMP/arch.html" 2> /dev/null
ok $? "/arch-arm parses as HTML"

# JSON against the schemas in the repository
is "$(get '/api/series?per_page=200' "$TMP/list.json")" 200 "/api/series answers"
"$PYTHON" "$TOP/tests/lib/web-validate.py" \
	"$TOP/tests/data/web/series-list.schema.json" "$TMP/list.json"
ok $? "/api/series matches series-list.schema.json"
for id in $V1 $V2 $IMG; do get /api/series/$id "$TMP/s$id.json" > /dev/null; done
"$PYTHON" "$TOP/tests/lib/web-validate.py" \
	"$TOP/tests/data/web/series.schema.json" "$TMP"/s*.json
ok $? "/api/series/<id> matches series.schema.json"
is "$("$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["subject"], "|", d["state"], d["jobs"], d["superseded_by"])' "$TMP/s$V1.json")" \
	"$WEB_SCRIPT | superseded [] [$V2]" "the JSON keeps the subject as written"
is "$("$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); j=d["jobs"][0]; print(j["net"], j["verdict_detail"]["directories"][0]["path"], [c["status"] for c in j["checks"]][:2])' "$TMP/s$V2.json")" \
	"-30 arch/arm/mach-foo/ ['ok', 'ok']" "the JSON carries the verdict figures and checks"
is "$("$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print([(b["board"], b["status"], b["seconds"]) for b in d["jobs"][0]["boards"]], d["jobs"][0]["boards"][0]["detail"].splitlines()[1])' "$TMP/s$V2.json")" \
	"[('vexpress-a9', 'fail', 41.5), ('sabrelite', 'skipped', 0.0)] | <script>alert(3)</script>" \
	"the JSON carries the job's boards, in order, the console as written"
sed 's/"state":"reported"/"state":"no-such-state"/' "$TMP/s$V2.json" > "$TMP/bad.json"
"$PYTHON" "$TOP/tests/lib/web-validate.py" \
	"$TOP/tests/data/web/series.schema.json" "$TMP/bad.json" > /dev/null
[ $? -ne 0 ]
ok $? "the schema rejects a state that does not exist"

# Atom
is "$(get /feed.atom "$TMP/feed.xml")" 200 "/feed.atom answers"
xmllint --noout "$TMP/feed.xml"
ok $? "the feed is well-formed XML"
is "$("$PYTHON" - "$TMP/feed.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
A = "{http://www.w3.org/2005/Atom}"
feed = ET.parse(sys.argv[1]).getroot()
assert feed.tag == A + "feed"
for e in feed.findall(A + "entry"):
    for k in ("id", "title", "updated", "link", "summary", "content"):
        assert e.find(A + k) is not None, k
print(len(feed.findall(A + "entry")), sorted(e.find(A + "title").text[:8] for e in feed.findall(A + "entry")))
PY
)" "2 ['\"><img s', '<script>']" "the feed has one entry per reply, titles as written"

get /metrics "$TMP/metrics.txt" > /dev/null
grep -q '^armbot_queue_length 0$' "$TMP/metrics.txt" &&
grep -q '^armbot_series{state="reported"} 2$' "$TMP/metrics.txt" &&
grep -q '^armbot_check_duration_seconds_count{check="apply"} 2$' "$TMP/metrics.txt"
ok $? "/metrics: queue, series by state, check durations"
grep -q '^# TYPE armbot_stage_duration_seconds histogram$' "$TMP/metrics.txt" &&
grep -q '^armbot_stage_duration_seconds_count{stage="apply",tree="distro-6.1"} 2$' "$TMP/metrics.txt" &&
grep -q '^armbot_stage_duration_seconds_bucket{stage="apply",tree="distro-6.1",le="0.5"} 1$' "$TMP/metrics.txt" &&
grep -q '^armbot_stage_duration_seconds_bucket{stage="apply",tree="distro-6.1",le="1"} 2$' "$TMP/metrics.txt" &&
grep -q '^armbot_stage_duration_seconds_sum{stage="apply",tree="distro-6.1"} 1$' "$TMP/metrics.txt" &&
grep -q '^armbot_stage_duration_seconds_bucket{stage="build",tree="distro-6.1",le="10"} 0$' "$TMP/metrics.txt" &&
grep -q '^armbot_stage_duration_seconds_bucket{stage="build",tree="distro-6.1",le="30"} 1$' "$TMP/metrics.txt" &&
grep -q '^armbot_stage_duration_seconds_bucket{stage="queue",tree="distro-6.1",le="+Inf"} 1$' "$TMP/metrics.txt"
ok $? "/metrics: stage durations per stage and tree as histograms"

# no write endpoints, errors and nothing else
for m in POST PUT DELETE PATCH OPTIONS; do
	is "$(curl -s -o /dev/null -w '%{http_code}' -X $m "$U/")" 405 "$m is refused"
done
curl -s -D "$TMP/h" -o /dev/null -X POST "$U/api/series"
grep -qi '^Allow: GET, HEAD' "$TMP/h"
ok $? "405 says what is allowed"
is "$(curl -s -o /dev/null -w '%{http_code}' -I "$U/")" 200 "HEAD is served"
is "$(get /nope "$TMP/x")" 404 "an unknown page is 404"
is "$(get /series/99999 "$TMP/x")" 404 "an unknown series is 404"
is "$(get /series/1x "$TMP/x")" 404 "a series id that is not a number is 404"
is "$(get '/api/series?page=abc' "$TMP/x")" 400 "a bad page number is 400"
"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["status"] == 400' "$TMP/x"
ok $? "the API's errors are JSON"
is "$(get '/?per_page=100000' "$TMP/x")" 400 "per_page is bounded"
is "$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$TMP/list.json" -X GET "$U/")" 413 \
	"a request body is refused"
is "$(get "/?author=$(head -c 5000 /dev/zero | tr '\0' a)" "$TMP/x")" 414 \
	"an overlong request target is refused"

# malformed HTTP and slow clients, straight on the socket
PORT=${U##*:}
"$PYTHON" - "$PORT" > "$TMP/raw.txt" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
def ask(data, wait=2.0):
    s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    try:
        s.sendall(data)
        return s.recv(200).split(b"\r\n")[0].decode(errors="replace")
    except Exception as e:
        return type(e).__name__
    finally:
        s.close()
print("garbage", ask(b"GARBAGE\r\n\r\n"))
print("nul", ask(b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n"))
print("version", ask(b"GET / HTTP/9.9\r\nHost: x\r\n\r\n"))
print("huge", ask(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300000 + b"\r\n\r\n"))
slow = []
for i in range(40):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET / HTTP/1.1\r\nHo")
    slow.append(s)
t = time.time()
print("while-slow", ask(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"), time.time() - t < 2)
for s in slow:
    s.close()
PY
grep -q '^garbage HTTP/1.[01] 400' "$TMP/raw.txt"
ok $? "a garbage request line gets 400"
grep -q '^nul HTTP/1.[01] 400' "$TMP/raw.txt"
ok $? "a NUL in the request target gets 400"
grep -q '^version HTTP/1.[01] \(400\|505\)' "$TMP/raw.txt"
ok $? "an unknown HTTP version is refused"
grep -q '^huge HTTP/1.1 431 Request Header Fields Too Large$' "$TMP/raw.txt"
ok $? "a 300 kB header gets 431 (tests/conformance/web-limits.t: the other limits)"
grep -q '^while-slow HTTP/1.1 200 OK True' "$TMP/raw.txt"
ok $? "40 slow clients do not hold up a request"
sed 's/^/# /' "$TMP/raw.txt"

# a bounded load: 300 requests over 4 parallel curl loops
: > "$TMP/codes"
LOADERS=
for k in 1 2 3 4; do
	(for i in $(seq 75); do
		case $((i % 3)) in
		0) p=/ ;; 1) p=/api/series ;; 2) p=/series/$V2 ;;
		esac
		curl -s -o /dev/null -w '%{http_code}\n' "$U$p"
	done >> "$TMP/codes.$k") &
	LOADERS="$LOADERS $!"
done
wait $LOADERS
cat "$TMP"/codes.* > "$TMP/codes"
is "$(sort -u "$TMP/codes")" 200 "300 requests under load all answered 200"
is "$(wc -l < "$TMP/codes" | tr -d ' ')" 300 "every request of the load answered"
is "$(get /metrics "$TMP/x")" 200 "the server still answers after all that"

web_stop_clean
done_testing
