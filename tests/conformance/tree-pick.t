#!/bin/sh
# armbot tree pick and armbot tree mail on a small repository made here
# with real git: series from git format-patch, a tree fetched into the
# data dir for base-commit, an opt-in by mail confirmed with its token and
# then used by selection; forged and replayed mails refused.
. "$(dirname "$0")/../lib/tap.sh"

unset ARMBOT_CONFIG
export XDG_CONFIG_HOME="$TMP/xdg"
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org
export GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@example.org
export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"
D=$TMP/data
R=$TMP/repo
cd "$TMP" || exit 1

git init -q -b master "$R"
for f in arch/arm/mach-omap2/pm.c arch/arm/kernel/setup.c \
	arch/arm/boot/dts/omap4.dtsi drivers/bus/ti-sysc.c fs/ext4/inode.c; do
	mkdir -p "$R/$(dirname "$f")"
	echo "/* $f */" > "$R/$f"
done
cat > "$R/MAINTAINERS" <<'M'
ARM PORT
M:	Russell King <linux@armlinux.org.uk>
F:	arch/arm/
X:	arch/arm/boot/dts/

OMAP2+ SUPPORT
M:	Tony Lindgren <tony@atomide.com>
L:	linux-omap@vger.kernel.org
F:	arch/arm/mach-omap2/
F:	drivers/bus/ti-sysc.c
M
git -C "$R" add -A && git -C "$R" commit -q -m base
BASE=$(git -C "$R" rev-parse HEAD)

# series: change FILES, commit, format-patch; SERIES NAME FILES... [-- ARGS]
series() {
	name=$1; shift
	git -C "$R" checkout -q -B "$name" "$BASE"
	for f in "$@"; do
		[ "$f" = -- ] && break
		echo change >> "$R/$f"
	done
	git -C "$R" commit -q -a -m "$name"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
	[ $# -gt 0 ] && shift
	git -C "$R" format-patch -q --stdout "$@" "$BASE..HEAD" > "$TMP/$name.mbox"
}

mkdir -p trees.d
printf '[tree]\n' > armbot.conf
cat > trees.d/arm.conf <<'T'
[tree]
url = https://git.armlinux.org.uk/linux-arm.git
lists = linux-arm-kernel@lists.infradead.org
[paths]
F = arch/arm/
X = arch/arm/boot/dts/
T
cat > trees.d/omap.conf <<'T'
[tree]
url = https://git.kernel.org/tmlind/linux-omap.git
lists = linux-omap@vger.kernel.org
[paths]
F = arch/arm/mach-omap2/;drivers/bus/ti-sysc.c
T
printf '[tree]\nurl = %s\nbranches = master\n' "$R" > trees.d/soc.conf
printf '[bot]\nname = armbot\n' > armbot.conf

pick() {	# pick MBOX: "tree by" in $picked, the reason in $reason
	"$ARMBOT" --data-dir "$D" tree pick --config armbot.conf "$1" > out 2> err
	reason=$(sed -n 's/^reason: //p' out)
	picked="$(sed -n 's/^tree: //p' out) $(sed -n 's/^by: //p' out)"
}

series omap arch/arm/mach-omap2/pm.c
pick omap.mbox; is "$picked" "omap paths" "an OMAP series goes to the tree with F: arch/arm/mach-omap2/"
is "$reason" "touches arch/arm/mach-omap2/pm.c (F: arch/arm/mach-omap2/ in trees.d/omap.conf); wins over arm (F: arch/arm/ in trees.d/arm.conf)" "with the reason"

series core arch/arm/kernel/setup.c
pick core.mbox; is "$picked" "arm paths" "an arch/arm/kernel series goes to arm"

series mixed arch/arm/kernel/setup.c arch/arm/mach-omap2/pm.c drivers/bus/ti-sysc.c
pick mixed.mbox; is "$picked" "omap paths" "two of three files more specific in omap: omap"
is "$reason" "touches drivers/bus/ti-sysc.c (F: drivers/bus/ti-sysc.c in trees.d/omap.conf) and 1 more file; it covers 2 of the 3 files; wins over arm (F: arch/arm/ in trees.d/arm.conf)" "with the reason"

series fs fs/ext4/inode.c
pick fs.mbox; is "$picked" "distro-6.1 distro" "a series no tree claims goes to the distro tree"

series prefixed fs/ext4/inode.c -- --subject-prefix="PATCH omap"
pick prefixed.mbox; is "$picked" "omap prefix" "[PATCH omap] names the tree"
is "$reason" "subject prefix [PATCH omap] names tree omap (trees.d/omap.conf)" "with the reason"

series dts arch/arm/boot/dts/omap4.dtsi -- --cover-letter --to=linux-omap@vger.kernel.org
pick dts.mbox; is "$picked" "omap list" "a series only its list claims (X: excludes the dts from arm) goes to that list's tree"

# base-commit: the soc tree, fetched into the data dir, has the commit
"$ARMBOT" --data-dir "$D" tree add soc "$R" --branch master > /dev/null 2>&1
ok $? "tree add soc"
series based arch/arm/mach-omap2/pm.c -- --base="$BASE"
pick based.mbox; is "$picked" "soc base-commit" "a base-commit found in a tree decides before the paths"
is "$reason" "base-commit $(echo "$BASE" | cut -c1-12) found in soc" "with the reason"

# opt-in by mail, checked against the repository's MAINTAINERS
mail() {	# mail FILE NOW: handle one mail; outcome in $outcome
	"$ARMBOT" --data-dir "$D" tree mail --config armbot.conf \
		--maintainers "$R/MAINTAINERS" --now "$2" "$1" > reply 2> err
	outcome=$(sed -n 's/^outcome: //p' reply)
	reason=$(sed -n 's/^reason: //p' reply)
}
request() {	# request FROM SUBJECT BODY > FILE
	printf 'From: %s\nTo: armbot@localhost\nSubject: %s\nMessage-ID: <%s@t>\n\n%b' \
		"$1" "$2" "$(date +%s%N)" "$3"
}

request "Tony Lindgren <tony@atomide.com>" "armbot opt-in omap-next" \
	"url: https://git.kernel.org/tmlind/linux-omap.git\nbranch: for-next\npaths: drivers/bus/ti-sysc.c\nchecks: apply, sparse\n" > req.eml
request "Mallory <mallory@example.org>" "armbot opt-in omap-next" \
	"url: https://example.org/evil.git\npaths: drivers/bus/ti-sysc.c\n" > forged.eml
mail forged.eml 1700000000
is "$outcome/$reason" "refused/mallory@example.org is not an M: entry of MAINTAINERS for drivers/bus/ti-sysc.c" "a request from a non-maintainer is refused"
mail req.eml 1700000000
is "$outcome" "token-sent" "Tony's request gets a token"
token=$(sed -n 's/^confirm: //p' reply)
is "$(printf %s "$token" | wc -c)" 32 "of 32 hex digits"
"$ARMBOT" --data-dir "$D" tree list --config armbot.conf | grep -c opt-in > n
is "$(cat n)" 0 "nothing is registered before the confirmation"
request "tony@atomide.com" "Re: armbot opt-in omap-next" "> confirm: $token\n" > confirm.eml
mail confirm.eml 1700172801
is "$outcome/$reason" "refused/the token expired on 2023-11-16 22:13 UTC: send the request again" "a confirmation after 48 hours is refused"
mail confirm.eml 1700000100
is "$outcome/$reason" "applied/opt-in of tree omap-next applied" "the confirmation applies it"
mail confirm.eml 1700000200
is "$outcome/$reason" "refused/the token was already used on 2023-11-14 22:15 UTC: a token confirms one request once" "a replayed confirmation is refused"
"$ARMBOT" --data-dir "$D" tree list --config armbot.conf | grep -A1 '^omap-next' > list
printf 'omap-next\topt-in\tactive\ttony@atomide.com\n\t2023-11-14 22:15:00 UTC\ttony@atomide.com\topt-in: url https://git.kernel.org/tmlind/linux-omap.git, branches for-next, paths drivers/bus/ti-sysc.c, checks apply, sparse, reply always to list\n' > want
is_file want list "tree list shows the tree and its record (who, when, what)"

# the registered tree takes part in selection: ti-sysc.c is in omap and
# omap-next at the same depth, the name decides
series sysc drivers/bus/ti-sysc.c
pick sysc.mbox; is "$picked" "omap paths" "equal specificity: the first name"
series sysc2 fs/ext4/inode.c -- --subject-prefix="PATCH omap-next"
pick sysc2.mbox; is "$picked" "omap-next prefix" "an opted-in tree is chosen by its prefix"
"$ARMBOT" --data-dir "$D" config check --config armbot.conf > out
is "$(cat out)" "armbot.conf: ok, 4 trees: arm, omap, omap-next, soc" "config check counts the registered tree"
done_testing
