# Small mails for the source tests, made here: mk_mail FILE ID SUBJECT
# [IN-REPLY-TO] writes one message whose Message-ID is <ID@armbot.test>,
# dated $MAIL_DATE (default 15 June 2020, one second later each time);
# mk_series DIR PREFIX N writes a cover letter and N patches threaded to it
# (PREFIX-0 .. PREFIX-N), one file each.

_mail_n=0
mk_mail() {
	_mail_n=$((_mail_n + 1))
	{
		echo "From: Tester <tester@armbot.test>"
		echo "To: list@armbot.test"
		echo "Subject: $3"
		echo "Date: ${MAIL_DATE:-Mon, 15 Jun 2020 10:00:00} $(printf '+00%02d' $((_mail_n % 60)))"
		echo "Message-ID: <$2@armbot.test>"
		[ -n "${4:-}" ] && echo "In-Reply-To: <$4@armbot.test>" &&
			echo "References: <$4@armbot.test>"
		echo
		echo "Body of $2."
		case "$3" in *PATCH*" 0/"*) ;; *PATCH*)
			echo "---"
			echo "diff --git a/f b/f"
			echo "--- a/f"
			echo "+++ b/f"
			echo "@@ -1 +1 @@"
			echo "-old"
			echo "+new $2"
			;;
		esac
	} > "$1"
}

mk_series() {
	mk_mail "$1/$2-0" "$2-0" "[PATCH 0/$3] series $2"
	_i=1
	while [ "$_i" -le "$3" ]; do
		mk_mail "$1/$2-$_i" "$2-$_i" "[PATCH $_i/$3] part $_i of $2" "$2-0"
		_i=$((_i + 1))
	done
}

# as_mbox FILE...: the files as one mboxrd on stdout
as_mbox() {
	for _f in "$@"; do
		echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
		sed 's/^\(>*From \)/>\1/' "$_f"
		echo
	done
}

# stored DATA-DIR: the parsed fields of every stored message, sorted
stored() {
	sqlite3 "$1/store.sqlite" "select message_id, kind, subject,
		from_email, author, date, in_reply_to, refs, version, idx,
		total from messages order by message_id"
}

# stored_series DATA-DIR: state and size of every series
stored_series() {
	sqlite3 "$1/store.sqlite" "select state, total, received, subject
		from series order by subject"
}

# wait_stored DATA-DIR MESSAGE-ID SECONDS: until it is in the store
wait_stored() {
	_end=$(($(date +%s%N) / 1000000 + $3 * 1000))
	while [ "$(($(date +%s%N) / 1000000))" -le "$_end" ]; do
		[ -f "$1/store.sqlite" ] &&
			[ "$(sqlite3 "$1/store.sqlite" "select count(*) from messages where message_id = '$2'" 2>/dev/null)" = 1 ] &&
			return 0
		sleep 0.05
	done
	return 1
}

# ingest_ok DATA-DIR SOURCE WHAT: `armbot ingest SOURCE` exits 0 (the test
# WHAT), its errors shown as comments; its output stays in $TMP/out
ingest_ok() {
	"$ARMBOT" --data-dir "$1" ingest "$2" > "$TMP/out" 2> "$TMP/err"
	_st=$?
	sed 's/^/# /' "$TMP/err" | head -30
	is "$_st" 0 "$3"
}

# ingest_counts DATA-DIR SOURCE COUNTS WHAT: the test WHAT that `armbot
# ingest SOURCE` says COUNTS ("N new, D duplicate, U unparseable") first;
# its output stays in $TMP/out
ingest_counts() {
	"$ARMBOT" --data-dir "$1" ingest "$2" > "$TMP/out"
	is "$(head -1 "$TMP/out")" "$3" "$4"
}

# ingest_fails DATA-DIR SOURCE WHAT PATTERN: `armbot ingest SOURCE` exits
# 1 (the test WHAT) with an error that grep finds PATTERN in (a second
# test, showing the error's first line); the error stays in $TMP/err
ingest_fails() {
	"$ARMBOT" --data-dir "$1" ingest "$2" > "$TMP/out" 2> "$TMP/err"
	is "$?" 1 "$3"
	grep -q -- "$4" "$TMP/err"
	ok $? "$3: the error ($(head -1 "$TMP/err"))"
}
