#!/usr/bin/env python3
# bench/capacity.py: a capacity model of armbot spread over build nodes
# and LAVA devices.  A discrete-event simulation of a two-stage tandem
# queue: a series arrives when its last patch does; it waits for a build
# node, which applies it, runs sparse and builds the test kernel; then
# it waits for a LAVA device, which boots it and runs the KUnit suite;
# the reply goes out when the boot ends.  Both stages serve first come,
# first served.  Service times come from a file of measured numbers
# (bench/capacity-times, each with where it came from); a series is cold
# (new base or config: the build dir is rebuilt) with a given
# probability, else warm.
#
# Arrivals: the real week of linux-arm-kernel traffic in
# /work/shared/corpora/lakml (series grouped from "[PATCH vN i/n]"
# subjects and threads; a series completes at its last patch's Date:),
# and a generated load of 20 lists, 2,000 series a day, Poisson with the
# real week's hour-of-day profile and patch counts.
#
# Prints, per number of build nodes and LAVA devices, the mean and
# largest number of series waiting and the p50/p95 time from the last
# patch to the reply.  `--self-test` checks the simulator against
# queueing theory (see tests/conformance/capacity.t).
import argparse
import email.parser
import email.utils
import heapq
import lzma
import math
import random
import re
import sys

# ---- simulator core ----------------------------------------------------


def fcfs(arrivals, services, servers):
	"""First come, first served with SERVERS identical servers.
	arrivals (sorted by time) and services are lists of seconds.  Returns
	(start, finish) per job, in input order."""
	free = [0.0] * servers		# a heap of times each server is free
	heapq.heapify(free)
	start = []
	finish = []
	for a, s in zip(arrivals, services):
		f = heapq.heappop(free)
		b = max(a, f)
		e = b + s
		heapq.heappush(free, e)
		start.append(b)
		finish.append(e)
	return start, finish


def queue_stats(arrivals, starts):
	"""The time-average and the largest number of jobs waiting (arrived
	and not started), by a sweep over the arrival and start events."""
	ev = []
	for a, b in zip(arrivals, starts):
		if b > a:
			ev.append((a, 1))
			ev.append((b, -1))
	if not arrivals:
		return 0.0, 0
	ev.sort(key=lambda e: (e[0], e[1]))
	n = 0
	peak = 0
	area = 0.0
	last = min(arrivals)
	for t, d in ev:
		area += n * (t - last)
		last = t
		n += d
		peak = max(peak, n)
	span = max(max(starts), max(arrivals)) - min(arrivals)
	return (area / span if span > 0 else 0.0), peak


def tandem(arrivals, build_times, boot_times, nodes, devices):
	"""Two FCFS stages in a row.  Returns per-series latency (arrival to
	the end of the boot) and the queue statistics of both stages."""
	order = sorted(range(len(arrivals)), key=lambda i: arrivals[i])
	a1 = [arrivals[i] for i in order]
	s1 = [build_times[i] for i in order]
	b1, f1 = fcfs(a1, s1, nodes)
	# the boot stage sees series in the order their builds finish
	o2 = sorted(range(len(f1)), key=lambda i: f1[i])
	a2 = [f1[i] for i in o2]
	s2 = [boot_times[order[i]] for i in o2]
	b2, f2 = fcfs(a2, s2, devices)
	lat = [f2[k] - a1[i] for k, i in enumerate(o2)]
	return lat, queue_stats(a1, b1), queue_stats(a2, b2)


def percentile(xs, p):
	if not xs:
		return float("nan")
	ys = sorted(xs)
	k = max(0, min(len(ys) - 1, int(math.ceil(p / 100.0 * len(ys))) - 1))
	return ys[k]

# ---- service times -----------------------------------------------------


def read_times(path):
	"""KEY = SECONDS  # source, one a line."""
	t = {}
	src = {}
	with open(path) as f:
		for line in f:
			body, _, comment = line.partition("#")
			if "=" not in body:
				continue
			k, v = body.split("=", 1)
			t[k.strip()] = float(v)
			src[k.strip()] = comment.strip()
	need = ("apply_patch", "sparse_warm", "sparse_cold", "build_warm",
		"build_cold", "boot")
	for k in need:
		if k not in t:
			sys.exit("capacity: %s: no %s" % (path, k))
	return t, src


def service(times, npatches, cold):
	build = npatches * times["apply_patch"]
	build += times["sparse_cold" if cold else "sparse_warm"]
	build += times["build_cold" if cold else "build_warm"]
	return build, times["boot"]

# ---- arrivals ----------------------------------------------------------

PATCH_RE = re.compile(r"\[[^\]]*PATCH[^\]]*\]", re.I)
NUM_RE = re.compile(r"(\d+)\s*/\s*(\d+)")
MAX_HEADER = 256 * 1024


def mbox_headers(path):
	"""The header block of each message of an mboxrd file (xz or plain)."""
	op = lzma.open if path.endswith(".xz") else open
	parser = email.parser.BytesHeaderParser()
	buf = []
	in_headers = False
	with op(path, "rb") as f:
		for line in f:
			if line.startswith(b"From "):
				if buf:
					yield parser.parsebytes(b"".join(buf))
				buf = []
				in_headers = True
				continue
			if in_headers:
				if line in (b"\n", b"\r\n"):
					in_headers = False
				elif sum(map(len, buf)) < MAX_HEADER:
					buf.append(line)
	if buf:
		yield parser.parsebytes(b"".join(buf))


def real_series(path):
	"""(completion time, number of patches) per series of the mbox."""
	series = {}
	for h in mbox_headers(path):
		subj = " ".join(str(h.get("Subject", "")).split())
		if re.match(r"^\s*(re|aw|fwd?)\s*:", subj, re.I):
			continue
		tag = PATCH_RE.search(subj)
		if not tag:
			continue
		try:
			t = email.utils.parsedate_to_datetime(
				str(h.get("Date", ""))).timestamp()
		except (TypeError, ValueError, IndexError):
			continue
		m = NUM_RE.search(tag.group(0))
		i, n = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
		if i == 0 or n == 0 or n > 500:
			continue	# a cover letter: not a patch
		refs = str(h.get("References", "")).split()
		irt = str(h.get("In-Reply-To", "")).split()
		root = (refs[0] if refs else irt[0] if irt else
			str(h.get("Message-ID", "")))
		if n == 1:
			root = str(h.get("Message-ID", "")) or root
		key = (str(h.get("From", "")), n, root)
		s = series.setdefault(key, [0.0, 0, n])
		s[0] = max(s[0], t)
		s[1] += 1
	out = [(t, k) for t, k, n in series.values()]
	if not out:
		sys.exit("capacity: %s: no series" % path)
	# Date: headers lie now and then: keep the week (the median +- 5 days)
	mid = percentile([t for t, _ in out], 50)
	return sorted((t, k) for t, k in out if abs(t - mid) < 5 * 86400)


def generated_series(real, lists, per_day, days, rng):
	"""Poisson arrivals, LISTS lists of PER_DAY/LISTS series a day each,
	shaped by the real week's hour-of-day profile; patch counts drawn
	from the real week's."""
	hours = [0] * 24
	for t, _ in real:
		hours[int(t // 3600) % 24] += 1
	peak = max(hours)
	counts = [k for _, k in real]
	rate = per_day / 86400.0	# all lists: a superposition of Poissons
	# thinning: candidates at the peak hour's rate, kept in proportion
	lam = rate * peak * 24 / sum(hours)
	out = []
	t = 0.0
	end = days * 86400.0
	while True:
		t += rng.expovariate(lam)
		if t >= end:
			break
		if rng.random() * peak < hours[int(t // 3600) % 24]:
			out.append((t, rng.choice(counts)))
	return out

# ---- the table ---------------------------------------------------------


def run(name, series, times, cold_frac, grid, rng):
	colds = [rng.random() < cold_frac for _ in series]
	arr = [t for t, _ in series]
	bt = []
	dt = []
	for (t, k), c in zip(series, colds):
		b, d = service(times, k, c)
		bt.append(b)
		dt.append(d)
	days = (max(arr) - min(arr)) / 86400.0
	print("%s: %d series over %.1f days (%.0f a day), %d%% cold"
	      % (name, len(series), days, len(series) / max(days, 1e-9),
		 round(100 * sum(colds) / len(colds))))
	print("  %5s %7s  %10s %10s  %10s %10s  %9s %9s"
	      % ("nodes", "devices", "build q", "build max", "boot q",
		 "boot max", "p50", "p95"))
	rows = []
	for n, d in grid:
		lat, (q1, m1), (q2, m2) = tandem(arr, bt, dt, n, d)
		p50 = percentile(lat, 50)
		p95 = percentile(lat, 95)
		rows.append((n, d, p50, p95))
		print("  %5d %7d  %10.1f %10d  %10.1f %10d  %9s %9s"
		      % (n, d, q1, m1, q2, m2, human(p50), human(p95)))
	# today: one machine builds and boots each series in a row
	one = sorted(range(len(arr)), key=lambda i: arr[i])
	a1 = [arr[i] for i in one]
	st, fi = fcfs(a1, [bt[i] + dt[i] for i in one], 1)
	q1, m1 = queue_stats(a1, st)
	lat1 = [f - a for a, f in zip(a1, fi)]
	p95one = percentile(lat1, 95)
	print("  %13s  %10.1f %10d  %21s  %9s %9s"
	      % ("one machine", q1, m1, "(boots on it)",
		 human(percentile(lat1, 50)), human(p95one)))
	# the offered load: busy seconds a second of each stage; fewer
	# servers than that and the queue grows without bound
	span = max(arr) - min(arr)
	ob = sum(bt) / span
	od = sum(dt) / span
	alone = percentile([b + d for b, d in zip(bt, dt)], 95)
	fit = [(n, d) for n, d, _, p95 in rows if p95 <= 1.5 * alone]
	best = min(fit, key=lambda r: (r[0] + r[1], r[0])) if fit else None
	print("  offered load: %.2f build nodes, %.2f devices busy on average;"
	      " p95 with no queue %s" % (ob, od, human(alone)))
	if best:
		p95b = [p for n, d, _, p in rows if (n, d) == best][0]
		print("  smallest grid point with p95 within 1.5x of no queue:"
		      " %d nodes, %d devices; p95 one machine / there: %.1fx"
		      % (best + (p95one / p95b,)))
	else:
		print("  no grid point keeps p95 within 1.5x of no queue")
	return rows


def human(s):
	if s < 120:
		return "%.0f s" % s
	if s < 7200:
		return "%.1f min" % (s / 60)
	if s < 3 * 86400:
		return "%.1f h" % (s / 3600)
	return "%.1f d" % (s / 86400)

# ---- self-test: the core against queueing theory -----------------------


def self_test():
	"""TAP: the simulator's waits against closed forms."""
	checks = []

	def ok(cond, what):
		checks.append((bool(cond), what))

	# D/D/1, rho = 0.5: nobody waits; latency = service time
	arr = [10.0 * i for i in range(1000)]
	lat, (q, m), _ = tandem(arr, [5.0] * 1000, [0.0] * 1000, 1, 1)
	ok(max(lat) == 5.0 and q == 0.0 and m == 0, "D/D/1 rho 0.5: no wait")
	# D/D/1 overloaded by 1 s a job: the n-th job waits n seconds
	arr = [10.0 * i for i in range(100)]
	st, _ = fcfs(arr, [11.0] * 100, 1)
	ok(all(abs((b - a) - i) < 1e-9 for i, (a, b) in
		   enumerate(zip(arr, st))), "D/D/1 rho 1.1: the n-th waits n s")
	# D/D/2 with service 15 s every 10 s: no wait with two servers
	st, _ = fcfs(arr, [15.0] * 100, 2)
	ok(all(b == a for a, b in zip(arr, st)), "D/D/2 rho 0.75: no wait")
	# a burst of 5 at t = 0, service 1 s, one server: waits 0..4, mean
	# queue (0+1+2+3+4 waiting-seconds... area 10 over span 4)
	st, _ = fcfs([0.0] * 5, [1.0] * 5, 1)
	q, m = queue_stats([0.0] * 5, st)
	ok(st == [0.0, 1.0, 2.0, 3.0, 4.0] and m == 4 and abs(q - 2.5) < 1e-9,
	   "burst of 5: waits 0-4 s, at most 4 waiting, 2.5 on average")
	rng = random.Random(20)
	n = 200000
	for rho in (0.5, 0.8):
		# M/D/1: Wq = rho / (2 mu (1 - rho)), mu = 1
		t = 0.0
		arr = []
		for _ in range(n):
			t += rng.expovariate(rho)
			arr.append(t)
		st, _ = fcfs(arr, [1.0] * n, 1)
		wq = sum(b - a for a, b in zip(arr, st)) / n
		want = rho / (2 * (1 - rho))
		ok(abs(wq - want) / want < 0.05,
		   "M/D/1 rho %.1f: Wq %.3f, theory %.3f" % (rho, wq, want))
		q, _ = queue_stats(arr, st)
		ok(abs(q - rho * want) / (rho * want) < 0.05,
		   "M/D/1 rho %.1f: Lq %.3f, Little %.3f" % (rho, q, rho * want))
	# M/M/2, lambda 1.6, mu 1: Erlang C
	lam, mu, c = 1.6, 1.0, 2
	t = 0.0
	arr = []
	for _ in range(n):
		t += rng.expovariate(lam)
		arr.append(t)
	sv = [rng.expovariate(mu) for _ in range(n)]
	st, _ = fcfs(arr, sv, c)
	wq = sum(b - a for a, b in zip(arr, st)) / n
	a = lam / mu
	rho = a / c
	s = sum(a ** k / math.factorial(k) for k in range(c))
	top = a ** c / math.factorial(c) / (1 - rho)
	pw = top / (s + top)
	want = pw / (c * mu - lam)
	ok(abs(wq - want) / want < 0.07,
	   "M/M/2 rho 0.8: Wq %.3f, Erlang C %.3f" % (wq, want))
	# tandem: the second stage adds its own service and wait
	arr = [10.0 * i for i in range(100)]
	lat, _, (q2, m2) = tandem(arr, [4.0] * 100, [12.0] * 100, 1, 1)
	ok(abs(lat[-1] - (4 + 12 + 99 * 2)) < 1e-9 and m2 >= 1,
	   "tandem D/D/1 -> D/D/1 rho 1.2: the last waits 198 s at boot")
	print("1..%d" % len(checks))
	bad = 0
	for i, (c_, w) in enumerate(checks, 1):
		print("%s %d - %s" % ("ok" if c_ else "not ok", i, w))
		bad += not c_
	return 1 if bad else 0


def main():
	ap = argparse.ArgumentParser()
	ap.add_argument("--times", help="service times file")
	ap.add_argument("--mbox", help="the real week (mboxrd, .xz)")
	ap.add_argument("--cold", type=float, default=0.1,
			help="fraction of series that are cold (default 0.1)")
	ap.add_argument("--lists", type=int, default=20)
	ap.add_argument("--per-day", type=int, default=2000)
	ap.add_argument("--days", type=float, default=7)
	ap.add_argument("--nodes", default="1,2,4,6,8,16")
	ap.add_argument("--devices", default="1,2,4,8")
	ap.add_argument("--seed", type=int, default=20)
	ap.add_argument("--self-test", action="store_true")
	o = ap.parse_args()
	if o.self_test:
		return self_test()
	if not o.times or not o.mbox:
		ap.error("--times and --mbox are needed")
	times, src = read_times(o.times)
	print("service times (seconds):")
	for k in ("apply_patch", "sparse_warm", "sparse_cold", "build_warm",
		  "build_cold", "boot"):
		print("  %-12s %7.4g  %s" % (k, times[k], src[k]))
	rng = random.Random(o.seed)
	nodes = [int(x) for x in o.nodes.split(",")]
	devices = [int(x) for x in o.devices.split(",")]
	grid = [(n, d) for n in nodes for d in devices]
	real = real_series(o.mbox)
	run("real week (linux-arm-kernel, 14-20 June 2020)", real, times,
	    o.cold, grid, rng)
	gen = generated_series(real, o.lists, o.per_day, o.days, rng)
	run("generated (%d lists, %d series a day)" % (o.lists, o.per_day),
	    gen, times, o.cold, grid, rng)
	return 0


if __name__ == "__main__":
	sys.exit(main())
