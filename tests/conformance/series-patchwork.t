#!/bin/sh
# Series assembly against patchwork's own test expectations
# (../shared/corpora/patchwork/series-expectations.tsv): per mbox, the
# counts of covers, patches and comments, how patches and covers partition
# into series, and completeness.  Every file of patchwork/series/ is
# ingested; the fuzz mails must give a clear error or be stored.
. "$(dirname "$0")/../lib/tap.sh"
need_corpus corpora/patchwork/series-expectations.tsv

PW=$SHARED/corpora/patchwork

# partition KEY: "[n,m,...]" of the series in order of their first date
partition() {
	perl -MJSON::PP -e '
		my $j = decode_json(join("", <STDIN>));
		my $k = $ARGV[0];
		my @n = map { $k eq "patches" ? scalar @{$_->{patches}}
			    : $k eq "covers" ? (defined $_->{cover} ? 1 : 0)
			    : $_->{state} eq "ready" ? "True" : "False" } @$j;
		print $k eq "complete" ? join(",", @n) : "[" . join(",", @n) . "]";
	' "$1"
}

tab=$(printf '\t')
tail -n +2 "$PW/series-expectations.tsv" |
while IFS="$tab" read -r class test file n counts pparts cparts complete note; do
	d=$TMP/$class-$test
	mkdir -p "$d"
	"$ARMBOT" --data-dir "$d" ingest "$PW/series/$file" > "$d/out" 2> "$d/err"
	ok $? "$class.$test: ingest $file"
	got=$(sed -n 's/^new: other [0-9]*, patch \([0-9]*\), cover \([0-9]*\), pull [0-9]*, reply \([0-9]*\).*/[\2,\1,\3]/p' "$d/out")
	is "$got" "$counts" "$class.$test: covers, patches, comments"
	"$ARMBOT" --data-dir "$d" series --all --json > "$d/json"
	if [ "$pparts" != - ]; then
		is "$(partition patches < "$d/json")" "$pparts" \
			"$class.$test: patches per series"
	fi
	if [ "$cparts" != - ]; then
		is "$(partition covers < "$d/json")" "$cparts" \
			"$class.$test: covers per series"
	fi
	if [ "$complete" != - ]; then
		is "$(partition complete < "$d/json")" "$complete" \
			"$class.$test: received all"
	fi
done > "$TMP/tap"
cat "$TMP/tap"
_tap_n=$(grep -c '^\(not \)\?ok' "$TMP/tap")
_tap_failed=$(grep -c '^not ok' "$TMP/tap")

# every file of the folder, the b4 dependency templates included, ingests
# completely: as many messages stored as the file has
for f in "$PW"/series/*; do
	base=$(basename "$f")
	d=$TMP/all-$base
	"$ARMBOT" --data-dir "$d" ingest "$f" > "$d.out" 2>&1
	ok $? "ingest $base"
	n=$(grep -c '^From ' "$f")
	is "$(sed -n 's/ new,.*//p' "$d.out")" "$n" "$base: $n messages stored"
done

# a series with a cover and two patches, not in patchwork's table
d=$TMP/dep
"$ARMBOT" --data-dir "$d" ingest "$PW/series/dependency-base-patch.mbox" > /dev/null
"$ARMBOT" --data-dir "$d" series --json > "$d.json"
is "$(partition patches < "$d.json") $(partition covers < "$d.json") $(partition complete < "$d.json")" \
	"[2] [1] True" "dependency-base-patch: one complete series"

# robustness: malformed mails are stored or refused with a clear error,
# never a crash; the good ones around them are stored
d=$TMP/fuzz
for f in "$PW"/fuzz/*.mbox; do
	"$ARMBOT" --data-dir "$d" ingest "$f" > "$d.out" 2> "$d.err"
	st=$?
	ok $st "fuzz $(basename "$f"): ingested ($(cat "$d.out" | head -1))"
	if grep -q ' 1 unparseable' "$d.out"; then
		grep -q '^error: .*: ' "$d.err"
		ok $? "fuzz $(basename "$f"): says why: $(head -1 "$d.err")"
	fi
done
done_testing
