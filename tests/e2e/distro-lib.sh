# Shared by the end-to-end tests on the distro tree (sourced after
# tests/lib/tap.sh, by boot-lib.sh and sparse-lib.sh): skips unless the
# tools named in $DISTRO_TOOLS and Debian's linux-source-6.1 are
# installed, then opens the data dir of tests/e2e/tree-import.t under
# $ARMBOT_CACHE_DIR as $DATA (its repository $REPO), importing the distro
# tree unless tree-import.t (or a previous run) did.

for tool in $DISTRO_TOOLS; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$KERNEL_TARBALL" ] || skip_all "$KERNEL_TARBALL not installed"
dpkg-query -W linux-source-6.1 >/dev/null 2>&1 ||
	skip_all "linux-source-6.1 is not installed"

DATA=$ARMBOT_CACHE_DIR/e2e-tree/data
REPO=$DATA/trees/distro-6.1/repo.git
mkdir -p "$DATA"
"$ARMBOT" --data-dir "$DATA" tree show > /dev/null 2> "$TMP/import.err" || {
	sed 's/^/# /' "$TMP/import.err"
	skip_all "cannot import the distro tree"
}

# run_timed ARGS...: armbot ARGS; output in $TMP/out (shown as comments),
# exit status in $status, wall time in $elapsed (seconds)
run_timed() {
	_start=$(date +%s)
	"$ARMBOT" "$@" > "$TMP/out" 2> "$TMP/err"
	status=$?
	elapsed=$(( $(date +%s) - _start ))
	sed 's/^/# /' "$TMP/out"
	[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err"
	return 0
}
