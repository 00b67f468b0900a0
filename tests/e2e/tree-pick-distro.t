#!/bin/sh
# Tree selection and opt-in over the real MAINTAINERS of the distro tree
# (Debian's linux-source-6.1, imported once under $ARMBOT_CACHE_DIR as
# tests/e2e/tree-import.t does): three tree files made from its OMAP2+
# SUPPORT, ARM PORT and ARM SUB-ARCHITECTURES sections, series made with
# git format-patch from the tree itself.
. "$(dirname "$0")/../lib/tap.sh"

DISTRO_TOOLS=
. "$TOP/tests/e2e/distro-lib.sh"
CACHE=$DATA

# a data dir of our own whose distro tree is the cached one (read only
# here), so that the store written by the opt-in stays in $TMP
D=$TMP/data
mkdir -p "$D/trees"
ln -s "$CACHE/trees/distro-6.1" "$D/trees/distro-6.1"
unset ARMBOT_CONFIG
export XDG_CONFIG_HOME="$TMP/xdg"
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org
export GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@example.org
cd "$TMP" || exit 1

git --git-dir="$REPO" show distro:MAINTAINERS > MAINTAINERS

# tree_file NAME SECTION URL: trees.d/NAME.conf with the F:, X:, N: lines
# and the lists of MAINTAINERS section SECTION
tree_file() {
	{
		echo "[tree]"
		echo "url = $3"
		lists=$(awk -v t="$2" '$0 == t { on = 1; next } on && /^$/ { exit }
			on && /^L:/ { print $2 }' MAINTAINERS | paste -sd';')
		[ -n "$lists" ] && echo "lists = $lists"
		echo "[paths]"
		for tag in F X N; do
			v=$(awk -v t="$2" -v tag="$tag:" '$0 == t { on = 1; next }
				on && /^$/ { exit }
				on && $1 == tag { print $2 }' MAINTAINERS | paste -sd';')
			[ -n "$v" ] && echo "$tag = $v"
		done
	} > "trees.d/$1.conf"
}
mkdir -p trees.d
printf '[bot]\nname = armbot\n' > armbot.conf
tree_file omap "OMAP2+ SUPPORT" https://git.kernel.org/pub/scm/linux/kernel/git/tmlind/linux-omap.git
tree_file arm "ARM PORT" git://git.armlinux.org.uk/~rmk/linux-arm.git
tree_file soc "ARM SUB-ARCHITECTURES" https://git.kernel.org/pub/scm/linux/kernel/git/soc/soc.git
grep -q '^F = arch/arm/configs/omap2plus_defconfig;arch/arm/mach-omap2/;arch/arm/plat-omap/;' trees.d/omap.conf
ok $? "trees.d/omap.conf has the F: lines of OMAP2+ SUPPORT"
is "$(grep '^[FX] =' trees.d/arm.conf | tr '\n' '|')" "F = arch/arm/|X = arch/arm/boot/dts/|" "trees.d/arm.conf has those of ARM PORT"
"$ARMBOT" --data-dir "$D" config check --config armbot.conf > out 2>&1
is "$(cat out)" "armbot.conf: ok, 3 trees: arm, omap, soc" "the tree files made from MAINTAINERS are valid"

# the series come from a sparse clone of the distro tree
git clone -q --shared --no-checkout "$REPO" k
git -C k sparse-checkout set --no-cone /arch/arm/mach-omap2/pm.c \
	/arch/arm/mach-exynos/pm.c /drivers/bus/ti-sysc.c \
	/arch/arm/kernel/setup.c /fs/ext4/inode.c 2> /dev/null
git -C k checkout -q -b work distro
ok $? "a sparse work tree of the distro tree"
BASE=$(git -C k rev-parse HEAD)

series() {	# series NAME FILE...: one commit changing FILEs, its mbox
	name=$1; shift
	git -C k checkout -q -B "$name" "$BASE"
	for f in "$@"; do echo "/* armbot e2e */" >> "k/$f"; done
	git -C k commit -q -a -m "$name: test"
	git -C k format-patch -q --stdout "$BASE..HEAD" > "$name.mbox"
}
pick() {	# pick MBOX: "tree by" in $picked, the reason in $reason
	"$ARMBOT" --data-dir "$D" tree pick --config armbot.conf "$1" > out 2> err
	reason=$(sed -n 's/^reason: //p' out)
	picked="$(sed -n 's/^tree: //p' out) $(sed -n 's/^by: //p' out)"
}

series omap arch/arm/mach-omap2/pm.c
pick omap.mbox
is "$picked" "omap paths" "an OMAP series goes to the tree declaring arch/arm/mach-omap2/"
is "$reason" "touches arch/arm/mach-omap2/pm.c (F: arch/arm/mach-omap2/ in trees.d/omap.conf); wins over soc (F: arch/arm/mach-*/ in trees.d/soc.conf)" "with the reason"

series omap-arm arch/arm/mach-omap2/pm.c arch/arm/kernel/setup.c drivers/bus/ti-sysc.c
pick omap-arm.mbox
is "$picked" "omap paths" "a series in the paths of two trees goes to the more specific one"
is "$reason" "touches drivers/bus/ti-sysc.c (F: drivers/bus/ti-sysc.c in trees.d/omap.conf) and 1 more file; it covers 2 of the 3 files; wins over arm (F: arch/arm/ in trees.d/arm.conf)" "with the reason"

series two-socs arch/arm/mach-omap2/pm.c arch/arm/mach-exynos/pm.c
pick two-socs.mbox
is "$picked" "soc paths" "a series across two machines goes to the sub-architectures tree"

series ext4 fs/ext4/inode.c
pick ext4.mbox
is "$picked" "distro-6.1 distro" "a series matching nothing goes to the distro tree"
is "$reason" "no tree claims it (no subject prefix, base-commit, path or list matched): the distro tree distro-6.1" "with the reason"

git -C k format-patch -q --stdout --base="$BASE" "$BASE..HEAD" > based.mbox
pick based.mbox
is "$picked" "distro-6.1 base-commit" "a base-commit of the distro tree is found there"

# opt-in against the distro tree's MAINTAINERS (read from the repository)
mail() {	# mail FROM SUBJECT BODY: outcome and reason
	printf 'From: %s\nSubject: %s\nMessage-ID: <%s@t>\n\n%b' "$1" "$2" \
		"$(date +%s%N)" "$3" > m.eml
	"$ARMBOT" --data-dir "$D" tree mail --config armbot.conf m.eml > reply 2> err
	outcome=$(sed -n 's/^outcome: //p' reply)
	reason=$(sed -n 's/^reason: //p' reply)
	[ -s err ] && sed 's/^/# stderr: /' err
}
mail "Tony Lindgren <tony@atomide.com>" "armbot opt-in omap-fixes" \
	"url: https://git.kernel.org/pub/scm/linux/kernel/git/tmlind/linux-omap.git\nbranch: fixes\npaths: arch/arm/mach-omap2/ drivers/bus/ti-sysc.c\n"
is "$outcome" "token-sent" "the OMAP maintainer of MAINTAINERS may opt in arch/arm/mach-omap2/"
token=$(sed -n 's/^confirm: //p' reply)
mail "Mallory <mallory@example.org>" "armbot opt-in omap-fixes" \
	"url: https://example.org/evil.git\npaths: arch/arm/mach-omap2/\n"
is "$outcome/$reason" "refused/mallory@example.org is not an M: entry of MAINTAINERS for arch/arm/mach-omap2/" "a stranger may not"
mail "tony@atomide.com" "armbot opt-in net" \
	"url: https://example.org/net.git\npaths: drivers/net/ethernet/ti/\n"
is "$outcome/$reason" "refused/tony@atomide.com is not an M: entry of MAINTAINERS for drivers/net/ethernet/ti/" "nor a maintainer of other paths"
mail "tony@atomide.com" "Re: armbot opt-in omap-fixes" "> confirm: $token\n"
is "$outcome" "applied" "the token confirms the opt-in"
"$ARMBOT" --data-dir "$D" tree list --config armbot.conf | grep -c '^omap-fixes	opt-in	active	tony@atomide.com$' > n
is "$(cat n)" 1 "tree list shows the opted-in tree"
done_testing
