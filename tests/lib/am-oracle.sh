# The oracle for `armbot am`: real `git am` in a worktree, continuing past
# failures with `git am --skip` (as armbot does), and the comparison of
# both outcomes patch by patch.  Source after tests/lib/tap.sh.

AM_GIT="git -c user.name=Oracle -c user.email=oracle@example.com \
 -c advice.detachedHead=false -c core.autocrlf=false -c am.keepcr=false \
 -c am.threeWay=false -c commit.gpgsign=false"

# am_oracle WORKTREE MBOX OUT [git am options]: write OUT with one line per
# patch, "ok <commit>" or "fail <git's first error line>", or a single
# "reject <message>" when git am refuses the whole mailbox.
am_oracle() {
	_wt=$1 _mbox=$2 _out=$3
	shift 3
	: > "$_out"
	AM_T0=$(date +%s)
	_start=$(git -C "$_wt" rev-parse HEAD)
	_ra=$(git -C "$_wt" rev-parse --absolute-git-dir)/rebase-apply
	: > "$TMP/oracle.fails"
	_total=
	$AM_GIT -C "$_wt" am -q "$@" "$_mbox" > "$TMP/oracle.err" 2>&1
	_rc=$?
	if [ "$_rc" -ne 0 ] && [ ! -d "$_ra" ]; then
		echo "reject $(grep -m1 . "$TMP/oracle.err")" > "$_out"
		return
	fi
	while [ -d "$_ra" ]; do
		_n=$(cat "$_ra/next")
		[ -n "$_total" ] || _total=$(cat "$_ra/last")
		_err=$(grep -m1 '^error: ' "$TMP/oracle.err")
		[ -n "$_err" ] || _err=$(grep -m1 -v '^hint' "$TMP/oracle.err")
		printf '%s\t%s\n' "$_n" "$_err" >> "$TMP/oracle.fails"
		$AM_GIT -C "$_wt" am -q --skip > "$TMP/oracle.err" 2>&1
	done
	git -C "$_wt" rev-list --reverse "$_start..HEAD" > "$TMP/oracle.commits"
	_ncommits=$(wc -l < "$TMP/oracle.commits")
	_nfails=$(wc -l < "$TMP/oracle.fails")
	[ -n "$_total" ] || _total=$_ncommits
	_i=1 _c=1
	while [ "$_i" -le "$_total" ]; do
		_f=$(awk -F '\t' -v n="$_i" '$1 == n { print $2; exit }' "$TMP/oracle.fails")
		if [ -n "$_f" ] || grep -q "^$_i	" "$TMP/oracle.fails"; then
			echo "fail $_f" >> "$_out"
		else
			echo "ok $(sed -n "${_c}p" "$TMP/oracle.commits")" >> "$_out"
			_c=$((_c + 1))
		fi
		_i=$((_i + 1))
	done
	[ $((_ncommits + _nfails)) -eq "$_total" ] ||
		diag "oracle: $_ncommits commits + $_nfails failures != $_total patches"
}

# The file a git am error names: "error: patch failed: PATH:N",
# "error: PATH: does not exist in index", ...
am_error_path() {
	printf '%s\n' "$1" | sed -n \
		-e 's/^error: patch failed: \(.*\):[0-9]*$/\1/p' \
		-e 's/^error: \(.*\): \(does not exist in index\|already exists in index\|patch does not apply\|wrong type\|does not match index\)$/\1/p' \
		-e "s/^error: affected file '\\(.*\\)' is beyond a symbolic link\$/\\1/p" \
		-e "s/^error: invalid path '\\(.*\\)'\$/\\1/p" | head -1
}

# What a commit records that armbot must match: tree, author, date, message
am_commit_facts() {
	git -C "$1" log -1 --format='%T%n%an%n%ae%n%ad%n%B' --date=raw "$2"
}

# am_both_dated_now FACTS_GIT FACTS_ARMBOT: true when the two differ only
# in the author date and both dates fall between the oracle's start
# (AM_T0, set by am_oracle) and now: a mail without a Date header is dated
# when it is applied, and git am and armbot run seconds apart (ci on
# 2026-12-06: 1796522526 against 1796522527).  A date from a header is
# never inside that window, so a wrong date still fails.
am_both_dated_now() {
	sed 4d "$1" > "$1.nodate"
	sed 4d "$2" > "$2.nodate"
	cmp -s "$1.nodate" "$2.nodate" || return 1
	_now=$(date +%s)
	for _d in "$(sed -n '4s/ .*//p' "$1")" "$(sed -n '4s/ .*//p' "$2")"; do
		case "$_d" in ''|*[!0-9]*) return 1 ;; esac
		[ "$_d" -ge "${AM_T0:-$_now}" ] && [ "$_d" -le "$_now" ] || return 1
	done
}

# am_compare REPO ORACLE ARMBOT LABEL: one TAP test per patch; counts in
# AM_ACCEPTED AM_IDENTICAL AM_REJECTED AM_MISMATCH.
AM_ACCEPTED=0 AM_IDENTICAL=0 AM_REJECTED=0 AM_MISMATCH=0
am_compare() {
	_repo=$1 _oracle=$2 _armbot=$3 _label=$4
	if grep -q '^reject ' "$_oracle"; then
		AM_REJECTED=$((AM_REJECTED + 1))
		if grep -q '^ok ' "$_armbot"; then
			AM_MISMATCH=$((AM_MISMATCH + 1))
			fail "$_label: git am refuses the mailbox, armbot applied it"
		else
			pass "$_label: rejected by both ($(sed 's/^reject //' "$_oracle"))"
		fi
		return
	fi
	_n=$(wc -l < "$_oracle")
	_m=$(wc -l < "$_armbot")
	if [ "$_n" -ne "$_m" ]; then
		AM_MISMATCH=$((AM_MISMATCH + 1))
		fail "$_label: git am saw $_n patches, armbot $_m"
		return
	fi
	_i=1
	while [ "$_i" -le "$_n" ]; do
		_o=$(sed -n "${_i}p" "$_oracle")
		_a=$(sed -n "${_i}p" "$_armbot")
		case "$_o:$_a" in
		ok*:ok*)
			AM_ACCEPTED=$((AM_ACCEPTED + 1))
			_oc=$(echo "$_o" | cut -d' ' -f2)
			_ac=$(echo "$_a" | cut -d' ' -f2)
			am_commit_facts "$_repo" "$_oc" > "$TMP/facts.git"
			am_commit_facts "$_repo" "$_ac" > "$TMP/facts.armbot"
			if cmp -s "$TMP/facts.git" "$TMP/facts.armbot"; then
				AM_IDENTICAL=$((AM_IDENTICAL + 1))
				pass "$_label patch $_i: same tree, author, date, message"
			elif am_both_dated_now "$TMP/facts.git" "$TMP/facts.armbot"; then
				AM_IDENTICAL=$((AM_IDENTICAL + 1))
				pass "$_label patch $_i: same tree, author, message; both dated at their run (the mail has no Date)"
			else
				AM_MISMATCH=$((AM_MISMATCH + 1))
				is_file "$TMP/facts.git" "$TMP/facts.armbot" "$_label patch $_i: same tree, author, date, message"
			fi
			;;
		fail*:fail*)
			AM_REJECTED=$((AM_REJECTED + 1))
			_p=$(am_error_path "${_o#fail }")
			case "$_a" in
			*"$_p"*) pass "$_label patch $_i: rejected by both${_p:+, naming $_p}" ;;
			*) AM_MISMATCH=$((AM_MISMATCH + 1))
			   fail "$_label patch $_i: armbot does not name $_p"
			   diag "git: $_o"; diag "armbot: $_a" ;;
			esac
			;;
		*)
			AM_MISMATCH=$((AM_MISMATCH + 1))
			fail "$_label patch $_i: git am and armbot disagree"
			diag "git: $_o"; diag "armbot: $_a"
			;;
		esac
		_i=$((_i + 1))
	done
}

# am_distro_git DIR TARBALL: the oracle repository of the distro tree, the
# extracted tarball committed by git itself on branch "distro" (ignore
# rules off: the top-level .gitignore ignores everything), made once and
# cached.  Its tree equals armbot's import (tests/e2e/tree-import.t).  The
# lock on fd 9 is held until the test exits: tests run git am in its
# worktree, so parallel runs take turns.  Returns non-zero on failure.
am_distro_git() {
	mkdir -p "$(dirname "$1")"
	exec 9> "$1.lock"
	flock 9
	if [ ! -f "$1/.armbot-complete" ]; then
		diag "creating the oracle repository $1 (once)"
		rm -rf "$1"
		mkdir -p "$1"
		tar -xJf "$2" -C "$1" --strip-components=1 &&
		git -C "$1" init -q -b distro &&
		git -C "$1" -c core.excludesFile=/dev/null add -A -f . &&
		GIT_AUTHOR_DATE="2024-01-01 00:00:00 +0000" \
		GIT_COMMITTER_DATE="2024-01-01 00:00:00 +0000" \
		git -C "$1" -c user.name=armbot -c user.email=armbot@localhost \
			commit -q -m "linux-source-6.1" &&
		git -C "$1" gc -q &&
		touch "$1/.armbot-complete"
	fi
	# no automatic gc: after the import's 80,000 loose objects, git am
	# would start one in the background, whose reflog expiry takes
	# HEAD.lock while the next case checks out (packed above instead)
	git -C "$1" config gc.auto 0 &&
	git -C "$1" config maintenance.auto false &&
	[ -f "$1/.armbot-complete" ]
}
