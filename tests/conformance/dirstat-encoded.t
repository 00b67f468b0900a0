#!/bin/sh
# dirstat --mbox reads each mail as git am does (git mailinfo): the same
# patch mailed plain, quoted-printable, base64 and as a --attach
# attachment gives the same dirstat and verdict as the commit.
. "$(dirname "$0")/../lib/tap.sh"

git_test_env

git init -q "$TMP/r" && cd "$TMP/r" || exit 1
mkdir -p arch/arm/mach-a drivers/x
seq -f 'int a%g = 1;' 1 40 > arch/arm/mach-a/a.c
seq -f 'int x%g = 1;' 1 20 > drivers/x/x.c
git add -A && git commit -q -m base
# lines QP must escape or break: "=", trailing blanks, more than 76 chars
sed -i -e '5,12d' -e '20s|$| /* a = b, c == d */  |' arch/arm/mach-a/a.c
seq -f 'static const char *long_name_%g = "a string long enough to need a soft line break in QP";' \
	1 6 >> arch/arm/mach-a/a.c
seq -f 'int y%g = 2;' 1 3 >> drivers/x/x.c
git commit -q -a -m "ARM: mach-a: trim and extend"
git format-patch -q -1 --stdout HEAD > "$TMP/plain.mbox"
git format-patch -q -1 --stdout --attach HEAD > "$TMP/attach.mbox"

# the plain mail with its body re-encoded (headers up to the first empty
# line kept, MIME headers added)
encode() {	# encode qp|base64 < mail > mail
	perl -MMIME::QuotedPrint -MMIME::Base64 -e '
		local $/; my $m = <STDIN>;
		my ($h, $b) = split /\n\n/, $m, 2;
		my $enc = $ARGV[0];
		$h =~ s/^Content-Transfer-Encoding: .*\n//mi;
		$h =~ s/^Content-Type: .*\n//mi;
		$h =~ s/^MIME-Version: .*\n//mi;
		print "$h\nMIME-Version: 1.0\n",
			"Content-Type: text/plain; charset=UTF-8\n",
			"Content-Transfer-Encoding: ", ($enc eq "qp" ? "quoted-printable" : "base64"),
			"\n\n", ($enc eq "qp" ? encode_qp($b) : encode_base64($b));
	' "$1"
}
encode qp < "$TMP/plain.mbox" > "$TMP/qp.mbox"
encode base64 < "$TMP/plain.mbox" > "$TMP/base64.mbox"
grep -q '=3D' "$TMP/qp.mbox" && grep -q '=$' "$TMP/qp.mbox"
ok $? "the QP mail has escapes and soft line breaks"
grep -q 'diff --git' "$TMP/base64.mbox"
is $? 1 "the base64 mail has no diff in clear"

ds() { "$ARMBOT" dirstat -C "$TMP/r" "$@"; }
git diff --dirstat=lines,0 HEAD~ HEAD > "$TMP/want.dirstat"
ds --verdict HEAD~ HEAD > "$TMP/want.verdict"
grep -q 'arch/arm' "$TMP/want.verdict"
ok $? "the commit's verdict is about arch/arm"
for kind in plain qp base64 attach; do
	ds --mbox "$TMP/$kind.mbox" --dirstat=lines,0 > "$TMP/got" 2> "$TMP/err"
	is_file "$TMP/want.dirstat" "$TMP/got" "$kind mail: git's lines dirstat"
	ds --verdict --mbox "$TMP/$kind.mbox" > "$TMP/got" 2>> "$TMP/err"
	is_file "$TMP/want.verdict" "$TMP/got" "$kind mail: the commit's verdict"
	is "$(cat "$TMP/err")" "" "$kind mail: no warning"
done

# a mail git mailinfo refuses (a header in an unknown charset) is left
# out, with a warning
{ cat "$TMP/plain.mbox"
  printf 'From x Mon Sep 17 00:00:00 2001\nFrom: a@b\nSubject: =?x-no-such-charset?q?abc?=\n\n'
  sed '1,/^$/d' "$TMP/plain.mbox"; } > "$TMP/bad.mbox"
ds --verdict --mbox "$TMP/bad.mbox" > "$TMP/got" 2> "$TMP/err"
is_file "$TMP/want.verdict" "$TMP/got" "a refused mail does not change the verdict"
grep -q "^warning: .*: mail 2 skipped: " "$TMP/err"
ok $? "and is named in a warning" || sed 's/^/# /' "$TMP/err"
done_testing
