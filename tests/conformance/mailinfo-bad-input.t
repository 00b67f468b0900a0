#!/bin/sh
# Bad input, each mail against the real git mailinfo: malformed headers,
# broken MIME boundaries, invalid base64 and quoted-printable, unknown
# charsets, huge lines, truncated mail, NUL bytes, binary garbage.  armbot
# must never crash and must give git's info, msg, patch and exit status;
# its stderr is git's, and where git fails armbot says why in one line
# (git itself is silent about a malformed encoded word in a header).  Where
# git crashes (an unterminated comment in From: makes it read past the end
# of the string), armbot must simply not crash.
. "$(dirname "$0")/../lib/tap.sh"

command -v git >/dev/null || skip_all "git not installed"
export HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
mkdir "$TMP/in"
mail() { cat > "$TMP/in/$1"; }	# mail NAME < content

H='From: A U Thor <author@example.com>
Subject: [PATCH] the subject
Date: Mon, 15 Jun 2020 10:00:00 +0200'
P='---
 a.c | 1 +
diff --git a/a.c b/a.c
--- a/a.c
+++ b/a.c
@@ -1 +1,2 @@
 x
+y'

# headers
printf 'no header at all\njust text\n' | mail no-headers
printf 'From: a@b\nSubject\n\nbody\n' | mail header-without-colon
printf '%s\n\tcontinuation first\nSubject: x\n\nb\n' 'From: a <a@b>' | mail fold-start
printf ' leading continuation\nFrom: a <a@b>\n\nb\n' | mail leading-space
printf 'From: a <a@b>\nSubject: x =?oops\n\nb\n' | mail rfc2047-unterminated
printf 'From: a <a@b>\nSubject: =?UTF-8?X?abc?=\n\nb\n' | mail rfc2047-bad-encoding
printf 'From: a <a@b>\nSubject: =?x-no-such-charset?Q?abc?=\n\nb\n' | mail rfc2047-unknown-charset
printf 'From: a <a@b>\nSubject: =?UTF-8?Q?a=00b?=\n\nb\n' | mail rfc2047-nul
printf 'From: =?UTF-8?B?AAAA?= <a@b>\nSubject: x\n\nb\n' | mail rfc2047-nul-from
printf 'From: a <a@b>\nSubject: =?UTF-8?B?////?=\n\nb\n' | mail rfc2047-invalid-utf8
printf 'From: a <a@b>\nSubject: =?ISO-2022-JP?B?GyRC?=\n\nb\n' | mail rfc2047-truncated-iso2022
printf 'From: <>\nSubject: \n\nb\n' | mail empty-address
printf 'From: ((((((((((nested <a@b>\nSubject: x\n\nb\n' | mail deep-comment
printf 'From: "a\\"b" (c\\)d) <a@b> (e (f) g)\nSubject: x\n\nb\n' | mail quoting
printf 'From: a <a@b>\nFrom: c <c@d>\nSubject: one\nSubject: two\n\nb\n' | mail repeated
printf 'FROM:   x@y\nsubject:lower\nDATE:\tnow\n\nb\n' | mail header-case
printf 'From: a <a@b>\r\nSubject: crlf\r\n\r\nbody\r\n%s\r\n' "$P" | mail crlf
printf 'From: a <a@b>\nSubject: x' | mail headers-only-no-newline
printf 'From: a <a@b>\nSubject: x\nTo: y\n' | mail headers-only
printf '' | mail empty
printf ' \n\t\n\n' | mail whitespace-only

# multipart
B='Content-Type: multipart/mixed; boundary="XX"'
printf '%s\n%s\n\npreamble\n--XX\n\nbody\n%s\n--XX--\n' "$H" "$B" "$P" | mail mime-ok
printf '%s\n%s\n\nno boundary ever\n%s\n' "$H" "$B" "$P" | mail mime-no-boundary
printf '%s\n%s\n\n--XX\n\nbody\n%s\n' "$H" "$B" "$P" | mail mime-no-end
printf '%s\n%s\n\n--XX--\n--XX\n\nafter end\n' "$H" "$B" | mail mime-end-first
printf '%s\n%s\n\n--XX\nContent-Type: multipart/alternative; boundary=YY\n\n--YY\n\ninner\n--XX--\nlost\n' "$H" "$B" | mail mime-mismatched
printf '%s\nContent-Type: multipart/mixed; boundary=\n\n--\n\nempty boundary\n' "$H" | mail mime-empty-boundary
# two end boundaries in a row: git passes its "\n" on only for the first
printf '%s\n%s\n\n--XX\nContent-Type: multipart/mixed; boundary="XX"\n\n--XX"\n--XX--())\n--XX--\n' "$H" "$B" | mail mime-end-end
printf '%s\n%s\n\n--XX\nContent-Type: multipart/mixed; boundary=YY\n\n--YY\n\nin\n--YY--\n--XX--\nafter\n%s\n' "$H" "$B" "$P" | mail mime-nested-end
# git's error messages: control characters become "?", 4095 bytes at most
printf '%s\nContent-Type: text/plain; charset=x\001\033[1m\r\n\ntext\n' "$H" | mail error-control-chars
{ printf '%s\nContent-Type: text/plain; charset=' "$H"; head -c 5000 /dev/zero | tr '\0' 'c'; printf '\n\ntext\n'; } | mail error-long-charset
{
	printf '%s\nContent-Type: multipart/mixed; boundary=b1\n\n' "$H"
	for i in 1 2 3 4 5 6; do
		printf -- '--b%s\nContent-Type: multipart/mixed; boundary=b%s\n\n' $i $((i + 1))
	done
	printf -- '--b7\n\ndeep\n'
} | mail mime-too-deep
printf '%s\n%s\n\n--XX\nContent-Type: text/plain; charset=x-unknown\n\ntext\n--XX\nContent-Type: text/x-patch\n\n%s\n--XX--\n' "$H" "$B" "$P" | mail mime-unknown-charset
printf '%s\n%s\n\n--XX\nContent-Transfer-Encoding: base64\n\n' "$H" "$B" | mail mime-truncated-part

# transfer encodings
printf '%s\nContent-Transfer-Encoding: base64\n\nbm90IHZhbGlk!!!@@@\n====\nYW\nJj\nZA\n' "$H" | mail base64-garbage
printf '%s\nContent-Transfer-Encoding: base64\n\n%s\n' "$H" "$(printf 'line one\r\nline two\r\n' | base64)" | mail base64-crlf
printf '%s\nContent-Transfer-Encoding: quoted-printable\n\nsoft=\nbreak =ZZ =4 =\r\nend=\n=3D=3d\n' "$H" | mail qp-garbage
printf '%s\nContent-Transfer-Encoding: quoted-printable\n\nnul=00byte\n%s\n' "$H" "$P" | mail qp-nul
printf '%s\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\n\377\376 invalid utf-8\n' "$H" | mail body-invalid-utf8
printf '%s\nContent-Type: text/plain; charset=iso-8859-1\n\ncaf\351\n%s\n' "$H" "$P" | mail body-latin1
printf '%s\nContent-Type: text/plain; charset=no-such-charset\n\ntext\n' "$H" | mail body-unknown-charset
printf '%s\nContent-Type: text/plain; format=flowed; delsp=yes\n\nsoft \nwrapped \n line\n-- \nsig\n' "$H" | mail flowed
printf '%s\nContent-Type: text/plain; format=flowed\nContent-Transfer-Encoding: base64\n\n%s\n' "$H" "$(printf 'a \r\nb\r\n\r\n' | base64)" | mail flowed-base64

# body rules
printf '%s\n\nFrom: In Body <ib@x>\nDate: then\n continued\nSubject: inbody\n\nmsg\n%s\n' "$H" "$P" | mail inbody
printf '%s\n\n[PATCH] inbody subject\n\nmsg\n%s\n' "$H" "$P" | mail inbody-patch-subject
printf '%s\n\nintro\n-- >8 --\nFrom: Cut <c@x>\n\nafter\n%s\n' "$H" "$P" | mail scissors
printf '%s\n\nFrom: x <x@y>\n  -- >8 --\nrest\n' "$H" | mail scissors-in-header
printf '%s\n\n>From e6807f3efca28b30decfecb1732a56c7db1137ee Mon Sep 17 00:00:00 2001\nmsg\n' "$H" | mail format-patch-separator
printf '%s\n\nmsg\n---   \nIndex: x\n' "$H" | mail separators
printf '%s\n\nmsg\n---' "$H" | mail dashes-at-eof

# sizes, truncation, garbage
{ printf '%s\n\n' "$H"; head -c 1000000 /dev/zero | tr '\0' 'x'; printf '\n%s\n' "$P"; } | mail huge-line
{ printf 'From: a <a@b>\nSubject: '; head -c 200000 /dev/zero | tr '\0' ' '; printf 'x\n\nb\n'; } | mail huge-header
{ printf 'From: a <a@b>\nSubject: '; for i in $(seq 2000); do printf 'Re: [x] '; done; printf 'end\n\nb\n'; } | mail many-prefixes
head -c 300 "$TMP/in/mime-ok" | mail truncated-mime
printf 'From: a <a@b>\nSubj' | mail truncated-header
printf '%s\n\nnul\000in\000body\n%s\n' "$H" "$P" | mail nul-body
# binary garbage: deterministic pseudo-random bytes
awk 'BEGIN { s = 12345; for (i = 0; i < 20000; i++) { s = (s * 1103515245 + 12345) % 2147483648; printf "%c", int(s / 65536) % 256 } }' | mail garbage
{ printf '%s\n\n' "$H"; cat "$TMP/in/garbage"; } | mail garbage-body
{ printf '%s\nContent-Transfer-Encoding: base64\n\n' "$H"; cat "$TMP/in/garbage"; } | mail garbage-base64

n=0
for f in "$TMP"/in/*; do
	name=${f##*/}
	n=$((n + 1))
	mkdir -p "$TMP/g/$name" "$TMP/a/$name"
	git -C "$TMP/g/$name" mailinfo msg patch < "$f" > "$TMP/g/$name/info" 2> "$TMP/g/$name/err"
	gs=$?
	(cd "$TMP/a/$name" && "$ARMBOT" mailinfo msg patch < "$f" > info 2> err)
	as=$?
	if [ $as -gt 1 ]; then
		fail "$name: armbot exits $as"
		head -5 "$TMP/a/$name/err" | sed 's/^/# /'
		continue
	fi
	if [ $gs -gt 128 ]; then
		# git reads past the end of an unterminated comment in
		# unquote_comment() and may crash: armbot stops at the end
		grep -q '^Email: a@b$' "$TMP/a/$name/info"
		ok $? "$name: git crashes (signal $((gs - 128))), armbot does not"
		continue
	fi
	same=1
	for o in info msg patch; do
		cmp -s "$TMP/g/$name/$o" "$TMP/a/$name/$o" || {
			same=
			diff -u "$TMP/g/$name/$o" "$TMP/a/$name/$o" | head -10 | sed "s/^/# $o: /"
		}
	done
	[ $gs = $as ] || { same=; diag "status: git $gs, armbot $as"; }
	if [ -s "$TMP/g/$name/err" ]; then
		cmp -s "$TMP/g/$name/err" "$TMP/a/$name/err" || { same=; diag "stderr differs"; }
	elif [ $gs != 0 ]; then
		# git failed silently: armbot says why, in one line
		[ "$(wc -l < "$TMP/a/$name/err")" = 1 ] &&
			grep -q '^error: ' "$TMP/a/$name/err" ||
			{ same=; diag "no one-line error"; }
	else
		[ -s "$TMP/a/$name/err" ] && { same=; diag "unexpected stderr"; }
	fi
	if [ -n "$same" ]; then
		pass "$name: as git mailinfo (exit $gs)"
	else
		fail "$name: as git mailinfo"
	fi
done
diag "$n malformed mails"
done_testing
