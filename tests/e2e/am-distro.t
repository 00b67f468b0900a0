#!/bin/sh
# armbot am against real git am on the distro tree (Debian's
# linux-source-6.1) with the arm61 corpus: every patch on its own and, per
# directory, the mail-format patches as one series in file name order
# (the corpus has no series.conf).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/am-oracle.sh"

need_corpus corpora/arm61
TARBALL=/usr/src/linux-source-6.1.tar.xz
[ -r "$TARBALL" ] || skip_all "$TARBALL not installed"
command -v flock > /dev/null || skip_all "flock not available"

D=$ARMBOT_CACHE_DIR/distro-git
am_distro_git "$D" "$TARBALL" || { fail "the distro oracle repository"; done_testing; exit 1; }
BASE=$(git -C "$D" rev-parse distro)

# git am needs a worktree: the oracle repository's own, reset to the base
# before every run (only the touched files are rewritten)
reset_wt() {
	rm -rf "$(git -C "$D" rev-parse --absolute-git-dir)/rebase-apply"
	git -C "$D" checkout -q -f --detach "$BASE" &&
	git -C "$D" clean -q -f -d -x -e .armbot-complete
}

run_case() {	# run_case LABEL MBOX
	reset_wt
	am_oracle "$D" "$2" "$TMP/oracle.out"
	"$ARMBOT" am -C "$D" --base "$BASE" "$2" > "$TMP/armbot.out" 2> "$TMP/armbot.err"
	am_compare "$D" "$TMP/oracle.out" "$TMP/armbot.out" "$1"
}

for f in "$SHARED"/corpora/arm61/*/*.patch; do
	run_case "$(basename "$(dirname "$f")")/$(basename "$f")" "$f"
done
for dir in "$SHARED"/corpora/arm61/*/; do
	: > "$TMP/series.mbox"
	n=0
	for f in "$dir"*.patch; do
		head -1 "$f" | grep -q '^From [0-9a-f]\{40\} ' || continue
		cat "$f" >> "$TMP/series.mbox"
		n=$((n + 1))
	done
	[ "$n" -gt 1 ] || continue
	run_case "series $(basename "$dir") ($n patches)" "$TMP/series.mbox"
done
reset_wt
git -C "$D" checkout -q distro

diag "accepted=$AM_ACCEPTED identical=$AM_IDENTICAL rejected=$AM_REJECTED mismatch=$AM_MISMATCH"
done_testing
