#!/bin/sh
# Make the demonstration series of `make run` from the distro tree that
# armbot imported: two patches made with real git format-patch, one removing
# an ARM board file (arch/arm shrinks), one adding code elsewhere
# (a driver outside arch/arm, which sparse then checks).
# usage: bot/cli/demo-series.sh TREE-REPO OUT.mbox
set -eu
repo=$1
case $2 in /*) out=$2 ;; *) out=$PWD/$2 ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/armbot-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

git clone -q --shared --no-checkout "$repo" "$work/linux"
cd "$work/linux"
git read-tree HEAD
export GIT_AUTHOR_NAME='Arm Bot Demo' GIT_AUTHOR_EMAIL='demo@armbot.invalid'
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE='2026-12-01T12:00:00Z' GIT_COMMITTER_DATE='2026-12-01T12:00:00Z'

# 1: drop the EBSA-285 board file and its PCI glue from mach-footbridge
mk=arch/arm/mach-footbridge/Makefile
git show "HEAD:$mk" | sed -e '/ebsa285-pci\.o/d' \
	-e 's/ebsa285\.o dc21285-timer\.o/dc21285-timer.o/' > "$work/Makefile"
git update-index --cacheinfo "100644,$(git hash-object -w "$work/Makefile"),$mk"
git rm -q --cached arch/arm/mach-footbridge/ebsa285.c \
	arch/arm/mach-footbridge/ebsa285-pci.c
git commit -q -m 'ARM: footbridge: remove the EBSA-285 board file' -m \
'The EBSA-285 evaluation board has had no users for years; its board
file and PCI glue go, the common footbridge code stays.' -m \
'Signed-off-by: Arm Bot Demo <demo@armbot.invalid>'

# 2: code outside arch/arm: the Versatile Express config bus driver (built
# by allmodconfig, so sparse checks it) gets the description it lacks
drv=drivers/bus/vexpress-config.c
git show "HEAD:$drv" |
	sed -e 's/^MODULE_LICENSE("GPL v2");$/MODULE_DESCRIPTION("Versatile Express configuration bus");\n&/' \
	> "$work/drv"
git update-index --cacheinfo "100644,$(git hash-object -w "$work/drv"),$drv"
git commit -q -m 'bus: vexpress-config: add MODULE_DESCRIPTION()' -m \
'modpost warns about modules without a description; say what this one is.' -m \
'Signed-off-by: Arm Bot Demo <demo@armbot.invalid>'

git format-patch -q --cover-letter --thread --stdout \
	--subject-prefix='PATCH' --base=HEAD~2 HEAD~2 |
sed -e 's/^Subject: \[PATCH 0\/2\] \*\*\* SUBJECT HERE \*\*\*/Subject: [PATCH 0\/2] ARM: footbridge: remove EBSA-285/' \
    -e 's/^\*\*\* BLURB HERE \*\*\*/Remove a board file nobody uses, and describe a driver module./' \
	> "$out"
