#!/bin/sh
# A real week of linux-arm-kernel (1,871 messages, mboxrd): every message
# is stored, and every series whose parts are all in the week is complete.
# The check of completeness is independent of the assembler: for each
# series left incomplete, no missing part may be in the file (a non-reply
# from the same sender with the same version, total and that index).
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/lakml/lakml-2020-06-14.mbox.xz

xz -dc "$SHARED/corpora/lakml/lakml-2020-06-14.mbox.xz" > "$TMP/week.mbox"
d=$TMP/data
"$ARMBOT" --data-dir "$d" ingest "$TMP/week.mbox" > "$TMP/out" 2> "$TMP/err"
ok $? "ingest the week"
is "$(head -1 "$TMP/out")" "1871 new, 0 duplicate, 0 unparseable" \
	"all 1871 messages stored"
diag "$(tail -1 "$TMP/out")"
# the same file again: every Message-ID of it is found in the store
"$ARMBOT" --data-dir "$d" ingest "$TMP/week.mbox" > "$TMP/out2"
is "$(head -1 "$TMP/out2")" "0 new, 1871 duplicate, 0 unparseable" \
	"every Message-ID of the file is in the store (ingest is idempotent)"

"$ARMBOT" --data-dir "$d" series --all --json > "$TMP/series.json"
ok $? "series --all --json"
perl -MJSON::PP -e '
	my ($mbox, $json) = @ARGV;
	open my $fh, "<", $mbox or die;
	local $/ = undef; my $all = <$fh>;
	my (%msg);
	for my $m (split /^From .*\n/m, $all) {
		my ($h) = split /\n\n/, $m, 2; next unless defined $h;
		$h =~ s/\n[ \t]+/ /g;
		my ($id) = $h =~ /^Message-I[dD]:\s*<([^>]+)>/mi or next;
		my ($subj) = $h =~ /^Subject:\s*(.*)$/mi; $subj //= "";
		my ($from) = $h =~ /^From:.*?([^\s<>"]+@[^\s<>"]+)/mi;
		next if $subj =~ /^\s*(re|aw):/i;
		my ($tags) = $subj =~ /^\s*((?:\[[^\]]*\]\s*)+)/ or next;
		my ($v) = $tags =~ /\bv(\d+)\b/i; $v //= 1;
		my ($i, $n) = $tags =~ /(\d+)\/(\d+)/ or next;
		$msg{$id} = [lc($from // ""), $v, $i + 0, $n + 0];
		push @{$msg{"key", lc($from // ""), $v, $n + 0, $i + 0}}, $id;
	}
	my $s = decode_json(do { open my $j, "<", $json or die; <$j> });
	my ($found, $ready, $inc, $sup, $bad) = (scalar @$s, 0, 0, 0, 0);
	for my $x (@$s) {
		$ready++ if $x->{state} eq "ready";
		$sup++ if $x->{state} eq "superseded";
		next unless $x->{state} eq "incomplete";
		$inc++;
		my ($email) = $x->{author} =~ /<([^>]+)>$/; $email //= $x->{author};
		my %have = map { ($msg{$_} // [0,0,0])->[2] => 1 } @{$x->{patches}};
		for my $i (1 .. $x->{total}) {
			next if $have{$i};
			my $k = $msg{"key", lc $email, $x->{version}, $x->{total}, $i};
			next unless $k;
			print "# series $x->{id} ($x->{subject}) misses part $i: @$k\n";
			$bad++;
		}
	}
	print "# series found $found, complete $ready, incomplete $inc, superseded $sup\n";
	exit($bad ? 1 : 0);
' "$TMP/week.mbox" "$TMP/series.json" > "$TMP/check"
st=$?
cat "$TMP/check"
ok $st "every series whose parts are all in the week is complete"
n=$(grep -c '"state":"ready"' "$TMP/series.json")
[ "$n" -ge 150 ]; ok $? "at least 150 complete series found ($n)"
done_testing
