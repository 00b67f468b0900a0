#!/bin/sh
# Mail to the bot through armbot run, a real Postfix on loopback and the
# maildir it delivers into (tests/e2e/pipeline-lib.sh):
# (a) opt-in by mail: a maintainer of arch/arm/mach-omap2/ (an M: entry of
#     the distro tree's MAINTAINERS) asks for a tree, gets the token mail,
#     replies with the token, and the tree is active with its record;
#     forged and bad requests (not a maintainer, a wrong, replayed or
#     expired token, an unknown key) get a refusal and change nothing;
# (b) `armbot subscribe` via Mailman 2 and Mailman 3: the request reaches
#     the list's -request / -join address, the test plays the list with the
#     confirmation mails of tests/unit/data/mailman/, the bot answers them
#     the way they ask and `armbot lists` says subscribed; forged (another
#     sender, no pending request) and replayed confirmations are ignored.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/pipeline-lib.sh"

FIXTURES=$TOP/tests/unit/data/mailman
TONY='Tony Lindgren <tony@atomide.com>'

# pipeline_setup, with the maintainers' domain delivered too
PDATA=$TMP/data
mkdir -p "$PDATA"
for d in trees worktrees kbuild boot; do
	mkdir -p "$DATA/$d"
	ln -s "$DATA/$d" "$PDATA/$d"
done
smtp_server_setup --domain lists.test --domain example.org \
	--domain atomide.com || skip_all "cannot set up postfix"
smtp_server_start || skip_all "cannot start postfix"
trap 'pipeline_cleanup; smtp_server_cleanup; rm -rf "$TMP"' EXIT
LISTDIR=$SMTP_MAILDIR
cat > "$TMP/armbot.conf" <<CONF
[bot]
name = armbot
address = $BOT
[sources]
urls = maildir:$LISTDIR
[smtp]
url = smtp://127.0.0.1:$SMTP_PORT
starttls = never
[defaults]
checks = apply
CONF

# mail FROM SUBJECT ID [IN-REPLY-TO] < BODY: sent to the bot through Postfix
N=0
mail() {
	N=$((N + 1))
	{
		echo "From: $1"
		echo "To: $BOT"
		echo "Subject: $2"
		echo "Message-ID: <$3>"
		[ -z "${4:-}" ] || echo "In-Reply-To: <$4>"
		echo "Date: Thu, 03 Dec 2026 10:00:$(printf %02d $N) +0000"
		echo
		cat
	} > "$TMP/mail.$N"
	"$ARMBOT" sendmail --smtp "smtp://127.0.0.1:$SMTP_PORT" \
		--starttls=never < "$TMP/mail.$N" > /dev/null
}

# The bot's answers to Message-ID $1 (files), as delivered to $2
answers() {
	grep -l -i -x -F "In-Reply-To: <$1>" "$LISTDIR"/new/* "$LISTDIR"/cur/* \
		2>/dev/null | xargs -r grep -l -i "^From: armbot <$BOT>" |
		xargs -r grep -l -i -x "Delivered-To: $2"
}

# wait_answer ID ADDRESS: the file of the first answer, within 20 s
wait_answer() {
	_i=0
	while [ -z "$(answers "$1" "$2")" ]; do
		[ $_i -lt 40 ] || return 1
		sleep 0.5
		_i=$((_i + 1))
	done
	answers "$1" "$2" | head -1
}

# wait_log PATTERN: until the daemon logged it (20 s)
wait_log() {
	_i=0
	while ! grep -q -- "$1" "$TMP/run.log"; do
		[ $_i -lt 40 ] || return 1
		sleep 0.5
		_i=$((_i + 1))
	done
}

token_of() {
	sed -n 's/^confirm: \([0-9a-f]*\)$/\1/p' "$1" | head -1
}

trees() {
	"$ARMBOT" --data-dir "$PDATA" tree list --config "$TMP/armbot.conf" |
		grep -v '^distro-6.1	distro	'
}

start_bot

# --- (a) opt-in by mail ---------------------------------------------------

mail "$TONY" "armbot opt-in omap" req.1@atomide.com <<'BODY'
url: https://git.kernel.org/pub/scm/linux/kernel/git/tmlind/linux-omap.git
branch: for-next
paths: arch/arm/mach-omap2/ arch/arm/plat-omap/
checks: apply, dirstat, sparse

-- 
Tony
BODY
tokenmail=$(wait_answer req.1@atomide.com tony@atomide.com)
ok $? "the maintainer gets the token mail"
[ -n "$tokenmail" ] || { sed 's/^/# /' "$TMP/run.log"; done_testing; exit; }
grep -qx "To: Tony Lindgren <tony@atomide.com>" "$tokenmail"; ok $? "token mail: To the maintainer"
grep -qx "Subject: Re: armbot opt-in omap" "$tokenmail"; ok $? "token mail: Subject Re: the request"
grep -qx "Auto-Submitted: auto-replied" "$tokenmail"; ok $? "token mail: Auto-Submitted: auto-replied"
grep -q "^Message-ID: <armbot-optin-[0-9a-f]\{32\}@example.org>$" "$tokenmail"
ok $? "token mail: a Message-ID of the bot's"
token=$(token_of "$tokenmail")
is "${#token}" 32 "the token mail carries a token"
is "$(trees | grep -c '^omap')" 0 "nothing changes before the confirmation"

# a wrong token
mail "$TONY" "Re: armbot opt-in omap" conf.bad@atomide.com <<'BODY'
confirm: 0123456789abcdef0123456789abcdef
BODY
f=$(wait_answer conf.bad@atomide.com tony@atomide.com)
grep -q "unknown token: no request is waiting for it" "$f"; ok $? "a wrong token is refused"

# the token from another address
mail "Mallory <mallory@example.org>" "Re: armbot opt-in omap" conf.mallory@example.org <<BODY
confirm: $token
BODY
f=$(wait_answer conf.mallory@example.org mallory@example.org)
grep -q "the token was sent to tony@atomide.com, not to mallory@example.org" "$f"
ok $? "the token from another sender is refused"
is "$(trees | grep -c '^omap')" 0 "still nothing changed"

# the confirmation
mail "$TONY" "Re: armbot opt-in omap" conf.1@atomide.com req.1@atomide.com <<BODY
> confirm: $token
BODY
f=$(wait_answer conf.1@atomide.com tony@atomide.com)
grep -q "^Done: opt-in: url https://git.kernel.org/" "$f"; ok $? "the confirmation applies the opt-in"
trees > "$TMP/trees"
sed 's/^/# /' "$TMP/trees"
grep -q "^omap	opt-in	active	tony@atomide.com$" "$TMP/trees"; ok $? "tree list: omap active, opted in by its maintainer"
grep -q "	tony@atomide.com	opt-in: url https://git.kernel.org/pub/scm/linux/kernel/git/tmlind/linux-omap.git, branches for-next, paths arch/arm/mach-omap2/ arch/arm/plat-omap/, checks apply, dirstat, sparse" "$TMP/trees"
ok $? "tree list: the change is recorded (who, what)"
url=$(sed -n 's/.* web pages at //p' "$TMP/run.log" | tail -1)
curl -s -f "$url/trees" > "$TMP/trees.html"
grep -q "<h2>omap <span class=\"ok\">active</span></h2>" "$TMP/trees.html" &&
	grep -q "<td>tony@atomide.com</td><td>opt-in: url https://git.kernel.org/pub/scm/linux/kernel/git/tmlind/linux-omap.git" "$TMP/trees.html"
ok $? "the web page /trees shows the tree and its record"

# the token replayed
mail "$TONY" "Re: armbot opt-in omap" conf.2@atomide.com <<BODY
confirm: $token
BODY
f=$(wait_answer conf.2@atomide.com tony@atomide.com)
grep -q "the token was already used on " "$f"; ok $? "a replayed token is refused"

# not a maintainer of the paths
mail "Mallory <mallory@example.org>" "armbot opt-in evil" req.evil@example.org <<'BODY'
url: https://example.org/evil.git
paths: arch/arm/mach-omap2/
BODY
f=$(wait_answer req.evil@example.org mallory@example.org)
grep -q "mallory@example.org is not an M: entry of MAINTAINERS for arch/arm/mach-omap2/" "$f"
ok $? "a sender who maintains nothing there is refused"
grep -q "^confirm:" "$f"; is $? 1 "and gets no token"

# an unknown key
mail "$TONY" "armbot set omap" req.key@atomide.com <<'BODY'
colour: blue
BODY
f=$(wait_answer req.key@atomide.com tony@atomide.com)
grep -q "unknown key 'colour'" "$f"; ok $? "an unknown key is refused"

# an expired token: tokens of this run live 1 s
stop_bot
start_bot ARMBOT_OPTIN_TOKEN_LIFETIME=1
mail "$TONY" "armbot opt-out omap" req.out@atomide.com < /dev/null
f=$(wait_answer req.out@atomide.com tony@atomide.com)
token2=$(token_of "$f")
is "${#token2}" 32 "an opt-out gets its token"
sleep 2
mail "$TONY" "Re: armbot opt-out omap" conf.out@atomide.com <<BODY
confirm: $token2
BODY
f=$(wait_answer conf.out@atomide.com tony@atomide.com)
grep -q "the token expired on " "$f"; ok $? "an expired token is refused"
trees > "$TMP/trees2"
grep -q "^omap	opt-in	active	tony@atomide.com$" "$TMP/trees2"; ok $? "the tree is still active"
is "$(grep -c '	tony@atomide.com	' "$TMP/trees2")" 1 "one change recorded, the opt-in"
stop_bot
start_bot

# --- (b) subscribing to lists -----------------------------------------------

# confirmation FIXTURE LIST HOST TOKEN NAME [SED]: the list's mail, with
# Message-ID <NAME@HOST>, into the maildir the bot reads
confirmation() {
	sed -e "s/@LIST@/$2/g" -e "s/@HOST@/$3/g" -e "s/@BOT@/$BOT/g" \
		-e "s/@TOKEN@/$4/g" -e "s/^Message-ID: .*/Message-ID: <$5@$3>/" \
		-e "${6:-s/^//}" "$FIXTURES/$1" \
		> "$LISTDIR/tmp/$5"
	mv "$LISTDIR/tmp/$5" "$LISTDIR/new/$5"
}

# delivered ADDRESS [SUBJECT]: files delivered to ADDRESS (with SUBJECT)
delivered() {
	grep -l -i -x "Delivered-To: $1" "$LISTDIR"/new/* "$LISTDIR"/cur/* \
		2>/dev/null | xargs -r grep -l -x "Subject: ${2:-.*}"
}

wait_delivered() {
	_i=0
	while [ -z "$(delivered "$@")" ]; do
		[ $_i -lt 40 ] || return 1
		sleep 0.5
		_i=$((_i + 1))
	done
}

lists() {
	"$ARMBOT" --data-dir "$PDATA" lists --config "$TMP/armbot.conf" | tee -a "$TMP/lists.log"
}

"$ARMBOT" --data-dir "$PDATA" subscribe arm@lists.test --via mailman2 \
	--config "$TMP/armbot.conf" > "$TMP/out"
ok $? "armbot subscribe arm@lists.test --via mailman2"
wait_delivered arm-request@lists.test subscribe
ok $? "mailman2: 'subscribe' reaches arm-request@lists.test"
f=$(delivered arm-request@lists.test subscribe | head -1)
grep -qx "From: armbot <$BOT>" "$f"; ok $? "mailman2: from the bot's address"
lists | grep -q "^arm@lists.test	mailman2	subscribe-pending since "
ok $? "armbot lists: pending"

T2=5f0c6d0b8e2a4c1f9a7d3e5b2c4a6e8f0d1b3c5a
FORGED=9999999999999999999999999999999999999999
# forged: the right subject, another sender
confirmation mailman2-verify.eml arm lists.test $FORGED forged.1 \
	's/^From: arm-request@lists.test$/From: mallory@example.org/'
wait_log "ignored: a list confirmation from mallory@example.org, which is no list's request or confirm address"
ok $? "a confirmation from another address is ignored and logged"
confirmation mailman2-verify.eml arm lists.test $FORGED forged.3 \
	's/^From: arm-request@lists.test$/From: arm-request@evil.test/'
wait_log "ignored: a confirmation from arm-request@evil.test, but armbot asked arm@evil.test for nothing"
ok $? "a confirmation from the same list name on another host is ignored"
# forged: a list armbot asked nothing of
confirmation mailman2-verify.eml other lists.test $FORGED forged.2
wait_log "ignored: a confirmation from other-request@lists.test, but armbot asked other@lists.test for nothing"
ok $? "a confirmation without a pending request is ignored and logged"
lists | grep -q "^arm@lists.test	mailman2	subscribe-pending "
ok $? "still pending"

confirmation mailman2-verify.eml arm lists.test $T2 mm2.1
wait_delivered arm-request@lists.test "Re: confirm $T2"
ok $? "mailman2: the bot replies to arm-request@lists.test keeping 'confirm TOKEN'"
f=$(delivered arm-request@lists.test "Re: confirm $T2" | head -1)
grep -qx "In-Reply-To: <mm2.1@lists.test>" "$f"
ok $? "mailman2: in reply to the confirmation"
lists > "$TMP/lists"; sed "s/^/# /" "$TMP/lists"
grep -q "^arm@lists.test	mailman2	subscribed since .*	maildir:$LISTDIR$" "$TMP/lists"
ok $? "armbot lists: arm@lists.test subscribed, through the maildir source"

# the same confirmation again (a new Message-ID): a replay
confirmation mailman2-verify.eml arm lists.test $T2 mm2.2
wait_log "ignored: a confirmation from arm-request@lists.test (token $T2), but no request to arm@lists.test is pending"
ok $? "a replayed confirmation is ignored and logged"
for t in $FORGED; do
	is "$(delivered "arm-request@lists.test" "Re: confirm $t" | wc -l)" 0 \
		"nothing answers the forged token"
done

T3=0a1b2c3d4e5f60718293a4b5c6d7e8f901234567
"$ARMBOT" --data-dir "$PDATA" subscribe arm3@lists.test --via mailman3 \
	--config "$TMP/armbot.conf" > /dev/null
wait_delivered arm3-join@lists.test
ok $? "mailman3: the request reaches arm3-join@lists.test"
confirmation mailman3-subscribe.eml arm3 lists.test $T3 mm3.1
wait_delivered "arm3-confirm+$T3@lists.test"
ok $? "mailman3: the bot answers to arm3-confirm+TOKEN@lists.test"
f=$(delivered "arm3-confirm+$T3@lists.test" | head -1)
grep -qx "To: arm3-confirm+$T3@lists.test" "$f"; ok $? "mailman3: To the confirm address (Mailman reads the token there)"
lists | grep -q "^arm3@lists.test	mailman3	subscribed since "
ok $? "armbot lists: arm3@lists.test subscribed"

"$ARMBOT" --data-dir "$PDATA" unsubscribe arm3@lists.test \
	--config "$TMP/armbot.conf" > /dev/null
wait_delivered arm3-leave@lists.test
ok $? "mailman3: unsubscribe reaches arm3-leave@lists.test"
T4=1111222233334444555566667777888899990000
confirmation mailman3-subscribe.eml arm3 lists.test $T4 mm3.2 \
	's/needed to join the/needed to leave the/'
wait_delivered "arm3-confirm+$T4@lists.test"
ok $? "mailman3: the leave confirmation is answered"
lists | grep -q "^arm3@lists.test	mailman3	unsubscribed since "
ok $? "armbot lists: arm3@lists.test unsubscribed"

stop_bot

# killed between storing a request and handling it: the next start
# handles it
start_bot ARMBOT_CRASHPOINT=ingest:1
mail "$TONY" "armbot set omap reply problems" req.crash@atomide.com < /dev/null
wait_bot_exit 60
grep -q "crashpoint ingest:1: killing armbot" "$TMP/run.log"
ok $? "killed right after the request was stored"
is "$(answers req.crash@atomide.com tony@atomide.com | wc -l)" 0 "no answer yet"
start_bot
wait_answer req.crash@atomide.com tony@atomide.com > /dev/null
ok $? "after the restart the request is answered"
stop_bot
start_bot
sleep 4
stop_bot
is "$(answers req.crash@atomide.com tony@atomide.com | wc -l)" 1 "once"
grep "control:" "$TMP/run.log" | sed 's/^/# /'
done_testing
