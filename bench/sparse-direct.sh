#!/bin/sh
# bench/sparse-direct.sh: what kbuild's own make costs around the compiles
# and sparse of the sparse check's objects (issue 24, a series of new
# source).  In a copy of a warm allmodconfig build dir (left untouched),
# side by side, ROUNDS times each:
#   kbuild: the check's head make (`make C=2 CHECK=sparse` of armbot's
#           armbot-objects goal, kernel/build/sparse-check.c; outside
#           the sandbox, ccache disabled: a series' compiles are misses),
#           the objects and their .cmd removed first, as armbot does
#   direct: the command line kbuild recorded for each object (its
#           .OBJ.o.cmd, ccache dropped) and sparse with kbuild's CHECKFLAGS
#           and the same flags, per object, two at a time (xargs -P2),
#           in a symlink copy of the build dir
# and the probe of the objects' directories (armbot's armbot-probe goal).
# Prints the times, the ratio direct/kbuild, and whether both printed the
# same compiler and sparse messages (sorted).  Reads only: BUILD (default
# the bench-e2e data dir's allmodconfig) and the worktree its .cmd files
# name.  OBJS: the objects (default bench/e2e.sh's warm series' 15).
set -eu
CACHE=${ARMBOT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/armbot}
BUILD=${BUILD:-$CACHE/bench-e2e/data/kbuild/distro-6.1/allmodconfig}
ROUNDS=${ROUNDS:-2}
D=drivers/net/dsa/mv88e6xxx
OBJS=${OBJS:-"$D/chip.o drivers/pci/controller/pci-mvebu.o $D/devlink.o
$D/global1.o $D/global1_atu.o $D/global1_vtu.o $D/global2.o
$D/global2_scratch.o $D/hwtstamp.o $D/phy.o $D/port.o $D/port_hidden.o
$D/ptp.o $D/serdes.o $D/smi.o"}
[ -f "$BUILD/.config" ] || { echo "no warm build dir at $BUILD"; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/armbot-sparse-direct.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT
first=$(echo $OBJS | cut -d' ' -f1)
cmdfile() { echo "$(dirname "$1")/.$(basename "$1").cmd"; }
[ -f "$BUILD/$(cmdfile "$first")" ] || {
	echo "$first was never built in $BUILD"
	exit 1
}
# the kernel tree the build dir was made from: the source of an object
SRC=$(sed -n "s|^cmd_$first := .* \\([^ ]*\\)/$(dirname "$first")/[^ /]*\\.c *\$|\\1|p" \
	"$BUILD/$(cmdfile "$first")")
[ -d "$SRC" ] || { echo "cannot find the kernel tree of $BUILD"; exit 1; }
MAKE="make ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-"
# the recorded command lines are ccache's: keep them (no rebuild of
# prepare's objects), run the compilers directly
export CCACHE_DISABLE=1
CCV="CC=ccache arm-linux-gnueabihf-gcc"
HCCV="HOSTCC=ccache gcc"
cp -a "$BUILD" "$TMP/k"
cp -rs "$BUILD" "$TMP/d"
# armbot.mk: kbuild's CHECKFLAGS, and armbot's probe (sparse-check.c)
cat > "$TMP/k/armbot.mk" <<EOF
ifeq (\$(CURDIR),$TMP/k)
armbot-checkflags:
	@echo 'checkflags: \$(CHECKFLAGS)'
armbot-probe: \$(addprefix armbot-probe/,\$(ARMBOT_PROBE_DIRS))
armbot-probe/%:
	@\$(MAKE) \$(build)=\$* armbot-probe-dir
armbot-probe-dir:
	@echo 'armbot-probe \$(obj) objects: \$(real-obj-y) \$(real-obj-m)'
armbot-objects: \$(addprefix armbot-dir/,\$(ARMBOT_OBJ_DIRS))
armbot-dir/%: prepare
	\$(Q)\$(MAKE) \$(build)=\$* need-builtin=1 \$(foreach o,\$(ARMBOT_OBJS),\$(if \$(filter \$*/,\$(dir \$o)),\$o))
endif
.DEFAULT_GOAL :=
EOF
EVAL="--eval=include $TMP/k/armbot.mk"
CHECKFLAGS=$(cd "$SRC" && $MAKE "$CCV" "$HCCV" O="$TMP/k" "$EVAL" \
	armbot-checkflags 2>/dev/null | sed -n 's/^checkflags: //p')
[ -n "$CHECKFLAGS" ] || { echo "cannot read CHECKFLAGS"; exit 1; }
# per object: the recorded compile (its outputs unlinked in the symlink
# copy first, so that nothing of BUILD is written) and sparse
: > "$TMP/list"
for o in $OBJS; do
	c=$(sed -n "s|^cmd_$o := ccache ||p" "$BUILD/$(cmdfile "$o")" |
		sed 's/[[:space:]]*$//')
	[ -n "$c" ] || { echo "no recorded command line for $o"; exit 1; }
	n=$(echo "$o" | tr / _)
	printf '%s\n' "$c" > "$TMP/$n.gcc"
	src=${c##* }
	flags=$(printf '%s\n' "$c" | sed -e 's/^[^ ]*gcc //' \
		-e 's/-Wp,-MMD,[^ ]* //' -e 's/ -c -o [^ ]* [^ ]*$//')
	printf 'sparse %s %s %s\n' "$CHECKFLAGS" "$flags" "$src" > "$TMP/$n.sparse"
	echo "$n $o" >> "$TMP/list"
done
cat > "$TMP/one.sh" <<EOF
#!/bin/sh
# \$1: name, \$2: object
cd "$TMP/d"
rm -f "\$2" "\$(dirname "\$2")/.\$(basename "\$2").d"
sh "$TMP/\$1.gcc" > "$TMP/\$1.out" 2>&1 || :
sh "$TMP/\$1.sparse" >> "$TMP/\$1.out" 2>&1 || :
EOF
chmod +x "$TMP/one.sh"
now() { date +%s.%N; }
dirs=$(for o in $OBJS; do
	d=$(dirname "$o")
	while :; do
		echo "$d"
		case $d in */*) d=${d%/*} ;; *) break ;; esac
	done
done | sort -u | tr '\n' ' ')
objdirs=$(for o in $OBJS; do dirname "$o"; done | sort -u | tr '\n' ' ')
t=$(now)
(cd "$SRC" && $MAKE "$CCV" "$HCCV" O="$TMP/k" -j2 -k "$EVAL" \
	ARMBOT_PROBE_DIRS="$dirs ." armbot-probe > "$TMP/probe.log" 2>&1) || :
probe=$(echo "$(now) - $t" | bc)
printf 'probe of %d directories: %5.1f s\n' "$(echo $dirs | wc -w)" "$probe"
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	for o in $OBJS; do rm -f "$TMP/k/$o" "$TMP/k/$(cmdfile "$o")"; done
	t=$(now)
	(cd "$SRC" && $MAKE "$CCV" "$HCCV" O="$TMP/k" -j2 -k \
		--output-sync=target C=2 CHECK=sparse "$EVAL" \
		ARMBOT_OBJS="$(echo $OBJS)" ARMBOT_OBJ_DIRS="$objdirs" \
		armbot-objects > "$TMP/kbuild.log" 2>&1) || :
	k=$(echo "$(now) - $t" | bc)
	t=$(now)
	xargs -P2 -n2 "$TMP/one.sh" < "$TMP/list"
	d=$(echo "$(now) - $t" | bc)
	printf 'round %d: kbuild %5.1f s, direct %5.1f s, ratio %.2f\n' \
		$i "$k" "$d" "$(echo "$d / $k" | bc -l)"
done
# the messages, without kbuild's own lines and its Makefiles' warnings
# (what sparse-check.c's split_log() leaves out too)
grep -v '^  [A-Z]\|^make\|/Makefile[.a-z]*:[0-9]*: ' "$TMP/kbuild.log" | sort > "$TMP/a" || :
cat "$TMP"/*.out | sort > "$TMP/b"
if cmp -s "$TMP/a" "$TMP/b"; then
	echo "same messages: $(grep -c ': warning:\|: error:' "$TMP/a") warnings/errors"
else
	echo "messages differ:"
	diff "$TMP/a" "$TMP/b" | head -20
fi
