#!/bin/sh
# maildir: sources: new/ taken and moved to cur/ (":2,S") once stored,
# mail already in cur/ taken by name, nothing stored twice, unparseable
# mail kept as a reject, and --watch storing new mail within 2 s.
. "$(dirname "$0")/../lib/tap.sh"
. "$TOP/tests/lib/mails.sh"

command -v sqlite3 >/dev/null || skip_all "sqlite3 missing (make deps)"
MD=$TMP/Maildir
mkdir -p "$MD/new" "$MD/cur" "$MD/tmp" "$TMP/m"
mk_series "$TMP/m" s1 3
for i in 0 1 2 3; do cp "$TMP/m/s1-$i" "$MD/new/100$i.P1.host"; done
cp "$TMP/m/s1-3" "$MD/cur/0999.P1.host:2,"	# a reader saw it first: same id
mk_mail "$MD/cur/0998.P1.host:2,S" read-1 "already read"
printf 'no header at all' > "$MD/new/1009.P1.host"
# not mail: a symlink out of the maildir and a FIFO (reading it would hang)
mk_mail "$TMP/canary" canary-1 "canary outside"
ln -s "$TMP/canary" "$MD/new/1010.P1.evil"
mkfifo "$MD/new/1011.P1.fifo"

timeout 30 "$ARMBOT" --data-dir "$TMP/d" ingest "maildir:$MD" > "$TMP/out" 2> "$TMP/err"
is "$?" 0 "ingest maildir: exits 0"
is "$(head -1 "$TMP/out")" "5 new, 1 duplicate, 1 unparseable" \
	"new/ and cur/ taken, the same Message-ID stored once"
is "$(ls "$MD/new")" "1010.P1.evil
1011.P1.fifo" "new/ keeps only the symlink and the FIFO once stored"
grep -q "cannot open '$MD/new/1010.P1.evil': a symbolic link" "$TMP/err"
ok $? "the symlink is refused and said so"
grep -q "cannot read '$MD/new/1011.P1.fifo': not a regular file" "$TMP/err"
ok $? "the FIFO is refused and said so"
rm "$MD/new/1010.P1.evil" "$MD/new/1011.P1.fifo"
is "$(ls "$MD/cur" | grep -c ':2,S$')" 6 "and its mail is in cur/ as seen"
is "$(stored_series "$TMP/d" | cut -d'|' -f1-3)" "ready|3|3" \
	"the series assembled"
is "$(sqlite3 "$TMP/d/store.sqlite" 'select count(*) from rejects')" 1 \
	"the unparseable mail kept aside"

ingest_counts "$TMP/d" "maildir:$MD" "0 new, 0 duplicate, 0 unparseable" \
	"a second ingest finds nothing new (cur/ tracked by name)"

# a reader renames a done mail's flags: still done
mv "$MD/cur/0998.P1.host:2,S" "$MD/cur/0998.P1.host:2,RS"
"$ARMBOT" --data-dir "$TMP/d" ingest "maildir:$TMP/../$(basename "$TMP")/Maildir" > "$TMP/out"
is "$(head -1 "$TMP/out")" "0 new, 0 duplicate, 0 unparseable" \
	"flags changed and another spelling of the path: nothing new"

# --watch: new mail is stored within 2 s
"$ARMBOT" --data-dir "$TMP/d" ingest --watch --interval 60 "maildir:$MD" \
	> "$TMP/watch" 2> "$TMP/watch.err" &
pid=$!
sleep 1
mk_mail "$MD/tmp/2000.P2.host" live-1 "live one"
mv "$MD/tmp/2000.P2.host" "$MD/new/"
wait_stored "$TMP/d" live-1@armbot.test 2
ok $? "--watch: a mail delivered to new/ is stored within 2 s"
mk_mail "$MD/tmp/2001.P2.host" live-2 "live two"
mv "$MD/tmp/2001.P2.host" "$MD/new/"
wait_stored "$TMP/d" live-2@armbot.test 2
ok $? "and the next one too"
kill -TERM "$pid"
wait "$pid"
is "$?" 0 "--watch stops cleanly on SIGTERM"
is "$(grep -c ': 1 new, 0 duplicate, 0 unparseable$' "$TMP/watch")" 2 \
	"one line per batch"
ls "$MD/new" > "$TMP/left"
is "$(wc -l < "$TMP/left")" 0 "watched mail moved to cur/"

"$ARMBOT" --data-dir "$TMP/d3" ingest "maildir:" 2> "$TMP/err"
is "$?" 1 "maildir: without a path fails"
grep -q "maildir: needs a path" "$TMP/err"
ok $? "and says why"
"$ARMBOT" --data-dir "$TMP/d2" ingest "maildir:$TMP/nowhere" 2> "$TMP/err"
is "$?" 1 "a missing maildir fails"
done_testing
