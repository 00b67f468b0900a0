#!/bin/sh
# Series shapes made with real git: format-patch --cover-letter --thread
# (shallow and deep), v2 in reply to v1 and as a new thread, no cover,
# out of order, duplicate Message-ID, a reply quoting the diff, a partial
# reroll, unthreaded patches, the incomplete timeout, trailers from
# replies folded into the mbox.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/series.sh"

series_repo 600
for i in 1 2 3; do echo "line $i" > "f$i"; git add "f$i"; git commit -qm "add f$i"; done

fp() {	# fp OUTDIR ARGS...: format-patch the 3 commits as one mbox
	out=$1; shift
	git format-patch -q --stdout "$@" HEAD~3 > "$out"
}

for thread in shallow deep; do
	d=$TMP/$thread
	fp "$TMP/$thread.mbox" --cover-letter --thread=$thread --base=HEAD~3
	"$ARMBOT" --data-dir "$d" ingest "$TMP/$thread.mbox" > /dev/null
	"$ARMBOT" --data-dir "$d" series --json > "$d.json"
	is "$(count "$d.json") $(field "$d.json" 0 state) $(field "$d.json" 0 patches)" \
		"1 ready 3" "$thread thread: one complete series of 3"
	is "$(field "$d.json" 0 base_commit)" "$(git rev-parse HEAD~3)" \
		"$thread thread: base-commit read"
done

# out of order: the cover last, patches reversed
d=$TMP/ooo
perl -e 'local $/; $_ = <>; my @m = split /(?=^From [0-9a-f]{40} )/m; print reverse @m' \
	"$TMP/shallow.mbox" > "$TMP/ooo.mbox"
"$ARMBOT" --data-dir "$d" ingest "$TMP/ooo.mbox" > /dev/null
"$ARMBOT" --data-dir "$d" series --json > "$d.json"
is "$(count "$d.json") $(field "$d.json" 0 state)" "1 ready" "out of order: one complete series"

ids=$(perl -MJSON::PP -e 'print join " ", @{decode_json(join "", <STDIN>)->[0]{patches}}' < "$d.json")
want=$(grep -i '^Message-ID:' "$TMP/shallow.mbox" | sed -n '2,4s/.*<\(.*\)>.*/\1/p' | tr '\n' ' ' | sed 's/ $//')
is "$ids" "$want" "out of order: patches listed 1, 2, 3"

# duplicate Message-ID: the same file twice
"$ARMBOT" --data-dir "$d" ingest "$TMP/shallow.mbox" > "$d.out"
is "$(head -1 "$d.out")" "0 new, 4 duplicate, 0 unparseable" "duplicates are ignored"
"$ARMBOT" --data-dir "$d" series --json > "$d.json2"
is_file "$d.json" "$d.json2" "a second ingest changes nothing"

# no cover letter
d=$TMP/nocover
fp "$TMP/nocover.mbox" --thread --numbered
"$ARMBOT" --data-dir "$d" ingest "$TMP/nocover.mbox" > /dev/null
"$ARMBOT" --data-dir "$d" series --json > "$d.json"
is "$(count "$d.json") $(field "$d.json" 0 state) $(field "$d.json" 0 cover)" \
	"1 ready null" "no cover letter: one complete series"

# v2 in reply to v1's cover, and v3 as a new thread
d=$TMP/rerolls
v1cover=$(sed -n 's/^Message-I[dD]: <\(.*\)>/\1/p' "$TMP/shallow.mbox" | head -1)
# format-patch makes its Message-IDs from the second it runs and the
# committer's address: each posting gets its own committer address so
# that the ids differ (format-patch puts the committer in the cover
# letter's From: redate puts the author back, as send-email would)
# send-email dates each posting when it is sent: v2 and v3 come later
redate() { sed -e "s/^Date: .*/Date: $(date -R -d "@$(($(date +%s) - $1))")/" \
	-e 's/^From: A U Thor <.*>$/From: A U Thor <author@example.com>/'; }
GIT_COMMITTER_EMAIL=v2@example.com fp "$TMP/v2.tmp" --cover-letter --thread -v2 --in-reply-to="$v1cover"
redate 300 < "$TMP/v2.tmp" > "$TMP/v2.mbox"
GIT_COMMITTER_EMAIL=v3@example.com fp "$TMP/v3.tmp" --cover-letter --thread -v3
redate 200 < "$TMP/v3.tmp" > "$TMP/v3.mbox"
"$ARMBOT" --data-dir "$d" ingest "$TMP/shallow.mbox" "$TMP/v2.mbox" "$TMP/v3.mbox" > /dev/null
"$ARMBOT" --data-dir "$d" series --all --json > "$d.json"
is "$(count "$d.json")" 3 "three versions, three series"
is "$(field "$d.json" 0 state) $(field "$d.json" 1 state) $(field "$d.json" 2 state)" \
	"superseded superseded ready" "v1 and v2 superseded, v3 ready"
is "$(field "$d.json" 1 supersedes) $(field "$d.json" 2 supersedes)" \
	"$(field "$d.json" 0 id) $(field "$d.json" 1 id)" \
	"v2 (in reply) supersedes v1, v3 (new thread) supersedes v2"
"$ARMBOT" --data-dir "$d" series --json > "$d.cur"
is "$(count "$d.cur")" 1 "without --all only the current series"

# partial reroll: [PATCH v2 2/3] in reply to v1's 2/3, with a reply
# giving a Reviewed-by to v1's patch 1 (folded in by --mbox)
d=$TMP/partial
p2=$(sed -n 's/^Message-I[dD]: <\(.*\)>/\1/p' "$TMP/shallow.mbox" | sed -n 3p)
p1=$(sed -n 's/^Message-I[dD]: <\(.*\)>/\1/p' "$TMP/shallow.mbox" | sed -n 2p)
GIT_COMMITTER_EMAIL=p2@example.com git format-patch -q --stdout -v2 --subject-prefix=PATCH -1 HEAD~1 --in-reply-to="$p2" |
	sed 's/^Subject: \[PATCH v2\]/Subject: [PATCH v2 2\/3]/' > "$TMP/partial.mbox"
cat > "$TMP/review.mbox" <<EOM
From reviewer Mon Sep 17 00:00:00 2001
From: Re Viewer <reviewer@example.com>
Subject: Re: [PATCH 1/3] add f1
Message-ID: <review-1@example.com>
In-Reply-To: <$p1>
References: <$v1cover> <$p1>
Date: $(date -R)

> diff --git a/f1 b/f1
> +line 1

Looks fine.  Please add Reviewed-by when resending.

Reviewed-by: Re Viewer <reviewer@example.com>
EOM
"$ARMBOT" --data-dir "$d" ingest "$TMP/shallow.mbox" "$TMP/partial.mbox" "$TMP/review.mbox" > "$d.out"
is "$(tail -1 "$d.out")" "new: other 0, patch 4, cover 1, pull 0, reply 1, bot 0" \
	"a reply quoting a diff is a reply, not a patch"
"$ARMBOT" --data-dir "$d" series --all --json > "$d.json"
is "$(count "$d.json") $(field "$d.json" 0 state) $(field "$d.json" 1 state)" \
	"2 superseded ready" "partial reroll: its own series, v1 superseded"
is "$(field "$d.json" 1 partial_of) $(field "$d.json" 1 version) $(field "$d.json" 1 received) $(field "$d.json" 1 patches)" \
	"$(field "$d.json" 0 id) 2 1 3" "partial reroll recorded as partial_of v1, its one patch in v1's three"
"$ARMBOT" --data-dir "$d" series --mbox "$(field "$d.json" 1 id)" > "$d.am"
is "$(grep -c '^Subject: ' "$d.am")" 3 "partial reroll mbox: three patches"
grep -q '^Subject: \[PATCH v2 2/3\]' "$d.am"; ok $? "with v2 of patch 2"
git checkout -q -b am HEAD~3 && git am -q "$d.am"; ok $? "git am takes the mbox"
is "$(git log -1 --format=%B HEAD~2 | grep -c '^Reviewed-by: Re Viewer <reviewer@example.com>$')" 1 \
	"the Reviewed-by from the reply is folded into patch 1, once"
git checkout -q master 2>/dev/null || git checkout -q main

# unthreaded patches: grouped by sender, version and total
d=$TMP/unthreaded
fp "$TMP/unthreaded.mbox" --no-thread --numbered
"$ARMBOT" --data-dir "$d" ingest "$TMP/unthreaded.mbox" > /dev/null
"$ARMBOT" --data-dir "$d" series --json > "$d.json"
is "$(count "$d.json") $(field "$d.json" 0 state) $(field "$d.json" 0 patches)" \
	"1 ready 3" "unthreaded patches: one series"

# incomplete: 2 of 3 posted; it waits, then after the timeout it is final
d=$TMP/incomplete
perl -e 'local $/; $_ = <>; my @m = split /(?=^From [0-9a-f]{40} )/m; print @m[0..2]' \
	"$TMP/shallow.mbox" > "$TMP/incomplete.mbox"
"$ARMBOT" --data-dir "$d" ingest "$TMP/incomplete.mbox" > /dev/null
"$ARMBOT" --data-dir "$d" series --json > "$d.json"
is "$(field "$d.json" 0 state) $(field "$d.json" 0 expired)" "incomplete false" \
	"an incomplete series waits (posted 10 minutes ago, timeout 6 h)"
"$ARMBOT" --data-dir "$d" series --json --incomplete-timeout=0.1 > "$d.json"
is "$(field "$d.json" 0 state) $(field "$d.json" 0 expired)" "incomplete true" \
	"after the timeout (6 minutes here) it is incomplete for good"
done_testing
