#!/bin/sh
# `armbot dirstat` on the real patches of a week of the linux-arm-kernel
# list (June 2020) that still apply to Debian's linux-source-6.1: each one
# applied with git am is a range compared byte for byte with `git diff
# --dirstat` in every mode, and its verdict read from the mail must be the
# one from the commit.
. "$(dirname "$0")/../lib/tap.sh"

need_corpus corpora/lakml
TARBALL=${ARMBOT_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -r "$TARBALL" ] || skip_all "no kernel tarball $TARBALL"
git_test_env '2023-01-01 00:00'
. "$(dirname "$0")/../lib/dirstat-compare.sh"

BASE=$(dirstat_lakml_base)
[ -n "$BASE" ] || skip_all "cannot prepare the base tree"

work="$TMP/work"
git clone -q --shared "$BASE" "$work"
base=$(git -C "$work" rev-parse HEAD)
applied=0
while read -r mail; do
	git -C "$work" reset -q --hard "$base"
	if ! git -C "$work" am -q "$mail" > /dev/null 2>&1; then
		git -C "$work" am --abort > /dev/null 2>&1
		continue
	fi
	applied=$((applied + 1))
	subject=$(git -C "$work" log -1 --format=%s | cut -c1-60)
	dirstat_compare "$work" HEAD~1 HEAD "$subject"
	"$ARMBOT" dirstat -C "$work" --verdict HEAD~1 HEAD > "$TMP/commit.verdict"
	"$ARMBOT" dirstat --verdict --mbox "$mail" > "$TMP/mail.verdict"
	is_file "$TMP/commit.verdict" "$TMP/mail.verdict" \
		"$subject: the verdict from the mail is the one from the commit"
done < "$TMP/patches"
# the week is from 2020: most of its patches no longer apply to 6.1, but
# the ones that do must be there
[ "$applied" -ge 15 ]
ok $? "$applied of $(wc -l < "$TMP/patches") patches of the week apply to 6.1"
diag "$dirstat_total comparisons with git diff --dirstat"
done_testing
