#!/bin/sh
# The lakml week (1,871 messages) ingested through each source: a maildir,
# dovecot IMAP, public-inbox over HTTP and NNTP, all on 127.0.0.1; prints
# messages per second and the ratio to ingesting the mbox file directly,
# measured in the same run.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$ROOT/armbot}
SHARED=${SHARED:-$ROOT/../shared}
. "$ROOT/tests/lib/tap.sh"
TOP=$ROOT
. "$TOP/tests/lib/imap-server.sh"
. "$TOP/tests/lib/public-inbox-server.sh"
XZ=$SHARED/corpora/lakml/lakml-2020-06-14.mbox.xz
[ -f "$XZ" ] || { echo "no corpus $XZ"; exit 0; }
trap 'pi_stop; imap_stop; rm -rf "$TMP"' EXIT
xz -dc "$XZ" > "$TMP/lakml.mbox"
pi_build lakml "$TMP/lakml.mbox" "$(sha256sum "$XZ" | cut -c1-16)" \
	> "$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; exit 1; }
pi_start || exit 1
imap_setup
mkdir -p "$TMP/split" "$TMP/Maildir/new" "$TMP/Maildir/cur" "$TMP/Maildir/tmp"
git mailsplit -o"$TMP/split" "$TMP/lakml.mbox" > /dev/null
for f in "$TMP"/split/*; do
	cp "$f" "$IMAP_MAILDIR/new/$(basename "$f").bench"
	cp "$f" "$TMP/Maildir/new/$(basename "$f").bench"
done
chown -R nobody:nogroup "$IMAP_MAILDIR"
imap_start || exit 1

secs() {	# secs NAME SOURCE
	_s=$(date +%s.%N)
	"$ARMBOT" --data-dir "$TMP/$1" ingest "$2" > "$TMP/$1.out" 2>&1 ||
		{ cat "$TMP/$1.out"; exit 1; }
	echo "$(date +%s.%N) - $_s" | bc
}
base=$(secs mbox "$TMP/lakml.mbox")
printf '%-8s %8s %8s %10s\n' source seconds msg/s "vs mbox"
printf '%-8s %8.2f %8.0f %10s\n' mbox "$base" "$(echo "1871 / $base" | bc -l)" 1.00
for s in maildir imap http nntp; do
	case $s in
	maildir) url="maildir:$TMP/Maildir" ;;
	imap) url=$(imap_url) ;;
	http) url=$(pi_http_url) ;;
	nntp) url=$(pi_nntp_url) ;;
	esac
	t=$(secs $s "$url")
	n=$(head -1 "$TMP/$s.out" | cut -d' ' -f1)
	printf '%-8s %8.2f %8.0f %9.2fx  (%s new)\n' $s "$t" \
		"$(echo "1871 / $t" | bc -l)" "$(echo "$t / $base" | bc -l)" "$n"
done
