#!/usr/bin/python3
# Test-only: give the series of a store the pipeline rows that `armbot run`
# writes (jobs, checks, outbox), until the pipeline's own store API lands.
# The arch/arm figures are real: the verdict, its JSON and the signed
# dirstat come from `armbot dirstat` on each series' own mbox
# (`armbot series --mbox`); check outcomes follow the series id so that
# every status shows up.
#
#   web-fill.py ARMBOT DATA_DIR [LIMIT]
import os
import subprocess
import sqlite3
import sys

armbot, data_dir = sys.argv[1], sys.argv[2]
limit = int(sys.argv[3]) if len(sys.argv) > 3 else 1000000
db = sqlite3.connect(os.path.join(data_dir, "store.sqlite"))
db.execute("PRAGMA foreign_keys = ON")


def run(*args, stdin=None):
    return subprocess.run([armbot, *args], input=stdin, check=True,
                          capture_output=True).stdout


rows = db.execute("SELECT id, subject, author, cover, last_activity FROM"
                  " series WHERE state = 'ready' ORDER BY id LIMIT ?",
                  (limit,)).fetchall()
mbox = os.path.join(data_dir, "web-fill.mbox")
for n, (sid, subject, author, cover, last) in enumerate(rows):
    if n % 10 == 9:
        # waiting to be checked: the queue
        db.execute("INSERT INTO jobs (series_id, tree, state, queued)"
                   " VALUES (?, 'distro-6.1', 'queued', ?)", (sid, last + 30))
        continue
    with open(mbox, "wb") as f:
        f.write(run("--data-dir", data_dir, "series", "--mbox=%d" % sid))
    vjson = run("dirstat", "--verdict", "--json", "--mbox", mbox).decode()
    sentence = run("dirstat", "--verdict", "--mbox",
                   mbox).decode().splitlines()[0]
    dirstat = run("dirstat", "--signed", "--dirstat=lines,cumulative,3",
                  "--mbox", mbox).decode()
    applies = sid % 11 != 0
    cur = db.execute(
        "INSERT INTO jobs (series_id, tree, tree_reason, state, attempts,"
        " base_commit, base_how, head_commit, verdict, verdict_json, dirstat,"
        " queued, started, finished) VALUES (?, 'distro-6.1', 'the default"
        " tree', 'done', 1, ?, 'base-commit trailer', ?, ?, ?, ?, ?, ?, ?)",
        (sid, "%040x" % (sid * 7919), "%040x" % (sid * 104729) if applies
         else None, sentence, vjson, dirstat, last + 30, last + 40,
         last + 400))
    job = cur.lastrowid
    checks = []
    if applies:
        checks.append(("apply", "ok", "applied %s" % subject[:40], None, 0.4))
        warn = sid % 5 == 0
        checks.append(("sparse", "warn" if warn else "ok",
                       "2 new warnings" if warn else "no new warnings",
                       ">> drivers/foo.c:12:5: warning: symbol 'x' was not"
                       " declared. Should it be static?\n" if warn else "",
                       31.5 + sid % 17))
        checks.append(("build", "ok", "multi_v7_defconfig built", None,
                       95.0 + sid % 60))
        boots = sid % 7 != 0
        checks.append(("boot", "ok" if boots else "fail",
                       "booted in 4.2 s" if boots else
                       "no login within 120 s",
                       "Booting Linux on physical CPU 0x0\n" +
                       ("" if boots else "Kernel panic - not syncing\n"),
                       6.3 if boots else 120.0))
        checks.append(("rpm", "ok" if boots else "skipped",
                       "12/12 KUnit cases passed" if boots else
                       "not booted", "ok 1 - rpm_suspend\n" if boots
                       else None, 3.1 if boots else 0))
    else:
        checks.append(("apply", "fail", "patch 1 does not apply",
                       "error: patch failed: arch/arm/Kconfig:12\n", 0.3))
        for name in ("sparse", "build", "boot", "rpm"):
            checks.append((name, "skipped", "not applied", None, 0))
    for name, status, summary, detail, secs in checks:
        db.execute("INSERT INTO checks (job_id, name, status, summary,"
                   " detail, seconds) VALUES (?, ?, ?, ?, ?, ?)",
                   (job, name, status, summary, detail, secs))
    body = sentence + "\n\n" + "".join(
        "%-7s %s: %s\n" % (c[0], c[1], c[2]) for c in checks)
    mid = "armbot-%d@example.org" % job
    raw = ("From: armbot <armbot@example.org>\n"
           "To: linux-arm-kernel@lists.infradead.org\n"
           "Subject: Re: %s\nIn-Reply-To: <%s>\nMessage-ID: <%s>\n"
           "Content-Type: text/plain; charset=utf-8\n\n%s"
           % (subject, cover or "", mid, body))
    db.execute("INSERT INTO outbox (job_id, message_id, list, sender,"
               " recipients, raw, state, created, handed, sent) VALUES"
               " (?, ?, 'linux-arm-kernel', 'armbot@example.org',"
               " 'linux-arm-kernel@lists.infradead.org', ?, 'sent', ?, ?, ?)",
               (job, mid, raw.encode(), last + 400, last + 401, last + 402))
    db.execute("UPDATE series SET state = 'reported' WHERE id = ?", (sid,))
db.commit()
if os.path.exists(mbox):
    os.unlink(mbox)
print(len(rows))
