#!/bin/sh
# Series sent with `git format-patch --attach`: the patch is the second
# MIME part, which git am finds (git mailinfo), so armbot counts it as a
# patch too; also when a mail client re-encodes the attachment in base64,
# as mailers do with attached files.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/series.sh"

series_repo 600
for i in 1 2 3; do seq -f "line %g of f$i" 1 5 > "f$i"; git add "f$i"; git commit -qm "add f$i"; done

# the attachments (parts with Content-Disposition: attachment) of every
# mail re-encoded in base64 (RFC 2045 6.8; the line break before a
# boundary belongs to the boundary, RFC 2046 5.1.1)
base64_attachments() {
	perl -MMIME::Base64 -e '
		local $/; my $m = <STDIN>;
		$m =~ s{(Content-Type: text/x-patch[^\n]*\n)Content-Transfer-Encoding: 8bit\n(Content-Disposition: attachment[^\n]*\n)\n(.*?)\n(?=--------------)}
		       {"$1Content-Transfer-Encoding: base64\n$2\n" . encode_base64($3)}gse;
		print $m;'
}

git format-patch -q --stdout --attach --thread --cover-letter --base=HEAD~3 HEAD~3 > "$TMP/attach.mbox"
git format-patch -q --stdout --attach --thread --numbered --base=HEAD~3 HEAD~3 |
	base64_attachments > "$TMP/base64.mbox"
is "$(grep -c '^Content-Disposition: attachment' "$TMP/attach.mbox")" 3 \
	"git puts each patch in an attachment"
is "$(grep -c '^Content-Transfer-Encoding: base64' "$TMP/base64.mbox"):$(grep -c '^diff --git' "$TMP/base64.mbox")" \
	"3:0" "the re-encoded series has no diff in clear"

for kind in attach base64; do
	d=$TMP/$kind
	"$ARMBOT" --data-dir "$d" ingest "$TMP/$kind.mbox" > "$d.out" 2>&1
	ok $? "$kind: ingested" || sed 's/^/# /' "$d.out"
	"$ARMBOT" --data-dir "$d" series --json > "$d.json"
	is "$(count "$d.json") $(field "$d.json" 0 state) $(field "$d.json" 0 patches)" \
		"1 ready 3" "$kind: one complete series of 3"
	is "$(field "$d.json" 0 subject)" \
		"$([ $kind = attach ] && echo '*** SUBJECT HERE ***' || echo 'add f1')" \
		"$kind: its subject"
	is "$(field "$d.json" 0 base_commit)" "$(git rev-parse HEAD~3)" \
		"$kind: base-commit read"
done

# the assembled series applies as the commits were
d=$TMP/base64
id=$(perl -MJSON::PP -e 'print decode_json(join "", <STDIN>)->[0]{id}' < "$d.json")
"$ARMBOT" --data-dir "$d" series --mbox "$id" > "$TMP/out.mbox" 2> "$TMP/err"
ok $? "the series is written as an mbox" || sed 's/^/# /' "$TMP/err"
tip=$(git rev-parse HEAD^{tree})
git checkout -q --detach HEAD~3
git -c user.name=t -c user.email=t@t am -q "$TMP/out.mbox" > "$TMP/err" 2>&1
ok $? "git am applies it" || sed 's/^/# /' "$TMP/err"
is "$(git rev-parse HEAD^{tree})" "$tip" \
	"to the tree of the commits"
done_testing
