# Helpers for the dirstat conformance tests on real kernel changes
# (dirstat-arm61.t, dirstat-lakml.t, dirstat-options.t, patchid-arm61.t);
# source after tap.sh.

# dirstat_base NAME PATHS: a repository of the distro tree's files listed
# in PATHS (one per line), one commit, cached in $ARMBOT_CACHE_DIR as
# NAME-<key> and printed.  `git diff` and `git apply` look at no other
# path, so outputs are those of the full tree.  Empty when it cannot be
# made.
dirstat_base() {
	_tarball=${ARMBOT_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
	[ -r "$_tarball" ] || return 0
	_key=$( (cat "$2"; ls -l "$_tarball") | sha1sum | cut -c1-12)
	mkdir -p "$ARMBOT_CACHE_DIR"
	_base="$ARMBOT_CACHE_DIR/$1-$_key"
	(
		flock 9
		if [ ! -e "$_base/.git/armbot-done" ]; then
			# older bases (another corpus or tarball) are of no use
			rm -rf "$ARMBOT_CACHE_DIR/$1"-* &&
			mkdir -p "$_base" &&
			sed 's|^|linux-source-6.1/|' "$2" > "$TMP/members" &&
			{ tar -xJf "$_tarball" -C "$_base" --strip-components=1 \
				-T "$TMP/members" 2>/dev/null; true; } &&
			git -C "$_base" init -q && git -C "$_base" add -A &&
			git -C "$_base" commit -q -m "linux-source-6.1: $1" &&
			touch "$_base/.git/armbot-done"
		fi
	) 9> "$ARMBOT_CACHE_DIR/$1.lock"
	[ -e "$_base/.git/armbot-done" ] && echo "$_base"
}

# every path the patches given name, old or new
dirstat_patch_paths() {
	sed -n -e 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|\1\n\2|p' \
		-e 's|^--- [^/]*/\([^\t ]*\).*|\1|p' \
		-e 's|^+++ [^/]*/\([^\t ]*\).*|\1|p' \
		-e 's|^rename \(from\|to\) \(.*\)|\2|p' "$@" | sed 's|\.orig$||'
}

# under ASan the point is memory safety: fewer variants
if [ -n "${ARMBOT_ASAN:-}" ]; then DIRSTAT_LIMITS=0 DIRSTAT_CUMULS=cumulative
else DIRSTAT_LIMITS="0 3" DIRSTAT_CUMULS="noncumulative cumulative"; fi
dirstat_total=0

# dirstat_compare REPO A B LABEL: every mode, limit, cumulative or not,
# with and without renames, byte for byte as git; one test
dirstat_compare() {
	_bad=0
	_n=0
	for _mode in changes lines files; do
	for _limit in $DIRSTAT_LIMITS; do
	for _cumul in $DIRSTAT_CUMULS; do
	for _renames in "" --no-renames; do
		_p="$_mode,$_limit,$_cumul"
		# shellcheck disable=SC2086
		git -C "$1" diff $_renames --dirstat="$_p" "$2" "$3" > "$TMP/want"
		# shellcheck disable=SC2086
		"$ARMBOT" dirstat -C "$1" $_renames --dirstat="$_p" "$2" "$3" \
			> "$TMP/got" 2>&1
		_n=$((_n + 1))
		if ! cmp -s "$TMP/want" "$TMP/got"; then
			_bad=$((_bad + 1))
			diag "$4 --dirstat=$_p $_renames:"
			diff "$TMP/want" "$TMP/got" | head -8 | sed 's/^/#   /'
		fi
	done
	done
	done
	done
	dirstat_total=$((dirstat_total + _n))
	is "$_bad" 0 "$4: $_n dirstats identical to git"
}

# dirstat_arm61_base CORPUS: the cached base of the arm61 corpus (every
# path its patches name, and arch/arm/mach-footbridge for the verdict on
# a real removal), printed as dirstat_base prints it; dirstat-arm61.t,
# dirstat-options.t and patchid-arm61.t share it
dirstat_arm61_base() {
	dirstat_patch_paths "$1"/*/*.patch > "$TMP/paths.corpus"
	{ cat "$TMP/paths.corpus"; echo arch/arm/mach-footbridge; } |
		sort -u > "$TMP/paths"
	dirstat_base dirstat-arm61 "$TMP/paths"
}

# dirstat_apply WORK PATCH: PATCH committed in the repository WORK with
# git am, or, a bare diff being no mail, applied and committed as git am
# would; fails, WORK left as it was, when it does not apply
dirstat_apply() {
	git -C "$1" am -q "$2" > /dev/null 2>&1 && return 0
	git -C "$1" am --abort > /dev/null 2>&1
	git -C "$1" apply --index "$2" > /dev/null 2>&1 &&
		git -C "$1" commit -q -m "$(basename "$2")"
}

# dirstat_series_order SERIES: the patch files of a corpus series, one a
# line, in the order of its series.conf or else by name
dirstat_series_order() {
	if [ -f "$1/series.conf" ]; then
		grep -v '^[[:space:]]*\(#\|$\)' "$1/series.conf" | sed "s|^|$1/|"
	else
		ls "$1"*.patch
	fi
}

# dirstat_lakml_base: the lakml week's mails in $TMP/mails, those with a
# patch listed in $TMP/patches, and the cached base of the paths they
# name printed as dirstat_base prints it; dirstat-lakml.t and
# dirstat-options.t share it
dirstat_lakml_base() {
	mkdir "$TMP/mails"
	xz -dc "$SHARED/corpora/lakml/lakml-2020-06-14.mbox.xz" |
		git mailsplit --mboxrd -o"$TMP/mails" > /dev/null
	grep -l '^diff --git' "$TMP/mails"/* > "$TMP/patches"
	# shellcheck disable=SC2046
	dirstat_patch_paths $(cat "$TMP/patches") | grep -v '^/dev/null$' |
		sort -u > "$TMP/paths"
	dirstat_base dirstat-lakml "$TMP/paths"
}
