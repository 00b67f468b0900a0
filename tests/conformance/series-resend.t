#!/bin/sh
# Resends made with real git (format-patch --subject-prefix='PATCH RESEND',
# 'RESEND PATCH', 'PATCH v2 RESEND'): a resend supersedes the earlier
# posting of the same version by the same sender, in a new thread or in
# reply to it, and a second resend the first; a repost without RESEND, a
# resend by someone else and a resend of v2 after v3 supersede nothing
# they should not.  Through armbot ingest and armbot series --all --json,
# in posting order, in reverse and one posting per ingest.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/series.sh"

series_repo 3600
for i in 1 2 3; do echo "line $i" > "f$i"; git add "f$i"; git commit -qm "add f$i"; done

# post NAME SECONDS-AGO [FROM] -- FORMAT-PATCH-ARGS: one posting in
# NAME.mbox.  format-patch makes its Message-IDs from the second it runs
# and the committer's address, so each posting gets the committer
# NAME@example.com (its ids end in ".git.NAME@example.com", which names it
# below); the From: is put back to the sender and the Date to when it was
# sent, as send-email would.
post() {
	name=$1 ago=$2 from=author@example.com
	shift 2
	[ "$1" = -- ] || { from=$1; shift; }
	shift
	GIT_COMMITTER_EMAIL=$name@example.com \
		git format-patch -q --stdout --thread "$@" > "$TMP/$name.tmp" &&
	sed -e "s/^Date: .*/Date: $(date -R -d "@$(($(date +%s) - ago))")/" \
		-e "s/^From: A U Thor <.*>\$/From: A U Thor <$from>/" \
		"$TMP/$name.tmp" > "$TMP/$name.mbox"
}
first_id() { sed -n 's/^Message-I[dD]: <\(.*\)>/\1/p' "$TMP/$1.mbox" | head -1; }

# summary DATADIR: one line per series (by date): posting, state,
# version, received/total, the posting it supersedes or "-"
summary() {
	"$ARMBOT" --data-dir "$1" series --all --json |
	perl -MJSON::PP -e '
		my $j = decode_json(join "", <STDIN>);
		my %name = map { my $id = $_->{cover} // $_->{patches}[0];
			($_->{id} => ($id =~ /\.git\.([^@]+)@/)[0]) } @$j;
		print join(" ", $name{$_->{id}}, $_->{state}, "v$_->{version}",
			"$_->{received}/$_->{total}",
			defined $_->{supersedes} ? $name{$_->{supersedes}} : "-"),
			"\n" for @$j;'
}

# the original, a resend as a new thread, a second resend in reply to
# the original's cover letter
post orig 600 -- --cover-letter HEAD~3
post re1 500 -- --cover-letter --subject-prefix='PATCH RESEND' HEAD~3
post re2 400 -- --cover-letter --subject-prefix='RESEND PATCH' \
	--in-reply-to="$(first_id orig)" HEAD~3
is "$(grep -c '^Subject: \[PATCH RESEND [0-3]/3\]' "$TMP/re1.mbox") $(grep -c '^Subject: \[RESEND PATCH [0-3]/3\]' "$TMP/re2.mbox")" \
	"4 4" "format-patch wrote the RESEND subjects"
chain="orig superseded v1 3/3 -
re1 superseded v1 3/3 orig
re2 ready v1 3/3 re1"

d=$TMP/chain
"$ARMBOT" --data-dir "$d" ingest "$TMP/orig.mbox" "$TMP/re1.mbox" "$TMP/re2.mbox" > /dev/null
is "$(summary "$d")" "$chain" "the second resend supersedes the first, the first the original"
"$ARMBOT" --data-dir "$d" series --all --json > "$d.json"
perl -MJSON::PP -e '
	my $j = decode_json(join "", <STDIN>);
	my ($o, $r1, $r2) = @$j;
	exit !(!defined $o->{supersedes} && $r1->{supersedes} == $o->{id} &&
		$r2->{supersedes} == $r1->{id} && !defined $r2->{partial_of} &&
		$r2->{subject} eq $o->{subject} && $r2->{rfc} == JSON::PP::false &&
		@{$r2->{patches}} == 3 && $r2->{cover} =~ /^cover\..*\.git\.re2\@/)' < "$d.json"
ok $? "series --json: supersedes are ids, subject without the tags, three patches"
"$ARMBOT" --data-dir "$d" series --json > "$d.cur"
is "$(perl -MJSON::PP -e 'print join " ", map { $_->{state} } @{decode_json(join "", <STDIN>)}' < "$d.cur")" \
	"ready" "without --all only the latest resend"

d=$TMP/reversed
"$ARMBOT" --data-dir "$d" ingest "$TMP/re2.mbox" "$TMP/re1.mbox" "$TMP/orig.mbox" > /dev/null
is "$(summary "$d")" "$chain" "the same with the latest resend ingested first"

# one posting per ingest: the store's series change state as the resends
# come (the assembly is redone from the stored mail each time)
d=$TMP/steps
"$ARMBOT" --data-dir "$d" ingest "$TMP/orig.mbox" > /dev/null
is "$(summary "$d")" "orig ready v1 3/3 -" "step 1: the original is ready"
"$ARMBOT" --data-dir "$d" ingest "$TMP/re1.mbox" > /dev/null
is "$(summary "$d")" "orig superseded v1 3/3 -
re1 ready v1 3/3 orig" "step 2: the resend supersedes the stored original"
"$ARMBOT" --data-dir "$d" ingest "$TMP/re2.mbox" > /dev/null
is "$(summary "$d")" "$chain" "step 3: the second resend supersedes the first"

# the resend's mbox goes through git am
"$ARMBOT" --data-dir "$d" series --json > "$d.json"
"$ARMBOT" --data-dir "$d" series --mbox "$(perl -MJSON::PP -e 'print decode_json(join "", <STDIN>)->[0]{id}' < "$d.json")" > "$d.am"
is "$(grep -c '^Subject: \[RESEND PATCH [1-3]/3\]' "$d.am")" 3 "the resend's mbox: its three patches"
git checkout -q -b am HEAD~3 && git am -q "$d.am"; ok $? "git am takes it"
git checkout -q master 2>/dev/null || git checkout -q main

# without RESEND the same patches again are a second series; a resend by
# another sender does not supersede the author's posting
post dup 500 -- --cover-letter HEAD~3
post other 400 other@example.com -- --cover-letter --subject-prefix='PATCH RESEND' HEAD~3
d=$TMP/norsend
"$ARMBOT" --data-dir "$d" ingest "$TMP/orig.mbox" "$TMP/dup.mbox" "$TMP/other.mbox" > /dev/null
is "$(summary "$d")" "orig ready v1 3/3 -
dup ready v1 3/3 -
other ready v1 3/3 -" "a repost without RESEND and another sender's resend supersede nothing"

# versions: a resend of v2 ("[PATCH v2 RESEND]") sent after v3 supersedes
# v2, not v3; v3 sent after a resend of v2 ("[PATCH RESEND v2]")
# supersedes the resend
post v2 600 -- --cover-letter -v2 HEAD~3
post v3 500 -- --cover-letter -v3 HEAD~3
post r2 400 -- --cover-letter --subject-prefix='PATCH v2 RESEND' HEAD~3
d=$TMP/v2-after-v3
"$ARMBOT" --data-dir "$d" ingest "$TMP/v2.mbox" "$TMP/v3.mbox" "$TMP/r2.mbox" > /dev/null
is "$(summary "$d")" "v2 superseded v2 3/3 -
v3 ready v3 3/3 v2
r2 ready v2 3/3 v2" "a resend of v2 after v3: v3 stays ready"
post r2b 550 -- --cover-letter --subject-prefix='PATCH RESEND' -v2 HEAD~3
d=$TMP/v3-after-v2
"$ARMBOT" --data-dir "$d" ingest "$TMP/v3.mbox" "$TMP/r2b.mbox" "$TMP/v2.mbox" > /dev/null
is "$(summary "$d")" "v2 superseded v2 3/3 -
r2b superseded v2 3/3 v2
v3 ready v3 3/3 r2b" "v3 after a resend of v2 supersedes the resend"

# one patch without a cover letter, resent in reply to itself; a resend
# with fewer patches (the same work as same_work() judges it)
post one 600 -- -1 HEAD
post oneR 500 -- -1 --subject-prefix='PATCH RESEND' --in-reply-to="$(first_id one)" HEAD
post two 400 -- --subject-prefix='PATCH RESEND' HEAD~2
d=$TMP/single
"$ARMBOT" --data-dir "$d" ingest "$TMP/one.mbox" "$TMP/oneR.mbox" "$TMP/two.mbox" > /dev/null
is "$(summary "$d")" "one superseded v1 1/1 -
oneR superseded v1 1/1 one
two ready v1 2/2 oneR" "a single patch resent in reply; a resend of two patches with one in common"
done_testing
