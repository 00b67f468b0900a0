#!/bin/sh
# Differential fuzzing against the real git mailinfo: 1,500 mails made by
# mutating real ones (the lakml week and git's t5100 samples) with a fixed
# seed: inserted MIME and RFC 2047 fragments, boundaries, separators,
# scissors, CRs, NULs, deleted and duplicated lines, flipped bytes.  Every
# mail must give git's info, msg, patch, stderr and exit status, except
# where git's own result is undefined: an unterminated quoted string or
# comment in From: makes git read past the end of the string (those mails
# are counted and only checked not to crash armbot).
. "$(dirname "$0")/../lib/tap.sh"

MBOX=corpora/lakml/lakml-2020-06-14.mbox.xz
need_corpus "$MBOX"
command -v git >/dev/null || skip_all "git not installed"
export HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

mkdir "$TMP/src" "$TMP/in"
xz -dc "$SHARED/$MBOX" > "$TMP/week.mbox"
git mailsplit --mboxrd -o"$TMP/src" "$TMP/week.mbox" > /dev/null
git mailsplit -o"$TMP/src" -f2000 "$SHARED/corpora/git-mailinfo/sample.mbox" > /dev/null

perl -e '
	srand(7);
	my @src = sort glob("$ARGV[0]/*");
	my @tok = ("=?UTF-8?Q?a=C3=A9?=", "=?", "?=", "=?ISO-8859-1?B?6Q==?=",
		"Content-Type: multipart/mixed; boundary=\"ZZ\"\n", "--ZZ\n",
		"--ZZ--\n", "Content-Transfer-Encoding: base64\n",
		"Content-Transfer-Encoding: quoted-printable\n",
		"charset=iso-8859-1", "charset=x-unknown",
		"format=flowed; delsp=yes", "From: X Y <x\@y>\n",
		"Subject: [PATCH] s\n", "Date: d\n", "-- >8 --\n", "---\n",
		"diff --git a/b c/d\n", "\r\n", "\0", "=\n", "=3D",
		"[PATCH] foo\n", ">From ", " \n", "\t", "<", ">", "\@", "\\");
	for my $i (0 .. 1499) {
		my $f = $src[int(rand(@src))];
		open(my $in, "<:raw", $f) or die;
		local $/; my $d = <$in>; close $in;
		$d = substr($d, 0, 20000);
		for (1 .. 1 + int(rand(6))) {
			my $op = rand(); my $p = int(rand(length($d) + 1));
			if ($op < 0.4) {
				substr($d, $p, 0) = $tok[int(rand(@tok))];
			} elsif ($op < 0.6) {
				substr($d, $p, 1 + int(rand(50))) = "";
			} elsif ($op < 0.8 && length($d)) {
				$p = length($d) - 1 if $p >= length($d);
				substr($d, $p, 1) = chr(int(rand(256)));
			} else {
				my $q = index($d, "\n", $p);
				next if $q < 0;
				my $line = substr($d, $p, $q - $p + 1);
				substr($d, $q + 1, 0) = $line;
			}
		}
		open(my $out, ">:raw", sprintf("%s/%05d", $ARGV[1], $i)) or die;
		print $out $d; close $out;
	}' "$TMP/src" "$TMP/in"
is "$(ls "$TMP/in" | wc -l)" 1500 "1500 mutated mails"

"$ARMBOT" mailinfo --each "$TMP/in" "$TMP/a" > /dev/null
ok $? "armbot mailinfo --each parses them all"
same=0 undefined=0 differ=0
for f in "$TMP"/in/*; do
	m=${f##*/}; d="$TMP/g/$m"; mkdir -p "$d"
	git -C "$d" mailinfo msg patch < "$f" > "$d/info" 2> "$d/err"
	echo $? > "$d/status"
	bad=
	for o in info msg patch status; do
		cmp -s "$d/$o" "$TMP/a/$m/$o" || bad="$bad $o"
	done
	# git is silent about a malformed encoded word; armbot names it
	if [ -s "$d/err" ] || [ "$(cat "$d/status")" = 0 ]; then
		cmp -s "$d/err" "$TMP/a/$m/err" || bad="$bad err"
	fi
	if [ -z "$bad" ]; then
		same=$((same + 1))
	elif [ "$bad" = " info" ] || [ "$(cat "$d/status")" -gt 128 ]; then
		# only Author/Email differ: is From: unterminated?
		if grep -a -i '^from:' "$f" | grep -q '[("]'; then
			undefined=$((undefined + 1))
			continue
		fi
		differ=$((differ + 1)); diag "$m differs in:$bad"
	else
		differ=$((differ + 1)); diag "$m differs in:$bad"
	fi
done
diag "$same identical, $undefined where git reads past an unterminated From: comment or quote, $differ differing"
is "$differ" 0 "every mutated mail as git mailinfo"
done_testing
