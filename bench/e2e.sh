#!/bin/sh
# The whole bot, end to end: a real 5-patch ARM series (arm61 corpus) is
# delivered into the list's maildir that a running `armbot run` watches;
# the time from the last patch's arrival to armbot's reply in that maildir
# (through a real Postfix on loopback), with apply, dirstat, sparse, build,
# boot and the runtime-PM suite on.
#   cold: a fresh data dir (the distro tree imported, not timed; worktree,
#         sparse build dirs and the test kernel's build dir empty; ccache
#         as it is), the first series after the daemon starts
#   warm: the next series (v2 of another 5-patch series) on the same daemon
# Prints both against the issue's goal (warm under 60 s; the kernel test
# robot answers in hours) as a ratio.  COLD=0 skips the cold phase (it
# takes minutes on 2 cores).  Needs root (Postfix).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
export ARMBOT
SHARED=${SHARED:-$TOP/../shared}
A=$SHARED/corpora/arm61
[ -d "$A" ] || { echo "needs ../shared/corpora/arm61"; exit 1; }
[ -x "$ARMBOT" ] || { echo "build armbot first (make)"; exit 1; }
CACHE=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench-e2e.XXXXXX")
. "$TOP/tests/lib/smtp-server.sh"
smtp_server_available || { echo "needs root and postfix"; exit 1; }
BOT_PID=
trap '[ -z "$BOT_PID" ] || kill -KILL $BOT_PID 2>/dev/null; smtp_server_cleanup; rm -rf "$TMP"' EXIT

BENCH=$CACHE/bench-e2e/data
mkdir -p "$BENCH"
"$ARMBOT" --data-dir "$BENCH" tree show > /dev/null
if [ "${COLD:-1}" = 1 ]; then
	rm -rf "$BENCH/worktrees" "$BENCH/kbuild" "$BENCH/boot" "$BENCH/logs"
fi
rm -f "$BENCH"/store.sqlite*

smtp_server_setup
smtp_server_start
LIST=arm@lists.test
LISTDIR=$SMTP_MAILDIR
mkdir -p "$LISTDIR/new" "$LISTDIR/cur" "$LISTDIR/tmp"
cat > "$TMP/armbot.conf" <<CONF
[bot]
address = armbot@example.org
[sources]
urls = maildir:$LISTDIR
[web]
port = 0
[smtp]
url = smtp://127.0.0.1:$SMTP_PORT
starttls = never
CONF
"$ARMBOT" --data-dir "$BENCH" run --allow-root --config "$TMP/armbot.conf" \
	> "$TMP/run.log" 2>&1 &
BOT_PID=$!

# post ID SUBJECT PATCH...: deliver a series, then time until its reply
post_and_time() {
	id=$1 subject=$2
	shift 2
	perl "$TOP/tests/lib/make-series.pl" --id "$id" \
		--from 'Jane Doe <jane@example.org>' --list "$LIST" \
		--cover "$subject" --maildir "$LISTDIR" "$@"
	start=$(date +%s.%N)
	while ! grep -l -x -F "In-Reply-To: <$id.0@example.org>" \
		"$LISTDIR"/new/* "$LISTDIR"/cur/* 2>/dev/null |
		xargs -r grep -q -i -x "Delivered-To: $LIST" 2>/dev/null; do
		sleep 0.2
	done
	echo "$(date +%s.%N) - $start" | bc
}

if [ "${COLD:-1}" = 1 ]; then
	cold=$(post_and_time b1 'ARM: meson8b onecloud and odroid-c1, cpuinfo, PCI' \
		"$A/meson-6.1/onecloud-0001-add-dts.patch" \
		"$A/meson-6.1/onecloud-0002-dts-Support-HDMI.patch" \
		"$A/meson-6.1/odroidc1-dts-Enable-HDMI.patch" \
		"$A/bcm2711-6.1/0001-Make-proc-cpuinfo-consistent-on-arm64-and-arm.patch" \
		"$A/mvebu-6.1/20-pcie-bridge-emul.patch")
	printf 'cold: reply %6.1f s after the last patch (fresh build dirs)\n' "$cold"
fi
warm=$(post_and_time b2 'ARM: dts: imx6 and armada388, mvebu PCI and DSA' \
	"$A/imx6-6.1/0005-ARM-dts-imx6qdl-Enable-usb-node-children-with-reg.patch" \
	"$A/imx6-6.1/0007-ARM-dts-imx6q-evi-Fix-onboard-hub-reset-line.patch" \
	"$A/mvebu-6.1/412-ARM-dts-armada388-clearfog-emmc-on-clearfog-base.patch" \
	"$A/mvebu-6.1/11-implement-slot-capabilities-SSPL.patch" \
	"$A/mvebu-6.1/12-net-dsa-mv88e6xxx.patch")
printf 'warm: reply %6.1f s after the last patch\n' "$warm"
printf 'goal: 60 s warm; ratio warm/goal %.2f\n' "$(echo "$warm / 60" | bc -l)"
# the breakdown by stage: the worker's line per series (queue wait, apply,
# dirstat, sparse at base and head, build, boot, suite, compose) and the
# outbox's SMTP time per reply
sed -n 's/.*worker distro-6.1: \(series [0-9]*: done in .*\)/    \1/p' "$TMP/run.log"
sed -n 's/.*outbox: <[^>]*>: sent to .* in \([0-9.]* s\)$/    smtp \1/p' "$TMP/run.log"
