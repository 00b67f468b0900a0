# Shared by the boot-*.t end-to-end tests (sourced after tests/lib/tap.sh):
# the distro kernel tree, extracted once under $ARMBOT_CACHE_DIR, built in
# a data dir there too (with ccache), so that only the first run of the
# suite on a machine builds the kernel cold.

for tool in qemu-system-arm arm-linux-gnueabihf-gcc bwrap ccache git perl; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$KERNEL_TARBALL" ] || skip_all "$KERNEL_TARBALL not installed"

BOOT_CACHE=$ARMBOT_CACHE_DIR/boot
SRC=$BOOT_CACHE/linux-source-6.1
DATA=$BOOT_CACHE/data
mkdir -p "$BOOT_CACHE"
if [ ! -f "$SRC/Makefile" ]; then
	rm -rf "$BOOT_CACHE/src.tmp"
	mkdir "$BOOT_CACHE/src.tmp"
	tar -xJf "$KERNEL_TARBALL" -C "$BOOT_CACHE/src.tmp" || exit 1
	mv "$BOOT_CACHE/src.tmp/linux-source-6.1" "$SRC" || exit 1
	rmdir "$BOOT_CACHE/src.tmp"
fi

# run_boot ARGS...: armbot boot on the distro tree; output in $TMP/out,
# exit status in $status, wall time in $elapsed (seconds)
run_boot() {
	_start=$(date +%s)
	"$ARMBOT" --data-dir "$DATA" boot --source "$SRC" --jobs 2 "$@" \
		> "$TMP/out" 2> "$TMP/err"
	status=$?
	elapsed=$(( $(date +%s) - _start ))
	sed 's/^/# /' "$TMP/out"
	[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err"
	return 0
}

# make_patch FILE PERL-SUBSTITUTION OUT: a unified diff that changes FILE
# of the tree as the substitution does (fails if it changes nothing)
make_patch() {
	mkdir -p "$TMP/a/$(dirname "$1")" "$TMP/b/$(dirname "$1")"
	cp "$SRC/$1" "$TMP/a/$1" && cp "$SRC/$1" "$TMP/b/$1" || return 1
	perl -0pi -e "$2" "$TMP/b/$1" || return 1
	(cd "$TMP" && diff -u "a/$1" "b/$1") > "$3"
	[ $? -eq 1 ]
}

# The number of KUnit cases the suite has.
suite_cases() {
	grep -c '^	KUNIT_CASE(' "$TOP/kernel/rpm-test/rpm_test.c"
}
