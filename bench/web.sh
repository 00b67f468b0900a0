#!/bin/sh
# armbot serve over the lakml week's store (1,871 messages, every ready
# series given pipeline rows by tests/lib/web-fill.py): requests per
# second and p99 latency of `/` and `/api/series` under wrk from loopback
# (WRK_THREADS threads, WRK_CONNECTIONS connections, WRK_SECONDS each).
#
# The peer, measured in the same run, is a static file server (Python's
# http.server, single-threaded like armbot's) serving the very bytes armbot
# rendered: the cost of rendering from the store against none at all.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
ARMBOT=${ARMBOT:-$TOP/armbot}
WEEK=${WEEK:-$TOP/../shared/corpora/lakml/lakml-2020-06-14.mbox.xz}
THREADS=${WRK_THREADS:-2}
CONNS=${WRK_CONNECTIONS:-16}
SECS=${WRK_SECONDS:-5}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/armbot-bench.XXXXXX")
PIDS=
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf "$TMP"' EXIT

[ -e "$WEEK" ] || { echo "no corpus $WEEK"; exit 0; }
command -v wrk > /dev/null || { echo "wrk not installed (apt-get install wrk)"; exit 0; }
xz -dc "$WEEK" > "$TMP/week.mbox"
"$ARMBOT" --data-dir "$TMP/data" ingest "$TMP/week.mbox" > /dev/null
/usr/bin/python3 "$TOP/tests/lib/web-fill.py" "$ARMBOT" "$TMP/data" > /dev/null

"$ARMBOT" --data-dir "$TMP/data" serve --allow-root --listen 127.0.0.1:0 \
	> "$TMP/serve.out" &
PIDS="$PIDS $!"
for i in $(seq 50); do
	URL=$(sed -n 's/^serving //p' "$TMP/serve.out")
	[ -n "$URL" ] && break
	sleep 0.1
done

mkdir -p "$TMP/static/api"
curl -s "$URL/" > "$TMP/static/index.html"
curl -s "$URL/api/series" > "$TMP/static/api/series"
PORT=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(cd "$TMP/static" && exec /usr/bin/python3 -m http.server --bind 127.0.0.1 "$PORT" > /dev/null 2>&1) &
PIDS="$PIDS $!"
sleep 1
STATIC=http://127.0.0.1:$PORT

# wrk URL: "requests/s p99_ms"
measure() {
	wrk -t"$THREADS" -c"$CONNS" -d"${SECS}s" --latency "$1" > "$TMP/wrk.out"
	awk '/^Requests\/sec:/ { rps = $2 }
	     /^ +99%/ { v = $2; u = v; sub(/[a-z]+$/, "", v); sub(/^[0-9.]+/, "", u);
			ms = u == "us" ? v / 1000 : u == "s" ? v * 1000 : v }
	     /Non-2xx/ { bad = $NF }
	     END { printf "%.0f %.2f %s\n", rps, ms, bad ? bad : 0 }' "$TMP/wrk.out"
}

printf "store: %s series, %s bytes of / and %s of /api/series\n" \
	"$("$ARMBOT" --data-dir "$TMP/data" series --all | wc -l)" \
	"$(wc -c < "$TMP/static/index.html")" "$(wc -c < "$TMP/static/api/series")"
for page in / /api/series; do
	set -- $(measure "$URL$page")
	a_rps=$1 a_p99=$2 a_bad=$3
	static=$page
	[ "$page" = / ] && static=/index.html
	set -- $(measure "$STATIC$static")
	printf "%-12s armbot %6s req/s p99 %7s ms (non-2xx %s) | static file server %6s req/s p99 %7s ms | ratio %s\n" \
		"$page" "$a_rps" "$a_p99" "$a_bad" "$1" "$2" \
		"$(awk -v a="$a_rps" -v b="$1" 'BEGIN { printf "%.2f", a / b }')"
done
