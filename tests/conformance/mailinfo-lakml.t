#!/bin/sh
# Differential test against the real git mailinfo over one real week of
# linux-arm-kernel (1,871 mails): default options, -k, -b, --scissors and
# --no-inbody-headers.  Every mail must give the same info, msg, patch,
# stderr and exit status.  git runs once per mail, as git am does; armbot
# parses them all in one process (--each).  git's results are cached in
# $ARMBOT_CACHE_DIR as checksums, keyed by the git version and the corpus.
. "$(dirname "$0")/../lib/tap.sh"

MBOX=corpora/lakml/lakml-2020-06-14.mbox.xz
need_corpus "$MBOX"
command -v git >/dev/null || skip_all "git not installed"

# no user or system configuration may change git's behaviour
export HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset GIT_DIR GIT_WORK_TREE

xz -dc "$SHARED/$MBOX" > "$TMP/week.mbox" || { fail "unpack the corpus"; done_testing; exit; }
mkdir "$TMP/split"
total=$(git mailsplit --mboxrd -o"$TMP/split" "$TMP/week.mbox")
is "$total" 1871 "git mailsplit --mboxrd finds 1871 mails"

key=$(printf '%s %s\n' "$(git --version)" "$(sha256sum < "$SHARED/$MBOX")" |
	sha256sum | cut -c1-16)
cache="$ARMBOT_CACHE_DIR/mailinfo-lakml/$key"
mkdir -p "$cache"

# digest DIR: one checksum line per output file of every mail, sorted
digest() {
	(cd "$1" && sha256sum -- */info */msg */patch */err */status) |
		sort -k2
}

run_git() {	# run_git OUTDIR OPTIONS...
	out=$1; shift
	for f in "$TMP"/split/*; do
		d="$out/${f##*/}"
		mkdir -p "$d"
		git -C "$d" mailinfo "$@" msg patch < "$f" > "$d/info" 2> "$d/err"
		echo $? > "$d/status"
	done
}

for opts in "" "-k" "-b" "--scissors" "--no-inbody-headers"; do
	name=${opts:-default}
	# shellcheck disable=SC2086
	"$ARMBOT" mailinfo $opts --each "$TMP/split" "$TMP/armbot$name" > /dev/null
	ok $? "armbot mailinfo $opts --each runs over the week"
	digest "$TMP/armbot$name" > "$TMP/armbot$name.sums"
	if [ ! -s "$cache/$name.sums" ]; then
		# shellcheck disable=SC2086
		run_git "$TMP/git$name" $opts
		digest "$TMP/git$name" > "$cache/$name.sums.tmp" &&
			mv "$cache/$name.sums.tmp" "$cache/$name.sums"
	fi
	differing=$(diff "$cache/$name.sums" "$TMP/armbot$name.sums" |
		sed -n 's|^> [0-9a-f]*  \([^/]*\)/.*|\1|p' | sort -u)
	ndiff=$(printf '%s' "$differing" | grep -c .)
	diag "git mailinfo ${opts:-(default options)}: $((total - ndiff)) identical, $ndiff differing of $total"
	is "$ndiff" 0 "git mailinfo ${opts:-(default options)}: every mail identical"
	# show the first few differences against git's real outputs
	for m in $(echo "$differing" | head -3); do
		d="$TMP/show/$name/$m"; mkdir -p "$d"
		# shellcheck disable=SC2086
		git -C "$d" mailinfo $opts msg patch < "$TMP/split/$m" > "$d/info" 2> "$d/err"
		for f in info msg patch err; do
			diff -u "$d/$f" "$TMP/armbot$name/$m/$f" | head -20 | sed "s|^|# $m: |"
		done
	done
	rm -rf "$TMP/armbot$name" "$TMP/git$name"
done

# the same mails read straight from the mbox by armbot's own reader
"$ARMBOT" mailinfo --each --mboxrd "$TMP/week.mbox" "$TMP/frommbox" > /dev/null
digest "$TMP/frommbox" > "$TMP/frommbox.sums"
is_file "$cache/default.sums" "$TMP/frommbox.sums" \
	"reading the mbox itself gives the same as git mailsplit + git mailinfo"
done_testing
