#!/bin/sh
# git's own expectations for git mailinfo (t/t5100), as listed in
# ../shared/corpora/git-mailinfo/mailinfo-cases.tsv: every case must give
# the expected msg, patch and info byte for byte.
. "$(dirname "$0")/../lib/tap.sh"

need_corpus corpora/git-mailinfo/mailinfo-cases.tsv
C="$SHARED/corpora/git-mailinfo"
command -v git >/dev/null || skip_all "git not installed (git mailsplit splits the samples)"
export HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
cd "$TMP" || exit 1

# the expected file: a name in the corpus, or an absolute path
expected() { case $1 in /*) echo "$1" ;; *) echo "$C/$1" ;; esac; }

# check NAME MAIL OPTIONS...: msg, patch and info against the expected files
# named in the tsv (the "-" ones are not checked)
check() {
	name=$1 mail=$2 emsg=$3 epatch=$4 einfo=$5; shift 5
	rm -f msg patch info
	"$ARMBOT" mailinfo "$@" msg patch < "$mail" > info 2> err
	ok $? "$name: exits 0"
	[ "$emsg" = - ] || is_file "$(expected "$emsg")" msg "$name: msg"
	[ "$epatch" = - ] || is_file "$(expected "$epatch")" patch "$name: patch"
	[ "$einfo" = - ] || is_file "$(expected "$einfo")" info "$name: info"
}

# the sample.mbox and rfc2047 rows, read from the tsv itself
mkdir sample rfc2047
git mailsplit -osample "$C/sample.mbox" > /dev/null
git mailsplit -orfc2047 "$C/rfc2047-samples.mbox" > /dev/null
n=0
while IFS='	' read -r case input command emsg epatch einfo notes; do
	case $command in
	"git mailinfo -u"*"<rfc2047/"*) mail=rfc2047/${command##*<rfc2047/} ;;
	"git mailinfo -u"*"<"[0-9]*) mail=sample/${command##*<} ;;
	*) continue ;;
	esac
	opts=${command#git mailinfo }
	opts=${opts%% msg patch*}
	if [ "$case" = 0012--message-id ]; then
		# t5100's files come from a later git, which spells the
		# added trailer "Message-ID:"; git 2.39.5, the one matched,
		# writes "Message-Id:"
		sed 's/^Message-ID: /Message-Id: /' "$C/$emsg" > msg-2.39
		emsg=$TMP/msg-2.39
	fi
	# shellcheck disable=SC2086
	check "$case" "$mail" "$emsg" "$epatch" "$einfo" $opts
	n=$((n + 1))
done < "$C/mailinfo-cases.tsv"
is "$n" 34 "all 34 sample and rfc2047 rows of the tsv were run"

# respect NULs: the mail is its own split, the patch keeps its 4 lines
"$ARMBOT" mailinfo msg patch < "$C/nul-plain" > info
ok $? "nul-plain: exits 0"
is "$(wc -l < patch)" 4 "nul-plain: the patch keeps its 4 lines, NULs and all"

# NULs out of a base64 body
mkdir nul mboxrd qcr
git mailsplit -d5 -onul "$C/nul-b64.in" > /dev/null
check nul-b64 nul/00001 - nul-b64.expect -

check info-from "$C/info-from.in" - - info-from.expect
check embed-from "$C/embed-from.in" - - embed-from.expect
check quoted-from "$C/quoted-from.in" quoted-from.expect - -

git mailsplit --mboxrd -omboxrd "$C/sample.mboxrd" > /dev/null
check "mboxrd 1" mboxrd/0001 0001mboxrd - -
check "mboxrd 2" mboxrd/0002 0002mboxrd - -

"$ARMBOT" mailinfo /dev/null /dev/null < "$C/quoted-string.in" > info
is_file "$C/quoted-string.expect" info "quoted-string: RFC 5322 quoted-pair in the name"
"$ARMBOT" mailinfo /dev/null /dev/null < "$C/comment.in" > info
is_file "$C/comment.expect" info "comment: nested comments in From"

# quoted CR: %% in the expected files is a CR, %% at the end of a line is
# nothing (t5100's sed)
cr=$(printf '\r')
sed -e 's/%%$//' -e "s/%%/$cr/g" "$C/quoted-cr-msg" > qcr-msg
sed -e 's/%%$//' -e "s/%%/$cr/g" "$C/quoted-cr-patch" > qcr-patch
git mailsplit -oqcr "$C/quoted-cr.mbox" > /dev/null
for action in "" --quoted-cr=warn --quoted-cr=nowarn --quoted-cr=strip; do
	"$ARMBOT" mailinfo -u $action msg patch < qcr/0001 > info 2> err
	ok $? "quoted-cr 0001 ${action:-(default)}: exits 0"
	is_file qcr-msg msg "quoted-cr 0001 ${action:-(default)}: msg"
	is_file qcr-patch patch "quoted-cr 0001 ${action:-(default)}: patch"
	is_file "$C/quoted-cr-info" info "quoted-cr 0001 ${action:-(default)}: info"
	is "$(cat err)" "" "quoted-cr 0001 ${action:-(default)}: no warning"
done
for action in "" --quoted-cr=warn; do
	"$ARMBOT" mailinfo -u $action msg patch < qcr/0002 > info 2> err
	is "$(cat err)" "warning: quoted CRLF detected" \
		"quoted-cr 0002 ${action:-(default)}: warns"
	is_file "$C/quoted-cr-info" info "quoted-cr 0002 ${action:-(default)}: info"
done
"$ARMBOT" mailinfo -u --quoted-cr=nowarn msg patch < qcr/0002 > info 2> err
is "$(cat err)" "" "quoted-cr 0002 nowarn: no warning"
grep -q "$cr\$" msg; ok $? "quoted-cr 0002 nowarn: the CRs stay"
"$ARMBOT" mailinfo -u --quoted-cr=strip msg patch < qcr/0002 > info 2> err
is "$(cat err)" "" "quoted-cr 0002 strip: no warning"
is_file qcr-msg msg "quoted-cr 0002 strip: msg"
is_file qcr-patch patch "quoted-cr 0002 strip: patch"
"$ARMBOT" mailinfo --quoted-cr=bogus msg patch < qcr/0002 > /dev/null 2> err
is "$?" 129 "--quoted-cr=bogus is a usage error"
grep -q "bad action 'bogus' for '--quoted-cr'" err; ok $? "and names the action"
done_testing
