#!/usr/bin/env python3
"""bench/base-guess-gen.py: the inputs of bench/base-guess.sh.

  base-guess-gen.py history --commits N --extra M --seed S --end EPOCH
      writes a git fast-import stream to stdout: a kernel-like tree of a few
      thousand files (arch/arm/mach-*/, drivers/*/, include/linux/, ...) in
      one commit, then N-1 linear commits on refs/heads/master, each
      changing, adding or removing a few lines in 1-5 files (some add or
      delete a file), a commit every 1-5 minutes; then M more commits on
      refs/bench/more (master's continuation, for an incremental update).
      The last commit of refs/bench/more is dated EPOCH.  Every version
      of a file is written next to the one before it, so that fast-import
      stores it as a delta of it: the pack needs no repack.

  base-guess-gen.py series --git-dir DIR --out OUTDIR --depths D,... \\
          --sizes 1,5,30 --seed S
      in DIR (a scratch clone of the history: it gets the series' objects),
      for each depth D and size P: a branch at master~D with P patches that
      edit files master changes again after the base (so master's head no
      longer has the pre-image blobs), posted ten minutes after master's
      head.  Writes OUTDIR/<P>-<D>.mbox (git format-patch --stdout --thread,
      a cover letter for P > 1, no --base) and one line per series to
      OUTDIR/series.tsv: name, patches, depth, base commit, the paths the
      series touches (comma-separated).

Deterministic for a given seed and end date.  Python 3 standard library
only.
"""

import argparse
import os
import random
import subprocess
import sys

# --- the tree ------------------------------------------------------------

MACHS = """at91 bcm berlin davinci digicor dove ep93xx exynos footbridge
hisi highbank imx integrator ixp4xx keystone lpc32xx meson mmp mstar mvebu
mxs nomadik npcm omap1 omap2 orion5x pxa qcom realview rockchip s3c s5pv210
sa1100 shmobile socfpga spear stm32 sunxi tegra ux500 versatile vexpress
zynq""".split()

DRIVERS = """clk clk/imx clk/qcom clk/samsung gpio i2c/busses spi mmc/host
net/ethernet/freescale net/ethernet/stmicro/stmmac net/phy usb/host
usb/gadget/udc usb/dwc3 usb/chipidea tty/serial pinctrl pinctrl/freescale
pinctrl/samsung regulator watchdog rtc dma iio/adc input/touchscreen
input/keyboard mfd power/supply power/reset pwm thermal soc/imx soc/qcom
irqchip clocksource phy/freescale media/platform gpu/drm/imx gpu/drm/panel
gpu/drm/bridge mtd/nand/raw remoteproc reset cpufreq cpuidle firmware
mailbox memory nvmem bus crypto leds""".split()

SUBSYS = """platform clk gpio i2c spi mmc net phy usb serial pinctrl
regulator wdt rtc dma iio input mfd power pwm thermal soc irq timer drm
mtd rproc reset cpufreq cpuidle fw mbox nvmem bus crypto led""".split()

WORDS = """dev priv base clk irq reg val ctrl status mask data buf len offset
count rate parent child node np res ret flags lock timeout cfg mode state
index port chan desc ops pdata regs map pin bank id cmd resp info""".split()

TYPES = ["int", "u32", "u16", "u8", "unsigned long", "bool", "size_t",
         "void *", "struct device *", "struct clk *", "void __iomem *"]

MACROS = ["BIT", "GENMASK", "FIELD_PREP", "FIELD_GET", "ARRAY_SIZE",
          "DIV_ROUND_UP", "readl", "writel", "readl_relaxed",
          "writel_relaxed"]

NAMES = ["Russell King", "Arnd Bergmann", "Linus Walleij", "Shawn Guo",
         "Krzysztof Kozlowski", "Geert Uytterhoeven", "Tony Lindgren",
         "Gregory Clement", "Andrew Lunn", "Fabio Estevam", "Marek Vasut",
         "Heiko Stuebner", "Maxime Ripard", "Chen-Yu Tsai", "Thierry Reding",
         "Jon Hunter", "Dmitry Baryshkov", "Bjorn Andersson", "Neil Armstrong",
         "Alexandre Belloni", "Nicolas Ferre", "Claudiu Beznea",
         "Florian Fainelli", "Stefan Wahren", "Sudeep Holla", "Mark Brown",
         "Stephen Boyd", "Ulf Hansson", "Wolfram Sang", "Uwe Kleine-Konig"]


def ident(rng):
	return "%s_%s" % (rng.choice(WORDS), rng.choice(WORDS))


def c_line(rng, prefix):
	"""One C-ish statement line, indented as inside a function."""
	k = rng.randrange(14)
	a, b = ident(rng), ident(rng)
	n = rng.randrange(1, 4096)
	if k == 0:
		return "\t%s %s = %d;" % (rng.choice(TYPES), a, n)
	if k == 1:
		return "\tret = %s_%s(%s, %s);" % (prefix, rng.choice(WORDS), a, b)
	if k == 2:
		return "\tif (ret)\n\t\treturn ret;"
	if k == 3:
		return "\t%s(%s | %s(%d), priv->base + 0x%03x);" % (
			rng.choice(MACROS[6:]), a, rng.choice(MACROS[:2]),
			n % 32, (n * 4) % 0x1000)
	if k == 4:
		return "\t%s = %s(priv->base + 0x%03x);" % (
			a, rng.choice(["readl", "readl_relaxed"]), (n * 4) % 0x1000)
	if k == 5:
		return "\tdev_dbg(dev, \"%s %s: %%d\\n\", %s);" % (
			rng.choice(WORDS), rng.choice(WORDS), a)
	if k == 6:
		return "\tif (!%s)\n\t\treturn -%s;" % (
			a, rng.choice(["EINVAL", "ENOMEM", "ENODEV", "EBUSY"]))
	if k == 7:
		return "\t%s->%s = %s;" % (rng.choice(WORDS), a, b)
	if k == 8:
		return "\t/* %s the %s before %s */" % (
			rng.choice(["clear", "set", "latch", "flush", "sync"]),
			rng.choice(WORDS), rng.choice(WORDS))
	if k == 9:
		return "\tspin_lock_irqsave(&priv->lock, flags);"
	if k == 10:
		return "\tspin_unlock_irqrestore(&priv->lock, flags);"
	if k == 11:
		return "\tudelay(%d);" % (n % 200 + 1)
	if k == 12:
		return "\t%s = %s(%s, %d);" % (a, rng.choice(MACROS[2:6]), b, n)
	return "\treturn %s;" % rng.choice(["0", "ret", a, "-EINVAL"])


def c_function(rng, prefix):
	name = "%s_%s_%s" % (prefix, rng.choice(WORDS), rng.choice(
		["probe", "remove", "init", "exit", "enable", "disable", "set",
		 "get", "config", "irq", "suspend", "resume", "read", "write"]))
	lines = ["", "static int %s(struct %s_priv *priv)" % (name, prefix), "{"]
	lines += [c_line(rng, prefix) for _ in range(rng.randrange(3, 12))]
	lines += ["}"]
	return lines


def c_file(rng, path, prefix):
	lines = ["// SPDX-License-Identifier: GPL-2.0-only", "/*",
		 " * %s" % path, " *", " * Copyright (C) %d %s" % (
			 rng.randrange(2005, 2024), rng.choice(NAMES)), " */", ""]
	for _ in range(rng.randrange(3, 9)):
		lines.append("#include <linux/%s.h>" % rng.choice(
			WORDS + SUBSYS))
	target = rng.randrange(40, 140)
	while len(lines) < target:
		lines += c_function(rng, prefix)
	return lines


def h_file(rng, path, prefix):
	guard = "__" + path.replace("/", "_").replace(".", "_").replace(
		"-", "_").upper() + "__"
	lines = ["/* SPDX-License-Identifier: GPL-2.0 */", "#ifndef " + guard,
		 "#define " + guard, ""]
	target = rng.randrange(25, 90)
	while len(lines) < target:
		k = rng.randrange(3)
		if k == 0:
			lines.append("#define %s_%s\t\t0x%03x" % (
				prefix.upper(), ident(rng).upper(),
				rng.randrange(0x1000)))
		elif k == 1:
			lines.append("int %s_%s(struct %s *%s);" % (
				prefix, ident(rng), rng.choice(WORDS),
				rng.choice(WORDS)))
		else:
			lines += ["struct %s_%s {" % (prefix, ident(rng))]
			lines += ["\t%s %s;" % (rng.choice(TYPES), ident(rng))
				  for _ in range(rng.randrange(2, 7))]
			lines += ["};", ""]
	lines += ["", "#endif /* %s */" % guard]
	return lines


def build_tree(rng):
	"""The paths of the first commit, and the directories as a list of
	(dir, prefix)."""
	dirs = []
	for m in MACHS:
		dirs.append(("arch/arm/mach-" + m, m))
	for d in ["arch/arm/kernel", "arch/arm/mm", "arch/arm/include/asm",
		  "arch/arm/common", "arch/arm/vfp"]:
		dirs.append((d, d.split("/")[-1]))
	for d in DRIVERS:
		dirs.append(("drivers/" + d, d.split("/")[-1].replace("-", "_")))
	for d in ["include/linux", "include/linux/mfd",
		  "include/linux/platform_data", "include/dt-bindings/clock",
		  "kernel", "kernel/irq", "kernel/time", "mm", "fs", "lib"]:
		dirs.append((d, d.split("/")[-1].replace("-", "_")))
	files = set()
	for d, prefix in dirs:
		if d.startswith("include/"):
			n = 300 if d == "include/linux" else 40
		elif d.startswith("arch/arm/mach-"):
			n = rng.randrange(5, 14)
		else:
			n = rng.randrange(20, 60)
		for i in range(n):
			files.add(new_path(rng, d, prefix, files))
	return files, dirs


def new_path(rng, d, prefix, files):
	while True:
		stem = "%s-%s" % (prefix, rng.choice(WORDS + SUBSYS))
		if rng.randrange(3) == 0:
			stem += "%d" % rng.randrange(100)
		ext = ".h" if d.startswith("include/") or rng.randrange(8) == 0 \
			else ".c"
		path = "%s/%s%s" % (d, stem.replace("_", "-"), ext)
		if path not in files:
			return path


def edit(rng, lines, prefix):
	"""Change, add or remove a few lines of @lines (in place), past the
	licence header so that every file keeps its first lines."""
	ops = rng.randrange(1, 4)
	for _ in range(ops):
		k = rng.randrange(3)
		if len(lines) > 200:
			k = 2
		elif len(lines) < 20:
			k = 1
		at = rng.randrange(8, len(lines))
		if k == 0:
			lines[at] = c_line(rng, prefix)
		elif k == 1:
			for _ in range(rng.randrange(1, 6)):
				lines.insert(at, c_line(rng, prefix))
		else:
			del lines[at:at + rng.randrange(1, 4)]


def blob(lines):
	return ("\n".join(lines) + "\n").encode()


def emit_data(out, data):
	out.write(b"data %d\n" % len(data))
	out.write(data)
	out.write(b"\n")


def history(args):
	"""Two passes: the commits first (which files each changes, adds or
	deletes: the seed's random stream), then every version of every file,
	grouped by file, each file with a random stream of its own: written as
	marked blobs in that order, fast-import stores each version as a delta
	against the one before (it deltas a blob against the last blob it
	wrote), so the pack needs no repack; then the commits, naming marks."""
	rng = random.Random(args.seed)
	paths, dirs = build_tree(rng)
	prefix_of = dict(dirs)
	by_dir = {}
	for p in sorted(paths):
		by_dir.setdefault(p.rsplit("/", 1)[0], []).append(p)
	ever = set(paths)	# a deleted path is not used again
	versions = {p: 1 for p in paths}
	total = args.commits + args.extra
	# a commit every 1-5 minutes, the last one at --end
	gaps = [rng.randrange(60, 300) for _ in range(total)]
	t = args.end - sum(gaps[1:])
	commits = []
	for n in range(1, total + 1):
		if n > 1:
			t += gaps[n - 1]
		who = rng.choice(NAMES)
		# a release candidate every 1,500 commits, as the kernel tags
		# one a week, and the release after rc7: b4 names the base it
		# guesses by `git describe --all`, which needs a tag below it
		tag = None
		if n % 1500 == 1 and n <= args.commits:
			k = n // 1500
			tag = "v6.%d" % (k // 8) + ("-rc%d" % (k % 8 + 1)
						    if k % 8 < 7 else "")
		deleted = []
		if n == 1:
			subject = "Linux 6.0-rc1"
			body = "Initial import of the bench tree.\n"
			changed = [(p, 0) for p in sorted(paths)]
		elif tag:
			subject = "Linux " + tag[1:]
			body = "Tagged for the bench.\n"
			changed = []
		else:
			d = rng.choice(dirs)[0]
			pool = by_dir[d]
			picks = rng.sample(pool, min(len(pool),
						     rng.randrange(1, 6)))
			if rng.randrange(30) == 0:
				# a header elsewhere goes with the change
				h = rng.choice(by_dir["include/linux"])
				if h not in picks:
					picks.append(h)
			r = rng.randrange(200)
			what = rng.choice(["fix", "clean up", "simplify",
					   "rework", "use", "drop"])
			if r < 2:
				p = new_path(rng, d, prefix_of[d], ever)
				ever.add(p)
				versions[p] = 0
				pool.append(p)
				picks.append(p)
				what = "add"
			elif r < 3 and len(pool) > len(picks) + 4:
				p = rng.choice([x for x in pool
						if x not in picks])
				pool.remove(p)
				deleted.append(p)
				what = "remove"
			changed = []
			for p in picks:
				changed.append((p, versions[p]))
				versions[p] += 1
			area = d.replace("arch/arm/mach-", "ARM: ").replace(
				"drivers/", "").replace("/", ": ")
			subject = "%s: %s %s %s" % (area, what, rng.choice(WORDS),
						    rng.choice(WORDS))
			body = ("The %s of the %s was not %s.\n\nSigned-off-by: "
				"%s <%s>\n") % (rng.choice(WORDS), rng.choice(WORDS),
						 rng.choice(["set", "checked",
							     "released"]),
						 who, email(who))
		commits.append((t, who, subject, body, tag, changed, deleted))

	# every version of every file, file by file; the marks of the
	# blobs follow those of the commits
	out = sys.stdout.buffer
	mark = {}
	next_mark = total + 1
	for p in sorted(versions):
		prefix = prefix_of[p.rsplit("/", 1)[0]]
		frng = random.Random("%d:%s" % (args.seed, p))
		lines = (h_file if p.endswith(".h") else c_file)(frng, p, prefix)
		for k in range(versions[p]):
			if k:
				edit(frng, lines, prefix)
			mark[p, k] = next_mark
			out.write(b"blob\nmark :%d\n" % next_mark)
			emit_data(out, blob(lines))
			next_mark += 1

	ref = b"refs/heads/master"
	for n, (t, who, subject, body, tag, changed, deleted) in enumerate(
			commits, 1):
		if n == args.commits + 1:
			ref = b"refs/bench/more"
			out.write(b"reset %s\nfrom :%d\n\n" % (ref, n - 1))
		out.write(b"commit %s\nmark :%d\n" % (ref, n))
		out.write(("author %s <%s> %d +0000\n" % (who, email(who),
							   t - 600)).encode())
		out.write(("committer Arm Maintainer <arm@example.org> "
			   "%d +0000\n" % t).encode())
		emit_data(out, ("%s\n\n%s" % (subject, body)).encode())
		for p in deleted:
			out.write(b"D %s\n" % p.encode())
		for p, k in changed:
			out.write(b"M 100644 :%d %s\n" % (mark[p, k], p.encode()))
		out.write(b"\n")
		if tag:
			out.write(("tag %s\nfrom :%d\ntagger Arm Maintainer "
				   "<arm@example.org> %d +0000\n" % (tag, n, t)
				   ).encode())
			emit_data(out, ("Linux %s\n" % tag[1:]).encode())
	out.write(b"done\n")


def email(who):
	return who.lower().replace(" ", ".") + "@example.org"


# --- the series ----------------------------------------------------------

def git(gitdir, *argv, data=None, env=None):
	e = dict(os.environ)
	if env:
		e.update(env)
	r = subprocess.run(["git", "--git-dir", gitdir] + list(argv),
			   input=data, stdout=subprocess.PIPE, check=True, env=e)
	return r.stdout


def series(args):
	rng = random.Random(args.seed)
	head = git(args.git_dir, "rev-parse", "master").decode().strip()
	posted = int(git(args.git_dir, "log", "-1", "--format=%ct",
			 head).decode()) + 600
	os.makedirs(args.out, exist_ok=True)
	tsv = open(os.path.join(args.out, "series.tsv"), "w")
	cat = subprocess.Popen(["git", "--git-dir", args.git_dir, "cat-file",
				"--batch"], stdin=subprocess.PIPE,
			       stdout=subprocess.PIPE)

	def read_blob(rev, path):
		cat.stdin.write(("%s:%s\n" % (rev, path)).encode())
		cat.stdin.flush()
		hdr = cat.stdout.readline().split()
		if hdr[-1] == b"missing":
			return None
		data = cat.stdout.read(int(hdr[2]) + 1)[:-1]
		return data.decode().split("\n")[:-1]

	for depth in args.depths:
		base = git(args.git_dir, "rev-parse",
			   "master~%d" % depth).decode().strip()
		# the files master changes again after the base and that the
		# base has: the series' pre-images are gone from the head
		later = set(git(args.git_dir, "log", "--format=",
				"--name-only", "--no-renames",
				"--diff-filter=M", "%s..master" % base
				).decode().split())
		at_base = set(git(args.git_dir, "ls-tree", "-r",
				  "--name-only", base).decode().split())
		pool = sorted(later & at_base)
		for size in args.sizes:
			name = "%d-%d" % (size, depth)
			ref = "refs/heads/series-" + name
			stream = []
			touched = []
			content = {}
			for i in range(1, size + 1):
				picks = rng.sample(pool, min(len(pool),
							     rng.randrange(1, 4)))
				newfile = None
				if rng.randrange(10) == 0:
					d = picks[0].rsplit("/", 1)[0]
					newfile = "%s/bench-new-%s-%d.c" % (
						d, name, i)
				mods = []
				for p in picks:
					if p not in content:
						content[p] = read_blob(base, p)
					edit(rng, content[p], "bench")
					mods.append((p, blob(content[p])))
					if p not in touched:
						touched.append(p)
				if newfile:
					content[newfile] = c_file(rng, newfile,
								  "bench")
					mods.append((newfile,
						     blob(content[newfile])))
					touched.append(newfile)
				# dated as posted (send-email dates the mails
				# it sends): the Date b4 searches back from
				when = posted + i
				# short enough that format-patch does not fold
				# it: b4 0.12 fails on a folded Subject
				# ("Header values may not contain linefeed")
				subj = "%s: %s %s" % (
					picks[0].split("/")[-2].replace(
						"mach-", "ARM: "),
					rng.choice(["fix", "rework", "clean up"]),
					rng.choice(WORDS))
				msg = ("%s\n\nA change of series %s.\n\n"
				       "Signed-off-by: Bench Author "
				       "<bench@example.org>\n" % (subj, name))
				stream.append(b"commit %s\n" % ref.encode())
				stream.append(("author Bench Author "
					       "<bench@example.org> %d +0000\n"
					       "committer Bench Author "
					       "<bench@example.org> %d +0000\n"
					       % (when, when)).encode())
				m = msg.encode()
				stream.append(b"data %d\n%s\n" % (len(m), m))
				if i == 1:
					stream.append(b"from %s\n" % base.encode())
				for p, data in mods:
					stream.append(b"M 100644 inline %s\n"
						      b"data %d\n%s\n" % (
							      p.encode(),
							      len(data), data))
				stream.append(b"\n")
			git(args.git_dir, "fast-import", "--quiet",
			    data=b"".join(stream))
			argv = ["format-patch", "--stdout", "--thread=shallow",
				"--no-signature", "--no-base"]
			if size > 1:
				argv.append("--cover-letter")
			# the cover letter is dated and signed by the committer
			mbox = git(args.git_dir, *argv, "%s..%s" % (base, ref),
				   env={"GIT_COMMITTER_DATE": "%d +0000" % posted,
					"GIT_COMMITTER_NAME": "Bench Author",
					"GIT_COMMITTER_EMAIL":
					"bench@example.org"})
			text = mbox.decode().replace(
				"*** SUBJECT HERE ***",
				"bench: series %s" % name).replace(
				"*** BLURB HERE ***",
				"%d patches on master~%d." % (size, depth)).replace(
				"<cover.", "<cover.%s." % name)
			with open(os.path.join(args.out, name + ".mbox"),
				  "w") as f:
				f.write(text)
			git(args.git_dir, "update-ref", "-d", ref)
			tsv.write("%s\t%d\t%d\t%s\t%s\n" % (
				name, size, depth, base, ",".join(touched)))
	cat.stdin.close()
	cat.wait()
	tsv.close()


def main():
	ap = argparse.ArgumentParser()
	sub = ap.add_subparsers(dest="cmd", required=True)
	h = sub.add_parser("history")
	h.add_argument("--commits", type=int, required=True)
	h.add_argument("--extra", type=int, default=1000)
	h.add_argument("--seed", type=int, default=1)
	h.add_argument("--end", type=int, required=True)
	s = sub.add_parser("series")
	s.add_argument("--git-dir", required=True)
	s.add_argument("--out", required=True)
	s.add_argument("--depths", type=lambda v: [int(x) for x in
						   v.split(",")], required=True)
	s.add_argument("--sizes", type=lambda v: [int(x) for x in
						  v.split(",")], required=True)
	s.add_argument("--seed", type=int, default=1)
	args = ap.parse_args()
	if args.cmd == "history":
		history(args)
	else:
		series(args)


if __name__ == "__main__":
	main()
