#!/bin/sh
# Base discovery on a tree with history made from real data: the distro
# tree plus the real ARM patches of the arm61 corpus committed one by one
# (git mailinfo + git apply --cached + git commit-tree, real git only).
# Every third patch that applies is held out: mailed as `git format-patch`
# wrote it from the history it was made in (no base-commit:), while the
# followed tree is the same history without the held-out patches, so the
# tree moves on past the point where each was written: after the corpus
# patches, every other held-out patch finds the lines of its first hunk
# changed upstream (a commit of the history), so the tree's head
# no longer takes it.  The tree is followed over git:// from a real
# `git daemon`, as an operator follows mainline.  Each held-out
# patch must be guessed onto a commit whose touched files have the blobs
# of the patch's real parent (any commit in that range is right), even
# where the tree's head no longer takes it; `armbot check` must test it
# there and say the base was guessed from blob ids.  A patch that is
# already in the tree is reported as applied, with its commit.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/am-oracle.sh"
. "$(dirname "$0")/../lib/git-daemon.sh"

need_corpus corpora/arm61
TARBALL=/usr/src/linux-source-6.1.tar.xz
[ -r "$TARBALL" ] || skip_all "$TARBALL not installed"
command -v flock > /dev/null || skip_all "flock not available"

D=$ARMBOT_CACHE_DIR/distro-git
am_distro_git "$D" "$TARBALL" || { fail "the distro repository"; done_testing; exit 1; }
BASE=$(git -C "$D" rev-parse distro)

H=$TMP/hist.git
git clone -q --bare --shared "$D" "$H" || { fail "clone"; done_testing; exit 1; }
export GIT_DIR="$H" GIT_INDEX_FILE="$TMP/index"
export GIT_COMMITTER_NAME=Maintainer GIT_COMMITTER_EMAIL=maint@example.org

# commit_patch FILE N: commit the patch FILE on top of $TIP (the index
# holds $TIP's tree); prints the new commit, or fails leaving the index
commit_patch() {
	mkdir -p "$TMP/mi"
	git mailinfo "$TMP/mi/msg" "$TMP/mi/patch" < "$1" > "$TMP/mi/info" 2>/dev/null || return 1
	[ -s "$TMP/mi/patch" ] || return 1
	git apply --cached "$TMP/mi/patch" 2>/dev/null || return 1
	_tree=$(git write-tree) || return 1
	_subject=$(sed -n 's/^Subject: //p' "$TMP/mi/info")
	[ -n "$_subject" ] || _subject=$(basename "$1" .patch)
	# corpus patches without mail headers get a stand-in author
	_name=$(sed -n 's/^Author: //p' "$TMP/mi/info")
	_email=$(sed -n 's/^Email: //p' "$TMP/mi/info")
	GIT_AUTHOR_NAME=${_name:-Corpus Author} \
	GIT_AUTHOR_EMAIL=${_email:-author@example.org} \
	GIT_AUTHOR_DATE="2024-02-01 00:00:$2 +0000" \
	GIT_COMMITTER_DATE="2024-02-01 00:00:$2 +0000" \
		git commit-tree "$_tree" -p "$TIP" -m "$_subject" -F "$TMP/mi/msg"
}

# build LIST SKIP: commit each patch of LIST (files) in order on the
# distro tree, leaving out the numbers in SKIP (" 1 4 "); prints
# "number commit file" for each that applied
build() {
	TIP=$BASE
	git read-tree "$TIP"
	_n=0
	while read -r _f; do
		_n=$((_n + 1))
		case "$2" in *" $_n "*) continue ;; esac
		if _c=$(commit_patch "$_f" "$(printf %02d $((_n % 60)))"); then
			TIP=$_c
			echo "$_n $_c $_f"
		else
			git read-tree "$TIP"
		fi
	done < "$1"
}

ls "$SHARED"/corpora/arm61/*/*.patch > "$TMP/patches"
build "$TMP/patches" "" > "$TMP/original"
napplied=$(wc -l < "$TMP/original")
diag "$napplied of $(wc -l < "$TMP/patches") corpus patches apply in order"
[ "$napplied" -ge 12 ]; ok $? "enough real patches apply to make a history"

# hold out every third patch that applied
held=" "
i=0
while read -r n c f; do
	i=$((i + 1))
	[ $((i % 3)) -eq 1 ] || continue
	held="$held$n "
	git format-patch -1 --stdout "$c" > "$TMP/held-$n.mbox"
	echo "$n $c" >> "$TMP/held"
done < "$TMP/original"
build "$TMP/patches" "$held" > "$TMP/history"

# move_on MAIL: a commit on $TIP that changes one context line of the
# first hunk of MAIL's first modified file ("upstream moved on")
move_on() {
	git mailinfo /dev/null "$TMP/mo.patch" < "$1" > /dev/null 2>&1
	perl -e '
		my $file;
		while (<STDIN>) {
			if (/^diff --git a\/(\S+) b\//) { $file = $1; next }
			if (/^new file mode/) { $file = undef; next }
			if (/^@@ -(\d+)(?:,(\d+))? / && defined $file) {
				print "$file\n$1\n", (defined $2 ? $2 : 1), "\n";
				exit 0;
			}
		}
		exit 1' < "$TMP/mo.patch" > "$TMP/mo.where" || return 1
	_path=$(sed -n 1p "$TMP/mo.where")
	git cat-file blob "$TIP:$_path" > "$TMP/mo.old" || return 1
	# every non-blank line the first hunk covers changes
	FROM=$(sed -n 2p "$TMP/mo.where") COUNT=$(sed -n 3p "$TMP/mo.where") perl -e '
		my $n = 0;
		while (<STDIN>) {
			$n++;
			s/\n$/ \/* moved on *\/\n/ if $n >= $ENV{FROM} &&
				$n < $ENV{FROM} + $ENV{COUNT} && /\S/;
			print;
		}' < "$TMP/mo.old" > "$TMP/mo.new" || return 1
	cmp -s "$TMP/mo.old" "$TMP/mo.new" && return 1
	_blob=$(git hash-object -w "$TMP/mo.new") &&
	git update-index --cacheinfo "$(git ls-files -s -- "$_path" | cut -c1-6),$_blob,$_path" &&
	_tree=$(git write-tree) &&
	TIP=$(GIT_AUTHOR_NAME=Upstream GIT_AUTHOR_EMAIL=up@example.org \
		GIT_AUTHOR_DATE="2024-03-01 00:00:00 +0000" \
		GIT_COMMITTER_DATE="2024-03-01 00:00:00 +0000" \
		git commit-tree "$_tree" -p "$TIP" -m "upstream: $_path moved on")
}
moved=0
i=0
while read -r n c; do
	i=$((i + 1))
	[ $((i % 2)) -eq 1 ] || continue
	move_on "$TMP/held-$n.mbox" && moved=$((moved + 1)) && echo "$n" >> "$TMP/moved"
done < "$TMP/held"
git update-ref refs/heads/master "$TIP"
diag "the tree moved on under $moved held-out patches"
diag "history: $(git rev-list --count "$BASE..master") commits on the distro tree, $(wc -l < "$TMP/held") held out"

DATA=$TMP/data
unset GIT_DIR GIT_INDEX_FILE
git_daemon_start "$TMP" || { fail "git daemon"; done_testing; exit 1; }
trap 'git_daemon_stop; rm -rf "$TMP"' EXIT
"$ARMBOT" --data-dir "$DATA" tree add hist "$(git_daemon_url hist.git)" \
	--branch master > "$TMP/add.out" 2>&1
ok $? "tree add hist from git://"
sed 's/^/# /' "$TMP/add.out"
"$ARMBOT" --data-dir "$DATA" tree index hist > "$TMP/index.out" 2>&1
ok $? "tree index hist"
sed 's/^/# /' "$TMP/index.out"

# the touched paths of a mail's patch (old and new names)
touched() {
	git mailinfo /dev/null "$TMP/p" < "$1" > /dev/null 2>&1
	git apply --numstat -z "$TMP/p" 2>/dev/null | tr '\0' '\n' |
		awk -F'\t' 'NF >= 3 { if ($3 != "") print $3; next } NF == 1 && $1 != "" { print $1 }'
}

# same_blobs A B FILES: every path has the same blob (or is absent) at
# commits A and B
same_blobs() {
	while read -r _p; do
		[ -n "$_p" ] || continue
		_a=$(git -C "$H" rev-parse -q --verify "$1:$_p" 2>/dev/null)
		_b=$(git -C "$H" rev-parse -q --verify "$2:$_p" 2>/dev/null)
		[ "$_a" = "$_b" ] || return 1
	done < "$3"
}

# does the patch of mail $1 apply at commit $2 (git apply --cached)?
applies_at() {
	git mailinfo /dev/null "$TMP/p" < "$1" > /dev/null 2>&1
	GIT_DIR="$H" GIT_INDEX_FILE="$TMP/check-index" git read-tree "$2" &&
		GIT_DIR="$H" GIT_INDEX_FILE="$TMP/check-index" git apply --cached --check "$TMP/p" 2>/dev/null
}

not_at_head=0
checked=
while read -r n c; do
	m=$TMP/held-$n.mbox
	parent=$(git -C "$H" rev-parse "$c^")
	touched "$m" > "$TMP/paths"
	"$ARMBOT" --data-dir "$DATA" tree guess-base --tree hist "$m" > "$TMP/guess" 2>&1
	rc=$?
	set -- $(head -1 "$TMP/guess")
	is "$rc $1 $3" "0 base blob-ids" "held-out patch $n: base guessed from blob ids"
	g=${2:-none}
	same_blobs "$g" "$parent" "$TMP/paths"
	ok $? "held-out patch $n: the guessed commit has its real parent's blobs ($(wc -l < "$TMP/paths") paths)"
	git -C "$H" merge-base --is-ancestor "$g" master
	ok $? "held-out patch $n: the guessed commit is on the followed branch"
	if ! applies_at "$m" master; then
		not_at_head=$((not_at_head + 1))
		[ -n "$checked" ] || checked="$n $g"
	fi
	grep '^time' "$TMP/guess" | sed "s/^/# patch $n: /"
done < "$TMP/held"
diag "$not_at_head held-out patches do not apply at the tree's head"
[ "$moved" -ge 1 ] && [ "$not_at_head" -ge "$moved" ]
ok $? "the held-out patches the tree moved on under ($moved) no longer apply at the head"

# armbot check tests one that the head no longer takes at the guessed base
if [ -n "$checked" ]; then
	set -- $checked
	"$ARMBOT" --data-dir "$DATA" check --tree hist --no-sparse --no-boot \
		"$TMP/held-$1.mbox" > "$TMP/check.out" 2>&1
	tr '\n' ' ' < "$TMP/check.out" | grep -q "at $(echo "$2" | cut -c1-12), guessed from the blob ids of the patches"
	ok $? "armbot check: tested at the guessed commit, guessed from blob ids"
	grep -q "^  apply  *ok" "$TMP/check.out"
	ok $? "armbot check: the held-out patch applies there"
	grep -q "^  apply  *ok" "$TMP/check.out" || sed 's/^/# /' "$TMP/check.out" | head -40
else
	fail "armbot check on a patch the head does not take (none found)"
fi

# a patch of the followed history is already applied
set -- $(sed -n 2p "$TMP/history")
git -C "$H" format-patch -1 --stdout "$2" > "$TMP/applied.mbox"
"$ARMBOT" --data-dir "$DATA" tree guess-base --tree hist "$TMP/applied.mbox" > "$TMP/guess" 2>&1
is "$(head -1 "$TMP/guess" | cut -d' ' -f3)" "applied" "a patch of the tree: reported as already applied"
is "$(sed -n 's/^applied 1 //p' "$TMP/guess")" "$2" "... with its commit"
"$ARMBOT" --data-dir "$DATA" check --tree hist --no-sparse --no-boot \
	"$TMP/applied.mbox" > "$TMP/check.out" 2>&1
grep -q "the series is applied already" "$TMP/check.out"
ok $? "armbot check: the reply says it is applied already"
grep -q "$2" "$TMP/check.out"
ok $? "armbot check: the reply names the commit"
done_testing
