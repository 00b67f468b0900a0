# Shared by the boot-*.t end-to-end tests (sourced after tests/lib/tap.sh):
# the data dir of tests/e2e/tree-import.t under $ARMBOT_CACHE_DIR, whose
# distro tree is imported once (by whichever test runs first), with the
# worktree and build dir armbot boot keeps there and ccache next to it, so
# that only the first run of the suite on a machine builds the kernel cold.

DISTRO_TOOLS="qemu-system-arm arm-linux-gnueabihf-gcc bwrap ccache git perl"
. "$TOP/tests/e2e/distro-lib.sh"
WORKTREE=$DATA/worktrees/distro-6.1

# own_data_dir DIR: a data dir of the test's own at DIR, so that its store
# is fresh, with the tree, worktree, build and boot dirs of $DATA linked in
own_data_dir() {
	mkdir -p "$1" "$DATA/kbuild" "$DATA/worktrees" "$DATA/boot" || return 1
	for _d in trees worktrees kbuild boot; do
		ln -s "$DATA/$_d" "$1/$_d" || return 1
	done
}

# run_boot ARGS...: armbot boot on the distro tree, as run_timed
run_boot() {
	run_timed --data-dir "$DATA" boot --jobs 2 "$@"
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
