#!/bin/sh
# Subject and From clean-up: the inline cases of git's t5100 and t4150
# (listed in ../shared/corpora/git-mailinfo/subject-cases.tsv), written out
# here so that they need no corpus, each checked against the expected line
# and against the real git mailinfo.
. "$(dirname "$0")/../lib/tap.sh"

export HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
have_git=1
command -v git >/dev/null || have_git=

# case NAME OPTIONS FROM SUBJECT EXPECTED-INFO
case_() {
	name=$1 opts=$2 from=$3 subject=$4 expected=$5
	printf 'From: %s\nSubject: %s\n\nbody\n' "$from" "$subject" > "$TMP/mail"
	# shellcheck disable=SC2086
	"$ARMBOT" mailinfo $opts "$TMP/msg" "$TMP/patch" < "$TMP/mail" > "$TMP/info"
	printf '%s\n' "$expected" > "$TMP/expected"
	is_file "$TMP/expected" "$TMP/info" "$name"
	if [ -n "$have_git" ]; then
		# shellcheck disable=SC2086
		git mailinfo $opts "$TMP/gmsg" "$TMP/gpatch" < "$TMP/mail" > "$TMP/ginfo"
		is_file "$TMP/ginfo" "$TMP/info" "$name: same as git"
	else
		skip "git not installed"
	fi
}

A='A U Thor <a.u.thor@example.com>'
I='Author: A U Thor
Email: a.u.thor@example.com'
case_ "no options" "" "$A" "[PATCH] [other] [PATCH] message" "$I
Subject: message
"
case_ "-k" "-k" "$A" "[PATCH] [other] [PATCH] message" "$I
Subject: [PATCH] [other] [PATCH] message
"
case_ "-b no [PATCH]" "-b" "$A" "[other] message" "$I
Subject: [other] message
"
case_ "-b leading [PATCH]" "-b" "$A" "[PATCH] [other] message" "$I
Subject: [other] message
"
case_ "-b double [PATCH]" "-b" "$A" "[PATCH] [PATCH] message" "$I
Subject: message
"
case_ "-b trailing [PATCH]" "-b" "$A" "[other] [PATCH] message" "$I
Subject: [other] message
"
case_ "-b separated double [PATCH]" "-b" "$A" "[PATCH] [other] [PATCH] message" "$I
Subject: [other] message
"
# t5100 'unusual header whitespace': no blank after "From:"
printf 'From:Real Name <user@example.com>\nSubject:    extra spaces\n' > "$TMP/mail"
"$ARMBOT" mailinfo "$TMP/msg" "$TMP/patch" < "$TMP/mail" > "$TMP/info"
printf 'Author: Real Name\nEmail: user@example.com\nSubject: extra spaces\n\n' > "$TMP/expected"
is_file "$TMP/expected" "$TMP/info" "unusual header whitespace"
case_ "unterminated quoted string" "" \
	'bob "unterminated string smith <bob@example.com>' "x" \
	'Author: bob unterminated string smith
Email: bob@example.com
Subject: x
'
case_ "unterminated comment" "" \
	'bob (unterminated comment smith <bob@example.com>' "x" \
	'Author: bob (unterminated comment smith
Email: bob@example.com
Subject: x
'
S='Re: Re: Re: [PATCH 1/5 v2] [foo] third'
case_ "am without --keep" "" "$A" "$S" "$I
Subject: third
"
case_ "am --keep (-k)" "-k" "$A" "$S" "$I
Subject: $S
"
case_ "am --keep-non-patch (-b)" "-b" "$A" "$S" "$I
Subject: [foo] third
"
# more of cleanup_subject(): "re:" needs more than three characters after
# it, brackets without a closing one stay, -k keeps everything
case_ "short re" "" "$A" "Re:" "$I
Subject: Re:
"
case_ "unclosed bracket" "" "$A" "[PATCH v2 message" "$I
Subject: [PATCH v2 message
"
case_ "Re in the middle" "" "$A" "[RFC] Re: [PATCH] foo" "$I
Subject: foo
"
case_ "tabs and colons" "" "$A" "	:: [PATCH]	two   spaces" "$I
Subject: two spaces
"
case_ "-b bracket without PATCH but long" "-b" "$A" "[RFC v2 1/3] [PATCH] x" "$I
Subject: [RFC v2 1/3] x
"
case_ "name in parentheses" "" "a.u.thor@example.com (A U Thor)" "x" 'Author: A U Thor
Email: a.u.thor@example.com
Subject: x
'
case_ "bare address" "" "a.u.thor@example.com" "x" 'Author: a.u.thor@example.com
Email: a.u.thor@example.com
Subject: x
'
case_ "no @ in the address" "" "John Doe <johndoe>" "x" 'Author: John Doe
Email: johndoe
Subject: x
'
case_ "quoted name with comma" "" '"Doe, John" <jd@example.com>' "x" 'Author: Doe, John
Email: jd@example.com
Subject: x
'
case_ "RFC 2047 name" "" "=?UTF-8?q?J=C3=BCrgen_M=C3=BCller?= <jm@example.com>" \
	"=?ISO-8859-1?B?U2No9m5l?= =?ISO-8859-1?Q?_Gr=FC=DFe?=" 'Author: Jürgen Müller
Email: jm@example.com
Subject: Schöne Grüße
'

# the charset options, in any order: the last of -u/-n/--encoding wins, and
# git 2.39.5's --encoding re-codes nothing
printf 'From: =?ISO-8859-1?Q?M=FCller?= <m@x>\nSubject: caf\351\nContent-Type: text/plain; charset=ISO-8859-1\n\nna\357ve\n' > "$TMP/mail"
for opts in "" -u -n --encoding=UTF-8 --encoding=ISO-8859-1 \
	"--encoding=UTF-8 -u" "-u -n" "-n -u" "-n --encoding=x"; do
	# shellcheck disable=SC2086
	"$ARMBOT" mailinfo $opts "$TMP/msg" "$TMP/patch" < "$TMP/mail" > "$TMP/info"
	if [ -n "$have_git" ]; then
		# shellcheck disable=SC2086
		git mailinfo $opts "$TMP/gmsg" "$TMP/gpatch" < "$TMP/mail" > "$TMP/ginfo"
		cmp -s "$TMP/info" "$TMP/ginfo" && cmp -s "$TMP/msg" "$TMP/gmsg"
		ok $? "charset options '${opts:-(none)}': same as git"
	else
		skip "git not installed"
	fi
done
"$ARMBOT" mailinfo -u "$TMP/msg" "$TMP/patch" < "$TMP/mail" > "$TMP/info"
grep -q '^Author: Müller$' "$TMP/info"; ok $? "-u re-codes the author to UTF-8"
grep -q '^naïve$' "$TMP/msg"; ok $? "-u re-codes the body to UTF-8"
"$ARMBOT" mailinfo -n "$TMP/msg" "$TMP/patch" < "$TMP/mail" > "$TMP/info"
grep -q "$(printf '^na\357ve$')" "$TMP/msg"; ok $? "-n leaves the body alone"
done_testing
