#!/bin/sh
# armbot serve against hostile clients (issue 19), with the usual soft
# limit of 1024 open files: a request body is answered (413, 405) as soon
# as the header is in, without reading it; conflicting Content-Lengths get
# 400; a header section over 16 KiB gets 431 (414 for the request line);
# connections that clients close leave nothing open; and 5,000 idle
# connections neither keep a new client waiting nor cut an answer in
# flight.  Each part prints its figures (server RSS, times, open files).
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/web.sh"

[ "$(ulimit -H -n)" = unlimited ] || [ "$(ulimit -H -n)" -ge 6000 ] ||
	skip_all "the hard limit of open files is under 6000"

web_make_store "$TMP/w" || { fail "store made from format-patch mail"; done_testing; exit; }
# a series whose mbox (6 MB) outlasts the socket buffers: its answer is
# in flight while the client reads it slowly
(
	cd "$TMP/w/repo" && git checkout -q -b big base &&
	seq 250000 | sed 's/^/int big_line_/; s/$/ = 0;/' > drivers/big.c &&
	git add drivers/big.c &&
	GIT_AUTHOR_DATE=2020-06-18T09:00:00Z GIT_COMMITTER_DATE=2020-06-18T09:00:00Z \
		git commit -qm "drivers: add a big table" &&
	git format-patch -q -o ../mail/big base..big
) && "$ARMBOT" --data-dir "$TMP/w/data" ingest "$TMP"/w/mail/big/* > /dev/null
BIG=$("$ARMBOT" --data-dir "$TMP/w/data" series --all | grep 'add a big table' | cut -f1)
"$ARMBOT" --data-dir "$TMP/w/data" series --mbox "$BIG" > "$TMP/big.mbox"
[ "$(wc -c < "$TMP/big.mbox")" -gt 6000000 ]
ok $? "a store with a series of 6 MB"

ulimit -S -n 1024
web_start "$TMP/w/data" || { fail "armbot serve starts"; done_testing; exit; }
pass "armbot serve starts with a soft limit of 1024 files"
PORT=${WEB_URL##*:}

# the limits of a request, each answered as soon as the header is in
"$PYTHON" - "$PORT" "$WEB_PID" > "$TMP/limits.txt" <<'PY'
import socket, sys, time
port, pid = int(sys.argv[1]), sys.argv[2]
def rss_kb():
    for l in open("/proc/%s/status" % pid):
        if l.startswith("VmRSS:"):
            return int(l.split()[1])
def status_line(s, wait):
    s.settimeout(wait)
    data = b""
    try:
        while b"\r\n" not in data:
            d = s.recv(4096)
            if not d:
                break
            data += d
    except Exception as e:
        return data.split(b"\r\n")[0].decode(errors="replace") or type(e).__name__
    return data.split(b"\r\n")[0].decode(errors="replace") or "EOF"
def answer(s, wait):
    # the whole answer, until the server closes
    s.settimeout(wait)
    data = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                return data
            data += d
    except Exception as e:
        return data + b"<" + type(e).__name__.encode() + b">"
def ask(head, wait=3.0):
    s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    try:
        s.sendall(head)
        return status_line(s, wait)
    except Exception as e:
        return type(e).__name__
    finally:
        s.close()
# 200 MB of body behind the header, no Expect: 100-continue
before = rss_kb()
s = socket.create_connection(("127.0.0.1", port), timeout=5)
size = 200 * 1000 * 1000
s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % size)
chunk, sent, peak = b"a" * 65536, 0, 0
s.settimeout(0.5)
try:
    while sent < size:
        sent += s.send(chunk[:min(len(chunk), size - sent)])
        peak = max(peak, rss_kb())
except Exception:
    pass
peak = max(peak, rss_kb())
print("bigbody", status_line(s, 3.0), "sent-under-200MB", sent < size,
      "rss-kb", before, peak, peak < 64 * 1024)
s.close()
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % size)
for i in range(200):
    try:
        s.sendall(chunk)
    except Exception:
        break
print("postbody", status_line(s, 3.0))
s.close()
# a body announced and never sent: answered at once, closed after the
# linger (2 s), never waited for
t = time.time()
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n")
a = answer(s, 10.0)
s.close()
print("nobody", a.split(b"\r\n")[0].decode(), "answered-and-closed-in-5s",
      a.endswith(b"</html>\n") and time.time() - t < 5)
print("twolengths", ask(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 1000\r\n\r\nhello"))
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(b"HEAD / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789")
a = answer(s, 5.0)
s.close()
print("headbody", a.split(b"\r\n")[0].decode(), "no-body", a.endswith(b"\r\n\r\n"))
print("chunked", ask(b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"))
for k in (16, 20, 60, 100, 300):
    # the field's value: k kB less what the rest of the section takes
    print("header%dk" % k, ask(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (k * 1000 - 40) + b"\r\n\r\n"))
print("line20k", ask(b"GET /?author=" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"))
print("line10k", ask(b"GET /?author=" + b"a" * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"))
print("after", ask(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"))
PY
sed 's/^/# /' "$TMP/limits.txt"
grep -q '^bigbody HTTP/1.1 413 Request Entity Too Large sent-under-200MB True rss-kb [0-9]* [0-9]* True$' "$TMP/limits.txt"
ok $? "a GET with a 200 MB body is refused with 413 before it is read, server RSS under 64 MB"
grep -q '^postbody HTTP/1.1 405 Method Not Allowed$' "$TMP/limits.txt"
ok $? "a POST with a 200 MB body is refused with 405 at once"
grep -q '^nobody HTTP/1.1 413 Request Entity Too Large answered-and-closed-in-5s True$' "$TMP/limits.txt"
ok $? "Content-Length: 1000000000 without a body: 413 at once, then the server closes"
grep -q '^twolengths HTTP/1.1 400 Bad Request$' "$TMP/limits.txt"
ok $? "two conflicting Content-Length headers get 400"
grep -q '^headbody HTTP/1.1 413 Request Entity Too Large no-body True$' "$TMP/limits.txt"
ok $? "a HEAD with a body gets 413 without a body"
grep -q '^chunked HTTP/1.1 413 Request Entity Too Large$' "$TMP/limits.txt"
ok $? "a chunked body gets 413"
grep -q '^header16k HTTP/1.1 200 OK$' "$TMP/limits.txt"
ok $? "a 16 kB header section (just under 16 KiB) is served"
for k in 20 60 100 300; do
	grep -q "^header${k}k HTTP/1.1 431 Request Header Fields Too Large\$" "$TMP/limits.txt"
	ok $? "a $k kB header section gets 431"
done
grep -q '^line20k HTTP/1.1 414 Request-URI Too Long$' "$TMP/limits.txt"
ok $? "a 20 kB request line gets 414 before it is parsed"
grep -q '^line10k HTTP/1.1 414 Request-URI Too Long$' "$TMP/limits.txt"
ok $? "a 10 kB request line gets 414 once parsed"
grep -q '^after HTTP/1.1 200 OK$' "$TMP/limits.txt"
ok $? "the server answers after them"

# clients that close their connection after the answer (HTTP/1.1, which
# keeps connections alive unless told): every one is answered, and the
# server closes its end; libsoup 3.2 alone kept each one open for ever
"$PYTHON" - "$PORT" "$WEB_PID" > "$TMP/closes.txt" <<'PY'
import os, socket, sys, time
port, pid = int(sys.argv[1]), sys.argv[2]
def fds():
    return len(os.listdir("/proc/%s/fd" % pid))
def recv(s):
    d = s.recv(65536)
    if not d:
        raise EOFError
    return d
before, ok, close = fds(), 0, 0
t = time.time()
for i in range(1500):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            data += recv(s)
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        while len(body) < length:
            body += recv(s)
        ok += head.startswith(b"HTTP/1.1 200 OK\r\n") and len(body) == length
        close += b"\r\nConnection: close\r\n" in head
    except Exception:
        pass
    s.close()
dt = time.time() - t
# "100 Continue" first: libsoup starts the answer's header anew
expect, expect_close = 0, 0
for i in range(100):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n")
    data = b""
    try:
        while True:
            data += recv(s)
    except Exception:
        pass
    s.close()
    head = data.split(b"HTTP/1.1 200 OK\r\n")[-1].split(b"\r\n\r\n")[0]
    expect += data.startswith(b"HTTP/1.1 100 Continue\r\n") and b"HTTP/1.1 200 OK\r\n" in data
    expect_close += b"\r\nConnection: close" in b"\r\n" + head
time.sleep(1)
print("answered", ok, "said-close", close, "seconds %.1f" % dt)
print("continue", expect, "said-close", expect_close)
print("server-fds", before, fds(), fds() <= before + 2)
PY
sed 's/^/# /' "$TMP/closes.txt"
grep -q '^answered 1500 said-close 1500 ' "$TMP/closes.txt"
ok $? "1,500 connections one after the other are all answered, each with Connection: close"
grep -q '^continue 100 said-close 100$' "$TMP/closes.txt"
ok $? "100 more with Expect: 100-continue too"
grep -q '^server-fds [0-9]* [0-9]* True$' "$TMP/closes.txt"
ok $? "the server keeps none of them open"

# 5,000 idle connections while one answer is in flight to a client that
# reads it slowly: the oldest idle ones are closed to make room, never the
# one in flight, and a new request is answered at once
"$PYTHON" - "$PORT" "$WEB_PID" "/series/$BIG/mbox" "$TMP/big-got.mbox" > "$TMP/idle.txt" <<'PY'
import os, resource, select, socket, sys, time
port, pid, path, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
# under ASan the server runs several times slower: its limits are 3x
slow_factor = 3 if os.environ.get("ARMBOT_ASAN") else 1
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 6000), hard))
def fds():
    return len(os.listdir("/proc/%s/fd" % pid))
def send_queue(client_port):
    # the server's unsent octets on that connection (/proc/net/tcp)
    for l in open("/proc/net/tcp").readlines()[1:]:
        f = l.split()
        if (int(f[1].split(":")[1], 16) == port and
                int(f[2].split(":")[1], 16) == client_port):
            return int(f[4].split(":")[0], 16)
    return 0
before = fds()
slow = socket.socket()
slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
slow.connect(("127.0.0.1", port))
slow.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n")
time.sleep(0.5)
queued = send_queue(slow.getsockname()[1])
idle = {}
for i in range(5000):
    s = socket.socket()
    s.setblocking(False)
    s.connect_ex(("127.0.0.1", port))
    idle[s.fileno()] = s
# every handshake done (through the listen queue) within 10 s
p = select.poll()
for fd in idle:
    p.register(fd, select.POLLOUT)
left, up, t = len(idle), 0, time.time()
while left and time.time() - t < 10 * slow_factor:
    for fd, ev in p.poll(500):
        p.unregister(fd)
        left -= 1
        up += idle[fd].getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
during = fds()
t = time.time()
try:
    s = socket.create_connection(("127.0.0.1", port), timeout=5 * slow_factor)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    line = s.recv(200).split(b"\r\n")[0].decode(errors="replace")
except Exception as e:
    line = type(e).__name__
dt = time.time() - t
still = send_queue(slow.getsockname()[1])
print("idle", up, "answer", line, "seconds %.2f" % dt, dt < 5 * slow_factor)
print("in-flight-queued", queued, still, queued > 0 and still > 0)
slow.settimeout(10)
data = b""
try:
    while True:
        d = slow.recv(1 << 20)
        if not d:
            break
        data += d
except Exception as e:
    print("in-flight-error", type(e).__name__)
head, _, body = data.partition(b"\r\n\r\n")
open(out, "wb").write(body)
print("in-flight", head.split(b"\r\n")[0].decode(errors="replace"), len(body))
for s in idle.values():
    s.close()
time.sleep(2)
print("server-fds", before, during, fds(), during < 1024, fds() <= before + 2)
PY
sed 's/^/# /' "$TMP/idle.txt"
grep -q '^idle 5000 answer HTTP/1.1 200 OK seconds [0-9.]* True$' "$TMP/idle.txt"
ok $? "5,000 connections are taken within 10 s and a new request is answered within 5 s (30 s and 15 s under ASan)"
grep -q '^in-flight-queued [0-9]* [0-9]* True$' "$TMP/idle.txt"
ok $? "an answer was in flight (unsent octets) before and after them"
is_file "$TMP/big.mbox" "$TMP/big-got.mbox" "the answer in flight arrives whole"
grep -q '^server-fds [0-9]* [0-9]* [0-9]* True True$' "$TMP/idle.txt"
ok $? "the server keeps fewer files open than its limit of 1024, and none once they close"

# the series page of the 6 MB patch: the diff left out, named, quickly
"$PYTHON" - "$WEB_URL/series/$BIG" "$TMP/big-page.html" > "$TMP/big-page.txt" <<'PY'
import sys, time, urllib.request
t = time.monotonic()
with urllib.request.urlopen(sys.argv[1], timeout=60) as r:
    body = r.read()
    open(sys.argv[2], "wb").write(body)
    print(r.status, len(body), time.monotonic() - t < 10)
PY
grep -q '^200 [0-9]* True$' "$TMP/big-page.txt" &&
	grep -q '<p class="no-diff">the mail is [0-9]* bytes, more than the page shows' "$TMP/big-page.html" &&
	[ "$(wc -c < "$TMP/big-page.html")" -lt 1000000 ]
ok $? "the series page of a 6 MB patch leaves its diff out (200, under 1 MB, within 10 s)"

web_stop_clean
done_testing
