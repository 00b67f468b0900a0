#!/bin/sh
# `armbot patch-id` against `git patch-id` (git 2.39.5) on scratch
# repositories made with real git, byte for byte:
#  - a history of named cases (edits, new, deleted, renamed with and
#    without edits, copied, binary, mode, symlink and gitlink changes,
#    names git quotes, whitespace-only, no newline at the end, CRLF, an
#    empty commit, a merge), then a random history of 200 commits
#    (patchid-gen.pl);
#  - for each: `git log -p` and `git format-patch --stdout` (and other
#    diff outputs) read by both, in --stable, --unstable and --verbatim;
#  - `armbot patch-id -C REPO REV` (the commit diffed by armbot) against
#    `git format-patch -1 REV | git patch-id --stable`, per commit, for a
#    list and for a range.
. "$(dirname "$0")/../lib/tap.sh"

command -v git >/dev/null || skip_all "git not installed"
git_test_env
GEN="$(dirname "$0")/patchid-gen.pl"
. "$(dirname "$0")/../lib/patchid-compare.sh"

# compare_outputs LABEL REPO: the diff outputs of REPO's history
compare_outputs() {
	git -C "$2" log -p > "$TMP/log"
	patchid_compare_stream "$1: git log -p" "$TMP/log"
	git -C "$2" format-patch --stdout --root HEAD > "$TMP/mails"
	patchid_compare_stream "$1: git format-patch" "$TMP/mails"
	# other shapes of the same changes: copies and stats in the
	# headers, combined diffs of merges, full index lines, binary data
	git -C "$2" log -p --stat -C -C --cc --full-index --binary \
		> "$TMP/log2"
	patchid_compare_stream "$1: git log -p --stat -C -C --cc --binary" \
		"$TMP/log2"
}

# compare_commits LABEL REPO: armbot's diff of each commit against git
# format-patch's, one commit at a time and all at once
compare_commits() {
	_bad=0
	_n=0
	for _c in $(git -C "$2" rev-list --reverse HEAD); do
		# merges have none (format-patch -1 would diff one against
		# its first parent; a range leaves merges out, as git log -p
		# and git's own patch_id_defined() do)
		if git -C "$2" rev-parse -q --verify "$_c^2" > /dev/null; then
			: > "$TMP/want"
		else
			git -C "$2" format-patch --stdout -1 "$_c" |
				git patch-id --stable > "$TMP/want"
		fi
		"$ARMBOT" patch-id -C "$2" "$_c" > "$TMP/got" 2>&1
		_n=$((_n + 1))
		if ! cmp -s "$TMP/want" "$TMP/got"; then
			_bad=$((_bad + 1))
			diag "$1: commit $_c ($(git -C "$2" log -1 --format=%s "$_c")):"
			diff "$TMP/want" "$TMP/got" | sed 's/^/#   /'
		fi
	done
	is "$_bad" 0 "$1: $_n commits one by one, -C as format-patch | git patch-id"
	# shellcheck disable=SC2046
	"$ARMBOT" patch-id -C "$2" $(git -C "$2" rev-list --reverse HEAD) \
		> "$TMP/got"
	git -C "$2" format-patch --stdout --root HEAD |
		git patch-id --stable > "$TMP/want"
	patchid_total=$((patchid_total + $(wc -l < "$TMP/want")))
	is_file "$TMP/want" "$TMP/got" "$1: every commit in one run"
}

# ---- the named cases ----
R="$TMP/cases"
git init -q -b main "$R"
n=0
commit() {	# commit MESSAGE: everything in the work tree, a fixed date
	n=$((n + 1))
	git -C "$R" add -A
	GIT_AUTHOR_DATE="$((1700000000 + n)) +0000" \
	GIT_COMMITTER_DATE="$((1700000000 + n)) +0000" \
		git -C "$R" commit -q --allow-empty -m "$1"
}
lines() { seq "$1" "$2" | sed 's/^/line /'; }
c_file() {
	printf 'static int a(void)\n{\n\treturn 0;\n}\n\nstatic int b(void)\n{\n\treturn 1;\n}\n'
}
mkdir -p "$R/arch/arm/mach-foo" "$R/drivers/soc"
lines 1 40 > "$R/arch/arm/mach-foo/board.c"
lines 1 30 > "$R/drivers/soc/soc.c"
c_file > "$R/drivers/soc/pm.c"
lines 1 60 > "$R/moved.c"
head -c 3000 /dev/zero | tr '\0' 'x' > "$R/blob.bin"
printf '\0\1\2\3binary\0' >> "$R/blob.bin"
printf '#!/bin/sh\necho hi\n' > "$R/script.sh"
printf 'one\r\ntwo\r\nthree\r\n' > "$R/crlf.txt"
printf 'no newline' > "$R/nonl.txt"
: > "$R/empty"
commit "root: files of every kind"

sed -i 's/^line 20$/line twenty/' "$R/arch/arm/mach-foo/board.c"
commit "modify one line"
lines 1 12 > "$R/drivers/soc/new.c"
commit "add a file"
git -C "$R" rm -q drivers/soc/soc.c
commit "delete a file"
git -C "$R" mv moved.c drivers/soc/moved.c
commit "rename without edits"
git -C "$R" mv drivers/soc/moved.c arch/arm/mach-foo/moved.c
sed -i 's/^line 30$/line thirty/' "$R/arch/arm/mach-foo/moved.c"
commit "rename with edits"
git -C "$R" mv arch/arm/mach-foo/moved.c arch/arm/moved2.c
lines 1 20 > "$R/arch/arm/moved2.c"
commit "rename and rewrite (no longer a rename)"
cp "$R/arch/arm/mach-foo/board.c" "$R/arch/arm/mach-foo/board-copy.c"
commit "copy a file"
printf 'more\0binary\0' >> "$R/blob.bin"
commit "modify a binary file"
head -c 100 /dev/urandom > "$R/new.bin"
printf '\0' >> "$R/new.bin"
commit "add a binary file"
git -C "$R" mv blob.bin drivers/blob.bin
commit "rename a binary file"
printf 'x\0y\0' >> "$R/drivers/blob.bin"
git -C "$R" mv drivers/blob.bin drivers/blob2.bin
lines 1 3 > "$R/drivers/soc/after-binary.c"
commit "rename and edit a binary file, then a text file"
git -C "$R" rm -q new.bin
commit "delete a binary file"
printf 'text now\n' > "$R/drivers/blob2.bin"
commit "binary to text"
chmod +x "$R/drivers/soc/new.c"
commit "mode change only"
chmod -x "$R/script.sh"
echo "echo bye" >> "$R/script.sh"
commit "mode change with an edit"
sed -i 's/^line 5$/line five/' "$R/arch/arm/mach-foo/board.c"
sed -i 's/^line 3$/line three/' "$R/drivers/soc/new.c"
echo "appended" >> "$R/crlf.txt"
lines 1 4 > "$R/drivers/zz-last.c"
lines 1 4 > "$R/aa-first.c"
commit "several files"
sed -i 's/^\treturn 0;$/        return 0;/; s/^static int b(void)$/static  int b(void) /' \
	"$R/drivers/soc/pm.c"
commit "whitespace only"
printf 'no newline\n' > "$R/nonl.txt"
commit "add the newline at the end"
printf 'no newline, again' > "$R/nonl.txt"
commit "remove the newline at the end"
printf 'one\r\nTWO\r\nthree\r\nappended\n' > "$R/crlf.txt"
commit "CRLF content"
commit "empty commit"
printf 'x' > "$R/empty"
commit "empty file gets content"
: > "$R/empty"
: > "$R/empty2"
commit "empty again, and a new empty file"
git -C "$R" rm -q empty2
commit "delete an empty file"
ln -s arch/arm/mach-foo/board.c "$R/link"
commit "add a symlink"
rm "$R/link"
ln -s drivers/soc/new.c "$R/link"
commit "retarget a symlink"
rm "$R/link"
echo "a file now" > "$R/link"
commit "symlink to file"
rm "$R/aa-first.c"
ln -s nowhere "$R/aa-first.c"
commit "file to symlink"
echo "spaced" > "$R/with space.c"
printf 'caf\303\251\n' > "$R/caf$(printf '\303\251').c"
echo "quoted" > "$R/qu\"ote.c"
printf 'tab\n' > "$R/ta$(printf '\t')b.c"
commit "names git quotes or tabs"
git -C "$R" mv "with space.c" "still spaced.c"
commit "rename a name with a space"
git -C "$R" update-index --add --cacheinfo \
	160000,0123456789abcdef0123456789abcdef01234567,sub
n=$((n + 1))
GIT_AUTHOR_DATE="$((1700000000 + n)) +0000" \
GIT_COMMITTER_DATE="$((1700000000 + n)) +0000" \
	git -C "$R" commit -q -m "add a gitlink"
git -C "$R" update-index --cacheinfo \
	160000,89abcdef0123456789abcdef0123456789abcdef,sub
n=$((n + 1))
GIT_AUTHOR_DATE="$((1700000000 + n)) +0000" \
GIT_COMMITTER_DATE="$((1700000000 + n)) +0000" \
	git -C "$R" commit -q -m "move a gitlink"
git -C "$R" reset -q --hard
# a merge: the side branch's commits are ordinary ones, the merge has none
git -C "$R" checkout -q -b side HEAD~3
lines 1 5 > "$R/side.c"
commit "on the side"
git -C "$R" checkout -q main
n=$((n + 1))
GIT_AUTHOR_DATE="$((1700000000 + n)) +0000" \
GIT_COMMITTER_DATE="$((1700000000 + n)) +0000" \
	git -C "$R" merge -q --no-ff -m "merge side" side
echo "after the merge" >> "$R/side.c"
commit "after the merge"

cases=$(git -C "$R" rev-list --count HEAD)
compare_outputs "cases" "$R"
compare_commits "cases" "$R"

# the range form lists the commits of A..B (merges have no patch-id)
root=$(git -C "$R" rev-list --max-parents=0 HEAD)
"$ARMBOT" patch-id -C "$R" "$root..HEAD" | sort > "$TMP/got"
git -C "$R" format-patch --stdout "$root..HEAD" | git patch-id --stable |
	sort > "$TMP/want"
is_file "$TMP/want" "$TMP/got" "cases: -C REPO A..B lists the commits of the range"
"$ARMBOT" patch-id -C "$R" HEAD HEAD~1 HEAD~1^2 > "$TMP/got"
is "$?" 0 "cases: -C REPO with a merge in the list succeeds"
{ git -C "$R" format-patch --stdout -1 HEAD
  git -C "$R" format-patch --stdout -1 HEAD~1^2; } |
	git patch-id --stable | sort > "$TMP/want"
wc -l < "$TMP/want" | grep -qx 2
ok $? "cases: format-patch of the two commits around the merge gives 2 ids"
sort "$TMP/got" > "$TMP/got.sorted"
is_file "$TMP/want" "$TMP/got.sorted" "cases: the merge has no patch-id, the others theirs"
[ "$(cut -d' ' -f2 "$TMP/got" | tr '\n' ' ')" = \
	"$(git -C "$R" rev-parse HEAD HEAD~1^2 | tr '\n' ' ')" ]
ok $? "cases: a list of revisions is printed in its order"

# what patch-ids are for: the same change made twice, with other
# whitespace and with the files in the other order, has the same id
git -C "$R" checkout -q -b again "$root"
lines 1 40 | sed 's/^line 20$/line  twenty /' > "$R/arch/arm/mach-foo/board.c"
commit "modify one line, other whitespace"
git -C "$R" checkout -q main
a=$("$ARMBOT" patch-id -C "$R" again | cut -d' ' -f1)
b=$("$ARMBOT" patch-id -C "$R" "$(git -C "$R" log --format=%H \
	--grep='^modify one line$' main)" | cut -d' ' -f1)
is "$a" "$b" "the same change with other whitespace has the same patch-id"
several=$(git -C "$R" log --format=%H --grep='^several files$' main)
printf 'drivers/*\n*\n' > "$TMP/order"
git -C "$R" format-patch --stdout -1 -O"$TMP/order" "$several" > "$TMP/reordered"
git -C "$R" format-patch --stdout -1 "$several" > "$TMP/ordered"
first() { sed -n 's/^diff --git a\/\([^ ]*\) .*/\1/p' "$1" | head -1; }
[ "$(first "$TMP/reordered")" != "$(first "$TMP/ordered")" ]
ok $? "format-patch -O gives the files in another order"
a=$("$ARMBOT" patch-id < "$TMP/reordered" | cut -d' ' -f1)
b=$("$ARMBOT" patch-id -C "$R" "$several" | cut -d' ' -f1)
is "$a" "$b" "--stable: the order of the files does not change the id"
a=$("$ARMBOT" patch-id --unstable < "$TMP/reordered" | cut -d' ' -f1)
b=$("$ARMBOT" patch-id --unstable < "$TMP/ordered" | cut -d' ' -f1)
[ "$a" != "$b" ]
ok $? "--unstable: it does"
patchid_compare_stream "cases: files reordered (-O)" "$TMP/reordered"

# ---- a random history ----
H="$TMP/random"
git init -q "$H"
perl "$GEN" 1 200 "$H" || exit 1
commits=$(git -C "$H" rev-list --count HEAD)
is "$commits" 200 "the random history has 200 commits"
compare_outputs "random" "$H"
compare_commits "random" "$H"
"$ARMBOT" patch-id -C "$H" HEAD~199..HEAD > "$TMP/got"
git -C "$H" format-patch --stdout HEAD~199..HEAD | git patch-id --stable |
	tac > "$TMP/want"
is_file "$TMP/want" "$TMP/got" "random: -C REPO A..B lists the range newest first"

# bad input to the command
"$ARMBOT" patch-id -C "$H" no-such-rev > /dev/null 2> "$TMP/err"
is "$?" 1 "an unknown revision fails"
grep -q "bad revision 'no-such-rev'" "$TMP/err"
ok $? "and says which"
"$ARMBOT" patch-id HEAD < /dev/null > /dev/null 2>&1
is "$?" 129 "a revision without -C is a usage error"
"$ARMBOT" patch-id < /dev/null > "$TMP/got"
is "$?-$(wc -c < "$TMP/got")" "0-0" "no input, no output, as git"
"$ARMBOT" help patch-id > "$TMP/help"
grep -q -- "--stable" "$TMP/help"
ok $? "armbot help patch-id"

diag "$cases named commits and 200 random ones; $patchid_total patch-ids compared with git"
done_testing
