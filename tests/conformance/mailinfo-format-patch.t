#!/bin/sh
# Self-contained: series made by git format-patch in a scratch repository
# (non-ASCII authors, a Latin-1 commit encoding, binary files, renames,
# --attach, --inline, --no-numbered, --from, a cover letter, scissors and
# in-body headers in the messages), each mail parsed by armbot and by the
# real git mailinfo under several option sets: identical info, msg, patch,
# stderr and exit status.
. "$(dirname "$0")/../lib/tap.sh"

command -v git >/dev/null || skip_all "git not installed"
export HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset GIT_DIR GIT_WORK_TREE

R="$TMP/repo"
git init -q "$R" && cd "$R" || exit 1
git config user.name "Zoë Ångström"
git config user.email "zoe@example.org"
commit() {	# commit AUTHOR MESSAGE [OPTIONS...]
	a=$1 m=$2; shift 2
	GIT_AUTHOR_NAME=$a git commit -q -m "$m" "$@" ||
		fail "commit '$m'"
}
printf 'one\ntwo\nthree\n' > a.txt
printf '\000\001\002binary\377\376' > blob.bin
git add . && commit "Zoë Ångström" "initial"
printf 'one\n2\nthree\nfour\n' > a.txt
commit "José Ñúñez" "a.txt: edit lines

Longer explanation with UTF-8: naïve café, 日本語.

Signed-off-by: José Ñúñez <jose@example.org>" -a
git mv a.txt renamed.txt
commit "O'Brien, Pat (ARM)" "rename a.txt

From: Someone Else <else@example.org>
Subject: in-body subject wins

body after in-body headers"
printf '\003\004more binary\000\n' >> blob.bin
commit "李小龙" "[tag] binary change --- with dashes
-- >8 --
From: Cut Here <cut@example.org>

after the scissors line" -a
printf 'line\r\nwith crlf\r\n' > crlf.txt
git add crlf.txt && commit "Ünïcödé Ñämé" "add a file with CRLF lines"
git -c i18n.commitEncoding=ISO-8859-1 commit -q --allow-empty \
	-m "$(printf 'latin-1 message: caf\351 na\357ve')" --author "$(printf 'M\374ller <m@example.org>')"
printf 'x\n' > new.txt && git add new.txt && commit "A" "short name and a
---
separator in the message"

is "$(git rev-list --count HEAD)" 7 "the scratch repository has its 7 commits"

mkdir "$TMP/mails"
n=0
series() {	# series NAME FORMAT-PATCH-OPTIONS...
	name=$1; shift
	git format-patch -q -o "$TMP/fp-$name" "$@" --root HEAD ||
		{ fail "git format-patch $*"; return; }
	for f in "$TMP/fp-$name"/*; do
		n=$((n + 1))
		cp "$f" "$TMP/mails/$(printf '%03d' $n)-$name"
	done
}
series plain
series attach --attach
series inline --inline
series nonum --no-numbered -k
series binary --binary -M
series from --from="Sender Person <sender@example.org>" --cover-letter
series base64 --attach --no-binary --encode-email-headers
series thread --thread --numbered --subject-prefix="PATCH v3" -v3
git -c format.headers="Content-Transfer-Encoding: quoted-printable" \
	format-patch -q -o "$TMP/fp-qp" -1 HEAD~1
ok $? "git format-patch made $n mails"

# the same mails through git mailsplit, as git am feeds them
for f in "$TMP"/fp-*/*; do cat "$f"; done > "$TMP/all.mbox"

for opts in "" "-k" "-b" "--scissors" "--no-inbody-headers" "-n" \
	"--message-id" "--no-scissors -k"; do
	label=${opts:-(default options)}
	# shellcheck disable=SC2086
	"$ARMBOT" mailinfo $opts --each "$TMP/mails" "$TMP/a" > /dev/null
	ok $? "armbot mailinfo $label --each"
	same=0 differ=0
	for f in "$TMP"/mails/*; do
		m=${f##*/}
		d="$TMP/g/$m"; mkdir -p "$d"
		# shellcheck disable=SC2086
		git -C "$d" mailinfo $opts msg patch < "$f" > "$d/info" 2> "$d/err"
		echo $? > "$d/status"
		if diff -r "$d" "$TMP/a/$m" > "$TMP/diff"; then
			same=$((same + 1))
		else
			differ=$((differ + 1))
			sed "s|^|# $m: |" "$TMP/diff" | head -20
		fi
	done
	diag "$label: $same identical, $differ differing"
	is "$differ" 0 "$label: every format-patch mail as git mailinfo"
	rm -rf "$TMP/a" "$TMP/g"
done

# the single-mail form on stdin, the way git am calls git mailinfo
mkdir "$TMP/split"
git mailsplit -o"$TMP/split" "$TMP/all.mbox" > /dev/null
for f in "$TMP"/split/*; do
	"$ARMBOT" mailinfo "$TMP/msg" "$TMP/patch" < "$f" > "$TMP/info" 2>&1
	git mailinfo "$TMP/gmsg" "$TMP/gpatch" < "$f" > "$TMP/ginfo" 2>&1
	cmp -s "$TMP/msg" "$TMP/gmsg" && cmp -s "$TMP/patch" "$TMP/gpatch" &&
		cmp -s "$TMP/info" "$TMP/ginfo" || { fail "stdin form: ${f##*/}"; continue; }
done
pass "the stdin form agrees with git on every mail of git mailsplit's split"
done_testing
