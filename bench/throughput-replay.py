#!/usr/bin/env python3
# bench/throughput-replay.py: the real week of linux-arm-kernel replayed
# with patches that apply to the distro tree (bench/throughput.sh,
# MODE=replay).
#
# The week's series (../shared/corpora/lakml, grouped as bench/capacity.py
# does: "[PATCH vN i/n]" subjects and threads, a series arrives at its
# last patch's Date:) keep their arrival times, compressed by a factor,
# and their patch counts; their patches are replaced by real ARM patches
# for Linux 6.1 (../shared/corpora/arm61) that apply to the tree on their
# own, chosen in turn so that the patches of one series touch disjoint
# files (so they also apply together, in any order).  A week series with
# more patches than such a set holds gets the largest set (the plan says
# how many were cut).  Each replayed series is mailed as a list would
# (tests/lib/make-series.pl: a cover letter when it has more than one
# patch, threaded, one author per series so that none supersedes
# another), all its mails at once at its compressed arrival time.
#
# usage: throughput-replay.py plan --week MBOX --pool DIR --git-dir GIT
#            --span SECONDS > PLAN
#        throughput-replay.py deliver --plan PLAN --maildir DIR --list ADDR
#            --make-series PL > DELIVERED
# PLAN: one line a series, tab-separated: tag, replay offset (s), week
# time (epoch), the week's patch count, the patches.  DELIVERED: tag,
# epoch the mails were delivered at, patches delivered.
import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import capacity  # noqa: E402  (the week's series, one way to group them)


def touched(git_dir, env, patch):
	"""The files @patch changes, or None when it does not apply alone."""
	run = subprocess.run(["git", "--git-dir", git_dir, "apply", "--cached",
			      "--check", patch], env=env,
			     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
	if run.returncode:
		return None
	out = subprocess.run(["git", "--git-dir", git_dir, "apply", "--numstat",
			      patch], env=env, check=True,
			     stdout=subprocess.PIPE, text=True).stdout
	files = {line.split("\t", 2)[2] for line in out.splitlines() if line}
	return files or None


def plan(args):
	with tempfile.TemporaryDirectory() as tmp:
		env = dict(os.environ, GIT_INDEX_FILE=os.path.join(tmp, "index"))
		subprocess.run(["git", "--git-dir", args.git_dir, "read-tree",
				"HEAD"], env=env, check=True)
		pool = []
		for p in sorted(glob.glob(os.path.join(args.pool, "*", "*.patch"))):
			files = touched(args.git_dir, env, p)
			if files:
				pool.append((p, files))
	if not pool:
		sys.exit("throughput-replay: no patch of %s applies" % args.pool)
	week = capacity.real_series(args.week)
	t0, t1 = week[0][0], week[-1][0]
	factor = (t1 - t0) / args.span if args.span > 0 and t1 > t0 else 1.0
	cursor = 0
	cut = 0
	out = sys.stdout
	for i, (t, k) in enumerate(week):
		chosen, files = [], set()
		for j in range(len(pool)):
			if len(chosen) == k:
				break
			p, f = pool[(cursor + j) % len(pool)]
			if f & files:
				continue
			chosen.append(p)
			files |= f
		cursor = (cursor + max(1, len(chosen))) % len(pool)
		cut += k - len(chosen)
		out.write("r%03d\t%.1f\t%d\t%d\t%s\n" % (i + 1, (t - t0) / factor,
							 t, k, "\t".join(chosen)))
	sys.stderr.write("replay: %d series of the week (%d patches; %d cut "
			 "to fit disjoint sets), %d arm61 patches that apply, "
			 "the week's %.0f s compressed %.0fx into %.0f s\n" %
			 (len(week), sum(k for _, k in week), cut, len(pool),
			  t1 - t0, factor, (t1 - t0) / factor))


def deliver(args):
	with open(args.plan) as f:
		rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
	start = time.time()
	for row in rows:
		tag, offset, patches = row[0], float(row[1]), row[4:]
		delay = start + offset - time.time()
		if delay > 0:
			time.sleep(delay)
		cmd = ["perl", args.make_series, "--id", tag,
		       "--from", "Replay %s <%s@example.org>" % (tag, tag),
		       "--list", args.list, "--maildir", args.maildir]
		if len(patches) > 1:
			cmd += ["--cover", "replay %s of the week: %d ARM patches "
				"for 6.1" % (tag, len(patches))]
		subprocess.run(cmd + patches, check=True)
		sys.stdout.write("%s\t%.3f\t%d\n" % (tag, time.time(),
						    len(patches)))
		sys.stdout.flush()


def main():
	ap = argparse.ArgumentParser()
	sub = ap.add_subparsers(dest="cmd", required=True)
	p = sub.add_parser("plan")
	p.add_argument("--week", required=True)
	p.add_argument("--pool", required=True)
	p.add_argument("--git-dir", required=True)
	p.add_argument("--span", type=float, required=True)
	d = sub.add_parser("deliver")
	d.add_argument("--plan", required=True)
	d.add_argument("--maildir", required=True)
	d.add_argument("--list", required=True)
	d.add_argument("--make-series", required=True)
	args = ap.parse_args()
	plan(args) if args.cmd == "plan" else deliver(args)


if __name__ == "__main__":
	main()
