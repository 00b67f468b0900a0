#!/bin/sh
# armbot run on a series that breaks a board: the real series of
# pipeline-boards.t that deletes the clocks of vexpress-a9's console UART
# (git format-patch from the imported distro tree) arrives on the list;
# the daemon boots virt and vexpress-a9, replies that vexpress-a9 FAILs,
# stores the board's result (the store part boards), and shows it on the
# series page's board table and in /api/series/1's jobs[].boards, which
# fits tests/data/web/series.schema.json.  The builds are boot-lib.sh's
# (warm: ~1 min for the series; cold: ~8 min per kernel).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/pipeline-lib.sh"
. "$(dirname "$0")/boards-lib.sh"
PYTHON=/usr/bin/python3

"$PYTHON" -c 'import jsonschema' 2> /dev/null ||
	skip_all "python3-jsonschema not installed"
pipeline_setup "apply;dirstat;boot;rpm;boards" || skip_all "cannot start postfix"

format_dts_patch "$VEXPRESS_DTS" "$UART_NO_CLOCKS" \
	"ARM: dts: vexpress-v2p-ca9: drop the clocks of UART0" "$TMP/noclk.patch"
ok $? "git format-patch: the series that drops UART0's clocks"

start_bot
post b1 "$TMP/noclk.patch"
start=$(date +%s)
wait_replies b1.1@example.org 1 900
ok $? "a reply arrives on the list"
diag "reply after $(( $(date +%s) - start )) s"
reply=$(replies_to b1.1@example.org | head -1)
if [ -n "$reply" ]; then
	sed -n '/^$/,$p' "$reply" > "$TMP/body"
	sed 's/^/# /' "$TMP/body"
fi
grep -q "^  boot  *FAIL  userspace at [0-9.]* s\( (the base's kernel)\)\{0,1\}; fails on vexpress-a9\$" "$TMP/body"
ok $? "the reply: the boot check FAILs for vexpress-a9"
grep -q "^  boot vexpress-a9 FAIL " "$TMP/body"
ok $? "the reply: vexpress-a9's line"

url=$(sed -n 's/.* web pages at //p' "$TMP/run.log" | tail -1)
curl -s -f "$url/api/series/1" > "$TMP/api.json"
ok $? "/api/series/1 answers"
"$PYTHON" "$TOP/tests/lib/web-validate.py" \
	"$TOP/tests/data/web/series.schema.json" "$TMP/api.json"
ok $? "/api/series/1 fits tests/data/web/series.schema.json"
is "$("$PYTHON" -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
b = j["boards"]
print(len(b), b[0]["board"], b[0]["status"], b[0]["reason"].endswith("→ vexpress-a9"),
      b[0]["detail"].startswith("Board vexpress-a9 (qemu-system-arm -M vexpress-a9"),
      b[0]["seconds"] > 0, [c["status"] for c in j["checks"] if c["name"] == "boot"])' "$TMP/api.json")" \
	"1 vexpress-a9 fail True True True ['fail']" \
	"/api/series/1: the job's one board, vexpress-a9, failed; the boot check too"
curl -s -f "$url/series/1" > "$TMP/page.html"
ok $? "/series/1 answers"
tr -d '\n' < "$TMP/page.html" |
	grep -q '<h3>boards</h3><table class="boards" id="boards-[0-9]*">.*<tr class="board"><td>vexpress-a9</td><td class="status fail">fail</td>'
ok $? "the series page's board table: vexpress-a9 failed"
grep -q '<summary>console</summary><pre class="log">Board vexpress-a9 (qemu-system-arm -M vexpress-a9' "$TMP/page.html"
ok $? "with what its console showed folded under it"
stop_bot
done_testing
