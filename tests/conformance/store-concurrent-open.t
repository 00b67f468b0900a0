#!/bin/sh
# Several armbot processes opening a new store at once (the daemon and a
# command, two commands from cron): each migrates the schema under one
# write lock, so none fails with "table already exists" and the store
# ends at the current version.
. "$(dirname "$0")/../lib/tap.sh"

round=1
while [ "$round" -le 3 ]; do
	data="$TMP/data$round"
	mkdir "$data"
	i=1
	while [ "$i" -le 8 ]; do
		"$ARMBOT" --data-dir "$data" status > "$TMP/out.$round.$i" 2>&1 &
		i=$((i + 1))
	done
	wait
	cat "$TMP"/out.$round.* > "$TMP/all.$round"
	grep -q -e error -e 'cannot migrate' "$TMP/all.$round"
	is $? 1 "round $round: 8 processes open a new store at once, none fails"
	grep -c '^nothing yet' "$TMP/all.$round" > "$TMP/count"
	is "$(cat "$TMP/count")" 8 "round $round: each one ran"
	is "$(sqlite3 "$data/store.sqlite" 'PRAGMA user_version')" \
		"$(sqlite3 "$TMP/data1/store.sqlite" 'PRAGMA user_version')" \
		"round $round: the schema is at the same version"
	round=$((round + 1))
done
# and the versions are the current ones: a second open changes nothing
sqlite3 "$TMP/data1/store.sqlite" 'SELECT name, version FROM store_parts ORDER BY name' > "$TMP/parts.before"
"$ARMBOT" --data-dir "$TMP/data1" status > /dev/null 2>&1
sqlite3 "$TMP/data1/store.sqlite" 'SELECT name, version FROM store_parts ORDER BY name' > "$TMP/parts.after"
is_file "$TMP/parts.before" "$TMP/parts.after" "a current store is left as it is"
[ -s "$TMP/parts.after" ]
ok $? "every part has its version recorded"
done_testing
