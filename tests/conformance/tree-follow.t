#!/bin/sh
# armbot run keeps the trees with a url current: a tree whose url is a bare
# repository made with real git is added when the daemon starts and
# fetched again every update-interval (2s here) as commits are pushed to
# it; when the repository goes away the tree keeps its branches, the
# error shows on /trees, /api/trees and in armbot status and the fetch is
# tried again on the schedule; the next success clears it.  A tree with
# update-interval = never is not fetched.  The hook on_tree_updated()
# (bot/daemon/treeupdate.c) runs once per successful fetch with the old and new
# heads.
. "$(dirname "$0")/../lib/tap.sh"

command -v curl > /dev/null || skip_all "curl not installed"
PYTHON=/usr/bin/python3

export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
W="$TMP/work"
SRC="$TMP/src.git"
D="$TMP/data"
C="$TMP/conf"
R="$D/trees/next/repo.git"

# commit TEXT: a commit on the work repository's master; prints its id
commit() {
	echo "$1" > "$W/file"
	git -C "$W" add file && git -C "$W" commit -q -m "$1" &&
		git -C "$W" rev-parse HEAD
}

git init -q -b master "$W"
one=$(commit one)
git clone -q --bare "$W" "$SRC"

mkdir -p "$C/trees.d"
cat > "$C/armbot.conf" <<CONF
[bot]
name = armbot
address = armbot@example.org
[web]
port = 0
[defaults]
update-interval = 1h
CONF
cat > "$C/trees.d/next.conf" <<CONF
[tree]
url = $SRC
branches = master
update-interval = 2s
CONF
cat > "$C/trees.d/manual.conf" <<CONF
[tree]
url = $SRC
update-interval = never
CONF
"$ARMBOT" config check --config "$C/armbot.conf" > /dev/null
ok $? "the configuration is valid"

G_MESSAGES_DEBUG=armbot "$ARMBOT" --data-dir "$D" run --allow-root \
	--config "$C/armbot.conf" > "$TMP/run.log" 2>&1 &
BOT=$!
trap 'kill -KILL $BOT 2> /dev/null; wait $BOT 2> /dev/null; rm -rf "$TMP"' EXIT

# wait_for SECONDS COMMAND...: until COMMAND succeeds
wait_for() {
	_n=$(($1 * 10))
	shift
	while ! "$@"; do
		[ $_n -gt 0 ] || return 1
		_n=$((_n - 1))
		sleep 0.1
	done
}

head_is() {
	[ "$(git -C "$R" rev-parse -q --verify refs/heads/master 2> /dev/null)" = "$1" ]
}

short() { echo "$1" | cut -c1-12; }

# api TREE FIELD: a field of TREE in /api/trees (None for null)
api() {
	curl -s -f -o "$TMP/trees.json" "$URL/api/trees" &&
		"$PYTHON" -c 'import json, sys
d = {t["name"]: t for t in json.load(open(sys.argv[1]))["trees"]}
print(d[sys.argv[2]][sys.argv[3]])' "$TMP/trees.json" "$1" "$2"
}

api_is() { [ "$(api "$1" "$2")" = "$3" ]; }

log_has() { grep -q -e "$1" "$TMP/run.log"; }

wait_for 30 log_has " web pages at "
URL=$(sed -n 's/.* web pages at //p' "$TMP/run.log" | head -1)

wait_for 60 head_is "$one"
ok $? "armbot run adds the tree from its url when it starts"
grep -q "tree next: adding the tree from $SRC\$" "$TMP/run.log"
ok $? "and logs it"
grep -q "on_tree_updated: next: master new at $(short "$one")\$" "$TMP/run.log"
ok $? "the hook hears of the new tree"

# a push moves the tree's head within an interval or two
two=$(commit two)
git -C "$W" push -q "$SRC" master
start=$(date +%s)
wait_for 60 head_is "$two"
ok $? "a commit pushed to the source is fetched"
took=$(($(date +%s) - start))
[ $took -le 20 ]
ok $? "within a few intervals of 2 s ($took s)"
grep -q "tree next: updated in [0-9.]* s ([0-9]* objects, .*): master $(short "$one")..$(short "$two")\$" "$TMP/run.log"
ok $? "the log says what moved"
grep -q "on_tree_updated: next: master $(short "$one")..$(short "$two")\$" "$TMP/run.log"
ok $? "the hook gets the old and new heads"

curl -s -f -o "$TMP/trees.html" "$URL/trees"
ok $? "/trees answers"
grep -q "<tr class=\"tree\" id=\"tree-next\"><td>next</td><td>$SRC</td><td>master</td><td>master <span title=\"$two\">$(short "$two")</span></td>" "$TMP/trees.html"
ok $? "/trees shows the tree's url, branches and new head"
! grep -q 'id="error-next"' "$TMP/trees.html"
ok $? "and no error"
api_is next state ok && api_is next head "$two" && api_is next update_interval 2
ok $? "/api/trees: next is ok at the new head, every 2 s"
api_is manual update_interval 0 && api_is manual next_update None &&
	api_is manual state pending
ok $? "/api/trees: manual is on demand only, never tried"
api_is distro-6.1 update_interval 0 && api_is distro-6.1 url None
ok $? "/api/trees: the distro tree is imported on demand only"
if "$PYTHON" -c 'import jsonschema' 2> /dev/null; then
	"$PYTHON" "$TOP/tests/lib/web-validate.py" \
		"$TOP/tests/data/web/trees.schema.json" "$TMP/trees.json"
	ok $? "/api/trees matches trees.schema.json"
else
	skip "python3-jsonschema not installed"
fi
[ ! -e "$D/trees/manual" ]
ok $? "a tree with update-interval = never is not fetched"

# the source goes away: the branches stay, the error shows
mv "$SRC" "$SRC.away"
wait_for 60 api_is next state failing
ok $? "a fetch from a source that is gone fails"
head_is "$two"
ok $? "the tree keeps its branches"
grep -q "tree next: update failed: tree 'next': cannot fetch '$SRC': no such repository (its branches are kept; next try in 2s)\$" "$TMP/run.log"
ok $? "the log says why, and when it tries again"
wait_for 60 api_is next failures 2
ok $? "it is tried again on the schedule"
curl -s -f -o "$TMP/trees.html" "$URL/trees"
grep -q "<tr class=\"error\" id=\"error-next\"><td colspan=\"7\" class=\"fail\"><strong>update failing</strong> ([0-9]* in a row; the last at .*): tree &#39;next&#39;: cannot fetch &#39;$SRC&#39;: no such repository</td></tr>" "$TMP/trees.html"
ok $? "/trees shows the error"
grep -q "<td>master <span title=\"$two\">" "$TMP/trees.html"
ok $? "beside the head it keeps"
"$ARMBOT" --data-dir "$D" status > "$TMP/status"
grep -q "^  next: [0-9]* failed in a row, the last at .* (last success: .* UTC): tree 'next': cannot fetch '$SRC': no such repository\$" "$TMP/status"
ok $? "armbot status lists the failing update"

# back, one commit further: the next success clears the error
mv "$SRC.away" "$SRC"
three=$(commit three)
git -C "$W" push -q "$SRC" master
wait_for 60 head_is "$three"
ok $? "once the source is back the tree moves on"
wait_for 30 api_is next state ok
ok $? "the failure is cleared"
api_is next failures 0 && api_is next error None && api_is next head "$three"
ok $? "/api/trees: no error, the new head"
curl -s -f -o "$TMP/trees.html" "$URL/trees"
! grep -q 'id="error-next"\|update failing' "$TMP/trees.html"
ok $? "/trees shows no error"
"$ARMBOT" --data-dir "$D" status > "$TMP/status"
! grep -q "tree updates failing" "$TMP/status"
ok $? "armbot status lists none"
grep -q "on_tree_updated: next: master $(short "$two")..$(short "$three")\$" "$TMP/run.log"
ok $? "the hook hears of the move"

kill -TERM $BOT
wait $BOT
is "$?" 0 "SIGTERM stops the daemon"
fetches=$(grep -c "tree next: \(updated\|up to date\)" "$TMP/run.log")
hooks=$(grep -c "on_tree_updated: next: " "$TMP/run.log")
is "$hooks" "$fetches" "the hook ran once per successful fetch, the add included ($fetches)"
! grep -q "manual" "$TMP/run.log"
ok $? "the tree on demand was never touched"

# stopped: the pages promise no update
. "$TOP/tests/lib/web.sh"
if web_start "$D"; then
	URL=$WEB_URL
	api_is next update_interval None && api_is next next_update None &&
		api_is next head "$three"
	ok $? "armbot serve after the daemon: no update scheduled, the head kept"
	web_stop
else
	fail "armbot serve starts"
fi
done_testing
