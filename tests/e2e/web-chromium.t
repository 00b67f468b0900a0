#!/bin/sh
# The pages of a real `armbot serve` as headless Chromium renders them: the
# DOM has the hostile subjects as text (no script or img element made of
# them), the series page its parts, checks, reply and chart, and the
# lakml week's store (when ../shared is there) its 50 newest series a
# page.  The series page shows each patch's diff coloured (spans by line
# kind) beside its signed dirstat bars, links each Message-ID to its
# archive through [web] archive-url, names the list by its address and
# gives the base and the commands to reproduce.  Screenshots are kept in
# $WEB_ARTEFACTS (default build/test-artefacts/web) and their paths
# printed as TAP diagnostics.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/web.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip_all "chromium not installed"
ART=${WEB_ARTEFACTS:-$TOP/build/test-artefacts/web}
mkdir -p "$ART"

# No network but loopback: no QUIC, no background fetches, no updates.
browse() {	# browse dump|shot URL OUT
	_profile=$(mktemp -d "$TMP/profile.XXXXXX")
	_mode=$1 _url=$2 _out=$3
	set -- --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$_profile"
	if [ "$_mode" = dump ]; then
		timeout 60 "$CHROMIUM" "$@" --dump-dom "$_url" \
			> "$_out" 2> "$TMP/chromium.err"
	else
		timeout 60 "$CHROMIUM" "$@" --window-size=1400,1600 \
			--hide-scrollbars --screenshot="$_out" "$_url" \
			> /dev/null 2> "$TMP/chromium.err"
	fi
	_rc=$?
	rm -rf "$_profile"
	[ "$_mode" = shot ] && [ -s "$_out" ] && echo "# screenshot: $_out"
	return $_rc
}

# What the rendered DOM holds: element names, and the text of the given
# elements by CSS class or id, through Python's HTML parser.
dom() {	# dom FILE
	"$PYTHON" - "$1" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.stack, self.text = set(), [], {}
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        a = dict(attrs)
        key = a.get("id") or (a.get("class") or "").split(" ")[0]
        self.stack.append(key)
    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()
    def handle_data(self, data):
        for k in self.stack:
            if k:
                self.text.setdefault(k, []).append(data)
p = P()
p.feed(open(sys.argv[1]).read())
print("tags", " ".join(sorted(p.tags & {"script", "img", "svg", "table", "iframe"})))
for k in ("subject", "author", "error", "count", "verdict", "reply"):
    for t in p.text.get(k, []):
        print(k, t.strip().splitlines()[0] if t.strip() else "")
PY
}

web_make_store "$TMP/w" || { fail "store made from format-patch mail"; done_testing; exit; }
cat > "$TMP/armbot.conf" <<'EOF'
[web]
archive-url = linux-arm-kernel@lists.infradead.org https://lore.kernel.org/linux-arm-kernel/%s/;* https://lore.kernel.org/all/%s/
EOF
web_start "$TMP/w/data" --config "$TMP/armbot.conf" || { fail "armbot serve starts"; done_testing; exit; }
V2=$("$ARMBOT" --data-dir "$TMP/w/data" series | awk '$3 == "v2" { print $1 }')

browse dump "$WEB_URL/" "$TMP/index.dom"
ok $? "chromium renders /"
dom "$TMP/index.dom" > "$TMP/index.txt"
is "$(sed -n 's/^tags //p' "$TMP/index.txt")" "table" \
	"no script or img element on / (only the table)"
grep -qxF "subject $WEB_SCRIPT" "$TMP/index.txt"
ok $? "the <script> subject is shown as text"
grep -qxF "subject $WEB_IMG" "$TMP/index.txt"
ok $? "the \"><img onerror> subject is shown as text"
grep -qxF "author $WEB_AUTHOR <eve@example.org>" "$TMP/index.txt"
ok $? "the author is shown as written"

browse dump "$WEB_URL/series/$V2" "$TMP/series.dom"
dom "$TMP/series.dom" > "$TMP/series.txt"
is "$(sed -n 's/^tags //p' "$TMP/series.txt")" "svg table" \
	"the series page has its chart and tables, no script or img"
grep -qxF "subject $WEB_SCRIPT" "$TMP/series.txt"
ok $? "the series page's title is the subject as text"
grep -qx 'verdict This series shrinks arch/arm by 30 lines (+40 -70).' "$TMP/series.txt"
ok $? "the verdict is shown"
grep -q '<rect [^>]*data-value="-' "$TMP/series.dom"
ok $? "the signed dirstat chart has a bar for removal"
grep -qx 'reply From: armbot <armbot@example.org>' "$TMP/series.txt"
ok $? "the reply is shown as sent"

# the patches: diff lines by kind, bars beside, archive links, reproduce
is "$(grep -c '<article class="patch"' "$TMP/series.dom")" 2 \
	"one article per patch of v2 (two)"
grep -q '<span class="d-file">diff --git a/arch/arm/mach-foo/board.c b/arch/arm/mach-foo/board.c' "$TMP/series.dom"
ok $? "the diff has its file header line"
grep -q '<span class="d-hunk">@@ -' "$TMP/series.dom"
ok $? "the diff has hunk headers"
grep -q '<span class="d-del">-int line_200;' "$TMP/series.dom"
ok $? "a removed line is coloured as removed"
grep -q '<span class="d-add">+int line_80;' "$TMP/series.dom"
ok $? "an added line is coloured as added"
grep -q '<span class="d-ctx"> int line_' "$TMP/series.dom"
ok $? "context lines are context"
grep -q '<svg[^>]*id="patch-dirstat-1"' "$TMP/series.dom" &&
	grep -q '<aside class="patch-dirstat"><p>1 files, +0 -70</p>' "$TMP/series.dom"
ok $? "patch 1's own signed dirstat bars beside its diff (+0 -70)"
"$PYTHON" - "$TMP/series.dom" > "$TMP/links.txt" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("class") == "archive":
            print(a["href"])
P().feed(open(sys.argv[1]).read())
PY
MIDS=$("$PYTHON" -c 'import sqlite3,sys; [print(r[0]) for r in sqlite3.connect(sys.argv[1]).execute("SELECT message_id FROM series_members WHERE series_id = ? AND position > 0 ORDER BY position", (int(sys.argv[2]),))]' "$TMP/w/data/store.sqlite" "$V2")
N=0 OKS=0
for m in $MIDS; do
	m=${m#<}; m=${m%>}
	N=$((N + 1))
	grep -qxF "https://lore.kernel.org/all/$m/" "$TMP/links.txt" && OKS=$((OKS + 1))
done
is "$OKS/$N" "2/2" "each Message-ID of the series links to its archive (the '*' template: no List-Id)"
grep -q '<pre id="repro-steps">git checkout -b test ' "$TMP/series.dom"
ok $? "reproduce: checkout of the base"
grep -qF "curl -sSf $WEB_URL/series/$V2/mbox | git am" "$TMP/series.dom" &&
	grep -q 'b4 am -o - -v 2 ' "$TMP/series.dom" &&
	grep -q 'make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- O=build' "$TMP/series.dom"
ok $? "reproduce: b4 am, the mbox, the build"

browse shot "$WEB_URL/" "$ART/index.png" && [ -s "$ART/index.png" ]
ok $? "screenshot of / ($ART/index.png)"
browse shot "$WEB_URL/series/$V2" "$ART/series.png" && [ -s "$ART/series.png" ]
ok $? "screenshot of /series/$V2"
browse shot "$WEB_URL/arch-arm" "$ART/arch-arm.png" && [ -s "$ART/arch-arm.png" ]
ok $? "screenshot of /arch-arm"
web_stop
is "$WEB_STATUS" 0 "the server stops cleanly"

# the lakml week
LAKML=$SHARED/corpora/lakml/lakml-2020-06-14.mbox.xz
if [ -e "$LAKML" ]; then
	mkdir -p "$TMP/l"
	xz -dc "$LAKML" > "$TMP/l/lakml.mbox"
	"$ARMBOT" --data-dir "$TMP/l" ingest "$TMP/l/lakml.mbox" > /dev/null &&
		"$PYTHON" "$TOP/tests/lib/web-fill.py" "$ARMBOT" "$TMP/l" 60 > /dev/null
	ok $? "the lakml week ingested, 60 series given pipeline rows"
	ALL=$("$ARMBOT" --data-dir "$TMP/l" series --all | wc -l)
	web_start "$TMP/l" --config "$TMP/armbot.conf"
	browse dump "$WEB_URL/" "$TMP/lakml.dom"
	is "$(grep -c '<tr class="series"' "$TMP/lakml.dom")" 50 "50 series a page"
	grep -q "<p id=\"count\">$ALL series, page 1 of $(((ALL + 49) / 50))</p>" "$TMP/lakml.dom"
	ok $? "the count says all $ALL series"
	browse dump "$WEB_URL/?state=reported&per_page=200" "$TMP/reported.dom"
	R=$(sqlite3 "$TMP/l/store.sqlite" "SELECT count(*) FROM series WHERE state = 'reported'" 2> /dev/null ||
		"$PYTHON" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM series WHERE state = '"'reported'"'").fetchone()[0])' "$TMP/l/store.sqlite")
	is "$(grep -c '<tr class="series"' "$TMP/reported.dom")" "$R" \
		"the state filter shows the $R reported series"
	browse dump "$WEB_URL/arch-arm" "$TMP/arch.dom"
	grep -q '<tr class="week"><td>2020-06-15</td>' "$TMP/arch.dom"
	ok $? "/arch-arm has the week of 15 June 2020"
	browse shot "$WEB_URL/" "$ART/lakml-index.png" && [ -s "$ART/lakml-index.png" ]
	ok $? "screenshot of the lakml week's /"
	browse shot "$WEB_URL/arch-arm" "$ART/lakml-arch-arm.png"
	ok $? "screenshot of the lakml week's /arch-arm"
	# a real series of the list: its page names the list by address and
	# links to lore's linux-arm-kernel archive
	LS=$("$PYTHON" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT s.id FROM series s WHERE s.total >= 2 AND s.received = s.total AND EXISTS (SELECT 1 FROM jobs j WHERE j.series_id = s.id) ORDER BY s.id LIMIT 1").fetchone()[0])' "$TMP/l/store.sqlite")
	browse dump "$WEB_URL/series/$LS" "$TMP/lakml-series.dom"
	grep -q '<dd class="list"><span class="list" title="List-Id: [^"]*linux-arm-kernel\.lists\.infradead\.org[^"]*">linux-arm-kernel@lists\.infradead\.org</span>' "$TMP/lakml-series.dom"
	ok $? "series $LS names its list linux-arm-kernel@lists.infradead.org"
	grep -q '<a class="archive" href="https://lore.kernel.org/linux-arm-kernel/' "$TMP/lakml-series.dom"
	ok $? "its Message-IDs link to lore's linux-arm-kernel archive"
	[ "$(grep -c '<span class="d-add">' "$TMP/lakml-series.dom")" -gt 0 ]
	ok $? "its diffs have added lines coloured"
	browse shot "$WEB_URL/series/$LS" "$ART/lakml-series.png"
	ok $? "screenshot of lakml series $LS"
	web_stop
else
	skip "corpus lakml not present (../shared)"
fi
done_testing
