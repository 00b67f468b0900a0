# Shared by the sparse-*.t end-to-end tests (sourced after tests/lib/tap.sh):
# the distro tree's data dir of tests/e2e/tree-import.t under
# $ARMBOT_CACHE_DIR (the one the boot tests use), whose build dirs
# DATA/kbuild/distro-6.1/{allmodconfig,multi_v5} and ccache stay there, so
# that only the first run on a machine configures them cold.  Patches are
# made by real git from the imported tree (commit + format-patch).

DISTRO_TOOLS="arm-linux-gnueabihf-gcc sparse bwrap ccache git perl"
. "$TOP/tests/e2e/distro-lib.sh"

# A clone sharing the tree's objects, index at the distro head and no
# files checked out: new_patch checks out only the files it edits.
G=$TMP/g
# (commits advance the clone's branch: every series starts again from
# $BASE, the distro head)
git clone -q --shared --no-checkout "$REPO" "$G" &&
	BASE=$(git -C "$G" rev-parse distro) &&
	git -C "$G" reset -q "$BASE" || skip_all "cannot clone the distro tree"
gitc() { git -C "$G" -c user.name=Test -c user.email=test@example.org "$@"; }

# new_patch FILE PERL-SUBSTITUTION SUBJECT: commit FILE edited by the
# substitution on top of the previous new_patch (fails if nothing changed)
EDITED=
new_patch() {
	[ -f "$G/$1" ] || git -C "$G" checkout "$BASE" -- "$1" || return 1
	EDITED="$EDITED $1"
	perl -0pi -e "$2" "$G/$1" || return 1
	git -C "$G" diff --quiet -- "$1" && return 1
	gitc commit -q -m "$3" -- "$1"
}

# series_mbox N OUT: the last N commits, as git format-patch mails, in one
# mailbox; then back to the distro head for the next series
series_mbox() {
	rm -rf "$TMP/fp"
	gitc format-patch -q -"$1" -o "$TMP/fp" && cat "$TMP/fp"/*.patch > "$2"
	_s=$?
	git -C "$G" reset -q "$BASE"
	for _f in $EDITED; do rm -f "$G/$_f"; done
	EDITED=
	return $_s
}

# run_sparse ARGS...: armbot sparse on the distro tree, as run_timed
run_sparse() {
	run_timed --data-dir "$DATA" sparse -q --jobs 2 "$@"
}

# The lines of the report that mark a new warning.
new_lines() { sed -n '/^introduced by patch/q;/^>> /p' "$TMP/out"; }

# The "result: ..." line.
result_line() { sed -n 's/^result: //p' "$TMP/out"; }
