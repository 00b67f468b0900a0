#!/bin/sh
# The weekly arch/arm balance of a list (armbot weekly, and armbot run on
# Mondays): a store made from real git format-patch mail posted to a list
# (tests/lib/web.sh) whose figures are armbot dirstat's own, read back per
# list and week; queued once per list and week, however often it is made
# and across a restart of the daemon.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/web.sh"

LIST=arm@lists.test
cat > "$TMP/armbot.conf" <<CONF
[bot]
address = armbot@lists.test
[outbox]
maildir = $TMP/outbox
[web]
port = 0
base-url = https://armbot.example.org
[list $LIST]
weekly = true
[list other@lists.test]
CONF
subject() {	# subject FILE: the Subject header, unfolded
	sed -n '/^Subject:/,/^[^ ]/p' "$1" | sed '$!N;s/\n / /;P;D' | sed -n '1p'
}
weekly() {
	"$ARMBOT" --data-dir "$TMP/w/data" weekly --config "$TMP/armbot.conf" "$@"
}

WEB_LIST_ID=arm.lists.test web_make_store "$TMP/w"
ok $? "store made from format-patch mail sent to $LIST"

# what the similarity step stores with a job (kernel/similar/), for v2
"$PYTHON" - "$TMP/w/data/store.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE jobs SET similar = ? WHERE series_id = (SELECT id FROM"
           " series WHERE version = 2)",
           ("arch/arm/mach-foo/gpio.c is 81% similar to"
            " drivers/gpio/gpio-mxc.c (lines 40-210)\n"
            "arch/arm/mach-foo/gpio.c implements a gpio_chip: such drivers"
            " live in drivers/gpio/\n",))
db.commit()
PY
weekly --week 2020-06-17 > "$TMP/week.eml"
ok $? "armbot weekly prints the week of a given day"
is "$(subject "$TMP/week.eml")" 'Subject: [armbot] arch/arm balance, week of 2020-06-15: 3 series, net -18 lines' \
	"the subject: the week's Monday, three series, net -18"
grep -q "^To: $LIST$" "$TMP/week.eml"
ok $? "it goes to the list"
grep -q '^Auto-Submitted: auto-generated' "$TMP/week.eml"
ok $? "it says it is automatic (RFC 3834)"
grep -q "^The arch/arm balance of $LIST, week of Monday 2020-06-15 to Sunday 2020-06-21 (UTC).$" "$TMP/week.eml"
ok $? "the body names the list and the week"
grep -q '^3 series posted, 2 tested; 2 counted (the latest version of each)$' "$TMP/week.eml"
ok $? "v1, v2 and the img series posted; v1 was superseded before it was tested"
# the same sums as /arch-arm and web.t: v2 -30 (+40 -70), img +12
grep -q '^arch/arm: +52 -70, net -18 lines: the week shrinks arch/arm$' "$TMP/week.eml"
ok $? "arch/arm +52 -70, net -18: the week shrinks it"
grep -A1 '^Grew most:$' "$TMP/week.eml" | grep -q '^ *+52  arch/arm/plat-bar/ .*(+52 -0, 2 series)$'
ok $? "plat-bar grew most: +52 over two series"
grep -A1 '^Shrank most:$' "$TMP/week.eml" | grep -q '^ *-70  arch/arm/mach-foo/ .*(+0 -70, 1 series)$'
ok $? "mach-foo shrank most: -70"
"$ARMBOT" --data-dir "$TMP/w/data" series --all > "$TMP/series.txt"
V1=$(awk '$2 == "superseded" { print $1 }' "$TMP/series.txt")
V2=$(awk '$3 == "v2" { print $1 }' "$TMP/series.txt")
grep -A4 '^The series that change arch/arm, largest growth first:$' "$TMP/week.eml" > "$TMP/changing.txt"
is "$(sed -n '2p;4p' "$TMP/changing.txt" | sed 's/^ *//' | cut -c1-5)" "+12  
-30  " "the two tested series, largest growth first: img +12, v2 -30"
grep -q "^           +40 -70, https://armbot.example.org/series/$V2$" "$TMP/changing.txt"
ok $? "v2 with its lines added and removed and a link to its page"
grep -A5 '^Why it grows arch/arm: near-copies' "$TMP/week.eml" > "$TMP/why.txt"
grep -q "^    https://armbot.example.org/series/$V2$" "$TMP/why.txt" &&
	grep -q '^    - arch/arm/mach-foo/gpio.c is 81% similar to drivers/gpio/gpio-mxc.c (lines 40-210)$' "$TMP/why.txt" &&
	grep -q '^    - arch/arm/mach-foo/gpio.c implements a gpio_chip: such drivers live in drivers/gpio/$' "$TMP/why.txt"
ok $? "the near-copies and drivers in the wrong place found in v2, under its link"
grep -q '^1 series superseded by a later version\.$' "$TMP/week.eml"
ok $? "v1 is counted as superseded"
! grep -q "series/$V1\b" "$TMP/week.eml"
ok $? "and not listed"
! grep -q '<script>' "$TMP/week.eml" || grep -q '^ *-30  <script>alert(1)</script> ARM: foo' "$TMP/week.eml"
ok $? "subjects are written as posted (plain text mail)"

grep -q '^Every week as a chart: https://armbot.example.org/arch-arm?list=arm.lists.test$' "$TMP/week.eml"
ok $? "it links to the list's chart on /arch-arm"

# the same figures on /arch-arm?list=
web_start "$TMP/w/data"
ok $? "armbot serve starts"
curl -s -o "$TMP/arch.html" "$WEB_URL/arch-arm?list=arm.lists.test"
grep -q '<tr class="week"><td>2020-06-15</td><td>2</td><td>+52</td><td>-70</td><td class="net">-18</td></tr>' "$TMP/arch.html"
ok $? "/arch-arm?list= shows the week: 2 series counted, +52 -70, net -18"
grep -q '<p id="list">.*<b>arm.lists.test</b>' "$TMP/arch.html"
ok $? "it says which list"
curl -s -o "$TMP/arch-other.html" "$WEB_URL/arch-arm?list=other.lists.test"
! grep -q '<tr class="week">' "$TMP/arch-other.html"
ok $? "another list's chart has no week"
curl -s -o "$TMP/arch-x.html" "$WEB_URL/arch-arm?list=%3Cscript%3E"
grep -q '<b>&lt;script&gt;</b>' "$TMP/arch-x.html"
ok $? "the list filter is escaped on the page"
web_stop

weekly --week 2020-06-22 > "$TMP/next.eml"
is "$(subject "$TMP/next.eml")" 'Subject: [armbot] arch/arm balance, week of 2020-06-22: 0 series, none tested' \
	"the week after has no series"
weekly --list other@lists.test --week 2020-06-15 > "$TMP/other.eml"
grep -q '^0 series posted' "$TMP/other.eml"
ok $? "another list's week has none of them"
weekly --week 2020-13-01 > /dev/null 2>&1
is $? 129 "a bad --week is a usage error"

# queued once per list and week
is "$(weekly --week 2020-06-15 --queue)" queued "--queue queues the mail"
is "$(weekly --week 2020-06-19 --queue)" "not queued: queued before, or no series that week" \
	"a second time, for any day of that week, it is not"
is "$(weekly --week 2020-06-22 --queue)" "not queued: queued before, or no series that week" \
	"a week without series is not queued"
is "$("$PYTHON" -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*), min(kind), min(recipients) FROM outbox WHERE kind = '"'weekly'"'").fetchone())' "$TMP/w/data/store.sqlite")" \
	"(1, 'weekly', '$LIST')" "the outbox holds one weekly mail, to the list"

# armbot run: the last whole week, on its own, once across a restart
last_sunday=$("$PYTHON" -c 'import datetime as d; t=d.datetime.now(d.timezone.utc)-d.timedelta(hours=6); m=t.date()-d.timedelta(days=t.weekday()); print(m-d.timedelta(days=8))')
rm -rf "$TMP/r"
WEB_DAY0=$last_sunday WEB_LIST_ID=arm.lists.test web_make_store "$TMP/r"
ok $? "a store with series posted last week"
run_bot() {
	"$ARMBOT" --data-dir "$TMP/r/data" run --allow-root \
		--config "$TMP/armbot.conf" >> "$TMP/run.log" 2>&1 &
	pid=$!
	for _i in $(seq 100); do
		[ "$(ls "$TMP/outbox/new" 2>/dev/null | wc -l)" -ge 1 ] && break
		sleep 0.1
	done
	sleep 1
	kill -TERM $pid
	wait $pid
}
run_bot
is "$(ls "$TMP/outbox/new" | wc -l)" 1 "armbot run mails the weekly balance"
is "$(subject "$TMP"/outbox/new/*)" "Subject: [armbot] arch/arm balance, week of $(date -u -d "$last_sunday + 1 day" +%F): 3 series, net -18 lines" \
	"of last week"
grep -q 'weekly balance mail queued' "$TMP/run.log"
ok $? "the log says so"
run_bot
is "$(ls "$TMP/outbox/new" | wc -l)" 1 "after a restart it is not mailed again"
sed "s/^/# /" "$TMP/run.log"

done_testing
