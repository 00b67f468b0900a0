#!/usr/bin/python3
# patchwork-server.py PORTFILE TOKEN MSGID=ID|@FILE...: a small server of the
# part of patchwork's REST API 1.2 that armbot and git-pw use, on loopback
# (no patchwork server is packaged in Debian).  It refuses what patchwork
# refuses:
#   POST /api/1.2/patches/ID/checks/  403 without credentials ("Token T"
#     header), 401 with a wrong token, 404 for an unknown patch, 400 for a
#     state not in success/warning/fail/pending, a context that is not a
#     slug ([-a-zA-Z0-9_]+, Django's SlugField), a target_url that is not
#     a URL, a description over 255 characters, a body that is not JSON;
#     201 with the check otherwise.
#   GET /api/1.2/patches/?msgid=X    the patches with that Message-ID
#     (with or without angle brackets), a JSON list
#   GET /api/1.2/patches/ID/         the patch (what git-pw patch show reads)
#   GET /api/1.2/patches/ID/checks/  its checks, oldest first
# The patches are MSGID=ID arguments, and the MSGID=ID lines of each @FILE,
# read again on every request (a patch patchwork learns of later).
# The port it took is written to PORTFILE.  Every request is logged to
# standard error.
import json
import re
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer

TOKEN = sys.argv[2]
PATCHES = {}


def load_patches():
    items = []
    for arg in sys.argv[3:]:
        if arg.startswith("@"):
            try:
                items += open(arg[1:]).read().split()
            except OSError:
                pass
        else:
            items.append(arg)
    for item in items:
        msgid, pid = item.rsplit("=", 1)
        PATCHES[int(pid)] = msgid.strip("<>")


load_patches()
CHECKS = {}  # patch id -> [check]
STATES = ("pending", "success", "warning", "fail")


def patch_json(pid, base):
    return {
        "id": pid,
        "url": "%s/api/1.2/patches/%d/" % (base, pid),
        "web_url": "%s/project/arm/patch/%s/" % (base, PATCHES[pid]),
        "project": {"id": 1, "name": "ARM", "link_name": "arm",
                    "list_id": "arm.lists.test",
                    "list_email": "arm@lists.test"},
        "msgid": "<%s>" % PATCHES[pid],
        "date": "2026-12-04T10:00:00",
        "name": "patch %d" % pid,
        "commit_ref": None,
        "state": "new",
        "archived": False,
        "submitter": {"id": 1, "name": "Jane Doe",
                      "email": "jane@example.org"},
        "delegate": None,
        "series": [],
        "check": summary(pid),
        "checks": "%s/api/1.2/patches/%d/checks/" % (base, pid),
    }


def summary(pid):
    states = [c["state"] for c in CHECKS.get(pid, [])]
    for s in ("fail", "warning", "success"):
        if s in states:
            return s
    return "pending"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def base(self):
        return "http://%s:%d" % self.server.server_address

    def send(self, code, obj, headers=()):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        load_patches()
        u = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(u.query)
        if u.path == "/api/1.2/patches/":
            want = q.get("msgid", [None])[0]
            out = [patch_json(p, self.base()) for p in sorted(PATCHES)
                   if want is None or PATCHES[p] == want.strip("<>")]
            return self.send(200, out)
        m = re.fullmatch(r"/api/1\.2/patches/(\d+)/", u.path)
        if m and int(m.group(1)) in PATCHES:
            return self.send(200, patch_json(int(m.group(1)), self.base()))
        m = re.fullmatch(r"/api/1\.2/patches/(\d+)/checks/", u.path)
        if m and int(m.group(1)) in PATCHES:
            return self.send(200, CHECKS.get(int(m.group(1)), []))
        if u.path in ("/api/1.2/", "/api/1.2"):
            return self.send(200, {"patches": self.base() + "/api/1.2/patches/"})
        self.send(404, {"detail": "Not found."})

    def do_POST(self):
        load_patches()
        u = urllib.parse.urlsplit(self.path)
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        auth = self.headers.get("Authorization")
        if not auth:
            return self.send(403, {"detail": "Authentication credentials "
                                             "were not provided."})
        if auth != "Token " + TOKEN:
            return self.send(401, {"detail": "Invalid token."},
                             [("WWW-Authenticate", "Token")])
        m = re.fullmatch(r"/api/1\.2/patches/(\d+)/checks/", u.path)
        if not m or int(m.group(1)) not in PATCHES:
            return self.send(404, {"detail": "Not found."})
        try:
            d = json.loads(raw)
            assert isinstance(d, dict)
        except Exception:
            return self.send(400, {"detail": "JSON parse error"})
        errors = {}
        if d.get("state") not in STATES:
            errors["state"] = ['"%s" is not a valid choice.' % d.get("state")]
        ctx = d.get("context", "default")
        if not isinstance(ctx, str) or not re.fullmatch(r"[-a-zA-Z0-9_]+", ctx):
            errors["context"] = ["Enter a valid \"slug\" consisting of "
                                 "letters, numbers, underscores or hyphens."]
        url = d.get("target_url")
        if url is not None and not re.match(r"https?://[^ ]+$", url):
            errors["target_url"] = ["Enter a valid URL."]
        desc = d.get("description")
        if desc is not None and (not isinstance(desc, str) or len(desc) > 255):
            errors["description"] = ["Ensure this field has no more than "
                                     "255 characters."]
        if errors:
            return self.send(400, errors)
        pid = int(m.group(1))
        c = {"id": sum(len(v) for v in CHECKS.values()) + 1,
             "user": {"id": 1, "username": "armbot"},
             "date": "2026-12-04T10:00:00", "state": d["state"],
             "target_url": url, "context": ctx, "description": desc}
        CHECKS.setdefault(pid, []).append(c)
        self.send(201, c)


srv = HTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d\n" % srv.server_address[1])
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
srv.serve_forever()
