#!/bin/sh
# The reply says why a series grows arch/arm: a real driver (gpio-mxc)
# copied under arch/arm/mach-imx with its identifiers renamed, functions
# reordered and comments rewritten (tests/lib/similar-mutate.pl) is named
# with its original and the drivers/ folder it belongs in, in a section
# after the dirstat; the verdict line is the dirstat's alone.  The first
# run builds the tree's index into $ARMBOT_CACHE_DIR/similar.
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61
. "$(dirname "$0")/pipeline-lib.sh"

G=$DATA/trees/distro-6.1/repo.git
git -C "$G" rev-parse -q --verify HEAD^{commit} > /dev/null 2>&1 ||
	skip_all "no distro tree in $G"
pipeline_setup "apply;dirstat" || skip_all "cannot start postfix"

git -C "$G" show HEAD:drivers/gpio/gpio-mxc.c |
	perl "$TOP/tests/lib/similar-mutate.pl" mxc brd > "$TMP/copy.c"
n=$(wc -l < "$TMP/copy.c")
P=arch/arm/mach-imx/gpio-brd.c
{
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: %s\nSubject: [PATCH] ARM: imx: brd gpio\n\nA gpio driver for the brd board.\n\n---\n' "$AUTHOR"
	printf 'diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..1111111\n' "$P" "$P"
	printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n' "$P" "$n"
	sed 's/^/+/' "$TMP/copy.c"
	printf -- '-- \n2.39.5\n\n'
} > "$TMP/copy.patch"

start_bot
post c1 "$TMP/copy.patch"
wait_replies c1.1@example.org 1 600
ok $? "a reply arrives on the list"
# the series page and /api say it too
url=$(sed -n 's/.* web pages at //p' "$TMP/run.log" | tail -1)
curl -s -f "$url/api/series/1" > "$TMP/api.json"
ok $? "/api/series/1 answers"
grep -q '"similar" *: *"arch/arm/mach-imx/gpio-brd.c is [0-9]*% similar to drivers/gpio/gpio-mxc.c' "$TMP/api.json"
ok $? "/api/series/1: the near-copy in \"similar\""
python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
	"$TMP/api.json" "$TOP/tests/data/web/series.schema.json"
ok $? "/api/series/1 fits tests/data/web/series.schema.json"
curl -s -f "$url/series/1" > "$TMP/page.html"
grep -q "<h3>why it grows arch/arm</h3>" "$TMP/page.html" &&
	grep -q "gpio-brd.c:[0-9]* implements gpio_chip: such drivers live in drivers/gpio/" "$TMP/page.html"
ok $? "the series page has the section"
stop_bot
reply=$(replies_to c1.1@example.org | head -1)
[ -n "$reply" ] || { sed 's/^/# /' "$TMP/run.log"; done_testing; exit; }
head_end=$(grep -n '^$' "$reply" | head -1 | cut -d: -f1)
sed -n "$((head_end + 1)),\$p" "$reply" > "$TMP/body"
sed 's/^/# /' "$TMP/body"
grep -qx "This series grows arch/arm by $n lines (+$n -0)." "$TMP/body"
ok $? "the verdict line is the dirstat's"
grep -qx "Why it grows arch/arm:" "$TMP/body"
ok $? "a section says why"
pct=$(sed -n "s|^$P is \([0-9]*\)% similar to drivers/gpio/gpio-mxc.c (lines [0-9]*-[0-9]*)\$|\1|p" "$TMP/body")
ok "$([ -n "$pct" ] && [ "$pct" -gt 70 ] && echo 0 || echo 1)" \
	"the copy is named with its original (${pct:-no}%)"
grep -q "^$P:[0-9]* implements gpio_chip: such drivers live in drivers/gpio/$" "$TMP/body"
ok $? "and with the folder where it belongs"
# the section comes after the dirstat
d=$(grep -n '^Signed dirstat' "$TMP/body" | head -1 | cut -d: -f1)
w=$(grep -n '^Why it grows arch/arm:' "$TMP/body" | head -1 | cut -d: -f1)
ok "$([ -n "$d" ] && [ -n "$w" ] && [ "$w" -gt "$d" ] && echo 0 || echo 1)" \
	"after the dirstat"
done_testing
