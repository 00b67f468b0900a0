# Shared by the boot-*.t end-to-end tests (sourced after tests/lib/tap.sh):
# the data dir of tests/e2e/tree-import.t under $ARMBOT_CACHE_DIR, whose
# distro tree is imported once (by whichever test runs first), with the
# worktree and build dir armbot boot keeps there and ccache next to it, so
# that only the first run of the suite on a machine builds the kernel cold.

for tool in qemu-system-arm arm-linux-gnueabihf-gcc bwrap ccache git perl; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$KERNEL_TARBALL" ] || skip_all "$KERNEL_TARBALL not installed"
dpkg-query -W linux-source-6.1 >/dev/null 2>&1 ||
	skip_all "linux-source-6.1 is not installed"

DATA=$ARMBOT_CACHE_DIR/e2e-tree/data
REPO=$DATA/trees/distro-6.1/repo.git
WORKTREE=$DATA/worktrees/distro-6.1
mkdir -p "$DATA"
# imports the distro tree unless tree-import.t (or a previous run) did
"$ARMBOT" --data-dir "$DATA" tree show > /dev/null 2> "$TMP/import.err" || {
	sed 's/^/# /' "$TMP/import.err"
	skip_all "cannot import the distro tree"
}

# run_boot ARGS...: armbot boot on the distro tree; output in $TMP/out,
# exit status in $status, wall time in $elapsed (seconds)
run_boot() {
	_start=$(date +%s)
	"$ARMBOT" --data-dir "$DATA" boot --jobs 2 "$@" \
		> "$TMP/out" 2> "$TMP/err"
	status=$?
	elapsed=$(( $(date +%s) - _start ))
	sed 's/^/# /' "$TMP/out"
	[ -s "$TMP/err" ] && sed 's/^/# stderr: /' "$TMP/err"
	return 0
}

# make_mbox FILE PERL-SUBSTITUTION SUBJECT OUT: a one-patch mbox, the way
# a series arrives, changing FILE of the distro tree as the substitution
# does (fails if it changes nothing)
make_mbox() {
	git -C "$REPO" show "distro:$1" > "$TMP/a.file" || return 1
	cp "$TMP/a.file" "$TMP/b.file"
	perl -0pi -e "$2" "$TMP/b.file" || return 1
	diff -u --label "a/$1" --label "b/$1" "$TMP/a.file" "$TMP/b.file" \
		> "$TMP/diff"
	[ $? -eq 1 ] || return 1
	{
		echo "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001"
		echo "From: Test <test@example.org>"
		echo "Date: Mon, 1 Jan 2024 00:00:00 +0000"
		echo "Subject: [PATCH] $3"
		echo
		echo "Injected by armbot's end-to-end tests."
		echo "---"
		cat "$TMP/diff"
		echo "-- "
		echo "2.39.5"
	} > "$4"
}

# The series' head commit armbot boot printed.
series_head() {
	sed -n 's/^series: [0-9]* patches, head //p' "$TMP/out"
}

# ok unless the worktree holds the series' head commit, whose subject is
# the mail's: the series was applied as commits and checked out
worktree_at_series() {
	_head=$(series_head)
	[ -n "$_head" ] &&
	[ "$(sed -n 's/^commit=//p' "$WORKTREE/.armbot-checkout")" = "$_head" ] &&
	[ "$(git -C "$REPO" log -1 --format=%s "$_head")" = "$1" ]
	ok $? "the worktree is at the series' head commit, \"$1\""
}

# The number of KUnit cases the suite has.
suite_cases() {
	grep -c '^	KUNIT_CASE(' "$TOP/qemu/guest/rpm-test/rpm_test.c"
}
