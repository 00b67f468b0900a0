# Helpers for the series conformance tests that post series made with
# real git (series-attach.t, series-shapes.t, series-resend.t); source
# after tap.sh.

# series_repo SECONDS-AGO: git commits as "A U Thor <author@example.com>"
# dated SECONDS-AGO, in $TMP/repo, made with a first commit "base" and
# left as the current directory
series_repo() {
	export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.com
	export GIT_COMMITTER_NAME="A U Thor" GIT_COMMITTER_EMAIL=author@example.com
	export GIT_AUTHOR_DATE="@$(($(date +%s) - $1)) +0000"
	export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
	git init -q "$TMP/repo" && cd "$TMP/repo" || exit 1
	echo base > README; git add README; git commit -qm base
}

# field JSONFILE N KEY: KEY of the Nth series (0-based) of `armbot series
# --json`: an array as its length, a boolean as true or false, null as
# "null"
field() {
	perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>);
		my $v = $j->[$ARGV[0]]{$ARGV[1]};
		print ref $v eq "ARRAY" ? scalar @$v : JSON::PP::is_bool($v) ? ($v ? "true" : "false") : $v // "null"' "$2" "$3" < "$1"
}

# count JSONFILE: how many series
count() { perl -MJSON::PP -e 'print scalar @{decode_json(join "", <STDIN>)}' < "$1"; }
