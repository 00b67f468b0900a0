#!/bin/sh
# armbot run end to end: a real 5-patch ARM series (arm61 corpus) arrives in
# the list's maildir; the daemon applies it to the distro tree, runs sparse,
# builds and boots it with the runtime-PM suite, and replies through a real
# Postfix on loopback.  The reply is threaded under the cover letter, has
# the bot's headers and the verdict; the list's echo of the reply, an
# Auto-Submitted mail and a review reply get no reply; a restart sends
# nothing new.
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/arm61
. "$(dirname "$0")/pipeline-lib.sh"
PYTHON3=/usr/bin/python3

pipeline_setup "apply;dirstat;sparse;boot;rpm" || skip_all "cannot start postfix"
# the public URL the reply's "To reproduce" gives the series' mbox under:
# the daemon's own, on a port free now (the log then names the public URL)
PUBLIC=http://127.0.0.1:$("$PYTHON3" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -i "s|^port = 0\$|port = ${PUBLIC##*:}\nbase-url = $PUBLIC|" "$TMP/armbot.conf"
start_bot
post s5 --cover 'ARM: meson8b onecloud and odroid-c1, cpuinfo, PCI bridge' \
	"$ARM61/meson-6.1/onecloud-0001-add-dts.patch" \
	"$ARM61/meson-6.1/onecloud-0002-dts-Support-HDMI.patch" \
	"$ARM61/meson-6.1/odroidc1-dts-Enable-HDMI.patch" \
	"$ARM61/bcm2711-6.1/0001-Make-proc-cpuinfo-consistent-on-arm64-and-arm.patch" \
	"$ARM61/mvebu-6.1/20-pcie-bridge-emul.patch"
start=$(date +%s)
# the pages keep answering while the series is checked (bounded load)
i=0
while [ $i -lt 50 ] && ! grep -q " web pages at " "$TMP/run.log"; do
	sleep 0.1
	i=$((i + 1))
done
url=$(sed -n 's/.* web pages at //p' "$TMP/run.log" | tail -1)
(
	n=0 bad=0
	while [ ! -e "$TMP/stop-load" ] && [ $n -lt 2000 ]; do
		for p in / /api/series /metrics /arch-arm; do
			curl -s -f -o /dev/null -m 5 "$url$p" || bad=$((bad + 1))
			n=$((n + 1))
		done
	done
	echo "$n $bad" > "$TMP/load"
) &
load_pid=$!
wait_replies s5.0@example.org 1 900
ok $? "a reply arrives on the list"
touch "$TMP/stop-load"
wait $load_pid
read n bad < "$TMP/load"
is "$bad" 0 "the web pages answered all $n requests made while it worked"
diag "reply after $(( $(date +%s) - start )) s"
reply=$(replies_to s5.0@example.org | head -1)
[ -n "$reply" ] || { sed 's/^/# /' "$TMP/run.log"; done_testing; exit; }
head_end=$(grep -n '^$' "$reply" | head -1 | cut -d: -f1)
sed -n "1,${head_end}p" "$reply" > "$TMP/headers"
sed -n "$((head_end + 1)),\$p" "$reply" > "$TMP/body"
sed 's/^/# /' "$TMP/body"
grep -qx "From: armbot <$BOT>" "$TMP/headers"; ok $? "From the bot"
grep -qx "To: Jane Doe <jane@example.org>" "$TMP/headers"; ok $? "To the author"
grep -qx "Cc: $LIST" "$TMP/headers"; ok $? "Cc the list"
grep -qx "Subject: Re: \[PATCH 0/5\] ARM: meson8b onecloud and odroid-c1, cpuinfo," "$TMP/headers" ||
	grep -q "^Subject: Re: \[PATCH 0/5\] ARM: meson8b onecloud" "$TMP/headers"
ok $? "Subject: Re: the cover's"
grep -qx "In-Reply-To: <s5.0@example.org>" "$TMP/headers"; ok $? "In-Reply-To the cover"
grep -qx "References: <s5.0@example.org>" "$TMP/headers"; ok $? "References the cover"
grep -qx "Auto-Submitted: auto-generated" "$TMP/headers"; ok $? "Auto-Submitted"
grep -qx "X-Auto-Response-Suppress: All" "$TMP/headers"; ok $? "X-Auto-Response-Suppress"
grep -q "^Message-ID: <armbot-[0-9a-f]*@example.org>" "$TMP/headers"; ok $? "a Message-ID of the bot's domain"
grep -qx "Hi Jane," "$TMP/body"; ok $? "greets the author"
grep -qx "This series grows arch/arm by 528 lines (+528 -0)." "$TMP/body"
ok $? "the verdict: grows arch/arm by 528 lines"
for c in apply sparse build boot runtime-PM; do
	grep -q "^  $c  *ok " "$TMP/body"; ok $? "$c: ok"
done
grep -q "^Tested on distro-6.1 (Debian linux-source-6.1 " "$TMP/body"
ok $? "says what it was tested on"

# the daemon serves the result on its pages
url=$(sed -n 's/.* web pages at //p' "$TMP/run.log" | tail -1)
curl -s -f "$url/api/series" > "$TMP/api.json"
ok $? "the daemon serves /api/series at $url"
grep -q '"grows arch/arm by 528 lines' "$TMP/api.json" ||
	grep -q 'grows arch/arm by 528 lines' "$TMP/api.json"
ok $? "with the verdict"

# how to reproduce it without armbot: every check passed, so the tree and
# the series only, and nothing of the bot's machine
grep -qx "        b4 am -o - -v 1 s5.0@example.org | git am" "$TMP/body"
ok $? "To reproduce: b4 am of the cover letter"
id=$(sed -n "s#^        curl -sSf $PUBLIC/series/\\([0-9]*\\)/mbox | git am\$#\\1#p" "$TMP/body")
[ -n "$id" ]; ok $? "To reproduce: the series' mbox under the public URL"
grep -q "^boot (\|^sparse (\|^build (" "$TMP/body"
[ $? -ne 0 ]; ok $? "To reproduce: no commands of checks that passed"
grep -qF -e "$PDATA" -e "$ARMBOT_CACHE_DIR" -e "$TOP" "$TMP/body"
[ $? -ne 0 ]; ok $? "the reply names no path of the data, cache or source dir"
curl -s -f "$url/series/$id/mbox" > "$TMP/s5.mbox"
ok $? "the daemon serves that mbox"
mkdir "$TMP/split"
is "$(git mailsplit -o"$TMP/split" "$TMP/s5.mbox")" 5 "it holds the 5 patches"

# the echo of the reply is stored, and nothing answers it
sleep 3
"$ARMBOT" --data-dir "$PDATA" status > "$TMP/status"
sed 's/^/# /' "$TMP/status"
grep -q "^  sent  *1$" "$TMP/status"; ok $? "status: one reply sent"

# the reply's time by stage: in the worker's log line, on the series page
# and in /metrics (the SMTP stage once the outbox has handed it over)
grep -q "series $id: done in [0-9.]* s, .* (queue [0-9]*\\.[0-9] s, apply [0-9.]* s, dirstat [0-9.]* s, sparse-base [0-9.]* s, sparse-head [0-9.]* s, build [0-9.]* s, boot [0-9.]* s, suite [0-9.]* s, compose [0-9.]* s; [0-9.]* s of them beside each other)$" "$TMP/run.log"
ok $? "the log line breaks the reply's time down by stage"
grep " done in \| sent to " "$TMP/run.log" | sed 's/^/# /'
grep -q "outbox: <armbot-[0-9a-f]*@example.org>: sent to .* in [0-9.]* s$" "$TMP/run.log"
ok $? "the outbox logs how long SMTP took"
curl -s -f "$url/series/$id" > "$TMP/s5.html"
for stage in queue apply dirstat sparse-base sparse-head build boot suite compose smtp; do
	grep -q "<tr class=\"stage\"><td>$stage</td><td>[0-9.]*</td></tr>" "$TMP/s5.html"
	ok $? "the series page shows the $stage stage's time"
done
curl -s -f "$url/metrics" > "$TMP/metrics.txt"
for stage in queue apply dirstat sparse-base sparse-head build boot suite compose smtp; do
	grep -q "^armbot_stage_duration_seconds_count{stage=\"$stage\",tree=\"distro-6.1\"} 1$" "$TMP/metrics.txt"
	ok $? "/metrics: one $stage time of distro-6.1"
done

# loops: an Auto-Submitted mail and a review reply
cat > "$TMP/auto" <<MAIL
From: Some Bot <robot@example.org>
To: $LIST
Subject: [PATCH] ARM: automatic mail with a patch
Message-ID: <auto.1@example.org>
Auto-Submitted: auto-generated
Date: Thu, 03 Dec 2026 10:00:00 +0000

---
 a | 1 +
diff --git a/a b/a
--- a/a
+++ b/a
@@ -0,0 +1 @@
+x
MAIL
cp "$TMP/auto" "$LISTDIR/tmp/auto" && mv "$LISTDIR/tmp/auto" "$LISTDIR/new/auto"
cat > "$LISTDIR/tmp/re" <<MAIL
From: Rev Iewer <rev@example.org>
To: $LIST
Subject: Re: [PATCH 1/5] ARM: dts: meson8b: Add DTS for Xunlei Onecloud
Message-ID: <review.1@example.org>
In-Reply-To: <s5.1@example.org>
References: <s5.0@example.org> <s5.1@example.org>
Date: Thu, 03 Dec 2026 10:00:00 +0000

Reviewed-by: Rev Iewer <rev@example.org>
MAIL
mv "$LISTDIR/tmp/re" "$LISTDIR/new/re"
sleep 8
stop_bot
is "$(count_replies_to auto.1@example.org)" 0 "no reply to an Auto-Submitted mail"
is "$(count_replies_to review.1@example.org)" 0 "no reply to a review"
is "$(count_replies_to s5.0@example.org)" 1 "still one reply to the series"

# a second run sends nothing new
before=$(ls "$LISTDIR/new" "$LISTDIR/cur" | wc -l)
start_bot
sleep 8
stop_bot
after=$(ls "$LISTDIR/new" "$LISTDIR/cur" | wc -l)
is "$after" "$before" "a second run sends nothing"
is "$(count_replies_to s5.0@example.org)" 1 "one reply, ever"
grep -q "crash\|error" "$TMP/run.log" && sed 's/^/# log: /' "$TMP/run.log"
done_testing
