#!/bin/sh
# armbot config check: malformed configurations and tree files, each with
# its exact FILE:LINE: error; a valid one (the shipped example) passes.
. "$(dirname "$0")/../lib/tap.sh"

unset ARMBOT_CONFIG
export XDG_CONFIG_HOME="$TMP/xdg"
export ARMBOT_DATA_DIR="$TMP/data"
cd "$TMP" || exit 1

# conf TEXT: write armbot.conf (and an empty trees.d)
conf() {
	rm -rf trees.d
	mkdir trees.d
	printf '%s\n' "$1" > armbot.conf
}

# tree NAME TEXT: write trees.d/NAME.conf
tree() { printf '%s\n' "$2" > "trees.d/$1.conf"; }

# expect DESCRIPTION EXPECTED: config check fails with exactly EXPECTED
# (paths under $TMP printed relative)
expect() {
	"$ARMBOT" config check --config armbot.conf > out 2> err
	status=$?
	sed "s|$TMP/||g" out > got
	printf '%s\n' "$2" > want
	if [ "$status" -eq 1 ] && cmp -s want got; then
		ok 0 "$1"
	else
		ok 1 "$1 (exit $status)"
		diff want got | sed 's/^/# /'
	fi
}

conf "[bot]
name = armbot
this is not a key"
expect "a line that is not key = value" \
"armbot.conf:3: 'this is not a key' is not 'key = value', a [group] or a # comment"

conf "# comment
name = x"
expect "a key before any group" "armbot.conf:2: key outside any [group]"

conf "[bot]
nmae = armbot"
expect "an unknown key" "armbot.conf:2: unknown key 'nmae' in [bot]"

conf "[bot]
name = a

[smpt]
url = smtp://x"
expect "an unknown group" "armbot.conf:4: unknown group [smpt]"

conf "[bot]
name = a
name = b"
expect "a key given twice" "armbot.conf:3: 'name' given twice in [bot] (first at line 2)"

conf "[web]
port = 1
[web]
port = 2"
expect "a group given twice" "armbot.conf:3: group [web] given twice (first at line 1)
armbot.conf:4: 'port' given twice in [web] (first at line 2)"

conf "[bot
name = a"
expect "a bad group line" "armbot.conf:1: bad group line '[bot'"

conf "[bot]
dry-run = maybe"
expect "a bad boolean" "armbot.conf:2: 'dry-run' must be true or false, not 'maybe'"

conf "[web]
listen = 127.0.0.1
port = 70000"
expect "a port out of range" "armbot.conf:3: 'port' must be a number from 0 to 65535, not '70000'"

conf "[web]
listen = example.org"
expect "a listen address that is not an IP address" "armbot.conf:2: 'example.org' is not an IP address"

conf "[web]
base-url = ftp://example.org/"
expect "a base-url that is not http(s)" "armbot.conf:2: 'ftp://example.org/' is not an http:// or https:// URL"

conf "[web]
archive-url = https://lore.kernel.org/all/"
expect "an archive-url without %s" "armbot.conf:2: 'https://lore.kernel.org/all/' is not an http:// or https:// URL with one %s for the Message-ID"

conf "[web]
archive-url = linux-arm-kernel@lists.infradead.org https://lore.kernel.org/%s/%s/"
expect "an archive-url with two %s" "armbot.conf:2: 'https://lore.kernel.org/%s/%s/' is not an http:// or https:// URL with one %s for the Message-ID"

conf "[web]
archive-url = not-an-address https://lore.kernel.org/all/%s/"
expect "an archive-url for something that is not a list address" "armbot.conf:2: 'not-an-address' is not a list address"

conf "[web]
archive-url = * ftp://lore.kernel.org/all/%s/"
expect "an archive-url that is not http(s)" "armbot.conf:2: 'ftp://lore.kernel.org/all/%s/' is not an http:// or https:// URL with one %s for the Message-ID"

conf "[web]
archive-url = linux-arm-kernel@lists.infradead.org https://lore.kernel.org/linux-arm-kernel/%s/;* https://lore.kernel.org/all/%s/"
"$ARMBOT" config check --config armbot.conf > out 2>&1
is "$?" 0 "a per-list archive-url and a '*' one are valid"

conf "[defaults]
checks = apply;lint;sparse"
expect "an unknown check" "armbot.conf:2: unknown check 'lint' (apply, dirstat, sparse, boot, rpm, boards, all, none)"

conf "[defaults]
reply = sometimes"
expect "an unknown reply policy" "armbot.conf:2: reply must be always, problems or never, not 'sometimes'"

conf "[defaults]
reply-to = everyone"
expect "an unknown reply-to" "armbot.conf:2: reply-to must be list or author, not 'everyone'"

conf "[defaults]
list-cap = -1"
expect "a negative list cap" "armbot.conf:2: 'list-cap' must be a number from 0 to 100000, not '-1'"

conf "[defaults]
update-interval = 1w"
expect "an update interval with an unknown unit" "armbot.conf:2: update-interval must be a duration such as 30m, 6h, 1d or 3600 (seconds), or never, not '1w'"

conf "[defaults]
update-interval = -5m"
expect "a negative update interval" "armbot.conf:2: update-interval must be a duration such as 30m, 6h, 1d or 3600 (seconds), or never, not '-5m'"

conf "[bot]
address = armbot at example dot org"
expect "a bad bot address" "armbot.conf:2: 'armbot at example dot org' is not a mail address (local@domain)"

conf "[sources]
urls = maildir:inbox;ftp://lore.kernel.org/x;imaps://"
expect "bad sources: a missing maildir, an unknown scheme, no host" \
"armbot.conf:2: source 'maildir:inbox': no such maildir 'inbox'
armbot.conf:2: source 'ftp://lore.kernel.org/x': not maildir:PATH or an imap(s)://, nntp(s):// or http(s):// URL
armbot.conf:2: source 'imaps://': no host"

# the TLS options of IMAP and NNTP sources; the password is not shown
conf "[sources]
urls = nntps://nntp.lore.kernel.org/g;nntp://u:pw@news.example.org/g?tls=off;nntps://news.example.org/g?tls=no;imap://a:secret@mail.example.org/INBOX?ca-file=/nonexistent/ca.pem;nntp://news.example.org/g?tls=no&ca-file=$TMP/armbot.conf"
expect "source TLS options: only tls=no, not with implicit TLS, an existing ca-file" \
"armbot.conf:2: source 'nntp://u@news.example.org/g?tls=off': tls=off: only tls=no (no STARTTLS, a password in clear) is known
armbot.conf:2: source 'nntps://news.example.org/g?tls=no': tls=no, but nntps:// is TLS from the first byte
armbot.conf:2: source 'imap://a@mail.example.org/INBOX?ca-file=/nonexistent/ca.pem': no such ca-file '/nonexistent/ca.pem'"

conf "[smtp]
url = http://smtp.example.org
starttls = always"
expect "an smtp url of another scheme, a bad starttls" \
"armbot.conf:2: 'http://smtp.example.org' is not an smtp:// or smtps:// URL
armbot.conf:3: starttls must be opportunistic, required or never, not 'always'"

conf "[smtp]
url = smtps://smtp.example.org
auth-file = no-such-file"
expect "a missing auth file" "armbot.conf:3: no such file 'no-such-file'"

conf "[smtp]
from = bounces@example.org"
expect "smtp keys without a url" "armbot.conf:2: 'from' without an smtp url"

conf "[bot]
trees-dir = no-such-dir"
expect "a missing trees dir" "armbot.conf:2: no such directory 'no-such-dir'"

"$ARMBOT" config check --config no-such.conf > out 2> err
is "$?" 1 "a --config file that does not exist fails"
is "$(cat out)" "no-such.conf: no such file" "and says so"

# tree files
conf "[bot]
name = armbot"

tree omap "[tree]
url = https://git.kernel.org/omap.git
colour = blue"
expect "an unknown key in a tree file" "trees.d/omap.conf:3: unknown key 'colour' in [tree]"

conf "[bot]"
tree omap "[tree]
branches = for-next"
expect "a tree without url" "trees.d/omap.conf:1: [tree] has no url"

conf "[bot]"
tree lab "[tree]
url = https://e.org/lab.git
boot-runner = lava
lava-url = https://lava.example.org/"
expect "boot-runner = lava without a token file" "trees.d/lab.conf:3: boot-runner = lava needs lava-url and lava-token-file"

conf "[bot]"
tree lab "[tree]
url = https://e.org/lab.git
lava-fallback = later"
expect "a bad lava-fallback" "trees.d/lab.conf:3: lava-fallback must be local or none, not 'later'"

conf "[bot]"
tree omap "[tree]
url = https://git.kernel.org/omap.git
[paths]
F = arch/arm/mach-omap2/
N = omap("
"$ARMBOT" config check --config armbot.conf > out 2> err
is "$?" 1 "a bad N: regex fails"
# the rest of the message is PCRE's, whose words change with its version
grep -q "^$TMP/trees.d/omap.conf:5: N: bad pattern 'omap(': .*at char 5" out
ok $? "a bad N: regex gives the line and the pattern"

conf "[bot]"
tree omap "[tree]
url = https://git.kernel.org/omap.git
[paths]
F = /arch/arm/mach-omap2/"
expect "an absolute F: path" "trees.d/omap.conf:4: F: pattern '/arch/arm/mach-omap2/' is absolute: paths are from the top of the tree"

conf "[bot]"
tree omap "[tree]
url = https://git.kernel.org/omap.git
[paths]
F = arch/arm/../../etc/"
expect "an F: path with .." "trees.d/omap.conf:4: F: pattern 'arch/arm/../../etc/' has '..'"

conf "[bot]"
tree omap "[tree]
url = https://git.kernel.org/omap.git
[paths]
X = arch/arm/mach-omap2/board-*.c"
expect "X: without F:" "trees.d/omap.conf:4: X: excludes from nothing: no F: or N:"

conf "[bot]"
tree omap "[tree]
url = https://git.kernel.org/omap.git
branches = for-next;bad..name"
expect "a bad branch name" "trees.d/omap.conf:3: 'bad..name' is not a branch name"

conf "[bot]"
tree omap "[tree]
url = https://git.kernel.org/omap.git
lists = linux-omap at vger
maintainers = Tony <tony@atomide.com>;nobody"
expect "bad list and maintainer addresses" \
"trees.d/omap.conf:3: 'linux-omap at vger' is not a mail address
trees.d/omap.conf:4: 'nobody' is not a mail address"

conf "[bot]"
tree omap "[tree]
url = no-such-repository"
expect "a url naming a missing local repository" "trees.d/omap.conf:2: no such repository 'trees.d/no-such-repository'"

conf "[bot]"
tree distro-6.1 "[tree]
url = https://example.org/linux.git"
expect "a url for the distro tree" "trees.d/distro-6.1.conf:2: the distro tree distro-6.1 comes from the linux-source-6.1 package, not a url"

conf "[bot]"
tree omap "[tree]
url = https://git.kernel.org/omap.git"
tree OMAP "[tree]
url = https://git.kernel.org/omap.git"
expect "tree names that differ only in case" "trees.d/omap.conf: tree name 'omap' is already used by trees.d/OMAP.conf"

conf "[bot]"
tree "bad name" "[tree]
url = https://git.kernel.org/omap.git"
expect "a file name that is not a tree name" "trees.d/bad name.conf: 'bad name' is not a tree name ([A-Za-z0-9._-], not starting with '.')"

conf "[bot]"
tree omap "[tree]
url = https://git.kernel.org/omap.git
checks = apply;boot;fuzz
reply = loud
rfc = perhaps"
expect "bad policy keys in a tree file, all listed" \
"trees.d/omap.conf:3: unknown check 'fuzz' (apply, dirstat, sparse, boot, rpm, boards, all, none)
trees.d/omap.conf:4: reply must be always, problems or never, not 'loud'
trees.d/omap.conf:5: 'rfc' must be true or false, not 'perhaps'"

conf "[bot]"
tree next "[tree]
url = https://git.kernel.org/next.git
update-interval = 1h30
branches = master"
tree soc "[tree]
url = https://git.kernel.org/soc.git
update-interval = 2s"
tree mainline "[tree]
url = https://git.kernel.org/torvalds.git
update-interval = never"
expect "a tree file's update interval without its last unit (2s and never are fine)" \
"trees.d/next.conf:3: update-interval must be a duration such as 30m, 6h, 1d or 3600 (seconds), or never, not '1h30'"

conf "[bot]
nmae = x"
tree omap "[tree]
url = https://git.kernel.org/omap.git
sparse-configs = ../../etc/passwd"
expect "errors of the config and of a tree file together" \
"armbot.conf:2: unknown key 'nmae' in [bot]
trees.d/omap.conf:3: '../../etc/passwd' is not a defconfig name"

# [kcidb] and [list ADDRESS]: a list address; with patchwork-url, an
# http(s) url and a token file; unknown keys are named
conf "[kcidb]
export = maybe
[list arm@lists.example.org]
patchwork-url = ftp://patchwork.example.org
patchwork-token-file = no-such-token
tokn = x
weekly = sometimes
[list not-a-list]
weekly = true
[list other@lists.example.org]
patchwork-token-file = armbot.conf
[list ARM@lists.example.org]"
expect "[kcidb] and [list ADDRESS] are checked" \
"armbot.conf:6: unknown key 'tokn' in [list arm@lists.example.org]
armbot.conf:7: 'weekly' must be true or false, not 'sometimes'
armbot.conf:4: 'ftp://patchwork.example.org' is not an http:// or https:// URL
armbot.conf:5: no such file 'no-such-token'
armbot.conf:8: [list not-a-list]: 'not-a-list' is not a mail address (local@domain)
armbot.conf:10: [list other@lists.example.org] has no patchwork-url
armbot.conf:12: [list ARM@lists.example.org]: list arm@lists.example.org is configured twice
armbot.conf:2: 'export' must be true or false, not 'maybe'"

# valid: the shipped example with the example tree file
cp "$TOP/config/armbot.conf.example" armbot.conf
rm -rf trees.d && mkdir trees.d
cp "$TOP/config/trees.d.example/omap.conf" trees.d/
"$ARMBOT" config check --config armbot.conf > out 2> err
is "$?" 0 "the example configuration is valid"
is "$(cat out)" "armbot.conf: ok, 1 tree: omap" "and check says so"

# no file at all: the embedded defaults
"$ARMBOT" config check > out 2> err
is "$?" 0 "no configuration file is valid"
is "$(cat out)" "(no file, defaults): ok, 0 trees" "and check says so"

# $ARMBOT_CONFIG, then $XDG_CONFIG_HOME/armbot/armbot.conf
mkdir -p "$XDG_CONFIG_HOME/armbot"
printf '[bot]\nnmae = x\n' > "$XDG_CONFIG_HOME/armbot/armbot.conf"
"$ARMBOT" config check > out 2> err
is "$(sed "s|$TMP/||" out)" "xdg/armbot/armbot.conf:2: unknown key 'nmae' in [bot]" "\$XDG_CONFIG_HOME/armbot/armbot.conf is read"
ARMBOT_CONFIG="$TMP/armbot.conf" "$ARMBOT" config check > out 2> err
is "$?" 0 "\$ARMBOT_CONFIG comes before it"
done_testing
