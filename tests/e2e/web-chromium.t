#!/bin/sh
# The pages of a real `armbot serve` as headless Chromium renders them: the
# DOM has the hostile subjects as text (no script or img element made of
# them), the series page its parts, checks, reply and chart, and the
# lakml week's store (when ../shared is there) its 50 newest series a
# page.  Screenshots are kept in $WEB_ARTEFACTS (default
# build/test-artefacts/web).
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/web.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip_all "chromium not installed"
ART=${WEB_ARTEFACTS:-$TOP/build/test-artefacts/web}
mkdir -p "$ART"

browse() {	# browse dump|shot URL OUT
	_profile=$(mktemp -d "$TMP/profile.XXXXXX")
	if [ "$1" = dump ]; then
		timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
			--user-data-dir="$_profile" --dump-dom "$2" \
			> "$3" 2> "$TMP/chromium.err"
	else
		timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
			--user-data-dir="$_profile" --window-size=1400,1600 \
			--hide-scrollbars --screenshot="$3" "$2" \
			> /dev/null 2> "$TMP/chromium.err"
	fi
	_rc=$?
	rm -rf "$_profile"
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
web_start "$TMP/w/data" || { fail "armbot serve starts"; done_testing; exit; }
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
	web_start "$TMP/l"
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
	web_stop
else
	skip "corpus lakml not present (../shared)"
fi
done_testing
